"""The "sim" backend the composition root loads by name: wired mock pins, dummy display, fake clock."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from hw_config import Profile
from sim_hardware.clock import FakeClock
from sim_hardware.display import FrameKeeper
from sim_hardware.pins import SimBoard, SimPinFactory


@dataclass
class SimHardware:
    pin_factory: SimPinFactory
    display_device: FrameKeeper
    clock: FakeClock
    board: SimBoard
    simulated: bool = True


def create(profile: Profile, *, frames_dir: Path | None = None, seed: int = 0) -> SimHardware:
    clock = FakeClock()
    board = SimBoard(profile.rows, profile.cols, clock, random.Random(seed))
    device = FrameKeeper(profile.display.width, profile.display.height, frames_dir)
    return SimHardware(SimPinFactory(board), device, clock, board)
