"""The real OLEDs, sending only what changed.

luma's ssd1306 and sh1106 ``display()`` pack the image pixel by pixel in Python (half of a commit tick's
CPU on a Zero 2 W) and push all 1024 bytes for every frame (23 ms of I2C at 400 kHz), although a new
screen usually changes a line or two. These subclasses pack with PIL's own conversion and send only the
8-pixel pages that changed, each cut to the runs of columns that changed (two changes far apart on one
page are two windows, not one span with everything between them), and on the SSD1306 a run that is the
same on pages one above the other is one window over those pages. Luma stays the device abstraction:
construction, contrast, power and cleanup are luma's.
"""

from __future__ import annotations

import re
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


_CHANGED = re.compile(rb"[^\x00]+")
WINDOW_COST = 10
"""Bytes a new window costs on the wire over going on with the current one: the addressing command (I2C
address, control byte, 6 command bytes) and a new data transaction (address, control byte). Unchanged
columns shorter than this between two changes are cheaper to send again than to skip."""


def changed_runs(old: bytes | None, new: bytes) -> list[tuple[int, int]]:
    """The runs of columns (first, last, inclusive) to send so the display holds ``new``: every column
    that differs, joined across gaps too short to be worth a window; everything when nothing was sent yet."""
    if old is None:
        return [(0, len(new) - 1)]
    if old == new:
        return []
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    runs: list[tuple[int, int]] = []
    for changed in _CHANGED.finditer(diff):
        first, last = changed.start(), changed.end() - 1
        if runs and first - runs[-1][1] <= WINDOW_COST:
            runs[-1] = (runs[-1][0], last)
        else:
            runs.append((first, last))
    return runs


Window = tuple[int, int, int, int]


def stacked(windows: list[Window]) -> list[Window]:
    """Runs on consecutive pages joined into one window where that costs fewer bytes (a line of text spans
    two or three pages, its runs about the same columns): the SSD1306 fills a window page after page, so
    the runs need one addressing command, not one each, at the price of the columns only one of them has."""
    out: list[Window] = []
    for window in windows:
        top, bottom, first, last = window
        for i, (t, b, f, la) in enumerate(out):
            joined = (t, bottom, min(f, first), max(la, last))
            if b == top - 1 and f <= last and first <= la and _cost(joined) <= _cost(out[i]) + _cost(window):
                out[i] = joined
                break
        else:
            out.append(window)
    return out


def _cost(window: Window) -> int:
    top, bottom, first, last = window
    return WINDOW_COST + (bottom - top + 1) * (last - first + 1)


class _PageDiffing:
    """What both controllers share: pack, compare with what the display holds, send the differences."""

    _sent: list[bytes | None]
    persist: bool  # luma's: whether the panel keeps its last image when the process exits

    def _windows(self, image: Image.Image) -> tuple[list[bytes], list[Window]]:
        """The new display RAM, and the windows (first page, last page, first column, last column) that
        bring the display from what it holds to it, each run of a page on its own page."""
        pages = pack_pages(image)
        before = self._sent if len(self._sent) == len(pages) else [None] * len(pages)
        windows = [(page, page, first, last) for page, (old, new) in enumerate(zip(before, pages, strict=True))
                   for first, last in changed_runs(old, new)]
        return pages, windows

    def _push(self, pages: list[bytes], windows: list[Window], send: Callable[[Window, bytes], None]) -> None:
        """``send(window, bytes)`` for each window, the window's columns of each of its pages in turn. Until
        every window is through, what the display holds is unknown: a failed push makes the next one send
        everything."""
        self._sent = [None] * len(pages)
        for window in windows:
            top, bottom, first, last = window
            send(window, b"".join(pages[p][first:last + 1] for p in range(top, bottom + 1)))
        self._sent = list(pages)


class DiffingSSD1306(_PageDiffing, ssd1306):  # type: ignore[misc]
    """An SSD1306 (horizontal addressing): each window is one column/page address command and its bytes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sent = []
        super().__init__(*args, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size

        def send(window: Window, data: bytes) -> None:
            top, bottom, first, last = window
            start = self._colstart
            self.command(self._const.COLUMNADDR, start + first, start + last, self._const.PAGEADDR, top, bottom)
            self.data(data)

        pages, windows = self._windows(self.preprocess(image))
        self._push(pages, stacked(windows), send)


class DiffingSH1106(_PageDiffing, sh1106):  # type: ignore[misc]
    """An SH1106 (page addressing, 132-column RAM at an offset): page, start column, bytes; it has no
    windows over several pages, so each page's runs go on their own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._sent = []
        super().__init__(*args, **kwargs)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size

        def send(window: Window, data: bytes) -> None:
            column = self._page_address_offset + window[2]
            self.command(0xB0 + window[0], column & 0x0F, 0x10 | column >> 4)
            self.data(data)

        self._push(*self._windows(self.preprocess(image)), send)


DIFFING_DRIVERS = {"ssd1306": DiffingSSD1306, "sh1106": DiffingSH1106}
