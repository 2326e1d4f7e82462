"""A clock that moves only when told to, so tests and demos never sleep and always replay the same."""

from __future__ import annotations


class FakeClock:
    """``now()`` returns simulated seconds; ``sleep`` advances them instantly."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._now += seconds

    def advance(self, seconds: float) -> None:
        self.sleep(seconds)
