"""``mqtt[s]://[USER:PASS@]HOST[:PORT]/CODE``: where the broker is, how to log in, and which game.

Parsed once, when the table starts, so a typo is one clear line on the screen instead of a link that never comes
up. User and password may be percent-encoded (a ``@`` or ``:`` in a password).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from controller.remote.lines import check_code

PORTS = {"mqtt": 1883, "mqtts": 8883}


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


def parse_url(url: str) -> Remote:
    """The broker and game in ``url``; ``RemoteUrlError`` naming the first thing wrong."""
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
    if not code:
        raise RemoteUrlError(f"{url!r}: no game code after the host, as in {FORM}")
    try:
        check_code(code)
    except ValueError as e:
        raise RemoteUrlError(f"{url!r}: {e}") from None
    return Remote(host=host, port=port or PORTS[parts.scheme], code=code, tls=parts.scheme == "mqtts",
                  user=unquote(parts.username) if parts.username else None,
                  password=unquote(parts.password) if parts.password is not None else None)
