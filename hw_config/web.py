"""The ``[web]`` section of a profile: whether the table serves its web page, and where.

Off unless a profile says ``enabled = true`` (or ``boardkeeper play --web`` asks for it): the page opens the
table to the local network, which a table owner chooses, never a default. Checked here, apart from the
rest of the profile, so the loader only hands the section over and gets each problem back by key.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

KEYS = {"host", "port", "enabled"}
DEFAULT_HOST = "0.0.0.0"  # every interface: the phones at the table reach it over the local network
DEFAULT_PORT = 8080
PORT_RANGE = (1, 65535)
_HOSTNAME = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}"
                       r"[A-Za-z0-9])?)*$")


@dataclass(frozen=True)
class Web:
    """Where the page is served (``host``: an address of this machine or a name for one) and whether."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    enabled: bool = False


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot be listened on (``None``: it can be tried): an IP address or a host name."""
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    if _HOSTNAME.match(host) is None:
        return f"{host!r} is neither an IP address nor a host name"
    return None


def read_web(table: Mapping[str, Any], bad: Callable[[str, str], None], quote: Callable[[object], str] = repr) -> Web:
    """The section as given, defaults for what it leaves out; each problem goes to ``bad(key, message)``
    (keys as the profile names them: ``web.port``) and its default is kept, so one problem is said once.
    ``quote`` writes a bad value into its message (the loader's own, which cuts a runaway one short)."""
    host = table.get("host", DEFAULT_HOST)
    if not isinstance(host, str) or not host:
        bad("web.host", f"must be a non-empty string (an address or host name), got {quote(host)}")
        host = DEFAULT_HOST
    elif (problem := host_problem(host)) is not None:
        bad("web.host", problem)
        host = DEFAULT_HOST
    port = table.get("port", DEFAULT_PORT)
    lo, hi = PORT_RANGE
    if not isinstance(port, int) or isinstance(port, bool) or not lo <= port <= hi:
        bad("web.port", f"must be a whole number from {lo} to {hi}, got {quote(port)}")
        port = DEFAULT_PORT
    enabled = table.get("enabled", False)
    if not isinstance(enabled, bool):
        bad("web.enabled", f"must be true or false, got {quote(enabled)}")
        enabled = False
    return Web(host, port, enabled)


def parse_address(text: str, default_host: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as ``--web`` takes it (``8080``, ``127.0.0.1:8080``, ``[::1]:8080``) -> (host, port),
    ``default_host`` where none is given; ``ValueError`` saying what is wrong."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host = default_host
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"{text!r}: write an IPv6 address in brackets, as [::1]:8080")
    if not port_text.isdigit():
        raise ValueError(f"{text!r}: expected [HOST:]PORT with PORT a number, such as 127.0.0.1:8080")
    port = int(port_text)
    lo, hi = PORT_RANGE
    if not lo <= port <= hi:
        raise ValueError(f"{text!r}: the port must be from {lo} to {hi}")
    if not host:
        raise ValueError(f"{text!r}: the host is empty (leave out the colon for the default, {default_host})")
    problem = host_problem(host)
    if problem is not None:
        raise ValueError(f"{text!r}: {problem}")
    return host, port
