"""Screen models and the pure renderer that draws them for a 128x64 (or similar) monochrome display.

A screen is data (title, lines, dice, a highlighted line, a headline), so flows can be tested on what they
say and headless runs can print it; ``render`` turns it into a PIL image for any luma device.

Two sizes of text. The table's 5x7 font (``controller.glyphs``) is about 1.2 mm high on a 0.96" panel:
fine at arm's length, not from across the table. So a screen may carry a short ``headline`` (whose turn, a
number just drawn, the scores) that is drawn two or three times as big at the top, beside big dice faces; everything
else stays small. The big text is the small font's own glyphs scaled by whole pixels (nearest neighbour),
so it is as crisp as the small text, has every character the small one has, needs no second font, and,
like the small text, does not change with Pillow.

The layout is made of fixed regions (title, each row, footer, dice), so that when one line of a screen
changes, the others stay where they were: the display is sent only what changed (``controller.oled``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

from PIL import Image, ImageDraw

from controller.glyphs import CHAR_W, GLYPH_H, TOP, draw_text, text_mask

LINE_H = 10
TITLE_H = 11
DIE = 15  # die face size in pixels
BAND_H = 24
"""The headline band at the top, three 8-pixel pages: 2x text or 3x numbers (the font's 7 rows, doubled or
tripled), and dice faces half as big again as the small ones."""
BIG_DIE = 21
SMALL_H = 8
"""Row pitch under a headline: one 8-pixel page a row (the font's 7 rows and one blank), so a row's change is
sent as one page."""

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
    """What one screen says. ``dice`` are drawn as faces at the right (0: a blank face, a die still to
    roll or already played); ``selected`` highlights a line of a menu, the one OK takes; ``marked`` highlights
    a line that is no choice (the question the table asks: at a terminal it is not drawn as a menu's choice,
    which would read as a prompt); ``headline`` is the one thing to read from
    across the table, said again big: what the title or a line says small (whose turn, a number drawn, the
    scores). It takes the title bar's place, the title then following it small (without the headline's
    words it begins with: "Anna to move" under a big "Anna" says "to move") where the lines leave it a
    row."""

    title: str
    lines: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    selected: int | None = None
    marked: int | None = None
    footer: str = ""
    headline: str = ""
    private: str = ""  # the seat whose secret this shows (a hand, a bet): a terminal shows it to no one else
    picture: tuple[str, ...] = ()  # a square of modules at the right, rows of "1" (dark) and "0": a QR code

    def text(self) -> str:
        """The screen as plain text: what a headless run prints and what tests read (the headline only
        repeats, big, what the title or a line says)."""
        numbers = [str(d) for d in self.dice if d]  # a blank face says nothing
        head = self.title + (f"  [{' '.join(numbers)}]" if numbers else "")
        body = [("> " if i == self.selected else "  ") + line for i, line in enumerate(self.lines)]
        return "\n".join([head, *body, *([self.footer] if self.footer else [])])

    @property
    def lit(self) -> int | None:
        """The line drawn highlighted on the panel: a menu's choice or a marked question."""
        return self.selected if self.selected is not None else self.marked


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
    cut: tuple[str, ...]  # texts shortened with "~" or lost past the bottom (whole lines wait: "+N more")
    headline: str = ""
    scale: int = 1  # of the headline: 3 for a number, 2 for words


