"""What sits between the MCU's pins and the reed matrix, simulated: wires straight to rows and columns, or
a chain of 74HC595 shift registers on the rows and one of 74HC165s on the columns; and the stand-in for
MicroPython's ``machine.Pin`` that the firmware drives them through.

Written in the subset MicroPython shares (no imports at run time, no ``__future__``), because the test
that runs the firmware under real MicroPython drives it through these very parts: the simulation and that
test cannot disagree on how a 74HC165 shifts. A board is anything with ``low_rows`` (the set of row
indices driven low) and ``column_low(col)``, as ``sim_hardware.pins.SimBoard``.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without typing, which MicroPython lacks: mypy takes it as True
if TYPE_CHECKING:
    from collections.abc import Callable

    from sim_hardware.pins import SimBoard


class Wiring:
    """What a pin is connected to. ``driver(pin)`` is what setting its level does (called with None while
    it is an input, not driving); ``sensor(pin)`` is what an input reads, or None where nothing of ours is
    on that pin. Both are looked up once per pin: a scan of a 16x16 board sets and reads pins ~900 times."""

    def driver(self, pin: int) -> "Callable[[int | None], None]":
        return _nothing

    def sensor(self, pin: int) -> "Callable[[], int] | None":
        return None


def _nothing(level: "int | None") -> None:
    pass


class DirectWiring(Wiring):
    """Rows and columns on the MCU's own pins: a row pin driven low pulls its closed cells' columns low."""

    def __init__(self, board: "SimBoard", rows: "list[int]", cols: "list[int]") -> None:
        self.board = board
        self.row_of = {pin: i for i, pin in enumerate(rows)}
        self.col_of = {pin: i for i, pin in enumerate(cols)}

    def driver(self, pin: int) -> "Callable[[int | None], None]":
        row = self.row_of.get(pin)
        if row is None:
            return _nothing
        low_rows = self.board.low_rows

        def drive(level: "int | None") -> None:
            if level == 0:
                low_rows.add(row)
            else:
                low_rows.discard(row)

        return drive

    def sensor(self, pin: int) -> "Callable[[], int] | None":
        col = self.col_of.get(pin)
        if col is None:
            return None
        column_low = self.board.column_low
        return lambda: 0 if column_low(col) else 1


class ShiftWiring(Wiring):
    """74HC595s (outputs Q0.. = rows 0..) and 74HC165s (inputs A.. of the first chip = columns 0..), each
    chain eight lines a chip, as firmware_bridge/README.md wires them.

    595: a rising SRCLK shifts SER into Q0 (and every Qn into Qn+1, the last out of the chain); a rising
    RCLK copies the shift register to the outputs. 165: while SH/LD is low the inputs load in parallel; a
    rising CLK with SH/LD high shifts towards QH, which shows the last chip's H input first; the first
    chip's serial input is tied high. Unused inputs are tied high (read as open)."""

    def __init__(self, board: "SimBoard", pins: "dict[str, int]", rows: int, cols: int) -> None:
        self.board = board
        self.pins = pins
        self.rows = rows
        self.cols = cols
        self.ser = self.srclk = self.rclk = self.clk = 0  # the levels the MCU last set
        self.load = 1
        self.shift = [1] * (8 * ((rows + 7) // 8))  # the 595s' shift register, Q0 first
        self.inputs = 8 * ((cols + 7) // 8)
        self.loaded = [1] * self.inputs  # the 165s' register, the bit QH shows first
        self.shown = 0  # how many of ``loaded`` the clock has shifted out past QH

    def driver(self, pin: int) -> "Callable[[int | None], None]":
        handlers = {"ser": self._ser, "srclk": self._srclk, "rclk": self._rclk, "load": self._sh_ld,
                    "clk": self._clk}
        for name, number in self.pins.items():
            if number == pin and name in handlers:
                return handlers[name]
        return _nothing

    def sensor(self, pin: int) -> "Callable[[], int] | None":
        return self._qh if pin == self.pins.get("qh") else None

    def _ser(self, level: "int | None") -> None:
        if level is not None:
            self.ser = level

    def _srclk(self, level: "int | None") -> None:
        if level is None:
            return
        if level == 1 and self.srclk == 0:
            self.shift.insert(0, self.ser)
            self.shift.pop()
        self.srclk = level

    def _rclk(self, level: "int | None") -> None:
        if level is None:
            return
        if level == 1 and self.rclk == 0:
            low = self.board.low_rows
            low.clear()
            low.update(r for r in range(self.rows) if self.shift[r] == 0)
        self.rclk = level

    def _sh_ld(self, level: "int | None") -> None:
        if level is None:
            return
        self.load = level
        if level == 0:
            self._load()

    def _clk(self, level: "int | None") -> None:
        if level is None:
            return
        if level == 1 and self.clk == 0 and self.load == 1:
            self.shown += 1  # the chain moves one on; the first chip's serial input (tied high) follows
        self.clk = level

    def _load(self) -> None:
        column_low = self.board.column_low
        levels = [1] * self.inputs  # input i of the chain: column i, or tied high
        for col in range(self.cols):
            if column_low(col):
                levels[col] = 0
        self.loaded = levels[::-1]  # the highest input comes out first
        self.shown = 0

    def _qh(self) -> int:
        if self.load == 0:
            self._load()  # transparent while loading
        shown = self.shown
        return self.loaded[shown] if shown < self.inputs else 1


class StandInPin:
    """``machine.Pin`` as the firmware uses it: ``init(mode, pull, value=)`` and ``value([level])``."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    wiring = Wiring()  # replaced on the class ``pin_class`` makes

    def __init__(self, number: int, mode: int = -1, pull: int = -1) -> None:
        self.number = number
        self.mode = self.IN
        self.level = 1
        self._drive = self.wiring.driver(number)
        self._sense = self.wiring.sensor(number)
        self.init(mode, pull)

    def init(self, mode: int = -1, pull: int = -1, value: "int | None" = None) -> None:
        if mode != -1:
            self.mode = mode
        if value is not None:
            self.level = value
        self._drive(self.level if self.mode == self.OUT else None)

    def value(self, level: "int | None" = None) -> int:
        if level is not None:  # init(value=level), written out: the hottest call of a simulated scan
            self.level = level
            self._drive(level if self.mode == self.OUT else None)
            return level
        sense = self._sense
        if self.mode == self.IN and sense is not None:
            return sense()
        return self.level


def pin_class(wiring: Wiring) -> type:
    """A ``machine.Pin`` whose pins are connected through ``wiring``."""

    class Pin(StandInPin):
        pass

    Pin.wiring = wiring
    return Pin
