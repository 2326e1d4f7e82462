"""Hannipe! running order (shared/rules/hannipe.md, "Places", I-7): each step rule on its own and the
digest's worked examples, written with the digest's own ``[a,b][c]`` notation."""

from __future__ import annotations

import pytest

from engines.hannipe.places import Order, gain, lose, move, start


def lines(text: str) -> Order:
    """``"[vertige][noiro,roujo]"`` -> the order as the engine keeps it (front first)."""
    return tuple(tuple(part.split(",")) for part in text.strip("[]").split("]["))


def test_start_puts_every_starter_on_one_line_in_sheet_order() -> None:
    assert start(("vertige", "noiro", "cocotte")) == lines("[noiro,vertige,cocotte]")


# -- the worked examples, in sequence ------------------------------------------------------------------

def test_worked_example_sequence() -> None:
    order = lines("[noiro,roujo,grisette,vertige]")
    order = move(order, "vertige", 1)  # turned vertige, value 1
    assert order == lines("[vertige][noiro,roujo,grisette]")
    order = move(order, "roujo", 2 - 1)  # tip roujo 2 with v = 1
    assert order == lines("[vertige][roujo][noiro,grisette]")
    order = move(order, "noiro", 2 - 1)
    assert order == lines("[vertige][roujo][noiro][grisette]")
    order = move(order, "vertige", 0 - 1)  # tip vertige 0 with v = 1
    assert order == lines("[roujo][vertige][noiro][grisette]")


@pytest.mark.parametrize(("before", "horse", "places", "after"), [
    ("[x][y][h]", "h", 2, "[h][x][y]"),
    ("[h][x,y]", "h", -1, "[x,y][h]"),
    ("[x,y,h]", "h", -1, "[x,y][h]"),
])
def test_worked_examples_with_placeholders(before: str, horse: str, places: int, after: str) -> None:
    assert move(lines(before), horse, places) == lines(after)


# -- each step rule alone ---------------------------------------------------------------------------------

def test_gain_from_a_shared_line_passes_only_the_line_mates() -> None:
    assert gain(lines("[a][b,h,c][d]"), "h") == lines("[a][h][b,c][d]")


def test_lose_from_a_shared_line_drops_behind_only_the_line_mates() -> None:
    assert lose(lines("[a][b,h,c][d]"), "h") == lines("[a][b,c][h][d]")


def test_a_horse_alone_in_front_cannot_gain() -> None:
    order = lines("[h][a,b]")
    assert gain(order, "h") == order
    assert move(order, "h", 3) == order


def test_a_horse_sharing_the_front_line_can_still_gain() -> None:
    assert gain(lines("[h,a][b]"), "h") == lines("[h][a][b]")


def test_a_horse_alone_at_the_back_cannot_lose() -> None:
    order = lines("[a,b][h]")
    assert lose(order, "h") == order
    assert move(order, "h", -2) == order


def test_a_horse_sharing_the_last_line_can_still_lose() -> None:
    assert lose(lines("[a][b,h]"), "h") == lines("[a][b][h]")


def test_gain_passes_a_whole_line_of_several_horses_and_slots_in_behind_the_next() -> None:
    assert gain(lines("[a][b,c,d][h][e]"), "h") == lines("[a][h][b,c,d][e]")


def test_lose_passes_a_whole_line_of_several_horses_and_slots_in_before_the_next() -> None:
    assert lose(lines("[a][h][b,c,d][e]"), "h") == lines("[a][b,c,d][h][e]")


def test_moving_never_joins_an_existing_line() -> None:
    order = lines("[a][b][h][c,d]")
    for places in range(-3, 4):
        after = move(order, "h", places)
        assert ("h",) in after  # always a line of its own
        assert sorted(len(line) for line in after if line != ("h",)) == sorted(
            len(line) for line in order if line != ("h",))


def test_multi_place_moves_are_single_steps_in_a_row() -> None:
    order = lines("[a][b,c][d][h]")
    assert move(order, "h", 2) == gain(gain(order, "h"), "h") == lines("[a][h][b,c][d]")
    assert move(order, "h", 3) == lines("[h][a][b,c][d]")
    assert move(lines("[h][a][b,c]"), "h", -2) == lines("[a][b,c][h]")


def test_zero_places_changes_nothing() -> None:
    order = lines("[a,b][h]")
    assert move(order, "h", 0) == order


def test_a_horse_not_running_is_an_error() -> None:
    with pytest.raises(ValueError, match="not running"):
        gain(lines("[a][b]"), "h")
