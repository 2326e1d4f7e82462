"""The single-consumer event loop: order, timers, and no stale timer events."""

from __future__ import annotations

import contextlib
import os
import signal

import pytest

from controller.events import Event, Fault, TimerFired
from controller.loop import EventLoop
from controller.stop import ASKED, StopRequested, raise_stop
from sim_hardware.clock import FakeClock


def test_timers_fire_once_in_order_and_can_be_cancelled() -> None:
    clock = FakeClock()
    loop = EventLoop(clock, 0.005)
    seen: list[str] = []
    loop.set_handler(lambda e: seen.append(e.name) if isinstance(e, TimerFired) else None)
    loop.set_timer("b", 0.02)
    loop.set_timer("a", 0.01)
    loop.set_timer("c", 0.01)
    loop.cancel_timer("c")
    for _ in range(10):
        clock.advance(0.005)
        loop.tick()
    assert seen == ["a", "b"]


def test_a_timer_rearmed_in_the_same_tick_does_not_fire_stale() -> None:
    clock = FakeClock()
    loop = EventLoop(clock, 0.005)
    seen: list[Event] = []

    def handler(event: Event) -> None:
        seen.append(event)
        if isinstance(event, Fault):  # an event before the due timer in the same tick re-arms it
            loop.set_timer("settle", 0.3)

    loop.set_handler(handler)
    loop.set_timer("settle", 0.01)
    clock.advance(0.02)
    loop.add_source(lambda now: [Fault("cell changed", now)] if not seen else [])
    loop.tick()
    assert [type(e).__name__ for e in seen] == ["Fault"]  # the queued settle was voided
    clock.advance(0.31)
    loop.tick()
    assert [type(e).__name__ for e in seen] == ["Fault", "TimerFired"]


def test_a_stop_swallowed_where_the_signal_landed_is_raised_at_the_next_turn() -> None:
    """``transitions`` catches every exception of its finalize callbacks, a stop signal's too: the signal is
    remembered, and the loop's next turn stops the table anyway (the test suite found a demo that played on
    after Ctrl-C landed there)."""
    clock = FakeClock()
    loop = EventLoop(clock, 0.005)
    turns: list[int] = []

    def swallowing(now: float) -> list[Event]:
        turns.append(len(turns))
        if len(turns) == 2:
            with contextlib.suppress(BaseException):  # what transitions does around its finalize callbacks
                os.kill(os.getpid(), signal.SIGTERM)
        return []

    loop.add_source(swallowing)
    old = signal.signal(signal.SIGTERM, raise_stop)
    ASKED.clear()
    try:
        with pytest.raises(StopRequested, match="SIGTERM"):
            loop.run(until=lambda: len(turns) >= 10)
    finally:
        signal.signal(signal.SIGTERM, old)
        ASKED.clear()
    assert len(turns) == 2  # stopped at the turn after the one that swallowed it
