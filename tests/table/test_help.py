"""Hold NEXT: the screen explains its codes, from the codes page the docs print (``controller/help``), over the
game's screen; NEXT turns the page, any other button puts the game back, and those presses do nothing else."""

from __future__ import annotations

from hannibal_harness import Harness

from controller.flows.hannibal import Phase
from controller.help import explain
from controller.screen import Screen
from engines.registry import get_game


def test_holding_next_explains_the_codes_of_the_screen_it_was_pressed_on(table: Harness) -> None:
    table.roll(3, 5)
    table.play(12, 15)
    assert table.phase is Phase.STEP and "Home Y0 B0" in table.text and "Done: 12-15" in table.text
    table.hold("NEXT")  # the press opens the list of moves, as every press of NEXT does; the hold explains
    pages = [table.text]
    while "NEXT: more" in table.text:
        table.press("NEXT")
        pages.append(table.text)
    said = "\n".join(pages)
    assert "Home Y0 B0" in said and "Pieces home" in said  # the page's row for the code, its numbers any
    assert "Done: 12-15" in said and "12-15" in said and "Wait Y0 B0" in said
    assert all(page.splitlines()[0].startswith(f"{n}/{len(pages)} ") for n, page in enumerate(pages, 1))
    before = table.moves()
    table.press("OK")  # back to the game: this OK took no move from the list under the help
    assert table.moves() == before and table.phase is Phase.CHOOSE and "Which move?" in table.text


def test_help_stays_over_the_board_until_a_button_puts_the_game_back(table: Harness) -> None:
    table.hold("NEXT")  # on the roll screen: NEXT opened the players' own dice entry under the help
    assert table.text.splitlines()[0].startswith("1/") and "press ROLL" in table.text
    table.move(12, 14)  # a piece moved while the help is up: the game goes on underneath, the help stays
    table.run(4.0)
    assert table.text.splitlines()[0].startswith("1/")
    table.press("BACK")  # back to the game, and this BACK did not cancel the entry
    assert table.phase is Phase.DICE and "your dice" in table.text


def test_a_screen_without_codes_says_so() -> None:
    page, = explain(Screen("Plain words", ("nothing coded here",)), get_game("hannibal").title)
    assert "No codes" in page.text() and page.footer == "OK: back"
