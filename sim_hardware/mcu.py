"""The board's microcontroller, simulated: the real firmware (``firmware_bridge.firmware``) on the far end
of a pty, with a stand-in for MicroPython's ``machine`` module wired to the simulated magnets directly or
through the shift registers of a 16x16 board (``sim_hardware.parts``), as the firmware wires that size.

The MCU is stepped by the simulated clock (every 5 ms of simulated time), not by a thread, so a run
replays exactly. The host's side is the real one: its reader thread reads the pty like a serial port.
Each step waits (in real time, bounded) until the bytes it wrote have reached the host's link, and
reads everything the host has written before it acts, so a byte's simulated arrival never depends on
how fast a thread woke up.

Between the two ends a line injects faults: bit errors at a given rate per byte, dropped bytes, silence
(``mute``) and ``disconnect`` (the pty closed, as a USB cable pulled; ``plug_in`` makes a new one and the
MCU boots again).
"""

from __future__ import annotations

import errno
import os
import random
import time
import tty
from types import ModuleType
from typing import Any

from firmware_bridge.firmware import pico
from firmware_bridge.firmware.mcu import Mcu
from firmware_bridge.link import Link
from sim_hardware.clock import FakeClock
from sim_hardware.parts import DirectWiring, ShiftWiring, Wiring, pin_class
from sim_hardware.pins import SimBoard

STEP_S = 0.005
SYNC_TIMEOUT_S = 2.0  # real seconds a step waits for the host's reader before it goes on regardless


def machine_for(board: SimBoard, rows: int, cols: int) -> ModuleType:
    """A ``machine`` module whose pins reach ``board`` the way the Pico's firmware wires a matrix of that
    size: straight to its own pins, or through the shift registers."""
    if pico.direct(rows, cols):
        pins = pico.FREE_PINS
        wiring: Wiring = DirectWiring(board, list(pins[:rows]), list(pins[rows:rows + cols]))
    else:
        wiring = ShiftWiring(board, pico.SHIFT_PINS, rows, cols)
    module = ModuleType("machine", "stand-in for MicroPython's machine module (simulated table)")
    module.Pin = pin_class(wiring)  # type: ignore[attr-defined]
    return module


Rgb = tuple[int, int, int]


class Strip:
    """A WS2812 strip, as MicroPython's ``neopixel.NeoPixel`` drives it: the firmware's own ``Leds`` sets
    pixels and writes. Each write is kept as a frame, as the OLED's are, so tests look at the board's
    lights as the players would."""

    def __init__(self, count: int) -> None:
        self.pixels: list[Rgb] = [(0, 0, 0)] * count
        self.frames: list[tuple[Rgb, ...]] = []

    def __setitem__(self, index: int, rgb: Rgb) -> None:
        self.pixels[index] = rgb

    def write(self) -> None:
        self.frames.append(tuple(self.pixels))

    @property
    def lit(self) -> dict[int, Rgb]:
        """The LEDs the last write lit, by their place on the strip."""
        shown = self.frames[-1] if self.frames else ()
        return {i: rgb for i, rgb in enumerate(shown) if rgb != (0, 0, 0)}


