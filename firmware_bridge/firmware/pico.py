"""The RP2040 Pico's wiring: which GP pins are rows and columns, the UART to the Pi, the LED strip.

``build`` takes the ``machine`` module as an argument, so the simulation builds the same MCU from its
stand-in; ``run`` is the main loop flashed on the Pico (``main.py`` calls it).
"""

from firmware_bridge.firmware.matrix import Matrix
from firmware_bridge.firmware.mcu import Mcu

ROWS = (2, 3, 4, 5, 6, 7, 8)  # GP numbers, driven low one at a time (a diode per reed, against ghosting)
COLS = (9, 10, 11, 12, 13, 14, 15)  # read with pull-ups: low = closed
UART_ID = 0  # GP0 TX -> Pi RXD (GPIO15), GP1 RX <- Pi TXD (GPIO14): /dev/serial0 on the Pi
UART_TX = 0
UART_RX = 1
BAUD = 115200
LED_PIN = 16  # a WS2812 strip, one LED per cell in row-major order
DEBOUNCE = 3


class Leds:
    """One addressable LED per cell; a cell the host lights guides a move."""

    def __init__(self, strip, cols: int) -> None:
        self.strip = strip
        self.cols = cols

    def set(self, row: int, col: int, on: bool) -> None:
        self.strip[row * self.cols + col] = (0, 40, 0) if on else (0, 0, 0)
        self.strip.write()


def build(machine, port, rows: tuple = ROWS, cols: tuple = COLS, leds=None) -> Mcu:
    pin = machine.Pin
    matrix = Matrix([pin(n, pin.IN) for n in rows], [pin(n, pin.IN, pin.PULL_UP) for n in cols], DEBOUNCE)
    return Mcu(port, matrix, leds)


def run() -> None:
    import time

    import machine
    import neopixel

    port = machine.UART(UART_ID, baudrate=BAUD, tx=machine.Pin(UART_TX), rx=machine.Pin(UART_RX))
    strip = neopixel.NeoPixel(machine.Pin(LED_PIN), len(ROWS) * len(COLS))
    mcu = build(machine, port, leds=Leds(strip, len(COLS)))
    while True:
        mcu.step(time.ticks_ms())  # type: ignore[attr-defined]  # MicroPython's time
        time.sleep_ms(1)  # type: ignore[attr-defined]
