"""The reed matrix as the MCU scans it, and the two ways of wiring it to the MCU.

A diode per reed, columns pulled up, one row driven low at a time: a column reads low exactly when the
cell at the driven row is closed. ``Matrix`` debounces as the host's ``MatrixScanner`` does (a change
counts once seen in ``debounce`` scans in a row), so a board behaves the same read directly or through
the MCU. Where the rows and columns come from is a reader's business:

- ``PinReader``: rows and columns on the MCU's own pins (7x7 or 8x8 fit beside the UART);
- ``ShiftReader``: rows through daisy-chained 74HC595 shift registers and columns through daisy-chained
  74HC165 ones: six pins whatever the size (16x16 needs 32 lines, more than a Pico has free).

Pins are ``machine.Pin`` objects (or the simulation's stand-in); their class constants are reached
through the instance, so this module never imports ``machine``.
"""


class PinReader:
    def __init__(self, rows: list, cols: list) -> None:
        self.rows = rows
        self.cols = cols
        self.nrows = len(rows)
        self.ncols = len(cols)
        for pin in rows:
            pin.init(pin.IN)  # undriven until its turn: a row that is not read must not sink current
        for pin in cols:
            pin.init(pin.IN, pin.PULL_UP)

    def read(self) -> list:
        """Bit c of entry r set = cell (r, c) closed."""
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


class ShiftReader:
    """74HC595 chain on the rows (SER, SRCLK, RCLK; /OE low, /SRCLR high) and 74HC165 chain on the
    columns (SH/LD, CLK, QH; CLK INH low), chips daisy-chained eight lines each.

    The rows are walked by shifting one zero through the 595s: selecting the next row is one clock,
    not a whole word. The 165s are loaded in parallel and shifted out highest column first (the last
    chip's H input comes out first), so shifting each bit in at the bottom leaves bit c = column c."""

    def __init__(self, ser, srclk, rclk, load, clk, qh, nrows: int, ncols: int) -> None:
        self.nrows = nrows
        self.ncols = ncols
        self.outputs = 8 * ((nrows + 7) // 8)
        self.inputs = 8 * ((ncols + 7) // 8)
        for pin in (ser, srclk, rclk, load, clk):
            pin.init(pin.OUT, value=1 if pin is load else 0)
        qh.init(qh.IN)
        self._ser, self._srclk, self._rclk = ser.value, srclk.value, rclk.value
        self._load, self._clk, self._qh = load.value, clk.value, qh.value
        self._shift(1, self.outputs)  # every row high (not driven): whatever the 595s held at power-up
        self._rclk(1)
        self._rclk(0)

    def _shift(self, level: int, times: int) -> None:
        ser, srclk = self._ser, self._srclk
        ser(level)
        for _ in range(times):
            srclk(1)
            srclk(0)

    def read(self) -> list:
        rclk, load, clk, qh = self._rclk, self._load, self._clk, self._qh
        keep = (1 << self.ncols) - 1
        out = []
        for r in range(self.nrows):
            self._shift(0 if r == 0 else 1, 1)  # the zero moves on to row r
            rclk(1)
            rclk(0)
            load(0)  # the columns as they are now, into the 165s
            load(1)
            mask = 0
            for _ in range(self.inputs):
                mask = (mask << 1) | (1 - qh())  # low = closed
                clk(1)
                clk(0)
            out.append(mask & keep)
        self._shift(1, self.outputs - self.nrows + 1)  # the zero out of the chain: no row driven between scans
        rclk(1)
        rclk(0)
        return out


class Matrix:
    def __init__(self, reader, debounce: int) -> None:
        self.reader = reader
        self.nrows = reader.nrows
        self.ncols = reader.ncols
        self.debounce = debounce
        self._pending: dict[tuple[int, int], int] = {}
        # what the board holds at boot is the state, not a change: a reboot mid-game must not make the
        # host see every piece lifted and put back
        self.stable = reader.read()  # bit c of row r set = cell (r, c) closed

    def scan(self) -> list[tuple[int, int, bool]]:
        """One pass; the debounced changes as (row, col, closed)."""
        changes = []
        pending = self._pending
        for r, mask in enumerate(self.reader.read()):
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
