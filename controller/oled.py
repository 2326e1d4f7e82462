"""The real OLEDs, sending only what changed.

luma's ssd1306 and sh1106 ``display()`` pack the image pixel by pixel in Python (half of a commit tick's
CPU on a Zero 2 W) and push all 1024 bytes for every frame (23 ms of I2C at 400 kHz), although a new
screen usually changes a line or two. These subclasses pack with PIL's own conversion and send only the
8-pixel pages that changed, each cut to the columns that changed. Luma stays the device abstraction:
construction, contrast, power and cleanup are luma's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image


def pack_pages(image: Image.Image) -> list[bytes]:
    """The display RAM for a mode "1" image: per page (8 pixel rows), one byte per column, bit 0 on top.

    Rotated a quarter turn clockwise, row x of the image is column x read upwards, and ``tobytes`` packs
    it 8 pixels a byte, the first pixel in the high bit: byte j of a row is then page ``pages - 1 - j``.
    """
    pages = image.height // 8
    data = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [data[pages - 1 - p::pages] for p in range(pages)]


def changed_span(old: bytes | None, new: bytes) -> tuple[int, int] | None:
    """First and last column that differ (inclusive), or None; everything when nothing was sent yet."""
    if old is None:
        return 0, len(new) - 1
    if old == new:
        return None
    diff = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    first = len(new) - (diff.bit_length() + 7) // 8
    last = len(new) - 1 - ((diff & -diff).bit_length() - 1) // 8
    return first, last


class _PageDiffing:
    """What both controllers share: pack, compare with what the display holds, send the differences."""

    _sent: list[bytes | None]
    persist: bool  # luma's: whether the panel keeps its last image when the process exits

    def _push(self, image: Image.Image, send: Callable[[int, int, bytes], None]) -> None:
        """``send(page, first column, bytes)`` for each page that changed. Until every page is through,
        what the display holds is unknown: a failed push makes the next one send everything."""
        pages = pack_pages(image)
        before = self._sent if len(self._sent) == len(pages) else [None] * len(pages)
        self._sent = [None] * len(pages)
        for page, (old, new) in enumerate(zip(before, pages, strict=True)):
            span = changed_span(old, new)
            if span is not None:
                send(page, span[0], new[span[0]:span[1] + 1])
        self._sent = list(pages)


class DiffingSSD1306(_PageDiffing, ssd1306):  # type: ignore[misc]
    """An SSD1306 (horizontal addressing): each changed run is one column/page window and its bytes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sent = []
        super().__init__(*args, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size

        def send(page: int, first: int, data: bytes) -> None:
            start = self._colstart + first
            self.command(self._const.COLUMNADDR, start, start + len(data) - 1, self._const.PAGEADDR, page, page)
            self.data(data)

        self._push(self.preprocess(image), send)


class DiffingSH1106(_PageDiffing, sh1106):  # type: ignore[misc]
    """An SH1106 (page addressing, 132-column RAM at an offset): page, start column, bytes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sent = []
        super().__init__(*args, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size

        def send(page: int, first: int, data: bytes) -> None:
            column = self._page_address_offset + first
            self.command(0xB0 + page, column & 0x0F, 0x10 | column >> 4)
            self.data(data)

        self._push(self.preprocess(image), send)


DIFFING_DRIVERS = {"ssd1306": DiffingSSD1306, "sh1106": DiffingSH1106}
