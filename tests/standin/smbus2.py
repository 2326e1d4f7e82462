"""A stand-in for smbus2, installed only in the container of ``tests/system/test_unit_boot.py`` (as the Debian
package ``python3-smbus2``, which pip then takes as luma.core's smbus2), with an SSD1306 on the bus.

``SMBus(bus)`` opens ``/dev/i2c-BUS`` for real, as smbus2 does (the test's node has no driver behind it:
ENXIO means the device cgroup let the open through, EPERM fails as smbus2 fails). What luma sends is
played on an emulated SSD1306's display RAM (horizontal addressing within the column and page window,
display on/off), and after every transfer the panel is written to ``$STATE_DIRECTORY/standin-oled.txt``:
the one place the unit lets its process write, and a file outlives the process as the panel's image
outlives it. The file: ``on=1 transfers=N`` then 8 lines of 128 two-digit hex bytes, one line a page.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from typing import Any

# SSD1306 commands followed by arguments, and how many
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1,
         0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class i2c_msg:
    def __init__(self, addr: int, buf: bytes) -> None:
        self.addr = addr
        self.flags = 0
        self.buf = buf
        self.len = len(buf)

    @staticmethod
    def write(address: int, buf: Sequence[int] | bytes) -> i2c_msg:
        return i2c_msg(address, bytes(buf))


class _Panel:
    def __init__(self) -> None:
        self.ram = [bytearray(128) for _ in range(8)]
        self.on = False
        self.columns = (0, 127)
        self.pages = (0, 7)
        self.column, self.page = 0, 0
        self.transfers = 0

    def command(self, data: bytes) -> None:
        i = 0
        while i < len(data):
            op = data[i]
            args = data[i + 1:i + 1 + _ARGS.get(op, 0)]
            i += 1 + _ARGS.get(op, 0)
            if op == 0xAE:
                self.on = False
            elif op == 0xAF:
                self.on = True
            elif op == 0x21 and len(args) == 2:
                self.columns = (args[0] & 0x7F, args[1] & 0x7F)
                self.column = self.columns[0]
            elif op == 0x22 and len(args) == 2:
                self.pages = (args[0] & 7, args[1] & 7)
                self.page = self.pages[0]
            elif 0xB0 <= op <= 0xB7:
                self.page = op & 7
            elif op <= 0x0F:
                self.column = (self.column & 0xF0) | op
            elif op <= 0x1F:
                self.column = (self.column & 0x0F) | (op & 0x0F) << 4

    def data(self, data: bytes) -> None:
        for byte in data:
            self.ram[self.page][self.column] = byte
            if self.column < self.columns[1]:
                self.column += 1
            else:
                self.column = self.columns[0]
                self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]

    def save(self) -> None:
        self.transfers += 1
        folder = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
        if not folder:
            return
        text = f"on={int(self.on)} transfers={self.transfers}\n" + "".join(page.hex() + "\n" for page in self.ram)
        path = os.path.join(folder, "standin-oled.txt")
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)


class SMBus:
    def __init__(self, bus: int | None = None, force: bool = False) -> None:
        self.fd: int | None = None
        self.panel = _Panel()
        if bus is not None:
            self.open(bus)

    def open(self, bus: int) -> None:
        path = f"/dev/i2c-{bus}"
        try:
            self.fd = os.open(path, os.O_RDWR)
        except OSError as e:
            if e.errno not in (errno.ENXIO, errno.ENODEV):  # past the device cgroup: no adapter behind it
                raise
            self.fd = None

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def _transfer(self, control: int, payload: bytes) -> None:
        (self.panel.command if control == 0x00 else self.panel.data)(payload)
        self.panel.save()

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int], force: Any = None) -> None:
        self._transfer(register, bytes(data))

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        for msg in i2c_msgs:
            self._transfer(msg.buf[0], msg.buf[1:])
