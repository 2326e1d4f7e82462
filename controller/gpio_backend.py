"""The "gpio" backend: the Pi's own pins through gpiozero, the OLED through luma, real time.

Loaded by name from the profile; any missing piece is an error that says what to install, never a
silent fall back to simulation.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from controller.clock import MonotonicClock
from hw_config import Profile

FACTORIES = {"lgpio": "gpiozero.pins.lgpio:LGPIOFactory", "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory"}


class BackendError(RuntimeError):
    """The hardware the profile names cannot be reached; the message says why and what to do."""


@dataclass
class GpioHardware:
    pin_factory: Any
    display_device: Any
    clock: MonotonicClock
    simulated: bool = False


def create(profile: Profile) -> GpioHardware:
    module, _, name = FACTORIES[profile.pin_factory].partition(":")
    try:
        factory = getattr(importlib.import_module(module), name)()
    except Exception as e:  # ImportError off a Pi, RuntimeError from RPi.GPIO, lgpio errors
        raise BackendError(f"pin factory {profile.pin_factory!r} unavailable ({e}); on a Pi: "
                           f"pip install '.[pi]' and check the gpio group") from e
    try:
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled

        serial = i2c(port=profile.display.bus, address=profile.display.address)
        device = getattr(oled, profile.display.driver)(serial, width=profile.display.width,
                                                      height=profile.display.height)
    except Exception as e:
        raise BackendError(f"display {profile.display.driver} at I2C bus {profile.display.bus} address "
                           f"{profile.display.address:#04x}: {e}") from e
    return GpioHardware(factory, device, MonotonicClock())
