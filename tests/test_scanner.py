"""The matrix scanner and buttons through the wired mock pins of the simulated table."""

from __future__ import annotations

import random

from controller.buttons import ButtonTracker, GpioButtons
from controller.events import ButtonEvent, CellChanged, Press
from controller.scanner import MatrixScanner
from sim_hardware.clock import FakeClock
from sim_hardware.pins import HISTORY, SimBoard, SimPinFactory

ROWS = [5, 6, 13, 19, 26, 16, 20]
COLS = [21, 12, 25, 8, 7, 11, 24]


def _table(debounce: int = 3) -> tuple[SimBoard, MatrixScanner, FakeClock]:
    clock = FakeClock()
    board = SimBoard(ROWS, COLS, clock, random.Random(1))
    scanner = MatrixScanner(SimPinFactory(board), ROWS, COLS, debounce_scans=debounce)
    return board, scanner, clock


def _factory(scanner: MatrixScanner) -> SimPinFactory:
    """The pins' factory, as a person with a multimeter would reach the pins."""
    factory: SimPinFactory = scanner.pins[0].factory
    return factory


def _scan(scanner: MatrixScanner, clock: FakeClock, n: int) -> list[CellChanged]:
    out = []
    for _ in range(n):
        clock.advance(0.005)
        out += scanner.scan(clock.now())
    return out


def test_a_magnet_closes_exactly_its_cell() -> None:
    board, scanner, _ = _table()
    board.place((2, 5))
    assert scanner.read() == [0, 0, 1 << 5, 0, 0, 0, 0]
    board.place((6, 0), 4)
    board.lift((2, 5))
    assert scanner.read() == [0, 0, 0, 0, 0, 0, 1]


def test_rows_idle_as_inputs_and_one_is_driven_low_at_a_time() -> None:
    board, scanner, _ = _table()
    board.place((0, 0))
    scanner.read()
    assert board.low_rows == set()  # all rows released after a pass
    factory = _factory(scanner)
    assert all(factory.pin(f"GPIO{n}").function == "input" for n in ROWS)
    assert factory.pin(f"GPIO{COLS[0]}").pull == "up"


def test_debounce_needs_consecutive_equal_scans() -> None:
    board, scanner, clock = _table(debounce=3)
    board.place((1, 1))
    assert _scan(scanner, clock, 2) == []
    events = _scan(scanner, clock, 1)
    assert [(e.cell, e.closed) for e in events] == [((1, 1), True)]
    board.lift((1, 1))
    _scan(scanner, clock, 2)
    board.place((1, 1))  # bounced back before it counted: nothing
    assert _scan(scanner, clock, 5) == []
    assert scanner.closed_cells() == {(1, 1)}


def test_chatter_produces_no_change_when_it_settles_back() -> None:
    board, scanner, clock = _table(debounce=4)
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
    _, scanner, clock = _table()
    _scan(scanner, clock, 500)
    factory = _factory(scanner)
    assert all(len(pin.states) <= HISTORY for pin in factory.pins.values())


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
