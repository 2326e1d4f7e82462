"""Journal lines as signed messages for a far table, and back (pure: no network, no clock).

Two tables share one game through a broker that anyone with an account on it may publish to, and subscribe to
(``#``). So the code itself never travels: every message carries the game's id (``game_id``: derived from the
signing key, so guessing the code from it costs a key derivation per guess), the seq and the journal line, and
an HMAC-SHA256 over all of them under a key derived from the game code. A client of the same broker who does not
know the code can neither inject a move nor change one, and a line of another game (another id, another key) is
never taken for one of this game. The topics are named by the id too (``controller.remote.link``). A message
decodes to a ``Signed`` or raises a ``RefusedMessage`` subclass naming why; nothing refused is ever applied.

The signature does not stop a line from being sent twice (a replay): that is the sync core's job, which takes a
seq once and refuses another content for it (``controller.remote.sync``).

Only move lines travel (``{"seq", "player", "move", "state"}``, with ``"entered"`` where the players keyed in
their own roll): a note (``{"note", "after"}``) is what the players told their own table, such as a sensor to
ignore, and stays there.

Wire format, one JSON object per MQTT message::

    {"v": 2, "kind": "line", "game": "<id>", "seq": 12, "from": "north", "line": {...}, "sig": "<hex>"}
    {"v": 2, "kind": "want", "game": "<id>", "seq": 12, "from": "south", "sig": "<hex>"}
    {"v": 2, "kind": "seal", "game": "<id>", "seq": 12, "from": "north", "player": "rome", "seal": "<hex>", ...}
    {"v": 2, "kind": "deck", "game": "<id>", "seq": 12, "from": "north", "data": {"part": "share", ...}, ...}

A ``seal`` stands for a secret choice not sent yet (``controller.remote.seals``); the line that later opens it
carries its ``"salt"`` beside ``"line"``. A ``deck`` message carries the cards two tables shuffle face down, and
what opens them (``controller.remote.dealer``), in ``"data"``.

``want`` asks the far table to send its lines again from ``seq`` on (after a reconnect, or a gap). ``from`` names
the sending table so that a table can skip its own messages, which the broker echoes back.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from hw_config.remote import check_code

VERSION = 2  # 2: the game's id in place of its code
# fixed, public salt: it only makes the derived key specific to this use (a key for anything else derived from
# the same code differs); the secret is the game code itself
_SALT = b"boardkeeper/remote/lines/v1"
# a game code is short enough to type on a table's buttons; stretching makes guessing it from one captured
# message slow (derived once per game: lru_cache)
_ITERATIONS = 100_000
TABLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_LINE_KEYS = {"seq", "player", "move", "state", "entered"}

Kind = Literal["line", "want", "stop", "seal", "deck"]
_HEX = re.compile(r"[0-9a-f]{16,128}")


class RefusedMessage(ValueError):
    """A message that must not be applied; ``str()`` is one clear line saying why (for the log and the screen)."""


class MalformedMessage(RefusedMessage):
    """Not a message of ours: not JSON, a field missing or of the wrong type, another format version."""


class WrongGame(RefusedMessage):
    """A well-formed message of another game (another code): a table must never mix two games."""


class BadSignature(RefusedMessage):
    """The signature does not match: forged by someone without the game code, or changed on the way."""


@dataclass(frozen=True)
class Signed:
    """A message whose signature checked out: ``line`` is ``None`` for a ``want`` or a ``stop``."""

    kind: Kind
    code: str
    seq: int
    sender: str
    line: dict[str, Any] | None = None
    why: str = ""  # a stop's reason
    salt: str | None = None  # a line's: what opens the seal sent for it
    player: str = ""  # a seal's seat
    seal: str = ""  # a seal's digest
    data: dict[str, Any] | None = None  # a deck message's


def check_table(table: str) -> str:
    """``table`` if it can name a table in a topic; ``ValueError`` otherwise."""
    if not TABLE.fullmatch(table):
        raise ValueError(f"table name {table!r}: up to 64 letters, digits, '-' or '_'")
    return table


@lru_cache(maxsize=8)
def key_for(code: str) -> bytes:
    """The signing key of a game: PBKDF2-HMAC-SHA256 of its code (both tables derive the same one)."""
    return hashlib.pbkdf2_hmac("sha256", check_code(code).encode(), _SALT, _ITERATIONS)


def game_id(code: str) -> str:
    """The game's public name on the broker (topics, messages): a MAC of a fixed text under the signing key."""
    return hmac.new(key_for(code), b"game id", hashlib.sha256).hexdigest()[:20]


def encode_line(code: str, sender: str, line: Mapping[str, Any], salt: str | None = None) -> bytes:
    """A journal move line as a signed message (``salt``: it opens the seal sent for it); ``ValueError`` for a
    note or a line that is not a move line (a table must not send what the far table would refuse)."""
    body = _check_line(dict(line), ValueError)
    if salt is not None and not _HEX.fullmatch(salt):
        raise ValueError(f"salt must be hex, got {salt!r}")
    return _sign(code, {"v": VERSION, "kind": "line", "game": game_id(code), "seq": body["seq"],
                        "from": check_table(sender),
                  "line": body, **({"salt": salt} if salt is not None else {})})


