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
    private: str = ""  # the seat whose secret this shows (a hand, a bet): a terminal shows it to no one else

    def text(self) -> str:
        """The screen as plain text: what a headless run prints and what tests read."""
        head = self.title + (f"  [{' '.join(map(str, self.dice))}]" if self.dice else "")
        body = [("> " if i == self.selected else "  ") + line for i, line in enumerate(self.lines)]
        return "\n".join([head, *body, *([self.footer] if self.footer else [])])


@cache
def font() -> ImageFont.ImageFont:
    return ImageFont.load(str(FONT_PATH))


@dataclass(frozen=True)
class Row:
    """One text row as drawn: where, how wide it may be, whether it is the highlighted menu entry."""

    text: str
    y: int
    width: int
    selected: bool = False


@dataclass(frozen=True)
class Layout:
    """Where everything of a screen goes on a ``width`` x ``height`` panel, and what did not fit: a pure
    function of the screen, so tests can check every screen a game shows for text that had to be cut."""

    title: str
    counter: str  # "n/N" at the right of the title bar while a menu scrolls
    rows: tuple[Row, ...]
    footer: str
    cut: tuple[str, ...]  # texts that had to be shortened with "~" (rows past the bottom wait their turn)


def layout(screen: Screen, width: int = 128, height: int = 64) -> Layout:
    """Menus (a ``selected`` line) scroll to keep the selection visible and show ``n/N``; other lines wrap
    at spaces onto the next row rather than lose their end (``Taken back: put the pieces back``)."""
    cut: list[str] = []
    dice_w = len(screen.dice) * (DIE + 2)
    footer_h = LINE_H if screen.footer else 0
    top, bottom = TITLE_H + 1, height - footer_h + 1
    capacity = max(1, (bottom - top) // LINE_H)

    def avail(y: int) -> int:
        return width - (dice_w + 2 if dice_w and y < TITLE_H + 2 + DIE else 0)

    rows: list[Row] = []
    counter = ""
    if screen.selected is not None and len(screen.lines) > capacity:
        first = max(0, min(screen.selected - (capacity - 1) // 2, len(screen.lines) - capacity))
        counter = f"{screen.selected + 1}/{len(screen.lines)}"
        shown = list(enumerate(screen.lines))[first:first + capacity]
    else:
        shown = list(enumerate(screen.lines))
    y = top
    for i, line in shown:
        pieces = [line] if screen.selected is not None else _wrap(line, _chars(avail(y)))
        for piece in pieces:
            if y + LINE_H > bottom:
                break
            fitted = _fit(piece, avail(y))
            if fitted != piece:
                cut.append(piece)
            rows.append(Row(fitted, y, avail(y), i == screen.selected))
            y += LINE_H
    title_w = width - (len(counter) + 1) * CHAR_W if counter else width
    title = _fit(screen.title, title_w)
    footer = _fit(screen.footer, width) if screen.footer else ""
    cut += [t for t, f in ((screen.title, title), (screen.footer, footer)) if t and f != t]
    return Layout(title, counter, tuple(rows), footer, tuple(cut))


def render(screen: Screen, width: int = 128, height: int = 64) -> Image.Image:
    """Draw ``screen`` on a new mode-"1" image: title bar, dice faces, lines, footer."""
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    f = font()
    plan = layout(screen, width, height)
    draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
    draw.text((1, 0), plan.title, font=f, fill=0)
    if plan.counter:
        draw.text((width - len(plan.counter) * CHAR_W - 1, 0), plan.counter, font=f, fill=0)
    dice_w = len(screen.dice) * (DIE + 2)
    for i, value in enumerate(screen.dice):
        _die(draw, width - dice_w + i * (DIE + 2), TITLE_H + 2, value)
    for row in plan.rows:
        if row.selected:
            draw.rectangle((0, row.y, row.width - 1, row.y + LINE_H - 1), fill=1)
        draw.text((1, row.y), row.text, font=f, fill=0 if row.selected else 1)
    if screen.footer:
        draw.line((0, height - LINE_H - 1, width - 1, height - LINE_H - 1), fill=1)
        draw.text((1, height - LINE_H), plan.footer, font=f, fill=1)
    return image


def _chars(width: int) -> int:
    return max(1, (width - 2) // CHAR_W)


def _fit(text: str, width: int) -> str:
    limit = _chars(width)
    return text if len(text) <= limit else text[: limit - 1] + "~"


def _wrap(text: str, limit: int) -> list[str]:
    """Break at spaces so each piece fits ``limit`` characters; a word longer than a row stays whole (and
    is then cut, which the layout reports)."""
    if len(text) <= limit:
        return [text]
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > limit:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return out


def _die(draw: ImageDraw.ImageDraw, x: int, y: int, value: int) -> None:
    draw.rounded_rectangle((x, y, x + DIE - 1, y + DIE - 1), radius=3, outline=1, fill=0)
    for px, py in _PIPS.get(value, []):
        cx, cy = x + 3 + px * 4, y + 3 + py * 4
        draw.rectangle((cx, cy, cx + 1, cy + 1), fill=1)
