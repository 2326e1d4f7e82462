"""The reed matrix as the MCU scans it: rows driven low one at a time, columns read with pull-ups.

The same electrical scheme and debounce as the host's ``MatrixScanner`` (a change counts once seen in
``debounce`` scans in a row), so a board behaves the same read directly or through the MCU. Pins are
``machine.Pin`` objects (or the simulation's stand-in); their class constants are reached through the
instance, so this module never imports ``machine``.
"""


class Matrix:
    def __init__(self, rows: list, cols: list, debounce: int) -> None:
        self.rows = rows
        self.cols = cols
        self.debounce = debounce
        for pin in rows:
            pin.init(pin.IN)
        for pin in cols:
            pin.init(pin.IN, pin.PULL_UP)
        self._pending: dict[tuple[int, int], int] = {}
        # what the board holds at boot is the state, not a change: a reboot mid-game must not make the
        # host see every piece lifted and put back
        self.stable = self.read()  # bit c of row r set = cell (r, c) closed

    def read(self) -> list[int]:
        out = []
        for row in self.rows:
            row.init(row.OUT, value=0)
            mask = 0
            bit = 1
            for col in self.cols:
                if not col.value():
                    mask |= bit
                bit <<= 1
            row.init(row.IN)
            out.append(mask)
        return out

    def scan(self) -> list[tuple[int, int, bool]]:
        """One pass; the debounced changes as (row, col, closed)."""
        changes = []
        pending = self._pending
        for r, mask in enumerate(self.read()):
            diff = mask ^ self.stable[r]
            for cell in [c for c in pending if c[0] == r and not diff >> c[1] & 1]:
                del pending[cell]  # bounced back before it counted
            c = 0
            while diff:
                if diff & 1:
                    cell = (r, c)
                    seen = pending.get(cell, 0) + 1
                    if seen >= self.debounce:
                        pending.pop(cell, None)
                        self.stable[r] ^= 1 << c
                        changes.append((r, c, bool(self.stable[r] >> c & 1)))
                    else:
                        pending[cell] = seen
                diff >>= 1
                c += 1
        return changes

    def bitmap(self) -> bytes:
        """The closed cells as the snapshot body's bitmap: row-major, least significant bit first."""
        ncols = len(self.cols)
        bits = bytearray((len(self.rows) * ncols + 7) // 8)
        for r, mask in enumerate(self.stable):
            for c in range(ncols):
                if mask >> c & 1:
                    i = r * ncols + c
                    bits[i // 8] |= 1 << (i % 8)
        return bytes(bits)
