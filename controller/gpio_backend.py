"""The "gpio" backend: the Pi's own pins through gpiozero, the OLED through luma, real time.

Loaded by name from the profile; any missing piece is an error that says what to install, never a
silent fall back to simulation. With the ``lgpio`` factory the matrix is scanned through lgpio groups
(``GroupLines``): gpiozero's single-pin calls cost tens of microseconds each on a Zero 2 W, and a group
reads every column in one.
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


class GroupLines:
    """The matrix as two lgpio groups on the factory's chip: the rows an open-drain output group (a 1
    releases a row, so one write drives one row and releases the rest), the columns a pulled-up input
    group read in one call."""

    def __init__(self, lgpio: Any, chip: int, rows: list[int], cols: list[int]) -> None:
        self._lg = lgpio
        self._handle = lgpio.gpiochip_open(chip)
        self._rows, self._cols = rows[0], cols[0]  # each group's leader names it
        self._released = (1 << len(rows)) - 1
        self._drive = [self._released ^ (1 << r) for r in range(len(rows))]
        self._high = (1 << len(cols)) - 1
        try:
            lgpio.group_claim_output(self._handle, rows, [1] * len(rows), lgpio.SET_OPEN_DRAIN)
            lgpio.group_claim_input(self._handle, cols, lgpio.SET_PULL_UP)
        except Exception:
            lgpio.gpiochip_close(self._handle)
            raise

    def drive(self, row: int) -> None:
        self._lg.group_write(self._handle, self._rows, self._drive[row])

    def read(self) -> int:
        return int(self._lg.group_read(self._handle, self._cols)[1]) ^ self._high

    def close(self) -> None:
        lg, handle = self._lg, self._handle
        lg.group_write(handle, self._rows, self._released)
        lg.group_free(handle, self._rows)
        lg.group_free(handle, self._cols)
        lg.gpiochip_close(handle)


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
        if profile.pin_factory == "lgpio":
            lgpio = importlib.import_module("lgpio")
            factory.matrix_lines = lambda rows, cols: GroupLines(lgpio, factory.chip, rows, cols)
    except Exception as e:  # ImportError off a Pi, RuntimeError from RPi.GPIO, lgpio errors
        raise BackendError(f"pin factory {profile.pin_factory!r} unavailable ({e}); on a Pi: "
                           f"pip install '.[pi]' and check the gpio group") from e
    try:
        from luma.core.interface.serial import i2c

        from controller.oled import DIFFING_DRIVERS

        serial = i2c(port=profile.display.bus, address=profile.display.address)
        device = DIFFING_DRIVERS[profile.display.driver](serial, width=profile.display.width,
                                                          height=profile.display.height)
        device.persist = True  # luma blanks the panel at exit otherwise: the result or "Stopped" must stay
    except Exception as e:
        raise BackendError(f"display {profile.display.driver} at I2C bus {profile.display.bus} address "
                           f"{profile.display.address:#04x}: {e}") from e
    return GpioHardware(factory, device, MonotonicClock())
