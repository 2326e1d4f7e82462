"""Every screen every game's flow shows fits the OLED: no text cut short or without its glyphs, no code the
table's help (hold NEXT) cannot explain, no two menu entries alike; and a game ends on its result, not on the
last spin or payout before it.

The screens come from whole demo games on the simulated table (with players' mistakes, so fix-ups, stuck
sensors and takebacks show up too), read through the renderer's own layout, which reports anything it
had to shorten.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from controller.demo import run_demo
from controller.glyphs import covers
from controller.help import CODE_LIKE, codes
from controller.screen import Screen, layout
from controller.table import position_screen
from engines.registry import games, get_game


@cache
def _unexplained(text: str, title: str) -> tuple[str, ...]:
    """The code-like words of a screen's text (a number against a letter, a sign before one) that no row of the
    codes page explains: what holding NEXT would leave unexplained."""
    spans = [m.span() for code in codes(title) for m in code.pattern.finditer(text)]
    return tuple(m.group() for m in CODE_LIKE.finditer(text)
                 if not any(a <= m.start() and m.end() <= b for a, b in spans))


def unexplained(screen: Screen, title: str) -> tuple[str, ...]:
    return _unexplained("\n".join((screen.title, *screen.lines, screen.footer)), title)


@pytest.mark.parametrize("game", [g.name for g in games() if g.flow and g.scripted])
def test_every_screen_fits_and_menu_entries_stay_distinct(game: str, tmp_path: Path) -> None:
    problems: list[str] = []
    seen = 0

    def check(screen: Screen) -> None:
        nonlocal seen
        seen += 1
        plan = layout(screen)
        problems.extend(f"cut: {text!r} on {screen.title!r}" for text in plan.cut)
        problems.extend(f"no glyph in {text!r}" for text in (screen.title, *screen.lines, screen.footer,
                                                              screen.headline) if not covers(text))
        problems.extend(f"no help for {code!r} on {screen.title!r}" for code in unexplained(screen, info.title))
        if screen.selected is not None:
            rows = [row.text for row in plan.rows]
            if len(set(rows)) != len(rows):
                problems.append(f"two entries alike on {screen.title!r}: {rows}")

    info = get_game(game)
    for seed in info.test_seeds:  # the entry's seeds: enough to reach its menus and fix-ups
        result = run_demo(seed, tmp_path / f"{game}-{seed}.jsonl", game=game, mistakes=0.2, echo=check)
        final = result.table.flow.game
        assert final.is_over()
        assert result.table.display.current == position_screen(final), f"seed {seed} ends on a screen before the result"
    assert seen > (0 if info.short else 100)  # a short game may end within a few screens
    assert not problems, "\n".join(sorted(set(problems))[:20])
