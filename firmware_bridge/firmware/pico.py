"""The RP2040 Pico's wiring: which GP pins read the matrix, the UART to the Pi, the LED strip.

The matrix size is the one setting (``main.py`` passes it): a board whose rows and columns fit the free
GP pins is wired directly (7x7: rows GP2-8, columns GP9-15); a larger one (16x16) through 74HC595s on
the rows and 74HC165s on the columns, on six pins. firmware_bridge/README.md has the parts and wiring.
``build`` takes the ``machine`` module as an argument, so the simulation builds the same MCU from its
stand-in; ``run`` is the main loop flashed on the Pico.
"""

from firmware_bridge.firmware.matrix import Matrix, PinReader, ShiftReader
from firmware_bridge.firmware.mcu import Mcu

UART_ID = 0  # GP0 TX -> Pi RXD (GPIO15), GP1 RX <- Pi TXD (GPIO14): /dev/serial0 on the Pi
UART_TX = 0
UART_RX = 1
BAUD = 115200
LED_PIN = 16  # a WS2812 strip of up to rows x cols LEDs; the host's profile says which cell each lies under
# each colour's (red, green, blue), as MicroPython's neopixel takes it: lift magenta, put green, seen white;
# dim (about 3 mA an LED), and told apart without red against green, which one man in twelve cannot
PALETTE = ((0, 0, 0), (30, 0, 30), (0, 40, 0), (16, 16, 16))
# the GP pins left for a directly wired matrix: rows take the first ones, columns the next
FREE_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 26, 27, 28)
# the shift-register board: 74HC595 SER, SRCLK, RCLK; 74HC165 SH/LD, CLK, QH
SHIFT_PINS = {"ser": 2, "srclk": 3, "rclk": 4, "load": 5, "clk": 6, "qh": 7}
DEBOUNCE = 3


def direct(rows: int, cols: int) -> bool:
    """Whether a ``rows`` x ``cols`` matrix is wired to the Pico's own pins (else through shift registers)."""
    return rows + cols <= len(FREE_PINS)


class Leds:
    """The strip: the host lights the cells of a move to make. ``show`` writes it once after the host's
    frames of a step (a strip of 256 takes 8 ms to write: once per LED would hold the scan up)."""

    def __init__(self, strip, count: int) -> None:
        self.strip = strip
        self.count = count
        for i in range(count):  # a strip on its own supply keeps its colours through the Pico's reboot
            strip[i] = PALETTE[0]
        strip.write()
        self._changed = False

    def set(self, index: int, colour: int) -> None:
        self.strip[index] = PALETTE[colour]
        self._changed = True

    def show(self) -> None:
        if self._changed:
            self._changed = False
            self.strip.write()


def build(machine, port, rows: int, cols: int, leds=None) -> Mcu:
    return Mcu(port, Matrix(_reader(machine.Pin, rows, cols), DEBOUNCE), leds)


def _reader(pin, rows: int, cols: int):
    if direct(rows, cols):
        return PinReader([pin(n) for n in FREE_PINS[:rows]], [pin(n) for n in FREE_PINS[rows:rows + cols]])
    p = {name: pin(n) for name, n in SHIFT_PINS.items()}
    return ShiftReader(p["ser"], p["srclk"], p["rclk"], p["load"], p["clk"], p["qh"], rows, cols)


def run(rows: int, cols: int) -> None:
    import time

    import machine
    import neopixel

    port = machine.UART(UART_ID, baudrate=BAUD, tx=machine.Pin(UART_TX), rx=machine.Pin(UART_RX))
    strip = neopixel.NeoPixel(machine.Pin(LED_PIN), rows * cols)
    mcu = build(machine, port, rows, cols, Leds(strip, rows * cols))
    while True:
        mcu.step(time.ticks_ms())  # type: ignore[attr-defined]  # MicroPython's time
        time.sleep_ms(1)  # type: ignore[attr-defined]