def layout(screen: Screen, width: int = 128, height: int = 64) -> Layout:
    """Menus (a ``selected`` line) scroll to keep the selection visible and show ``n/N``; other lines wrap
    at spaces onto the next row rather than lose their end (``Taken back: put the pieces back``).

    Every region has a fixed place: the title bar, the rows one under the other from the top, the footer
    at the bottom, so one line's change moves nothing else. With a headline, the band takes the title
    bar's place and the title (less the headline's words) is the first row, unless the lines need that row:
    a screen of a game keeps its rows where they are whether its title shows or not.
    """
    width -= picture_width(screen, height)  # the text keeps to the left of a picture
    pitch = SMALL_H if screen.headline else LINE_H
    bottom = height - (pitch if screen.footer else 0) + (0 if screen.headline else 1)
    dice_w = len(screen.dice) * (DIE + 2)

    def avail(y: int) -> int:
        beside_dice = not screen.headline and dice_w and y < TITLE_H + 2 + DIE
        return width - (dice_w + 2 if beside_dice else 0)

    title_text = screen.title
    headline, scale = "", 1
    cut: list[str] = []
    if screen.headline:
        band_w = width - (len(screen.dice) * (BIG_DIE + 2) + 2 if screen.dice else 0)
        scale = _scale(screen.headline, band_w)
        headline = screen.headline
        while len(headline) > 1 and _small_width(headline) * scale > band_w - 1:
            headline = headline[:-2] + "~"
        cut += [screen.headline] if headline != screen.headline else []
        if title_text.startswith(screen.headline):
            title_text = title_text[len(screen.headline):].lstrip(" :")
        rows, counter, body_cut, whole = _body(screen, BAND_H + SMALL_H, bottom, pitch, avail)
        if not whole:  # the title's row goes to the lines if they then show whole, or more of them does
            untitled = _body(screen, BAND_H, bottom, pitch, avail)
            if untitled[3] or (not untitled[1] and len(untitled[0]) > len(rows)):  # a counter needs the row
                rows, counter, body_cut, _ = untitled
                title_text = ""
    else:
        rows, counter, body_cut, _ = _body(screen, TITLE_H + 1, bottom, pitch, avail)
    title_w = width - (len(counter) + 1) * CHAR_W if counter else width
    title = _fit(title_text, title_w)
    footer = _fit(screen.footer, width) if screen.footer else ""
    cut += [t for t, f in ((title_text, title), (screen.footer, footer)) if t and f != t]
    return Layout(title, counter, tuple(rows), footer, tuple(cut + body_cut), headline, scale)


