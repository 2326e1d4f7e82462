"""Copied to the Pico's root as ``main.py``, which MicroPython runs at boot (see firmware_bridge/README.md).

The one line to edit per board: its matrix size, as in the host's profile (16, 16 for Cannon Ball's
shift-register board)."""

from firmware_bridge.firmware.pico import run

run(7, 7)
