"""The matrix scanner and buttons through the simulated table: the matrix lines the simulated factory
offers (the lgpio group semantics), the single-pin fallback over wired mock pins, and the gpio backend's
lgpio groups on a fake lgpio module wired to the same magnets."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from controller.buttons import ButtonTracker, GpioButtons
from controller.events import ButtonEvent, CellChanged, Press
from controller.gpio_backend import GroupLines
from controller.scanner import MatrixScanner, PinLines
from sim_hardware.clock import FakeClock
from sim_hardware.pins import HISTORY, SimBoard, SimLines, SimPinFactory

ROWS = [5, 6, 13, 19, 26, 16, 20]
COLS = [21, 12, 25, 8, 7, 11, 24]


class SinglePins:
    """A factory that can only hand out single pins (as ``rpigpio``): the scanner falls back to them."""

    def __init__(self, factory: SimPinFactory) -> None:
        self.inner = factory
        self.pin = factory.pin


class FakeLgpio:
    """lgpio's group calls on the simulated board: an open-drain output group drives the rows that are
    written 0, a pulled-up input group reads the columns (a 1 = high = open)."""

    SET_OPEN_DRAIN = 8
    SET_PULL_UP = 32

    def __init__(self, board: SimBoard) -> None:
        self.board = board
        self.groups: dict[int, tuple[list[int], int]] = {}
        self.calls: list[str] = []
        self.open_handles = 0

    def gpiochip_open(self, chip: int) -> int:
        self.open_handles += 1
        return 7

    def gpiochip_close(self, handle: int) -> None:
        self.open_handles -= 1

    def group_claim_output(self, handle: int, gpios: list[int], levels: list[int], flags: int) -> int:
        self.groups[gpios[0]] = (gpios, flags)
        self.group_write(handle, gpios[0], sum(1 << i for i, level in enumerate(levels) if level))
        return 0

    def group_claim_input(self, handle: int, gpios: list[int], flags: int) -> int:
        self.groups[gpios[0]] = (gpios, flags)
        return 0

    def group_write(self, handle: int, leader: int, bits: int) -> int:
        self.calls.append("write")
        gpios, flags = self.groups[leader]
        assert flags & self.SET_OPEN_DRAIN, "rows must never be driven high"
        self.board.low_rows = {self.board.row_of[g] for i, g in enumerate(gpios) if not bits >> i & 1}
        return 0

    def group_read(self, handle: int, leader: int) -> list[int]:
        self.calls.append("read")
        gpios, flags = self.groups[leader]
        assert flags & self.SET_PULL_UP
        levels = sum(1 << i for i, g in enumerate(gpios) if not self.board.column_low(self.board.col_of[g]))
        return [len(gpios), levels]

    def group_free(self, handle: int, leader: int) -> int:
        del self.groups[leader]
        return 0


def lgpio_factory(board: SimBoard) -> tuple[Any, FakeLgpio]:
    """The gpio backend's lgpio factory as ``gpio_backend.create`` equips it, on the fake lgpio."""
    lg = FakeLgpio(board)
    factory = SinglePins(SimPinFactory(board))
    factory.matrix_lines = lambda rows, cols: GroupLines(lg, 0, rows, cols)  # type: ignore[attr-defined]
    return factory, lg


FACTORIES: dict[str, Callable[[SimBoard], Any]] = {
    "sim-lines": SimPinFactory,
    "single-pins": lambda board: SinglePins(SimPinFactory(board)),
    "lgpio-groups": lambda board: lgpio_factory(board)[0],
}


@pytest.fixture(params=sorted(FACTORIES))
def make_factory(request: pytest.FixtureRequest) -> Callable[[SimBoard], Any]:
    return FACTORIES[request.param]


def _table(make_factory: Callable[[SimBoard], Any], debounce: int = 3) -> tuple[SimBoard, MatrixScanner, FakeClock]:
    clock = FakeClock()
    board = SimBoard(ROWS, COLS, clock, random.Random(1))
    scanner = MatrixScanner(make_factory(board), ROWS, COLS, debounce_scans=debounce)
    return board, scanner, clock


def _scan(scanner: MatrixScanner, clock: FakeClock, n: int) -> list[CellChanged]:
    out = []
    for _ in range(n):
        clock.advance(0.005)
        out += scanner.scan(clock.now())
    return out


def test_each_factory_gets_its_own_lines() -> None:
    board = SimBoard(ROWS, COLS)
    assert isinstance(MatrixScanner(SimPinFactory(board), ROWS, COLS, debounce_scans=1).lines, SimLines)
    assert isinstance(MatrixScanner(SinglePins(SimPinFactory(board)), ROWS, COLS, debounce_scans=1).lines, PinLines)
    assert isinstance(MatrixScanner(lgpio_factory(board)[0], ROWS, COLS, debounce_scans=1).lines, GroupLines)


def test_a_magnet_closes_exactly_its_cell(make_factory: Callable[[SimBoard], Any]) -> None:
    board, scanner, _ = _table(make_factory)
    board.place((2, 5))
    assert scanner.read() == [0, 0, 1 << 5, 0, 0, 0, 0]
    board.place((6, 0), 4)
    board.lift((2, 5))
    assert scanner.read() == [0, 0, 0, 0, 0, 0, 1]


