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
    from sim_hardware.pins import SimBoard


class Wiring:
    """What a pin is connected to: ``drive`` when the MCU sets its level (None: an input, not driving),
    ``sense`` the level an input reads (None: nothing of ours on that pin)."""

    def drive(self, pin: int, level: "int | None") -> None:
        pass

    def sense(self, pin: int) -> "int | None":
        return None


class DirectWiring(Wiring):
    """Rows and columns on the MCU's own pins: a row pin driven low pulls its closed cells' columns low."""

    def __init__(self, board: "SimBoard", rows: "list[int]", cols: "list[int]") -> None:
        self.board = board
        self.row_of = {pin: i for i, pin in enumerate(rows)}
        self.col_of = {pin: i for i, pin in enumerate(cols)}

    def drive(self, pin: int, level: "int | None") -> None:
        row = self.row_of.get(pin)
        if row is None:
            return
        if level == 0:
            self.board.low_rows.add(row)
        else:
            self.board.low_rows.discard(row)

    def sense(self, pin: int) -> "int | None":
        col = self.col_of.get(pin)
        if col is None:
            return None
        return 0 if self.board.column_low(col) else 1


class ShiftWiring(Wiring):
    """74HC595s (outputs Q0.. = rows 0..) and 74HC165s (inputs A.. of the first chip = columns 0..), each
    chain eight lines a chip, as firmware_bridge/README.md wires them.

    595: a rising SRCLK shifts SER into Q0 (and every Qn into Qn+1, the last out of the chain); a rising
    RCLK copies the shift register to the outputs. 165: while SH/LD is low the inputs load in parallel; a
    rising CLK with SH/LD high shifts towards QH, which shows the last chip's H input first; the first
    chip's serial input is tied high. Unused inputs are tied high (read as open)."""

    def __init__(self, board: "SimBoard", pins: "dict[str, int]", rows: int, cols: int) -> None:
        self.board = board
        self.pin_names = {n: name for name, n in pins.items()}
        self.rows = rows
        self.cols = cols
        self.levels = {name: 0 for name in pins}
        self.shift = [1] * (8 * ((rows + 7) // 8))  # the 595s' shift register, Q0 first
        self.inputs = 8 * ((cols + 7) // 8)
        self.loaded = [1] * self.inputs  # the 165s' register, the bit QH shows first

    def drive(self, pin: int, level: "int | None") -> None:
        name = self.pin_names.get(pin)
        if name is None or level is None:
            return
        rising = level == 1 and self.levels[name] == 0
        self.levels[name] = level
        if name == "srclk" and rising:
            self.shift.insert(0, self.levels["ser"])
            self.shift.pop()
        elif name == "rclk" and rising:
            self.board.low_rows.clear()
            self.board.low_rows.update(r for r in range(self.rows) if self.shift[r] == 0)
        elif name == "load" and level == 0:
            self._load()
        elif name == "clk" and rising and self.levels["load"] == 1:
            self.loaded.pop(0)
            self.loaded.append(1)

    def _load(self) -> None:
        levels = [1] * self.inputs  # input i of the chain: column i, or tied high
        for col in range(self.cols):
            levels[col] = 0 if self.board.column_low(col) else 1
        self.loaded = levels[::-1]  # the highest input comes out first

    def sense(self, pin: int) -> "int | None":
        if self.pin_names.get(pin) != "qh":
            return None
        if self.levels["load"] == 0:
            self._load()  # transparent while loading
        return self.loaded[0]


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
        self.init(mode, pull)

    def init(self, mode: int = -1, pull: int = -1, value: "int | None" = None) -> None:
        if mode != -1:
            self.mode = mode
        if value is not None:
            self.level = value
        self.wiring.drive(self.number, self.level if self.mode == self.OUT else None)

    def value(self, level: "int | None" = None) -> int:
        if level is not None:
            self.init(value=level)
            return level
        if self.mode == self.IN:
            sensed = self.wiring.sense(self.number)
            if sensed is not None:
                return sensed
        return self.level


def pin_class(wiring: Wiring) -> type:
    """A ``machine.Pin`` whose pins are connected through ``wiring``."""

    class Pin(StandInPin):
        pass

    Pin.wiring = wiring
    return Pin
