"""Screens: golden PNGs of screens as the simulated OLED showed them, and the renderer's rules: the
headline drawn big, and rows that stay in place so a change of one line is sent as its own page."""

from __future__ import annotations

import random

from hannibal_harness import Harness
from PIL import Image
from support import check_golden

import engines.hannipe as hannipe
from controller.flows.hannibal import Phase
from controller.flows.hannipe_screens import tip_screen
from controller.oled import pack_pages
from controller.screen import BAND_H, SMALL_H, Screen, layout, render


def _frame(t: Harness) -> Image.Image:
    image: Image.Image = t.hw.display_device.image.copy()
    return image




def test_golden_roll_screen(table: Harness) -> None:
    check_golden("roll", _frame(table))


def test_golden_step_screen_with_dice(table: Harness) -> None:
    table.roll(3, 5)
    check_golden("step-3-5", _frame(table))


def test_golden_roll_screen_after_a_turn_says_roll_on_a_row(table: Harness) -> None:
    table.roll(1, 2)
    table.play(12, 15)  # the total: the turn ends, blue to roll
    assert table.moves() == ["R1,2", "12-15"] and table.phase is Phase.ROLL
    plan = layout(table.table.display.current)
    assert plan.title == "" and plan.rows[0].text == "Done: 12-15 ROLL"  # the headline hides the title
    check_golden("roll-after-turn", _frame(table))


def test_golden_fixup_screen(table: Harness) -> None:
    table.roll(1, 2)
    table.move(12, 20)
    table.run(3.5)
    assert "lift 20" in table.text
    check_golden("fixup", _frame(table))


def test_renderer_is_deterministic_and_sized_by_device() -> None:
    screen = Screen("Title", ("one", "two"), dice=(6, 1), selected=1, footer="foot")
    a, b = render(screen), render(screen)
    assert a.tobytes() == b.tobytes() and a.size == (128, 64) and a.mode == "1"
    assert render(screen, 128, 32).size == (128, 32)


def test_a_message_stays_up_for_its_minimum_time(table: Harness) -> None:
    table.roll(1, 5)
    table.move(12, 17)  # commits, the next screen replaces the old at once (no hold)
    before = table.table.oled.frames
    table.table.display.show(Screen("Message"), hold=True)
    table.table.display.show(Screen("Next"))
    assert table.text.startswith("Message")
    table.run(table.profile.timing.message_min_s + 0.1)
    assert table.text.startswith("Next") and table.table.oled.frames == before + 2


# -- the headline: the one thing read from across the table, and rows that stay in place ------------------

def _pages_changed(a: Screen, b: Screen) -> set[int]:
    old, new = pack_pages(render(a)), pack_pages(render(b))
    return {p for p in range(len(old)) if old[p] != new[p]}


def test_a_headline_is_drawn_big_and_the_title_follows_it_small() -> None:
    plan = layout(Screen("Yellow to move", ("Done: 12-17",), dice=(3, 5), headline="Yellow"))
    assert (plan.headline, plan.scale, plan.title) == ("Yellow", 2, "to move")
    assert [row.y for row in plan.rows] == [BAND_H + SMALL_H]  # under the title's row, a page each
    assert layout(Screen("Gray spun 4", headline="4")).scale == 3  # a number is bigger still
    assert layout(Screen("T1", headline="8 6 12 31")).headline == "8 6 12 31"  # narrow spaces: it fits
    image = render(Screen("Yellow to move", headline="Yellow"))
    box = image.crop((0, 0, 128, BAND_H)).getbbox()
    assert box is not None and box[3] - box[1] >= 14  # twice the small capitals' 7 rows


def test_the_title_gives_its_row_to_lines_that_need_it() -> None:
    three = Screen("Blue: press ROLL", ("Home Y0 B0", "Wait Y0 B0", "Move a piece"), headline="Blue",
                   footer="NEXT menu, BACK undo")
    four = Screen("Blue: press ROLL", ("Done: 5-9", "Home Y0 B0", "Wait Y0 B0", "Move a piece"), headline="Blue",
                  footer="NEXT menu, BACK undo")
    assert layout(three).title == "press ROLL" and [r.y for r in layout(three).rows] == [32, 40, 48]
    assert layout(four).title == "" and [r.y for r in layout(four).rows] == [24, 32, 40, 48]
    assert not layout(four).cut
    assert layout(Screen("x", headline="Hannibal wins the game")).cut == ("Hannibal wins the game",)


