"""What the host knows of the board: its cells at a version, and the rows and deltas heard beyond it.

The MCU numbers its board *versions* (one more per delta frame, one byte on the wire) and says the version
in every frame about the board: a delta makes version v from v - 1; a row gives one row's cells at v; a
delta copy is a delta sent again. The host's cells move only along versions it can prove:

- the next delta (or a copy of it) applies on top of the host's version;
- otherwise, when every row is known at the newest version -- heard at that version, or heard earlier (or
  held by the host) and brought forward by deltas it has -- the board jumps there, diffed against the
  cells last reported: the changes a lost delta made, a little late, never a phantom and never a miss.

Rows of different versions combine through the deltas in between, so the board is rebuilt on a noisy
line even while pieces keep moving. Versions are unwrapped into integers, so only the last byte travels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]
Change = tuple[int, int, bool]  # row, col, closed


@dataclass
class Update:
    """What one frame did to the host's board."""

    changes: list[tuple[Cell, bool]] = field(default_factory=list)
    # "delta" (the next version), "copy" (a lost delta taken from a copy), "rows" (rebuilt from rows: a delta
    # and all its copies lost), "first" (the board first read, after a hello)
    how: str = ""


class BoardView:
    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.masks = [0] * rows  # the cells last reported: bit c of row r = cell (r, c) closed
        self.version = 0  # the version ``masks`` are, when ``based``
        self.based = False  # False until the first board is known, and again after a hello
        self.newest: int | None = None  # the newest version heard
        self._rows: dict[int, tuple[int, int]] = {}  # row -> (version, mask), the newest heard beyond ``version``
        self._deltas: dict[int, list[Change]] = {}  # version -> the changes that made it, beyond ``version``

    @property
    def in_step(self) -> bool:
        """The host's cells are the newest board it has heard of."""
        return self.based and self.version == self.newest

    @property
    def closed(self) -> set[Cell]:
        return {(r, c) for r, mask in enumerate(self.masks) for c in range(self.cols) if mask >> c & 1}

    def forget(self) -> None:
        """A hello: the MCU may have rebooted and started its versions again; only rows will tell."""
        self.based = False
        self.newest = None
        self._rows.clear()
        self._deltas.clear()

    def row(self, v8: int, row: int, mask: int) -> Update:
        version = self._unwrap(v8)
        if self.based and version <= self.version:
            if version == self.version and mask != self.masks[row]:
                self.forget()  # the host's board is not the MCU's: read it all again
                return self.row(v8, row, mask)
            return Update()
        if row not in self._rows or self._rows[row][0] < version:
            self._rows[row] = (version, mask)
        return self._advance(copy=False)

    def delta(self, v8: int, changes: list[Change], copy: bool) -> Update:
        version = self._unwrap(v8)
        if self.based and version <= self.version:
            return Update()  # one the host has: a copy, or the same bytes twice
        self._deltas[version] = changes
        if len(self._deltas) > 128:  # never in step for that long: keep what a rebuild could still use
            self._deltas = {v: d for v, d in self._deltas.items() if v > version - 128}
        return self._advance(copy=copy)

    def _unwrap(self, v8: int) -> int:
        if self.newest is None:
            self.newest = v8 + 256  # room below for a late copy of an older version
            return self.newest
        ahead = (v8 - self.newest) % 256
        version = self.newest + ahead if ahead < 128 else self.newest + ahead - 256
        self.newest = max(self.newest, version)
        return version

    def _advance(self, *, copy: bool) -> Update:
        update = Update()
        while self.based and self.version + 1 in self._deltas:
            self.version += 1
            for r, c, closed in self._deltas.pop(self.version):
                if closed != bool(self.masks[r] >> c & 1):
                    self.masks[r] ^= 1 << c
                    update.changes.append(((r, c), closed))
            update.how = "copy" if copy else "delta"
        if not self.in_step:
            rebuilt = self._rebuild()
            if rebuilt is not None:
                before = self.closed
                update.how = "rows" if self.based else "first"
                self.masks, self.version, self.based = rebuilt, self.newest or 0, True
                after = self.closed
                # lifts first, then places: the order a hand moves a piece
                update.changes += [(c, False) for c in sorted(before - after)]
                update.changes += [(c, True) for c in sorted(after - before)]
        if self.based:
            self._rows = {r: vm for r, vm in self._rows.items() if vm[0] > self.version}
            self._deltas = {v: d for v, d in self._deltas.items() if v > self.version}
        return update

    def _rebuild(self) -> list[int] | None:
        """Every row at the newest version, from the newest of it heard (or the host's own) and the deltas
        since; None while one is missing."""
        newest = self.newest
        assert newest is not None
        out = []
        for r in range(self.rows):
            version, mask = self._rows.get(r, (self.version, self.masks[r]) if self.based else (-1, 0))
            if version < 0:
                return None
            for v in range(version + 1, newest + 1):
                changes = self._deltas.get(v)
                if changes is None:
                    return None
                for row, c, closed in changes:
                    if row == r:
                        mask = mask | 1 << c if closed else mask & ~(1 << c)
            out.append(mask)
        return out
