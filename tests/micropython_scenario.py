"""A scripted 16x16 board read by the firmware through the 74HC595/74HC165 stand-ins of sim_hardware.parts.

Run by tests/bridge/test_bridge_micropython.py under real MicroPython (the WebAssembly port, in Node) and under
CPython, in the subset both share. It prints one line per write of the firmware, ``<ms> <hex>``, and the
test decodes those bytes with the host's codec. ``run(host)`` is called with the frames the host sends,
``{ms: bytes}``, encoded by the host's codec.
"""

from firmware_bridge.firmware import pico
from sim_hardware.parts import ShiftWiring, pin_class

ROWS = COLS = 16
STEP_MS = 5
END_MS = 400  # past two whole rounds of rows (16 x 10 ms)
# a magnet in each corner of each of the four 8x8 quarters (both 595s, both 165s)
START = ((0, 0), (7, 7), (8, 8), (15, 15), (0, 15), (15, 0), (3, 12), (12, 3))
SCRIPT = (  # (ms, "place" or "lift", cell)
    (30, "place", (9, 2)),
    (60, "lift", (7, 7)),
    (60, "place", (8, 9)),
    (130, "place", (5, 5)),  # a bounce: gone before the third scan, never reported
    (135, "lift", (5, 5)),
    (150, "lift", (15, 15)),
)


class Board:
    """What the parts need of a board: the rows the 595s drive low, and whether a column is pulled low."""

    def __init__(self) -> None:
        self.low_rows = set()
        self.magnets = set(START)

    def column_low(self, col: int) -> bool:
        return any((row, col) in self.magnets for row in self.low_rows)


class Machine:
    """The part of MicroPython's ``machine`` module that ``pico.build`` uses."""

    def __init__(self, board: Board) -> None:
        self.Pin = pin_class(ShiftWiring(board, pico.SHIFT_PINS, ROWS, COLS))


class Port:
    """The UART: hands the firmware the host's bytes of this millisecond, prints what it writes."""

    def __init__(self) -> None:
        self.ms = 0
        self.incoming = b""

    def read(self):
        data, self.incoming = self.incoming, b""
        return data or None

    def write(self, data: bytes) -> int:
        print(self.ms, data.hex())
        return len(data)


class Strip:
    """The WS2812 strip (MicroPython's ``neopixel.NeoPixel``): its pixels, and how many times it was written."""

    def __init__(self, count: int) -> None:
        self.pixels = [(0, 0, 0)] * count
        self.writes = 0

    def __setitem__(self, index: int, rgb) -> None:
        self.pixels[index] = rgb

    def write(self) -> None:
        self.writes += 1


def run(host) -> None:
    board = Board()
    port = Port()
    strip = Strip(ROWS * COLS)
    mcu = pico.build(Machine(board), port, ROWS, COLS, pico.Leds(strip, ROWS * COLS))
    for ms in range(0, END_MS + 1, STEP_MS):
        for at, action, cell in SCRIPT:
            if at == ms:
                if action == "place":
                    board.magnets.add(cell)
                else:
                    board.magnets.discard(cell)
        port.ms = ms
        port.incoming = host.get(ms, b"")
        mcu.step(ms)
    print("lit", [(i, list(rgb)) for i, rgb in enumerate(strip.pixels) if rgb != (0, 0, 0)], strip.writes)
