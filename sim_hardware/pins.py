"""A gpiozero MockFactory whose pins are wired through the magnets on a simulated reed matrix.

A column pin (input, pulled up) reads low exactly when a row pin is an output driven low and the cell at
that row and column is closed: a magnet sits on it, a matrix button is pressed, or a fault holds it.
This is the electrical behaviour of the real matrix, so the scanner under test is the scanner on the Pi.

The factory also offers the matrix as ``SimLines``, with the semantics of the gpio backend's lgpio groups
(one write selects the driven row, one read gives every column), so the scanner takes the same path
here as on a Pi.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

from sim_hardware.clock import FakeClock

Cell = tuple[int, int]

HISTORY = 32  # pin state changes kept per pin; MockPin keeps every one, which grows without bound


class SimBoard:
    """The physical table: magnets (pieces) per cell, pressed cells, and injected faults."""

    def __init__(self, rows: Iterable[int], cols: Iterable[int], clock: FakeClock | None = None,
                 rng: random.Random | None = None) -> None:
        self.row_of = {pin: i for i, pin in enumerate(rows)}
        self.col_of = {pin: i for i, pin in enumerate(cols)}
        self.magnets: dict[Cell, int] = {}
        self.pressed: set[Cell] = set()
        self.stuck_closed: set[Cell] = set()
        self.stuck_open: set[Cell] = set()
        self.chatter: dict[Cell, float] = {}  # cell -> simulated time until which it reads at random
        self.low_rows: set[int] = set()
        self.held_pins: set[int] = set()  # GPIO buttons pressed: the line is shorted to ground
        self.clock = clock
        self.rng = rng or random.Random(0)

    # -- what people do ----------------------------------------------------------------------------------

    def place(self, cell: Cell, n: int = 1) -> None:
        if n > 0:
            self.magnets[cell] = self.magnets.get(cell, 0) + n

    def lift(self, cell: Cell, n: int = 1) -> None:
        if n == 0:
            return
        have = self.magnets.get(cell, 0)
        if have < n:
            raise ValueError(f"cannot lift {n} from cell {cell}: {have} there")
        if have == n:
            del self.magnets[cell]
        else:
            self.magnets[cell] = have - n

    def press_pin(self, pin: int) -> None:
        self.held_pins.add(pin)

    def release_pin(self, pin: int) -> None:
        self.held_pins.discard(pin)

    def count(self, cell: Cell) -> int:
        return self.magnets.get(cell, 0)

    # -- electrical behaviour --------------------------------------------------------------------------

    def closed(self, cell: Cell) -> bool:
        if self.stuck_open or self.stuck_closed or self.chatter:
            if cell in self.stuck_open:
                return False
            if cell in self.stuck_closed:
                return True
            until = self.chatter.get(cell)
            if until is not None and self.clock is not None:
                if self.clock.now() < until:
                    return self.rng.random() < 0.5
                del self.chatter[cell]
        return cell in self.magnets or cell in self.pressed

    def column_low(self, col: int) -> bool:
        if self.stuck_open or self.stuck_closed or self.chatter:
            return any(self.closed((row, col)) for row in self.low_rows)
        magnets, pressed = self.magnets, self.pressed  # no faulty reed: closed is "a magnet or a finger"
        for row in self.low_rows:  # noqa: SIM110 -- a loop, not any(): this runs ten million times a game
            if (row, col) in magnets or (row, col) in pressed:
                return True
        return False

    def row_mask(self, row: int) -> int:
        """Bit c set = cell (row, c) closed."""
        if self.stuck_open or self.stuck_closed or self.chatter:
            return sum(1 << c for c in range(len(self.col_of)) if self.closed((row, c)))
        mask = 0
        for r, c in self.magnets:
            if r == row:
                mask |= 1 << c
        for r, c in self.pressed:
            if r == row:
                mask |= 1 << c
        return mask

    def add_chatter(self, cell: Cell, seconds: float) -> None:
        """The cell bounces at random for ``seconds`` of simulated time (a magnet at the edge of a reed)."""
        if self.clock is None:
            raise ValueError("chatter needs the board's clock")
        self.chatter[cell] = self.clock.now() + seconds


class WiredMockPin(MockPin):  # type: ignore[misc]
    """A MockPin that reads the matrix when it is a column and reports its drive when it is a row."""

    def __init__(self, factory: SimPinFactory, info: Any) -> None:
        self._board = factory.board
        number = int(info.name[4:])
        self._number = number
        on_pi = factory.matrix_on_pi
        self._row = self._board.row_of.get(number) if on_pi else None
        self._col = self._board.col_of.get(number) if on_pi else None
        super().__init__(factory, info)

    def clear_states(self) -> None:
        super().clear_states()
        self.states: deque[Any] = deque(self.states, maxlen=HISTORY)

    def _get_state(self) -> bool:
        if self._function == "input":
            if self._col is not None:
                return not self._board.column_low(self._col)
            if self._number in self._board.held_pins:
                return False
        return bool(self._state)

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._sync_row()

    def _change_state(self, value: bool) -> bool:
        changed = bool(super()._change_state(value))
        self._sync_row()
        return changed

    def _sync_row(self) -> None:
        if self._row is None:
            return
        if self._function == "output" and not self._state:
            self._board.low_rows.add(self._row)
        else:
            self._board.low_rows.discard(self._row)


class SimLines:
    """The matrix as the gpio backend's lgpio groups present it: rows as one open-drain output group
    (one write drives a row and releases the others), columns as one pulled-up input group (one read)."""

    def __init__(self, board: SimBoard) -> None:
        self._board = board
        self._driven: int | None = None

    def drive(self, row: int) -> None:
        self._driven = row
        self._board.low_rows = {row}

    def read(self) -> int:
        return 0 if self._driven is None else self._board.row_mask(self._driven)

    def close(self) -> None:
        self._driven = None
        self._board.low_rows = set()


class SimPinFactory(MockFactory):  # type: ignore[misc]
    """gpiozero's MockFactory producing wired pins for one simulated board."""

    def __init__(self, board: SimBoard, *, matrix_on_pi: bool = True) -> None:
        """``matrix_on_pi`` is False when a microcontroller reads the matrix: its line numbers are then
        the MCU's pins, which must not shadow the Pi's own pins of the same numbers (the buttons)."""
        self.board = board
        self.matrix_on_pi = matrix_on_pi
        super().__init__(pin_class=WiredMockPin)

    def matrix_lines(self, rows: list[int], cols: list[int]) -> SimLines:
        if rows != list(self.board.row_of) or cols != list(self.board.col_of):
            raise ValueError(f"the simulated board is wired as rows {list(self.board.row_of)}, "
                             f"columns {list(self.board.col_of)}, not {rows}, {cols}")
        return SimLines(self.board)
