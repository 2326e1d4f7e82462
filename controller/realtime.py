"""A simulated game slowed to a speed people can watch (``demo --web --speed F``).

The simulated table runs on a fake clock that jumps ahead as fast as the computer allows, which is right for
tests and wrong for a person watching the page: after each loop turn this waits, in real time, until the
real clock has caught up with ``speed`` simulated seconds per real second. Nothing of the game changes: the
same seed plays the same game at any speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from controller.clock import Clock

BEHIND_S = 1.0  # further behind than this (a slow machine), the pace starts again from now instead of racing


class RealTime:
    """An after-tick callback of the loop (``EventLoop.after_tick``) that keeps ``clock`` at ``speed``."""

    def __init__(self, clock: Clock, speed: float, real: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if speed <= 0:
            raise ValueError(f"the speed must be above 0, got {speed}")
        self.clock = clock
        self.speed = speed
        self.real = real
        self.sleep = sleep
        self._origin: tuple[float, float] | None = None  # (simulated, real) seconds when pacing began

    def __call__(self) -> None:
        simulated, real = self.clock.now(), self.real()
        if self._origin is None:
            self._origin = (simulated, real)
            return
        due = self._origin[1] + (simulated - self._origin[0]) / self.speed
        if due > real:
            self.sleep(due - real)
        elif real - due > BEHIND_S:
            self._origin = (simulated, real)
