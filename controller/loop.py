"""The single-consumer event loop: sources and timers only enqueue; one handler consumes, in order.

Nothing runs on a thread here, so a flow never sees two events at once and a fake clock makes every run
reproducible to the tick.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol, runtime_checkable

from controller.clock import Clock
from controller.events import Event, TimerFired
from controller.stop import stop_asked

Source = Callable[[float], Iterable[Event]]
Handler = Callable[[Event], None]
Pace = Callable[[float, float], float]  # (now, full-rate period) -> seconds until the next turn


@runtime_checkable
class Wakes(Protocol):
    """A clock that knows when someone will act next (the simulated table's people)."""

    def next_wake(self, after: float) -> float | None: ...


class EventLoop:
    def __init__(self, clock: Clock, period: float) -> None:
        self.clock = clock
        self.period = period
        self._sources: list[Source] = []
        self._queue: deque[Event] = deque()
        self._timers: dict[str, float] = {}
        self._generation: dict[str, int] = {}
        self._handler: Handler | None = None
        self._idle: list[Callable[[], None]] = []
        self._paused_at: float | None = None
        self.ticks = 0
        self.pace: Pace | None = None  # set to slow down while nothing happens (``Inputs.pace``)
        self._wakes = clock if isinstance(clock, Wakes) else None
        self._eventful = False  # the last turn handled an event: whoever watches may answer at once
        self._look_again = False  # the last turn was for a timer or a person: see what came of it

    def add_source(self, source: Source) -> None:
        self._sources.append(source)

    def set_handler(self, handler: Handler) -> None:
        self._handler = handler

    def after_tick(self, callback: Callable[[], None]) -> None:
        """Run after each tick's events are consumed (the display refresh, the watchdog)."""
        self._idle.append(callback)

    def post(self, event: Event) -> None:
        self._queue.append(event)

    def set_timer(self, name: str, delay: float) -> None:
        """(Re)arm the one timer of this name; it fires once as ``TimerFired(name)``. Re-arming or
        cancelling also voids a firing already queued in this tick, so the handler never sees a stale one."""
        start = self.clock.now() if self._paused_at is None else self._paused_at
        self._timers[name] = start + delay
        self._generation[name] = self._generation.get(name, 0) + 1

    def pause_timers(self, paused: bool) -> None:
        """While paused no timer fires and each one's time left stands still: the game waits while the board
        cannot be read (the serial link to the board's MCU lost or resynchronising), instead of judging a
        board it cannot see when a settle or grace period runs out."""
        now = self.clock.now()
        if paused and self._paused_at is None:
            self._paused_at = now
        elif not paused and self._paused_at is not None:
            shift = now - self._paused_at
            self._timers = {name: due + shift for name, due in self._timers.items()}
            self._paused_at = None

    def cancel_timer(self, name: str) -> None:
        self._timers.pop(name, None)
        self._generation[name] = self._generation.get(name, 0) + 1

    def tick(self) -> None:
        stop_asked()  # a stop signalled but swallowed where it landed is raised here, at the next turn
        now = self.clock.now()
        self.ticks += 1
        for source in self._sources:
            self._queue.extend(source(now))
        if self._timers and self._paused_at is None:
            for name, due in sorted(self._timers.items(), key=lambda kv: kv[1]):
                if due <= now:
                    del self._timers[name]
                    self._queue.append(TimerFired(name, now, self._generation.get(name, 0)))
        handler = self._handler
        self._eventful = bool(self._queue)
        while self._queue:
            event = self._queue.popleft()
            if isinstance(event, TimerFired) and event.generation != self._generation.get(event.name, 0):
                continue  # re-armed or cancelled after it was queued
            if handler is not None:
                handler(event)
        for callback in self._idle:
            callback()

    def run(self, until: Callable[[], bool], max_ticks: int | None = None) -> None:
        """Tick until ``until()`` is true, every ``period`` or as ``pace`` says; a late tick resynchronises
        instead of bursting."""
        next_tick = self.clock.now()
        ticks = 0
        while not until():
            self.tick()
            ticks += 1
            if max_ticks is not None and ticks >= max_ticks:
                return
            next_tick = self._next_turn(next_tick)
            now = self.clock.now()
            if next_tick < now:
                next_tick = now
            self.clock.sleep(next_tick - now)

    def _next_turn(self, last: float) -> float:
        """When to turn next: one period on, or as many as ``pace`` allows, but never past the first
        period boundary at or after a timer falling due or someone acting (then the turn after that is
        at full rate again, to see what they did). Turns stay on the grid of whole periods, so a slow
        stretch changes nothing about when anything is seen."""
        period = self.period
        turn = last + period
        if self.pace is None or self._eventful or self._look_again:
            self._look_again = False
            return turn
        turns = round(self.pace(self.clock.now(), period) / period)
        if turns <= 1:
            return turn
        soon = min(self._timers.values(), default=float("inf"))
        wake = self._wakes.next_wake(self.clock.now()) if self._wakes is not None else None
        if wake is not None and wake < soon:
            soon = wake
        for _ in range(turns - 1):
            if turn >= soon:
                self._look_again = True
                break
            turn += period
        return turn
