"""The board microcontroller's firmware (MicroPython on an RP2040 Pico): matrix scan, the wire protocol, LEDs.

Written in the subset MicroPython and CPython share (no typing imports, no dataclasses, no binascii), so
the code flashed on the Pico is the code the simulated MCU runs in the tests. Only ``main.py`` touches
the ``machine`` module.
"""
