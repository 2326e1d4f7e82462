"""A monotonic clock for a bot's think budget that moves only when it is read, so a search meets its
deadline without a test waiting on the wall clock, and the readings can be counted."""

from __future__ import annotations

TICK = 1 / 128  # seconds the clock moves at each reading (exact in binary: no rounding at the deadline)


class ReadingClock:
    """Moves ``TICK`` forward each time it is read, and counts the readings."""

    def __init__(self) -> None:
        self.now = 100.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += TICK
        return self.now
