"""Remote play's pure parts: the signed codec, the sync core, the URL and the link's words (no broker)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from controller.remote.lines import (
    BadSignature,
    MalformedMessage,
    WrongGame,
    canonical,
    decode,
    encode_line,
    encode_stop,
    encode_want,
    game_id,
)
from controller.remote.presence import OFFLINE, ONLINE, Presence
from controller.remote.sync import ForkError, StateMismatch, Sync
from hw_config.remote import RemoteUrlError, parse_url

CODE = "K7Q2-test"


def line(seq: int, move: str | None = None) -> dict[str, Any]:
    return {"seq": seq, "player": "yellow", "move": move or f"m{seq}", "state": {"n": seq}}


# --- codec ---

def test_a_line_round_trips_with_its_code_seq_and_sender() -> None:
    entered = {**line(3), "entered": True}
    msg = decode(CODE, encode_line(CODE, "north", entered))
    assert (msg.kind, msg.code, msg.seq, msg.sender, msg.line) == ("line", CODE, 3, "north", entered)
    want = decode(CODE, encode_want(CODE, "south", 7))
    assert (want.kind, want.seq, want.sender, want.line) == ("want", 7, "south", None)


def test_a_changed_move_state_seq_or_sender_breaks_the_signature() -> None:
    good = json.loads(encode_line(CODE, "north", line(5)))
    for change in (lambda m: m["line"].update(move="S0-6"), lambda m: m["line"]["state"].update(n=6),
                   lambda m: m.update(seq=6) or m["line"].update(seq=6), lambda m: m.update({"from": "south"})):
        tampered = json.loads(json.dumps(good))
        change(tampered)
        with pytest.raises(BadSignature, match="bad signature"):
            decode(CODE, canonical(tampered))


def test_a_line_signed_without_the_code_is_refused_as_forged() -> None:
    # a client of the broker who knows the format but not the code signs with a key of its own guess
    forged = json.loads(encode_line("guess-code", "north", line(1)))
    forged["game"] = game_id(CODE)
    with pytest.raises(BadSignature):
        decode(CODE, canonical(forged))
    unsigned = {k: v for k, v in json.loads(encode_line(CODE, "north", line(1))).items() if k != "sig"}
    with pytest.raises(MalformedMessage, match="fields"):
        decode(CODE, canonical(unsigned))


def test_a_line_of_another_game_is_named_as_such() -> None:
    with pytest.raises(WrongGame, match="another game"):
        decode(CODE, encode_line("other-game", "north", line(1)))


def test_the_code_never_travels() -> None:
    """The code is the key to every signature: a message names the game by an id derived from the key, and the
    topics too, so a client of the broker subscribed to everything learns neither the code nor the key."""
    from controller.remote.link import topics

    for payload in (encode_line(CODE, "north", line(1)), encode_want(CODE, "south", 2),
                    encode_stop(CODE, "north", 3, "a fork")):
        assert CODE.encode() not in payload and json.loads(payload)["game"] == game_id(CODE)
    assert not [t for t in topics(CODE).values() if CODE in t] and game_id(CODE) != game_id("K7Q2-tesT")


@pytest.mark.parametrize("payload, reason", [
    (b"\xff\xfe", "not JSON"), (b"[1]", "object"), (b'{"v": 1}', "version"),
    (b'{"v": 2, "kind": "gossip"}', "unknown kind"),
])
def test_malformed_messages_say_why(payload: bytes, reason: str) -> None:
    with pytest.raises(MalformedMessage, match=reason):
        decode(CODE, payload)


def test_a_signed_message_whose_line_disagrees_with_its_seq_is_refused() -> None:
    # signed by someone with the code (a buggy table): still never applied
    from controller.remote import lines
    body = {"v": 2, "kind": "line", "game": game_id(CODE), "seq": 4, "from": "north", "line": line(5)}
    with pytest.raises(MalformedMessage, match="message seq 4 carries line seq 5"):
        decode(CODE, lines._sign(CODE, body))


def test_notes_and_non_lines_are_not_sent() -> None:
    with pytest.raises(ValueError, match="note stays"):
        encode_line(CODE, "north", {"note": "ignore sensor 12", "after": 3})
    with pytest.raises(ValueError, match="missing"):
        encode_line(CODE, "north", {"seq": 1, "move": "x"})
    with pytest.raises(ValueError, match="game code"):
        encode_line("a/b", "north", line(1))


# --- sync ---

class Far:
    """A table applying far lines: a list for a journal and a state that is the last seq applied."""

    def __init__(self, wrong_at: int | None = None) -> None:
        self.applied: list[dict[str, Any]] = []
        self.wrong_at = wrong_at

    def apply(self, ln: dict[str, Any]) -> None:
        self.applied.append(ln)

    def same(self, state: Any) -> bool:
        mine = len(self.applied) + (1 if len(self.applied) == self.wrong_at else 0)
        return bool(state == {"n": mine})


def test_duplicated_and_shuffled_lines_apply_once_in_order() -> None:
    rng = random.Random(7)
    far = Far()
    sync = Sync(far.apply, far.same)
    deliveries = [line(s) for s in range(1, 41)] * 3
    rng.shuffle(deliveries)
    for ln in deliveries:
        sync.offer(dict(ln))
    assert [ln["seq"] for ln in far.applied] == list(range(1, 41))
    assert sync.next_seq == 41 and sync.missing() == [] and sync.waiting == 0


def test_a_gap_holds_back_later_lines_and_names_the_missing_seqs() -> None:
    far = Far()
    sync = Sync(far.apply, far.same)
    assert sync.offer(line(1)) == [line(1)]
    for s in (3, 5, 6):
        assert sync.offer(line(s)) == []
    assert sync.missing() == [2, 4] and sync.next_seq == 2 and sync.waiting == 3
    assert [ln["seq"] for ln in sync.offer(line(2))] == [2, 3]
    assert [ln["seq"] for ln in sync.offer(line(4))] == [4, 5, 6]
    assert sync.missing() == []


def test_own_lines_share_the_seq_space_and_unblock_far_ones() -> None:
    far = Far()
    sync = Sync(far.apply, lambda state: True, applied=[line(1)])
    assert sync.offer(line(3)) == []  # the far table's reply to our seq 2, which we are journaling
    assert sync.local(line(2)) == [line(3)]
    assert sync.offer(line(2)) == []  # our own line coming back (from the far table's history): a duplicate
    with pytest.raises(ValueError, match="seq 4 is due"):
        sync.local(line(6))


@pytest.mark.parametrize("late", ["applied", "pending", "local"])
def test_another_content_for_a_known_seq_stops_with_one_line(late: str) -> None:
    sync = Sync(Far().apply, lambda state: True)
    sync.offer(line(1))
    if late == "applied":
        with pytest.raises(ForkError, match=r"seq 1 \('forged'\) differs from the line already applied"):
            sync.offer(line(1, "forged"))
    elif late == "pending":
        sync.offer(line(3))
        with pytest.raises(ForkError, match="seq 3: two different lines"):
            sync.offer(line(3, "forged"))
    else:
        sync.offer(line(2, "far"))
        sync.offer(line(3, "far"))  # applied: seq 3 is taken by the far table
        with pytest.raises(ValueError, match="seq 4 is due"):
            sync.local(line(3, "mine"))
        sync.local(line(4, "mine"))
        with pytest.raises(ForkError, match=r"seq 4 \('far'\) differs"):
            sync.offer(line(4, "far"))  # both tables moved at seq 4
    with pytest.raises(ForkError):  # stopped means stopped: nothing more is applied
        sync.offer(line(9))


def test_a_state_that_differs_after_a_far_line_stops_play() -> None:
    far = Far(wrong_at=3)
    sync = Sync(far.apply, far.same)
    for s in (1, 2, 4, 5):
        sync.offer(line(s))
    with pytest.raises(StateMismatch, match=r"seq 3 \(yellow: m3\): this table's state differs"):
        sync.offer(line(3))
    assert [ln["seq"] for ln in far.applied] == [1, 2, 3]  # 4 and 5 were never applied after the mismatch
    with pytest.raises(StateMismatch):
        sync.offer(line(6))


# --- URL ---

def test_urls_parse_with_defaults_tls_and_escaped_credentials() -> None:
    r = parse_url("mqtt://example.org/K7Q2")
    assert (r.host, r.port, r.code, r.tls, r.user, r.password) == ("example.org", 1883, "K7Q2", False, None, None)
    r = parse_url("mqtts://anna:p%40ss%3Aw@broker.home:8884/game-1")
    assert (r.host, r.port, r.code, r.tls, r.user, r.password) == ("broker.home", 8884, "game-1", True, "anna",
                                                                    "p@ss:w")
    assert "p@ss" not in repr(r)


@pytest.mark.parametrize("url, reason", [
    ("http://host/K7Q2", "scheme"), ("mqtt:///K7Q2", "no broker host"), ("mqtt://host:99999/K7Q2", "port"),
    ("mqtt://host:x/K7Q2", "port"), ("mqtt://host", "no game code"), ("mqtt://host/a/b", "game code"),
    ("mqtt://:pw@host/K7Q2", "password needs a user"), ("mqtt://host/K7Q2?x=1", "no '\\?'"),
])
def test_bad_urls_say_what_is_wrong(url: str, reason: str) -> None:
    with pytest.raises(RemoteUrlError, match=reason):
        parse_url(url)


# --- the link's words ---

def test_presence_text_says_waiting_connected_and_offline_for_how_long() -> None:
    now = [100.0]
    p = Presence(lambda: now[0])
    assert p.status().text(now[0] + 5) == "broker unreachable for 5 s"
    p.connected(True)
    assert p.status().text(now[0] + 2) == "waiting for the far table (2 s)"
    p.far("south", ONLINE)
    assert p.status().text(now[0] + 99) == "connected"
    now[0] = 200.0
    p.far("south", OFFLINE)
    assert p.status().far_offline == ("south",)
    assert p.status().text(now[0] + 125) == "far table offline for 2 min"
    p.far("south", "garbage")
    assert p.status().far_offline == ("south",)


def test_a_stop_is_signed_and_says_why() -> None:
    msg = decode(CODE, encode_stop(CODE, "south", 9, "seq 9 (blue: 36-30): this table's state differs"))
    assert (msg.kind, msg.seq, msg.sender, msg.line) == ("stop", 9, "south", None)
    assert msg.why.startswith("seq 9 (blue: 36-30)")
    forged = json.loads(encode_stop(CODE, "south", 9, "nothing wrong"))
    forged["why"] = "stop now"
    with pytest.raises(BadSignature):
        decode(CODE, canonical(forged))
    with pytest.raises(WrongGame):
        decode(CODE, encode_stop("other-game", "south", 9, "x"))
