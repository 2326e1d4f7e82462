"""A clock that moves only when told to, so tests and demos never sleep and always replay the same."""

from __future__ import annotations

import heapq


class FakeClock:
    """``now()`` returns simulated seconds; ``sleep`` advances them instantly.

    Simulated people say when they will next act (``wake_at``), as real people simply would: a loop that
    sleeps long while nothing happens asks ``next_wake`` and takes its turn then, so it sees them at the
    same moments as a loop that polls all the time, and a game replays the same at any loop rate.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._wakes: list[float] = []

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._now += seconds

    def advance(self, seconds: float) -> None:
        self.sleep(seconds)

    def wake_at(self, moment: float) -> None:
        heapq.heappush(self._wakes, moment)

    def next_wake(self, after: float) -> float | None:
        """The first moment someone will act that is later than ``after``."""
        wakes = self._wakes
        while wakes and wakes[0] <= after:
            heapq.heappop(wakes)
        return wakes[0] if wakes else None
