"""The "sim-bridge" backend: the simulated table with its matrix read by the simulated MCU over a pty.

Buttons and the OLED stay on the Pi's (mock) pins, as in the real bridge profile; the host's link is
the real ``firmware_bridge.link.Link`` on the pty's device node, opened through pyserial.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from firmware_bridge.link import Link, Port, serial_opener
from hw_config import Profile
from sim_hardware.display import FrameKeeper
from sim_hardware.mcu import SimMcu, SteppedClock
from sim_hardware.pins import SimBoard, SimPinFactory

BAUD = 115200


@dataclass
class SimBridgeHardware:
    pin_factory: SimPinFactory
    display_device: FrameKeeper
    clock: SteppedClock
    board: SimBoard
    mcu: SimMcu
    link: Link
    simulated: bool = True

    def close(self) -> None:
        self.link.close()
        self.mcu.close()


def _open_serial(path: str) -> Port:
    return serial_opener(path, BAUD)()


def create(profile: Profile, *, frames_dir: Path | None = None, seed: int = 0, line_noise: float = 0.0,
           dropped: float = 0.0) -> SimBridgeHardware:
    """``line_noise``: the share of bytes (either way) with a bit flipped; ``dropped``: the share lost."""
    clock = SteppedClock()
    board = SimBoard(profile.rows, profile.cols, clock, random.Random(seed))
    device = FrameKeeper(profile.display.width, profile.display.height, frames_dir)
    mcu = SimMcu(board, random.Random(f"line:{seed}"), noise=line_noise, dropped=dropped)
    link = Link(partial(mcu.open_port, _open_serial), len(profile.rows), len(profile.cols))
    mcu.link = link
    clock.mcu = mcu
    return SimBridgeHardware(SimPinFactory(board, matrix_on_pi=False), device, clock, board, mcu, link)
