"""The one clock of the controller: real monotonic time on the table, a fake clock in tests and demos."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """Wall-clock-independent seconds: a time change (NTP at boot) must not fire or stall timers."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)
