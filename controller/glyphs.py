"""The table's own 5x7 bitmap font, read from ``fonts/boardkeeper-5x7.txt`` and drawn without Pillow's font code.

Why its own font: on a 0.96" panel the classic 8-pixel Courier made ``G5`` read ``65``, ``TNT`` read ``INT`` and
``Gray`` read ``6ray``, and its descenders met the next row. This one is drawn so the pairs a player could
misread differ by several pixels (``0`` is slashed, ``1`` has a flag and a foot, ``I`` serifs, ``l`` a tail,
``G`` a spur, ``5`` a flat top and corner), and every glyph, descenders included, stands in 7 rows, so under the
headline (8-pixel rows) a row never touches the next. The glyphs are text in the package (no binary, no
licence but the project's) and drawn by whole pixels, so screens and the golden frames do not change with the
installed Pillow or FreeType.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from PIL import Image

FONT_PATH = Path(__file__).resolve().parent / "fonts" / "boardkeeper-5x7.txt"
GLYPH_W = 5
GLYPH_H = 7
CHAR_W = GLYPH_W + 1  # a column between characters
TOP = 2
"""Blank rows above the glyphs in a line of text: a text drawn at y has its glyphs on rows y+2 to y+8, the
places the layout's rows and bars were measured for."""
MISSING = "?"


@cache
def glyphs() -> dict[str, Image.Image]:
    """Each character's 5x7 mask, parsed once from the font's text file."""
    out: dict[str, Image.Image] = {}
    text = FONT_PATH.read_text(encoding="ascii")
    lines = [line for line in text.splitlines() if not line.startswith("# ")]  # a comment; rows have no space
    for i, line in enumerate(lines):
        if not line.startswith("= "):
            continue
        name = line[2:]
        char = " " if name == "(space)" else name
        rows = lines[i + 1:i + 1 + GLYPH_H]
        mask = Image.new("1", (GLYPH_W, GLYPH_H), 0)
        for y, row in enumerate(rows):
            for x, pixel in enumerate(row):
                if pixel == "#":
                    mask.putpixel((x, y), 1)
        out[char] = mask
    return out


def covers(text: str) -> bool:
    """Whether every character of ``text`` has a glyph (a missing one is drawn as ``?``)."""
    known = glyphs()
    return all(c in known for c in text)


@lru_cache(maxsize=1024)
def text_mask(text: str) -> Image.Image:
    """``text`` as a mask ``CHAR_W`` pixels a character wide and ``TOP + GLYPH_H`` rows high: paste a colour
    through it (cached: a screen's rows mostly repeat from one frame to the next)."""
    known = glyphs()
    mask = Image.new("1", (max(1, len(text) * CHAR_W), TOP + GLYPH_H), 0)
    for i, char in enumerate(text):
        mask.paste(known.get(char, known[MISSING]), (i * CHAR_W, TOP))
    return mask


def draw_text(image: Image.Image, xy: tuple[int, int], text: str, fill: int) -> None:
    """Draw ``text`` on a mode-"1" image with its top-left at ``xy`` (its glyphs ``TOP`` rows below it)."""
    if text:
        image.paste(fill, xy, text_mask(text))
