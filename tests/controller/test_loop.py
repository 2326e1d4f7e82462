"""The single-consumer event loop: order, timers, and no stale timer events."""

from __future__ import annotations

from controller.events import Event, Fault, TimerFired
from controller.loop import EventLoop
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
