"""``mqtt[s]://[USER:PASS@]HOST[:PORT]/CODE``: where the broker is, how to log in, and which game; and a
profile's ``[remote]`` section (``url``, and the ``seats`` this table plays), so the service plays its part of
a game shared with a far table.

Parsed once, when the table starts (or by ``check-config``), so a typo is one clear line on the screen instead
of a link that never comes up. User and password may be percent-encoded (a ``@`` or ``:`` in a password).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

PORTS = {"mqtt": 1883, "mqtts": 8883}
CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,63}")  # goes into MQTT topics: never '/', '+' or '#'


def check_code(code: str) -> str:
    """``code`` if it can name a game (it goes into topic names); ``ValueError`` saying what is allowed."""
    if not CODE.fullmatch(code):
        raise ValueError(f"game code {code!r}: 3 to 64 letters, digits, '-' or '_', starting with a letter or digit")
    return code


class RemoteUrlError(ValueError):
    """The remote URL cannot be used; ``str()`` says what is wrong and shows the expected form."""


@dataclass(frozen=True)
class Remote:
    host: str
    port: int
    code: str
    tls: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)  # never in a log line


FORM = "mqtt[s]://[USER:PASS@]HOST[:PORT]/CODE"


def parse_url(url: str, new_code: Callable[[], str] | None = None) -> Remote:
    """The broker and game in ``url``; ``RemoteUrlError`` naming the first thing wrong. A URL without a code
    starts a new game when ``new_code`` makes one (the first table; the far table joins with its code)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in PORTS:
        raise RemoteUrlError(f"{url!r}: scheme must be mqtt:// or mqtts:// (TLS), as in {FORM}")
    if parts.query or parts.fragment:
        raise RemoteUrlError(f"{url!r}: no '?' or '#' part expected, as in {FORM}")
    try:
        port = parts.port
    except ValueError:
        raise RemoteUrlError(f"{url!r}: the port must be a number from 1 to 65535") from None
    host = parts.hostname
    if not host:
        raise RemoteUrlError(f"{url!r}: no broker host, as in {FORM}")
    if parts.password is not None and not parts.username:
        raise RemoteUrlError(f"{url!r}: a password needs a user name")
    code = parts.path.removeprefix("/")
    if not code and new_code is not None:
        code = new_code()
    if not code:
        raise RemoteUrlError(f"{url!r}: no game code after the host, as in {FORM}")
    try:
        check_code(code)
    except ValueError as e:
        raise RemoteUrlError(f"{url!r}: {e}") from None
    return Remote(host=host, port=port or PORTS[parts.scheme], code=code, tls=parts.scheme == "mqtts",
                  user=unquote(parts.username) if parts.username else None,
                  password=unquote(parts.password) if parts.password is not None else None)


KEYS = {"url", "seats"}


@dataclass(frozen=True)
class Shared:
    """A profile's ``[remote]``: the game on the broker, and the seats this table plays (the far table the rest)."""

    url: str = field(repr=False)  # may hold a password: never in a log line
    seats: tuple[str, ...]


def read_remote(table: Mapping[str, Any], bad: Callable[[str, str], None], quote: Callable[[object], str],
                known: tuple[str, ...]) -> Shared | None:
    """The section, or None (none given, or a problem: each goes to ``bad(key, message)``); ``known`` are the
    game's seats (empty when the game is unknown: they are not checked then)."""
    if not table:
        return None
    url, seats = table.get("url"), table.get("seats")
    ok = True
    if not isinstance(url, str):
        bad("remote.url", f"must be a string, {FORM}, got {quote(url)}")
        ok = False
    else:
        try:
            parse_url(url)
        except RemoteUrlError as e:
            bad("remote.url", str(e))
            ok = False
    if not isinstance(seats, list) or not seats or not all(isinstance(seat, str) for seat in seats):
        bad("remote.seats", f"must be a list of this table's seats, got {quote(seats)}")
        return None
    unknown = [seat for seat in seats if known and seat not in known]
    if unknown:
        bad("remote.seats", f"{unknown[0]!r} is no seat of the game ({', '.join(known)})")
        ok = False
    elif known and set(known) <= set(seats):
        bad("remote.seats", "every seat is this table's: leave at least one to the far table")
        ok = False
    return Shared(str(url), tuple(seats)) if ok else None
