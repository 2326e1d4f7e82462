"""The diffing OLED drivers on a fake I2C bus that plays the controller's RAM: whatever is sent, the
display must end up holding exactly what luma's own driver would have put there."""

from __future__ import annotations

import random

import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from controller.oled import DiffingSH1106, DiffingSSD1306, changed_runs, pack_pages, stacked
from controller.screen import Screen, render

# luma's own drivers are the reference here, and they use a Pillow call that Pillow 14 will drop
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated")


class OledBus:
    """An smbus stand-in for an SSD1306 (horizontal addressing, window set by COLUMNADDR/PAGEADDR) or an
    SH1106 (page addressing, 132 columns): keeps the RAM and counts the bytes on the wire."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.width = 132 if kind == "sh1106" else 128
        self.ram = [bytearray(self.width) for _ in range(8)]
        self.window = (0, self.width - 1, 0, 7)
        self.col = self.page = 0
        self.bytes = 0
        self.fail_after: int | None = None  # data writes to let through before an I/O error

    def write_i2c_block_data(self, address: int, mode: int, data: list[int]) -> None:
        self.bytes += 2 + len(data)
        if mode == 0x00:
            self._command(data)
            return
        if self.fail_after is not None:
            if self.fail_after == 0:
                raise OSError(121, "Remote I/O error")
            self.fail_after -= 1
        for byte in data:
            self.ram[self.page][self.col] = byte
            self.col += 1
            if self.kind == "ssd1306" and self.col > self.window[1]:
                self.col = self.window[0]
                self.page = self.page + 1 if self.page < self.window[3] else self.window[2]

    def _command(self, cmd: list[int]) -> None:
        if self.kind == "ssd1306" and len(cmd) == 6 and cmd[0] == 0x21 and cmd[3] == 0x22:
            self.window = (cmd[1], cmd[2], cmd[4], cmd[5])
            self.col, self.page = cmd[1], cmd[4]
        elif self.kind == "sh1106" and len(cmd) == 3 and 0xB0 <= cmd[0] <= 0xB7:
            self.page = cmd[0] - 0xB0
            self.col = (cmd[2] & 0x0F) << 4 | (cmd[1] & 0x0F)

    def visible(self) -> bytes:
        start = 2 if self.kind == "sh1106" else 0
        return b"".join(bytes(page[start:start + 128]) for page in self.ram)


DRIVERS = {"ssd1306": (ssd1306, DiffingSSD1306), "sh1106": (sh1106, DiffingSH1106)}


def _random_image(rng: random.Random) -> Image.Image:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randrange(1, 4)):
        x, y = rng.randrange(120), rng.randrange(60)
        draw.rectangle((x, y, x + rng.randrange(1, 60), y + rng.randrange(1, 12)), fill=rng.randrange(2))
    return image


def _reference(kind: str, image: Image.Image) -> bytes:
    bus = OledBus(kind)
    DRIVERS[kind][0](i2c(bus=bus), width=128, height=64).display(image)
    return bus.visible()


def test_packing_is_luma_s() -> None:
    rng = random.Random(3)
    for _ in range(20):
        image = _random_image(rng)
        assert b"".join(pack_pages(image)) == _reference("ssd1306", image)


@pytest.mark.parametrize("kind", sorted(DRIVERS))
def test_the_display_holds_each_frame_and_only_changes_travel(kind: str) -> None:
    bus = OledBus(kind)
    device = DRIVERS[kind][1](i2c(bus=bus), width=128, height=64)
    rng = random.Random(7)
    image = Image.new("1", (128, 64))
    for _ in range(30):
        draw = ImageDraw.Draw(image)
        x, y = rng.randrange(120), rng.randrange(60)
        draw.rectangle((x, y, x + rng.randrange(1, 40), y + rng.randrange(1, 6)), fill=rng.randrange(2))
        before = bus.bytes
        device.display(image)
        assert bus.visible() == _reference(kind, image)
        assert bus.bytes - before < 1024
    before = bus.bytes
    device.display(image)
    assert bus.bytes == before  # nothing changed, nothing sent


@pytest.mark.parametrize("kind", sorted(DRIVERS))
def test_a_push_that_fails_halfway_is_sent_whole_next_time(kind: str) -> None:
    bus = OledBus(kind)
    device = DRIVERS[kind][1](i2c(bus=bus), width=128, height=64)
    first = render(Screen("Blue to move", ("Move a piece", "Home Y5 B1")), 128, 64)
    second = render(Screen("Yellow to roll", ("ROLL or NEXT", "Home Y5 B2")), 128, 64)
    device.display(first)
    bus.fail_after = 1
    with pytest.raises(OSError):
        device.display(second)
    bus.fail_after = None
    device.display(second)
    assert bus.visible() == _reference(kind, second)


def test_changed_runs_skip_long_unchanged_gaps_and_join_short_ones() -> None:
    old = bytes(128)
    assert changed_runs(None, old) == [(0, 127)]
    assert changed_runs(old, old) == []
    new = bytearray(old)
    new[5] = 1
    new[90] = 0x80
    assert changed_runs(old, bytes(new)) == [(5, 5), (90, 90)]  # two windows, not 86 columns
    new[12] = new[13] = 4
    assert changed_runs(old, bytes(new)) == [(5, 13), (90, 90)]  # 6 unchanged columns: cheaper to resend
    new[0] = new[127] = 2
    assert changed_runs(old, bytes(new)) == [(0, 13), (90, 90), (127, 127)]


def test_runs_on_pages_one_above_the_other_share_a_window_when_it_costs_less() -> None:
    assert stacked([(2, 2, 10, 40), (3, 3, 12, 41), (5, 5, 10, 40)]) == [(2, 3, 10, 41), (5, 5, 10, 40)]
    assert stacked([(2, 2, 0, 3), (3, 3, 0, 100)]) == [(2, 2, 0, 3), (3, 3, 0, 100)]  # 97 columns resent: no


def test_a_line_that_changes_costs_its_own_columns_only() -> None:
    bus = OledBus("ssd1306")
    device = DiffingSSD1306(i2c(bus=bus), width=128, height=64)
    device.display(render(Screen("Blue to move", ("Move a piece", "Done: 12-17"))))
    before = bus.bytes
    device.display(render(Screen("Blue to move", ("Move a piece", "Done: 12-18"))))
    assert bus.bytes - before < 40  # one digit: a few columns over two pages in one window