def test_one_line_changed_under_a_headline_changes_its_own_page_only() -> None:
    before = Screen("Blue to move", ("Done: 36-30", "Home Y0 B0", "Wait Y0 B0", "Move a piece"), dice=(0, 6),
                    headline="Blue", footer="NEXT menu, BACK undo")
    after = Screen("Blue to move", ("Done: 30-24", "Home Y0 B0", "Wait Y0 B1", "Move a piece"), dice=(0, 0),
                   headline="Blue", footer="NEXT menu, BACK undo")
    assert _pages_changed(before, after) == {0, 1, 2, 3, 5}  # the die's pips (the band), the two rows
    roll = Screen("Yellow: press ROLL", ("Done: 5-9", "Home Y0 B0", "Wait Y0 B0", "Move a piece"), dice=(0, 0),
                  headline="Yellow", footer="NEXT menu, BACK undo")
    rolled = Screen("Yellow to move", ("OK if no change", "Home Y0 B0", "Wait Y0 B0", "Move a piece"),
                    dice=(3, 5), headline="Yellow", footer="NEXT menu, BACK undo")
    assert _pages_changed(roll, rolled) == {0, 1, 2, 3}  # the pips, one row: its glyphs stand in its own page


def test_a_blank_die_is_drawn_but_not_printed() -> None:
    screen = Screen("Yellow to move", dice=(0, 5), headline="Yellow")
    assert screen.text().splitlines()[0] == "Yellow to move  [5]"
    assert Screen("Yellow: press ROLL", dice=(0, 0)).text() == "Yellow: press ROLL"


def test_golden_hannipe_tip_with_the_turned_horse_big() -> None:
    rng = random.Random(1)
    g = hannipe.new_game(players=5, cards="deal")
    while not (g.step == "tip" and g.round == 3):
        if g.is_chance():
            moves, weights = zip(*g.chance_outcomes(), strict=True)
            g.apply(rng.choices(moves, weights)[0])
        else:
            g.apply(rng.choice(g.legal_moves()))
    seat = g.current_player or ""
    horse, face = g.hand(seat)[0]
    screen = tip_screen(g, seat, horse, face, choosing_face=False)
    assert screen.headline == hannipe.NAMES[g.turned[-1]] and f"turned {screen.headline}" in screen.text()
    assert not layout(screen).cut
    check_golden("hannipe_tip", render(screen))


def test_a_menu_under_a_headline_scrolls_with_its_counter_on_the_title_row() -> None:
    menu = Screen("Which move?", tuple(f"{i}-{i + 3}" for i in range(9)), selected=6, headline="Blue",
                  footer="NEXT/PREV, OK")
    plan = layout(menu)
    assert (plan.title, plan.counter) == ("Which move?", "7/9")
    assert [r.y for r in plan.rows] == [32, 40, 48] and any(r.selected and r.text == "6-9" for r in plan.rows)


def test_a_checklist_longer_than_the_screen_says_how_many_lines_wait() -> None:
    """Each line shown whole; the last row counts the lines waiting their turn, so nobody thinks the
    list is done when it is not. Only a first line longer than the whole screen is reported cut."""
    plan = layout(Screen("Set up the board", tuple(f"put 4 blue on {i}" for i in range(10)), footer="Hannibal"))
    assert [r.text for r in plan.rows] == ["put 4 blue on 0", "put 4 blue on 1", "put 4 blue on 2", "+7 more"]
    assert plan.cut == ()
    wrapped = layout(Screen("x", ("Taken back: put the pieces back", *"abcd"), footer="f", headline="Yellow"))
    assert [r.text for r in wrapped.rows] == ["Taken back: put the", "pieces back", "a", "+3 more"]
    huge = layout(Screen("x", (" ".join(["word"] * 60),), footer="f"))
    assert huge.cut and len(huge.rows) == 4  # what fits under the title bar, above the footer
