"""Screen models and the pure renderer that draws them for a 128x64 (or similar) monochrome display.

A screen is data (title, lines, dice, a highlighted line), so flows can be tested on what they say and
headless runs can print it; ``render`` turns it into a PIL image for any luma device.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_PATH = Path(__file__).resolve().parent / "fonts" / "courB08.pil"
CHAR_W = 6
LINE_H = 10
TITLE_H = 11
DIE = 15  # die face size in pixels

_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


@dataclass(frozen=True)
class Screen:
    """What one screen says. ``dice`` are drawn as faces at the right; ``selected`` highlights a line."""

    title: str
    lines: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    selected: int | None = None
    footer: str = ""

    def text(self) -> str:
        """The screen as plain text: what a headless run prints and what tests read."""
        head = self.title + (f"  [{' '.join(map(str, self.dice))}]" if self.dice else "")
        body = [("> " if i == self.selected else "  ") + line for i, line in enumerate(self.lines)]
        return "\n".join([head, *body, *([self.footer] if self.footer else [])])


@cache
def font() -> ImageFont.ImageFont:
    return ImageFont.load(str(FONT_PATH))


def render(screen: Screen, width: int = 128, height: int = 64) -> Image.Image:
    """Draw ``screen`` on a new mode-"1" image: title bar, dice faces, lines, footer."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    f = font()
    draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
    draw.text((1, 0), _fit(screen.title, width), font=f, fill=0)
    dice_w = len(screen.dice) * (DIE + 2)
    for i, value in enumerate(screen.dice):
        _die(draw, width - dice_w + i * (DIE + 2), TITLE_H + 2, value)
    footer_h = LINE_H if screen.footer else 0
    y = TITLE_H + 1
    for i, line in enumerate(screen.lines):
        if y + LINE_H > height - footer_h + 1:
            break
        avail = width - (dice_w + 2 if y < TITLE_H + 2 + DIE else 0)
        if i == screen.selected:
            draw.rectangle((0, y, avail - 1, y + LINE_H - 1), fill=1)
        draw.text((1, y), _fit(line, avail), font=f, fill=0 if i == screen.selected else 1)
        y += LINE_H
    if screen.footer:
        draw.line((0, height - LINE_H - 1, width - 1, height - LINE_H - 1), fill=1)
        draw.text((1, height - LINE_H), _fit(screen.footer, width), font=f, fill=1)
    return image


def _fit(text: str, width: int) -> str:
    limit = max(1, (width - 2) // CHAR_W)
    return text if len(text) <= limit else text[: limit - 1] + "~"


def _die(draw: ImageDraw.ImageDraw, x: int, y: int, value: int) -> None:
    draw.rounded_rectangle((x, y, x + DIE - 1, y + DIE - 1), radius=3, outline=1, fill=0)
    for px, py in _PIPS.get(value, []):
        cx, cy = x + 3 + px * 4, y + 3 + py * 4
        draw.rectangle((cx, cy, cx + 1, cy + 1), fill=1)
