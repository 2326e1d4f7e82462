"""The loop's adaptive rate on the simulated table: full rate while anything moves, a slow idle rate
that still reports a piece within 50 ms, and turns that stay on the full-rate grid."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controller.buttons import ButtonTracker
from controller.events import ButtonEvent, CellChanged, Event, Press, TimerFired
from controller.inputs import CATCH_S, Inputs
from controller.loop import EventLoop
from controller.table import TableIO, build_io, load_backend, profile_for
from sim_hardware.clock import FakeClock

PERIOD = 0.005


class ActingClock(FakeClock):
    """Lets a test act at an exact moment between two loop turns, as a person does."""

    def __init__(self) -> None:
        super().__init__()
        self.plan: list[tuple[float, Callable[[], None]]] = []

    def sleep(self, seconds: float) -> None:
        end = self.now() + seconds
        while self.plan and self.plan[0][0] < end:
            at, act = self.plan.pop(0)
            super().sleep(at - self.now())
            act()
        super().sleep(end - self.now())


def _io() -> tuple[TableIO, list[Event], ActingClock]:
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    clock = hardware.clock = hardware.board.clock = ActingClock()
    io = build_io(profile, hardware)
    seen: list[Event] = []
    io.loop.set_handler(seen.append)
    return io, seen, clock


def _run(io: TableIO, seconds: float) -> int:
    """Run the loop for ``seconds`` of simulated time; returns the turns taken."""
    clock = io.loop.clock
    end = clock.now() + seconds
    before = io.loop.ticks
    io.loop.run(until=lambda: clock.now() >= end)
    return io.loop.ticks - before


def test_an_idle_table_turns_slowly_and_a_moving_one_at_full_rate() -> None:
    io, _, clock = _io()
    assert _run(io, 1.0) == pytest.approx(200, abs=2)  # the first second is at full rate
    assert _run(io, 2.0) == pytest.approx(2 / 0.040, abs=2)
    cell = io.profile.locations["pos:24"]
    for i in range(4):
        clock.plan.append((clock.now() + 0.4 * i + 0.001, lambda: io.hardware.board.place(cell)))
        clock.plan.append((clock.now() + 0.4 * i + 0.2, lambda: io.hardware.board.lift(cell)))
    assert _run(io, 1.6) == pytest.approx(1.6 / PERIOD, abs=10)


@pytest.mark.parametrize("offset", [0.0003 + i * 0.0061 for i in range(12)])
def test_a_piece_put_down_on_an_idle_table_is_reported_within_50_ms(offset: float) -> None:
    io, seen, clock = _io()
    cell = io.profile.locations["pos:24"]
    _run(io, 3.0)
    placed = clock.now() + offset
    clock.plan.append((placed, lambda: io.hardware.board.place(cell)))
    _run(io, 0.2)
    reported = [e.at for e in seen if isinstance(e, CellChanged) and e.cell == cell]
    assert reported and reported[0] - placed <= CATCH_S


def test_a_short_button_press_on_an_idle_table_is_seen_whole() -> None:
    io, seen, clock = _io()
    ok = io.profile.buttons["OK"].pin
    assert ok is not None
    _run(io, 3.0)
    at = clock.now() + 0.017
    board = io.hardware.board
    clock.plan += [(at, lambda: board.press_pin(ok)), (at + 0.08, lambda: board.release_pin(ok))]
    _run(io, 0.5)
    assert [(e.button, e.kind) for e in seen if isinstance(e, ButtonEvent)] == [("OK", Press.PRESS),
                                                                             ("OK", Press.RELEASE)]


def _idle_loop() -> tuple[EventLoop, FakeClock, list[float]]:
    clock = FakeClock()
    loop = EventLoop(clock, PERIOD)
    loop.pace = lambda now, full: 8 * full
    turns: list[float] = []
    loop.add_source(lambda now: turns.append(now) or [])
    return loop, clock, turns


def test_slow_turns_stay_on_the_grid_and_a_timer_fires_when_it_would_at_full_rate() -> None:
    loop, clock, turns = _idle_loop()
    start = clock.now()
    fired: list[float] = []
    loop.set_handler(lambda e: fired.append(e.at) if isinstance(e, TimerFired) else None)
    loop.set_timer("t", 0.1234)
    grid = [start]
    for _ in range(80):
        grid.append(grid[-1] + PERIOD)  # the same sums a full-rate loop makes
    loop.run(until=lambda: clock.now() >= start + 0.35)
    assert set(turns) <= set(grid)
    due = start + 0.1234
    assert fired == [min(t for t in grid if t >= due)]
    after = turns[turns.index(fired[0]) + 1]
    assert after == grid[grid.index(fired[0]) + 1]  # and the turn after it is at full rate


def test_someone_acting_on_the_simulated_table_wakes_a_slow_loop() -> None:
    loop, clock, turns = _idle_loop()
    start = clock.now()
    clock.wake_at(start + 0.0712)
    loop.run(until=lambda: clock.now() >= start + 0.2)
    woken = [t for t in turns if t >= start + 0.0712][:2]
    assert woken[0] - (start + 0.0712) < PERIOD and woken[1] - woken[0] == pytest.approx(PERIOD)


class DebouncedOnly:
    """A scanner that gives debounced changes only, as the MCU over the bridge does."""

    def scan(self, now: float) -> list[CellChanged]:
        return []


def test_the_loop_stays_at_full_rate_where_raw_reads_are_not_seen() -> None:
    inputs = Inputs(DebouncedOnly(), {}, {}, None, ButtonTracker(1.0))
    inputs.poll(1000.0)
    assert inputs.pace(2000.0, PERIOD) == PERIOD