def encode_seal(code: str, sender: str, seq: int, player: str, seal: str) -> bytes:
    """A signed seal of ``player``'s secret choice that will be line ``seq``."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ValueError(f"seal: seq must be a positive integer, got {seq!r}")
    if not _HEX.fullmatch(seal):
        raise ValueError(f"seal must be hex, got {seal!r}")
    return _sign(code, {"v": VERSION, "kind": "seal", "game": game_id(code), "seq": seq, "from": check_table(sender),
                  "player": check_table(player), "seal": seal})


def encode_deck(code: str, sender: str, seq: int, data: Mapping[str, Any]) -> bytes:
    """A signed deck message (``data``: its part and values), sent at journal line ``seq``."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ValueError(f"deck: seq must be a positive integer, got {seq!r}")
    return _sign(code, {"v": VERSION, "kind": "deck", "game": game_id(code), "seq": seq, "from": check_table(sender),
                        "data": dict(data)})


def encode_want(code: str, sender: str, seq: int) -> bytes:
    """A signed request for the far table's lines from ``seq`` on."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ValueError(f"want: seq must be a positive integer, got {seq!r}")
    return _sign(code, {"v": VERSION, "kind": "want", "game": game_id(code), "seq": seq, "from": check_table(sender)})


def encode_stop(code: str, sender: str, seq: int, why: str) -> bytes:
    """A signed word that play stopped at this table (``why``: the one line it shows), so the far table stops
    too instead of waiting for a line that will never come."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise ValueError(f"stop: seq must be a positive integer, got {seq!r}")
    return _sign(code, {"v": VERSION, "kind": "stop", "game": game_id(code), "seq": seq, "from": check_table(sender),
                        "why": why})


def decode(code: str, payload: bytes) -> Signed:
    """The message in ``payload`` if it is a well-formed, correctly signed message of game ``code``; otherwise the
    ``RefusedMessage`` subclass that says why. The game is checked before the signature so that a line of another
    game is named as such rather than as a forgery."""
    try:
        obj = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as e:
        raise MalformedMessage(f"not JSON ({e})") from None
    if not isinstance(obj, dict):
        raise MalformedMessage(f"expected a JSON object, got {type(obj).__name__}")
    if obj.get("v") != VERSION:
        raise MalformedMessage(f"format version {obj.get('v')!r}, this table reads {VERSION}")
    kind = obj.get("kind")
    fields = {"v", "kind", "game", "seq", "from", "sig"} | {"line": {"line"}, "stop": {"why"}, "deck": {"data"},
                                                             "seal": {"player", "seal"}}.get(str(kind), set())
    if kind == "line" and "salt" in obj:
        fields.add("salt")
    if kind not in ("line", "want", "stop", "seal", "deck"):
        raise MalformedMessage(f"unknown kind {kind!r}")
    if set(obj) != fields:
        raise MalformedMessage(f"{kind} fields {sorted(obj)}, expected {sorted(fields)}")
    if not isinstance(obj["game"], str) or not isinstance(obj["from"], str) or not isinstance(obj["sig"], str):
        raise MalformedMessage("game, from and sig must be strings")
    if obj["game"] != game_id(code):
        raise WrongGame(f"a message of another game ({obj['game'][:20]!r}), not of this game's code")
    sig = obj.pop("sig")
    if not hmac.compare_digest(sig, _mac(code, obj)):
        raise BadSignature(f"{kind} seq {obj.get('seq')!r} from {obj['from']!r}: bad signature (forged or changed)")
    seq = obj["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise MalformedMessage(f"seq must be a positive integer, got {seq!r}")
    if kind == "want":
        return Signed("want", code, seq, obj["from"])
    if kind == "stop":
        if not isinstance(obj["why"], str):
            raise MalformedMessage("stop: why must be a string")
        return Signed("stop", code, seq, obj["from"], why=obj["why"][:200])
    if kind == "deck":
        if not isinstance(obj["data"], dict):
            raise MalformedMessage("deck: data must be an object")
        return Signed("deck", code, seq, obj["from"], data=obj["data"])
    if kind == "seal":
        if not isinstance(obj["player"], str) or not isinstance(obj["seal"], str) or not _HEX.fullmatch(obj["seal"]):
            raise MalformedMessage("seal: player is a string and seal a hex digest")
        return Signed("seal", code, seq, obj["from"], player=obj["player"], seal=obj["seal"])
    line = _check_line(obj["line"], MalformedMessage)
    if line["seq"] != seq:
        raise MalformedMessage(f"message seq {seq} carries line seq {line['seq']}")
    salt = obj.get("salt")
    if salt is not None and (not isinstance(salt, str) or not _HEX.fullmatch(salt)):
        raise MalformedMessage("line: salt must be hex")
    return Signed("line", code, seq, obj["from"], line, salt=salt)


def _check_line(line: Any, error: type[ValueError]) -> dict[str, Any]:
    if not isinstance(line, dict):
        raise error(f"a journal line must be an object, got {type(line).__name__}")
    if "note" in line and "seq" not in line:
        raise error("a note stays at its table; only move lines are sent")
    missing = sorted({"seq", "player", "move", "state"} - set(line))
    extra = sorted(set(line) - _LINE_KEYS)
    if missing or extra:
        raise error(f"journal line: missing {missing}, unexpected {extra}")
    seq = line["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise error(f"journal line: seq must be a positive integer, got {seq!r}")
    if not isinstance(line["player"], str) or not isinstance(line["move"], str):
        raise error("journal line: player and move must be strings")
    if not isinstance(line["state"], dict):
        raise error("journal line: state must be an object")
    if "entered" in line and line["entered"] is not True:
        raise error("journal line: entered is true or absent")
    return line


def canonical(obj: Any) -> bytes:
    """The one byte form of a JSON value that both tables sign and compare: sorted keys, no spaces."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def _mac(code: str, body: Mapping[str, Any]) -> str:
    return hmac.new(key_for(code), canonical(body), hashlib.sha256).hexdigest()


def _sign(code: str, body: dict[str, Any]) -> bytes:
    return canonical({**body, "sig": _mac(code, body)})
