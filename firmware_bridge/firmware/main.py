"""Copied to the Pico's root as ``main.py``, which MicroPython runs at boot (see firmware_bridge/README.md)."""

from firmware_bridge.firmware.pico import run

run()