class _UartBuffer:
    """The firmware's port: what the line delivered, and what the firmware wrote (``machine.UART``-like)."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def read(self) -> bytes | None:
        if not self.incoming:
            return None
        data, self.incoming = bytes(self.incoming), bytearray()
        return data

    def write(self, data: bytes) -> int:
        self.outgoing += data
        return len(data)


class SimMcu:
    def __init__(self, board: SimBoard, rng: random.Random, *, noise: float = 0.0, dropped: float = 0.0) -> None:
        self.board = board
        self.rng = rng
        self.noise = noise  # probability per byte (either way) of one flipped bit
        self.dropped = dropped  # probability per byte of losing it
        self.muted = False  # nothing gets through either way (a dead line, not a closed port)
        rows, cols = len(board.row_of), len(board.col_of)
        self.strip = Strip(rows * cols)  # one LED per cell at most, as the firmware's strip
        self.link: Link | None = None  # the host's end, to wait for its reader
        self.path: str | None = None
        self.boots = 0
        self.bytes_corrupted = 0
        self._master = self._slave = -1
        self.plug_in()

    # -- the cable ---------------------------------------------------------------------------------------

    def plug_in(self) -> None:
        """A new pty (a new USB device node) and a freshly booted MCU."""
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing before the host opens it
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self.port = _UartBuffer()
        rows, cols = len(self.board.row_of), len(self.board.col_of)
        leds = pico.Leds(self.strip, rows * cols)  # a booting firmware puts the strip out
        self.mcu: Mcu = pico.build(machine_for(self.board, rows, cols), self.port, rows, cols, leds)
        self.boots += 1
        self._host_out = self.link.stats.bytes_out if self.link is not None else 0

    def disconnect(self) -> None:
        """The cable pulled: the host's port fails and the device node is gone until ``plug_in``."""
        self.close()

    def close(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        self.path = None

    def open_port(self, open_serial: Any) -> Any:
        """The host's opener: ``open_serial(path)`` while plugged in, an ``OSError`` while not."""
        if self.path is None:
            raise OSError(errno.ENODEV, "board unplugged")
        return open_serial(self.path)

    # -- one step of simulated time ----------------------------------------------------------------------

    def step(self, now: float) -> None:
        if self._master < 0:
            return
        self.port.incoming += self._line(self._from_host())
        self.mcu.step(round(now * 1000))
        out, self.port.outgoing = bytes(self.port.outgoing), bytearray()
        self.transmit(out)

    def _from_host(self) -> bytes:
        """Everything the host wrote since the last step (its counter says how much to expect)."""
        link = self.link
        want = link.stats.bytes_out - self._host_out if link is not None else 0
        data = bytearray()
        deadline = time.monotonic() + SYNC_TIMEOUT_S
        while True:
            try:
                data += os.read(self._master, 4096)
            except BlockingIOError:
                if len(data) >= want or time.monotonic() > deadline:
                    break
                time.sleep(0.0001)
            except OSError:  # EIO: no host has the port open
                break
        if link is not None:
            self._host_out = link.stats.bytes_out
        return bytes(data)

    def transmit(self, data: bytes) -> None:
        """Bytes from the MCU onto the line (faults applied), waiting until the host's reader has them."""
        data = self._line(data)
        link = self.link
        view = memoryview(data)
        while view:
            start = link.stats.bytes_in if link is not None else 0
            try:
                sent = os.write(self._master, view)
            except OSError:  # the pty's buffer is full (nobody reading): the bytes are lost, as on a UART
                return
            view = view[sent:]
            if link is None or not link.connected:
                continue
            deadline = time.monotonic() + SYNC_TIMEOUT_S
            while link.stats.bytes_in < start + sent and link.connected and time.monotonic() < deadline:
                time.sleep(0.0001)

    def _line(self, data: bytes) -> bytes:
        if self.muted:
            return b""
        if not (self.noise or self.dropped):
            return data
        out = bytearray()
        for byte in data:
            if self.dropped and self.rng.random() < self.dropped:
                continue
            if self.noise and self.rng.random() < self.noise:
                byte ^= 1 << self.rng.randrange(8)
                self.bytes_corrupted += 1
            out.append(byte)
        return bytes(out)


class SteppedClock(FakeClock):
    """The fake clock of the simulated table, which also runs the MCU every 5 ms of simulated time."""

    def __init__(self, start: float = 1000.0) -> None:
        super().__init__(start)
        self.mcu: SimMcu | None = None

    def sleep(self, seconds: float) -> None:
        while seconds > 1e-9:
            step = min(seconds, STEP_S)
            super().sleep(step)
            seconds -= step
            if self.mcu is not None:
                self.mcu.step(self.now())