def _body(screen: Screen, top: int, bottom: int, pitch: int,
          avail: Callable[[int], int]) -> tuple[list[Row], str, list[str], bool]:
    """The rows from ``top`` down to ``bottom``, the menu's ``n/N`` if it scrolls, the texts cut short,
    and whether every line is shown whole (no scrolling, no row left out)."""
    cut: list[str] = []
    capacity = max(1, (bottom - top) // pitch)
    rows: list[Row] = []
    counter = ""
    if screen.lit is not None and len(screen.lines) > capacity:
        first = max(0, min(screen.lit - (capacity - 1) // 2, len(screen.lines) - capacity))
        counter = f"{screen.lit + 1}/{len(screen.lines)}"
        shown = list(enumerate(screen.lines))[first:first + capacity]
    else:
        shown = list(enumerate(screen.lines))
    whole = not counter
    y = top
    owner: list[int] = []  # the line each row shows (a wrapped line has several)
    for n, (i, line) in enumerate(shown):
        pieces = [line] if screen.lit is not None else _wrap(line, _chars(avail(y)))
        if rows and screen.lit is None and y + pitch * len(pieces) > bottom:
            # a list longer than the screen (a checklist) shows its head, each line whole, and in its last
            # row how many lines wait their turn
            whole = False
            last = owner[-1]
            first_row = owner.index(last)
            where = rows[first_row]
            del rows[first_row:], owner[first_row:]
            rows.append(Row(f"+{len(shown) - n + 1} more", where.y, where.width))
            break
        for piece in pieces:
            if y + pitch > bottom:  # the first line alone is longer than the screen: its end is lost
                whole = False
                cut.append(piece)
                continue
            fitted = _fit(piece, avail(y))
            if fitted != piece:
                cut.append(piece)
            rows.append(Row(fitted, y, avail(y), i == screen.lit))
            owner.append(i)
            y += pitch
    return rows, counter, cut, whole


def picture_width(screen: Screen, height: int) -> int:
    """The pixels a screen's picture takes at the right (and the column between it and the text): a QR code's
    modules two pixels square where the panel's height allows, one module of light margin around them."""
    if not screen.picture:
        return 0
    return (len(screen.picture) + 2) * _module(screen, height) + 2


def _module(screen: Screen, height: int) -> int:
    return max(1, min(2, height // (len(screen.picture) + 2)))


def _draw_picture(image: Image.Image, screen: Screen) -> None:
    """Light square, dark modules: a QR code as a phone's camera expects it (dark on light)."""
    draw = ImageDraw.Draw(image)
    scale = _module(screen, image.height)
    side = (len(screen.picture) + 2) * scale
    x0, y0 = image.width - side, (image.height - side) // 2
    draw.rectangle((x0, y0, x0 + side - 1, y0 + side - 1), fill=1)
    for r, row in enumerate(screen.picture):
        for c, module in enumerate(row):
            if module == "1":
                x, y = x0 + (c + 1) * scale, y0 + (r + 1) * scale
                draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=0)


def render(screen: Screen, width: int = 128, height: int = 64) -> Image.Image:
    """Draw ``screen`` on a new mode-"1" image: title bar (or headline band and title row), dice faces,
    lines, footer, and a picture at the right."""
    image = Image.new("1", (width, height), 0)
    if screen.picture:
        _draw_picture(image, screen)
        text = render(replace(screen, picture=()), width - picture_width(screen, height), height)
        image.paste(text, (0, 0))
        return image
    draw = ImageDraw.Draw(image)
    plan = layout(screen, width, height)
    if plan.headline:
        big = _big(plan.headline, plan.scale)
        image.paste(1, (1, (BAND_H - big.height) // 2), big)  # level with the big dice's middle
        pitch, shift = SMALL_H, -TOP  # a row is the glyphs and one blank row under them
        if plan.title:
            draw_text(image, (1, BAND_H + shift), plan.title, 1)
        if plan.counter:
            draw_text(image, (width - len(plan.counter) * CHAR_W - 1, BAND_H + shift), plan.counter, 1)
        for i, value in enumerate(screen.dice):
            _die(draw, width - (len(screen.dice) - i) * (BIG_DIE + 2) + 2, 1, value, BIG_DIE)
    else:
        pitch, shift = LINE_H, 0
        draw.rectangle((0, 0, width - 1, TITLE_H - 1), fill=1)
        draw_text(image, (1, 0), plan.title, 0)
        if plan.counter:
            draw_text(image, (width - len(plan.counter) * CHAR_W - 1, 0), plan.counter, 0)
        dice_w = len(screen.dice) * (DIE + 2)
        for i, value in enumerate(screen.dice):
            _die(draw, width - dice_w + i * (DIE + 2), TITLE_H + 2, value, DIE)
    for row in plan.rows:
        if row.selected:
            draw.rectangle((0, row.y, row.width - 1, row.y + pitch - 1), fill=1)
        draw_text(image, (1, row.y + shift), row.text, 0 if row.selected else 1)
    if screen.footer and plan.headline:  # no room for a rule: the footer is a bar, its glyphs a row under its
        # top edge (the panel's edge is under them), so they touch neither the bar's edge nor the row above
        draw.rectangle((0, height - pitch, width - 1, height - 1), fill=1)
        draw_text(image, (1, height - pitch + 1 - TOP), plan.footer, 0)
    elif screen.footer:  # a rule a row up, the glyphs two rows under it and a row over the panel's edge
        draw.line((0, height - pitch - 1, width - 1, height - pitch - 1), fill=1)
        draw_text(image, (1, height - pitch), plan.footer, 1)
    return image


def _scale(text: str, width: int) -> int:
    """3x for a number (a draw, the scores) where it fits the width, 2x for words: the same size for
    every player's name, whatever its letters."""
    return 3 if not any(c.isalpha() for c in text) and _small_width(text) * 3 <= width - 1 else 2


HALF_SPACE = CHAR_W // 2
"""A space in big text is half a character: a whole one, scaled, is a gap wider than a letter, and four
scores must fit (``12 31 8 20``)."""


def _small_width(text: str) -> int:
    return len(text) * CHAR_W - text.count(" ") * (CHAR_W - HALF_SPACE)


@cache
def _small(text: str) -> Image.Image:
    """``text``'s glyph rows in the small font (spaces as wide as ``_small_width`` counts them)."""
    image = Image.new("1", (max(1, _small_width(text)), GLYPH_H), 0)
    x = 0
    for word in text.split(" "):
        if word:
            image.paste(1, (x, -TOP), text_mask(word))
        x += len(word) * CHAR_W + HALF_SPACE
    return image


@cache
def _big(text: str, scale: int) -> Image.Image:
    """The headline at ``scale``: the small glyphs, each pixel a square."""
    small = _small(text)
    return small.resize((small.width * scale, small.height * scale), Image.Resampling.NEAREST)


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


def _die(draw: ImageDraw.ImageDraw, x: int, y: int, value: int, size: int) -> None:
    """A die face ``size`` pixels square: pips 2 pixels wide 4 apart on the small face, 3 wide 5 apart on
    the big one."""
    pip, step = (2, 4) if size < BIG_DIE else (3, 5)
    draw.rounded_rectangle((x, y, x + size - 1, y + size - 1), radius=3, outline=1, fill=0)
    for px, py in _PIPS.get(value, []):
        cx, cy = x + 1 + pip + px * step, y + 1 + pip + py * step
        draw.rectangle((cx, cy, cx + pip - 1, cy + pip - 1), fill=1)
