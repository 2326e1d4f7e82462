"""The single-consumer event loop: sources and timers only enqueue; one handler consumes, in order.

Nothing runs on a thread here, so a flow never sees two events at once and a fake clock makes every run
reproducible to the tick.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from controller.clock import Clock
from controller.events import Event, TimerFired

Source = Callable[[float], Iterable[Event]]
Handler = Callable[[Event], None]


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
        while self._queue:
            event = self._queue.popleft()
            if isinstance(event, TimerFired) and event.generation != self._generation.get(event.name, 0):
                continue  # re-armed or cancelled after it was queued
            if handler is not None:
                handler(event)
        for callback in self._idle:
            callback()

    def run(self, until: Callable[[], bool], max_ticks: int | None = None) -> None:
        """Tick at ``period`` until ``until()`` is true; a late tick resynchronises instead of bursting."""
        next_tick = self.clock.now()
        ticks = 0
        while not until():
            self.tick()
            ticks += 1
            if max_ticks is not None and ticks >= max_ticks:
                return
            next_tick += self.period
            now = self.clock.now()
            if next_tick < now:
                next_tick = now
            self.clock.sleep(next_tick - now)
