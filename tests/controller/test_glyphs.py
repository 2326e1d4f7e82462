"""The table's 5x7 font, read off rendered screens: the characters a player misread on the old font differ by
several pixels, no row of text touches the next or the footer bar, and the font covers what screens show."""

from __future__ import annotations

import string

import pytest
from PIL import Image, ImageChops

from controller.glyphs import CHAR_W, GLYPH_H, covers
from controller.screen import BAND_H, SMALL_H, Screen, layout, render

CONFUSED = ["G6", "TI", "O0", "1l", "1I", "lI", "S5", "B8", "Z2", "D0", "g9", "q9", "gq", "il", "rn"]


def _cell(char: str) -> Image.Image:
    """``char`` as the OLED shows it: the first character of a screen's first row (no headline)."""
    image = render(Screen("", (char,)))
    y = layout(Screen("", (char,))).rows[0].y
    return image.crop((1, y, 1 + CHAR_W, y + 10))


@pytest.mark.parametrize("pair", CONFUSED)
def test_characters_a_player_misread_differ_by_at_least_three_pixels(pair: str) -> None:
    a, b = (_cell(c) for c in pair)
    differ = a.width * a.height - ImageChops.difference(a.convert("L"), b.convert("L")).histogram()[0]
    assert differ >= 3, f"{pair[0]} and {pair[1]} differ by {differ} pixels"


def test_every_printable_character_has_its_own_glyph() -> None:
    chars = [c for c in string.printable if c.isprintable()]
    assert covers("".join(chars)) and not covers("é")
    drawn = {_cell(c).tobytes() for c in chars if c != " "}
    assert len(drawn) == len(chars) - 1  # no two characters look the same


def test_rows_under_a_headline_and_the_footer_bar_never_touch() -> None:
    """Four rows of the letters that hang lowest and reach highest, under a headline, over a footer bar: the
    last pixel row of each 8-row row is blank, and the bar keeps a lit row over its text."""
    tall = "gjpqy|[]Q@_ (Gl)"
    screen = Screen("x", (tall, tall, tall, tall), headline="Gray", footer=tall)
    image = render(screen)
    plan = layout(screen)
    assert [row.y for row in plan.rows] == [BAND_H, BAND_H + SMALL_H, BAND_H + 2 * SMALL_H, BAND_H + 3 * SMALL_H]
    for row in plan.rows:
        gap = image.crop((0, row.y + SMALL_H - 1, 128, row.y + SMALL_H))
        assert gap.getbbox() is None, f"row at {row.y} touches the next"
        assert image.crop((0, row.y, 128, row.y + GLYPH_H)).getbbox() is not None  # its glyphs are there
    bar_top = image.crop((0, 64 - SMALL_H, 128, 64 - SMALL_H + 1))
    assert bar_top.convert("L").getextrema() == (255, 255), "the footer's text touches the bar's top edge"


def test_the_headline_stands_in_its_band_level_with_the_big_dice() -> None:
    image = render(Screen("Yellow to move", headline="12", dice=(3, 5)))
    text = image.crop((0, 0, 40, BAND_H)).getbbox()
    die = image.crop((128 - 46, 0, 128, BAND_H)).getbbox()
    assert text is not None and die is not None
    assert (text[1], text[3]) == (die[1], die[3]) == (1, 22)  # 3x digits: 21 rows, as high as a big die
