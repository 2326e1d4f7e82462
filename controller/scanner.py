"""The reed matrix scanner, over the matrix lines of a gpiozero pin factory.

A scan costs two hardware calls per row, whatever the number of columns: one write that drives the row
low and releases the one before it, one read of every column at once (an lgpio group read in the gpio
backend). A factory that offers ``matrix_lines(rows, cols)`` provides them (the gpio backend's lgpio
groups, the simulated table); any other factory gets ``PinLines``, which does the same through single
pins (the ``rpigpio`` factory), at one call per pin.

Rows are never driven high: a released row is high impedance (an input, or an open-drain output at
1), so two closed cells in different rows can never short two driven rows together. Columns are inputs
with pull-ups: low = closed.

No settle delay (there was a 10 us busy-wait per row): a closed cell's edge is driven low and needs
none; the edge that takes time is a column rising through its pull-up after the row before let go. The
columns are read in the call after the write that let it go, with the previous row's debounce work
in between, which on a Zero 2 W alone is tens of microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from controller.events import Cell, CellChanged


class MatrixLines(Protocol):
    """The matrix as two hardware calls: which row is driven, and what all the columns read."""

    def drive(self, row: int) -> None:
        """Drive row ``row`` (an index into the rows) low and release every other row."""

    def read(self) -> int:
        """Bit c set = column c reads low (a closed cell on the driven row)."""

    def close(self) -> None: ...


class PinLines:
    """Matrix lines through single gpiozero pins, for factories that cannot read a group at once."""

    def __init__(self, factory: Any, rows: Sequence[int], cols: Sequence[int]) -> None:
        self.rows = [factory.pin(f"GPIO{n}") for n in rows]
        self.cols = [factory.pin(f"GPIO{n}") for n in cols]
        for pin in self.rows:
            pin.function = "input"
            pin.pull = "floating"
        for pin in self.cols:
            pin.function = "input"
            pin.pull = "up"
        self._driven: Any = None

    def drive(self, row: int) -> None:
        if self._driven is not None:
            self._driven.function = "input"
        self._driven = self.rows[row]
        self._driven.output_with_state(False)  # one call: no blip of a high level before the row goes low

    def read(self) -> int:
        mask = 0
        bit = 1
        for col in self.cols:
            if not col.state:
                mask |= bit
            bit <<= 1
        return mask

    def close(self) -> None:
        for pin in self.rows + self.cols:
            pin.close()


def open_lines(factory: Any, rows: Sequence[int], cols: Sequence[int]) -> MatrixLines:
    """The factory's own matrix lines where it has them, else single pins."""
    make = getattr(factory, "matrix_lines", None)
    if make is not None:
        lines: MatrixLines = make(list(rows), list(cols))
        return lines
    return PinLines(factory, rows, cols)


class MatrixScanner:
    """Reads the matrix and reports a cell change once it has been seen in ``debounce_scans`` scans in a row."""

    def __init__(self, factory: Any, rows: Sequence[int], cols: Sequence[int], *, debounce_scans: int) -> None:
        self.lines = open_lines(factory, rows, cols)
        self._ncols = len(cols)
        self.debounce_scans = debounce_scans
        self.stable = [0] * len(rows)  # bit c of row r set = cell (r, c) closed
        self._pending: dict[Cell, int] = {}
        self.scans = 0

    @property
    def settling(self) -> bool:
        """A cell reads differently from its debounced state: something is being moved."""
        return bool(self._pending)

    def read(self) -> list[int]:
        """One raw pass over the matrix: a bit mask of closed cells per row."""
        lines = self.lines
        out = []
        for r in range(len(self.stable)):
            lines.drive(r)
            out.append(lines.read())
        return out

    def scan(self, now: float) -> list[CellChanged]:
        """Read once and return the debounced changes; call it at the profile's scan rate."""
        self.scans += 1
        lines = self.lines
        stable = self.stable
        events: list[CellChanged] = []
        mask = 0
        for r in range(len(stable)):
            lines.drive(r)
            if r and (mask != stable[r - 1] or self._pending):  # the row before, while this one settles
                self._debounce(r - 1, mask, now, events)
            mask = lines.read()
        if mask != stable[-1] or self._pending:
            self._debounce(len(stable) - 1, mask, now, events)
        return events

    def _debounce(self, r: int, mask: int, now: float, events: list[CellChanged]) -> None:
        pending = self._pending
        diff = mask ^ self.stable[r]
        if pending:
            for cell in [c for c in pending if c[0] == r and not diff >> c[1] & 1]:
                del pending[cell]  # bounced back before it counted
        while diff:
            low = diff & -diff
            diff ^= low
            cell = (r, low.bit_length() - 1)
            seen = pending.get(cell, 0) + 1
            if seen >= self.debounce_scans:
                pending.pop(cell, None)
                self.stable[r] ^= low
                events.append(CellChanged(cell, bool(self.stable[r] & low), now))
            else:
                pending[cell] = seen

    def closed_cells(self) -> set[Cell]:
        return {(r, c) for r, mask in enumerate(self.stable) for c in range(self._ncols) if mask >> c & 1}

    def close(self) -> None:
        self.lines.close()
