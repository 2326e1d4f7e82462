"""What the link shows on the OLED: connected, waiting for the far table, far table offline and for how long.

Kept apart from the MQTT client (pure, a clock passed in) so the screen's words are tested without a broker. The
far table's presence comes from its retained ``online`` message and from its last will, ``offline``, which the
broker publishes when the far table's connection drops without a goodbye (power cut, network gone).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

ONLINE = "online"
OFFLINE = "offline"
OVER = "over"  # the table's game has ended; it stays connected a while for the far table (``Link.close``)


@dataclass(frozen=True)
class LinkStatus:
    connected: bool  # this table to the broker
    since: float  # clock time of the last change of what is shown
    far_online: tuple[str, ...]  # far tables now online
    far_offline: tuple[str, ...]  # far tables that were seen and went

    def text(self, now: float) -> str:
        """One OLED line."""
        for_how_long = _duration(now - self.since)
        if not self.connected:
            return f"broker unreachable for {for_how_long}"
        if self.far_offline:
            return f"far table offline for {for_how_long}"
        if not self.far_online:
            return f"waiting for the far table ({for_how_long})"
        return "connected"


def _duration(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s} s" if s < 60 else f"{s // 60} min" if s < 3600 else f"{s // 3600} h {s % 3600 // 60} min"


class Presence:
    """Thread-safe: the MQTT network thread reports, the table's loop reads ``status``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._connected = False
        self._far: dict[str, bool] = {}
        self._since = clock()

    def connected(self, up: bool) -> None:
        with self._lock:
            if up != self._connected:
                self._connected = up
                self._since = self._clock()

    def far(self, table: str, state: str) -> None:
        """The far table ``table`` said ``online`` or (its last will) ``offline``; anything else is ignored."""
        if state not in (ONLINE, OFFLINE):
            return
        with self._lock:
            if self._far.get(table) != (state == ONLINE):
                self._far[table] = state == ONLINE
                self._since = self._clock()

    def status(self) -> LinkStatus:
        with self._lock:
            return LinkStatus(self._connected, self._since,
                              tuple(sorted(t for t, up in self._far.items() if up)),
                              tuple(sorted(t for t, up in self._far.items() if not up)))