def test_one_row_is_driven_low_at_a_time_and_all_are_released_on_close(
        make_factory: Callable[[SimBoard], Any]) -> None:
    board, scanner, clock = _table(make_factory)
    seen: list[set[int]] = []
    column_low = board.column_low
    row_mask = board.row_mask

    def spy_column(col: int) -> bool:
        seen.append(set(board.low_rows))
        return column_low(col)

    def spy_row(row: int) -> int:
        seen.append(set(board.low_rows))
        return row_mask(row)

    board.column_low = spy_column  # type: ignore[method-assign]
    board.row_mask = spy_row  # type: ignore[method-assign]
    _scan(scanner, clock, 1)
    assert {frozenset(s) for s in seen} == {frozenset({r}) for r in range(len(ROWS))}
    scanner.close()
    assert board.low_rows == set()


def test_two_calls_per_row_where_the_factory_reads_a_row_at_once() -> None:
    board = SimBoard(ROWS, COLS)
    factory, lg = lgpio_factory(board)
    scanner = MatrixScanner(factory, ROWS, COLS, debounce_scans=3)
    board.place((3, 3))
    lg.calls.clear()
    scanner.scan(0.0)
    assert lg.calls == ["write", "read"] * len(ROWS)
    scanner.close()
    assert lg.groups == {} and lg.open_handles == 0


def test_debounce_needs_consecutive_equal_scans(make_factory: Callable[[SimBoard], Any]) -> None:
    board, scanner, clock = _table(make_factory, debounce=3)
    board.place((1, 1))
    assert _scan(scanner, clock, 2) == []
    assert scanner.settling
    events = _scan(scanner, clock, 1)
    assert [(e.cell, e.closed) for e in events] == [((1, 1), True)]
    assert not scanner.settling
    board.lift((1, 1))
    _scan(scanner, clock, 2)
    board.place((1, 1))  # bounced back before it counted: nothing
    assert _scan(scanner, clock, 5) == []
    assert scanner.closed_cells() == {(1, 1)}


def test_changes_in_several_rows_come_in_row_order(make_factory: Callable[[SimBoard], Any]) -> None:
    board, scanner, clock = _table(make_factory, debounce=2)
    for cell in ((6, 6), (0, 3), (3, 0), (0, 1)):
        board.place(cell)
    assert [e.cell for e in _scan(scanner, clock, 2)] == [(0, 1), (0, 3), (3, 0), (6, 6)]


def test_chatter_produces_no_change_when_it_settles_back(make_factory: Callable[[SimBoard], Any]) -> None:
    board, scanner, clock = _table(make_factory, debounce=4)
    for r in range(7):
        for c in range(7):
            if (r + c) % 3 == 0:
                board.place((r, c))
    _scan(scanner, clock, 5)
    before = scanner.closed_cells()
    for r in range(7):
        for c in range(7):
            board.add_chatter((r, c), 0.02)
    events = _scan(scanner, clock, 200)
    # a cell may flicker through debounce only if random reads agree 4 times running; each such flip must
    # be undone, so the final state always equals the physical one
    assert scanner.closed_cells() == before
    assert len(events) % 2 == 0


def test_pin_history_is_bounded() -> None:
    board = SimBoard(ROWS, COLS, FakeClock(), random.Random(1))
    factory = SinglePins(SimPinFactory(board))
    scanner = MatrixScanner(factory, ROWS, COLS, debounce_scans=3)
    for i in range(500):
        scanner.scan(i * 0.005)
    assert all(len(pin.states) <= HISTORY for pin in factory.inner.pins.values())


def test_the_simulated_lines_refuse_another_wiring() -> None:
    with pytest.raises(ValueError, match="wired as rows"):
        SimPinFactory(SimBoard(ROWS, COLS)).matrix_lines(ROWS[::-1], COLS)


def test_buttons_press_release_hold_and_held_at_start() -> None:
    clock = FakeClock()
    board = SimBoard(ROWS, COLS, clock)
    factory = SimPinFactory(board)
    board.press_pin(27)  # OK held down before the controller starts
    tracker = ButtonTracker(hold_s=1.0)
    buttons = GpioButtons(factory, {"ROLL": 17, "OK": 27}, tracker, debounce_polls=2)
    assert "OK is held down at start" in buttons.startup_faults[0].message

    def poll(n: int) -> list[ButtonEvent]:
        out = []
        for _ in range(n):
            clock.advance(0.01)
            out += buttons.poll(clock.now()) + tracker.poll(clock.now())
        return out

    assert poll(5) == []  # the held OK is discarded
    board.release_pin(27)
    assert poll(5) == []  # its release is swallowed too
    board.press_pin(17)
    assert [(e.button, e.kind) for e in poll(3)] == [("ROLL", Press.PRESS)]
    assert [(e.button, e.kind) for e in poll(120)] == [("ROLL", Press.HOLD)]
    board.release_pin(17)
    assert [(e.button, e.kind) for e in poll(3)] == [("ROLL", Press.RELEASE)]
    board.press_pin(27)
    assert [(e.button, e.kind) for e in poll(3)] == [("OK", Press.PRESS)]
