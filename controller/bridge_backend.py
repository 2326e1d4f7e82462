"""The "bridge" backend: the reed matrix read by the board's MCU over serial, buttons and OLED on the Pi.

The Pi side is exactly the "gpio" backend; the link opens the port the profile names (``[serial] url``)
on the loop's first turn and keeps reopening it with backoff, so a board plugged in late is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller import gpio_backend
from controller.clock import MonotonicClock
from firmware_bridge.link import Link, serial_opener
from hw_config import Profile


@dataclass
class BridgeHardware:
    pin_factory: Any
    display_device: Any
    clock: MonotonicClock
    link: Link
    simulated: bool = False


def create(profile: Profile) -> BridgeHardware:
    if profile.serial is None:  # check-config refuses such a profile; a hand-made Profile might not
        raise gpio_backend.BackendError(f"{profile.path}: backend bridge needs a [serial] url")
    pi = gpio_backend.create(profile)
    link = Link(serial_opener(profile.serial.url, profile.serial.baud), len(profile.rows), len(profile.cols))
    return BridgeHardware(pi.pin_factory, pi.display_device, pi.clock, link)
