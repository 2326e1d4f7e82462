"""Every rule and interpretation (I-n) of shared/rules/hannibal.md, one test or more each."""

from __future__ import annotations

import pytest
from hannibal_helpers import play, position, steps

from engines.base import IllegalMoveError, InvalidMoveError
from engines.hannibal import CAMPS, Roll, is_camp, new_game, parse

Y, B = "yellow", "blue"


# -- board and setup ------------------------------------------------------------------------------------


def test_board_has_49_positions_and_nine_camps() -> None:
    assert CAMPS == (0, 6, 12, 18, 24, 30, 36, 42, 48)
    assert [p for p in range(49) if is_camp(p)] == list(CAMPS)


def test_setup_matches_the_rules_page() -> None:
    assert new_game().to_json() == {
        "game": "hannibal", "to_move": "yellow", "dice": [], "doubles": False,
        "board": {"0": ["yellow", 4], "6": ["yellow", 4], "12": ["yellow", 4],
                  "36": ["blue", 4], "42": ["blue", 4], "48": ["blue", 4]},
        "waiting": {"yellow": 0, "blue": 0}, "home": {"yellow": 0, "blue": 0}, "winner": None,
    }


def test_first_option_and_its_validation() -> None:
    assert new_game(first="blue").to_move == "blue"
    with pytest.raises(ValueError, match="first"):
        new_game(first="green")


def test_occupancy_names_positions() -> None:
    s = new_game()
    assert s.occupancy() == {"pos:0": (Y, 4), "pos:6": (Y, 4), "pos:12": (Y, 4),
                             "pos:36": (B, 4), "pos:42": (B, 4), "pos:48": (B, 4)}


# -- rolls -----------------------------------------------------------------------------------------------


def test_a_roll_is_due_first_with_21_outcomes() -> None:
    s = new_game()
    assert s.is_chance() and s.current_player is None
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 21 and len({str(m) for m, _ in outcomes}) == 21
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    probs = {str(m): p for m, p in outcomes}
    assert probs["R3,3"] == pytest.approx(1 / 36) and probs["R3,5"] == pytest.approx(2 / 36)


def test_roll_sets_dice_smaller_first() -> None:
    s = new_game()
    s.apply(Roll(5, 3))
    assert s.dice == (3, 5) and not s.doubles and s.current_player == Y
    assert s.to_json()["dice"] == [3, 5]


def test_steps_are_not_legal_at_a_chance_node_and_rolls_not_mid_turn() -> None:
    s = new_game()
    with pytest.raises(IllegalMoveError):
        s.apply(parse("12-15"))
    s.apply(Roll(3, 5))
    with pytest.raises(IllegalMoveError):
        s.apply(Roll(1, 1))


# -- I-1: one die or the total, step by step --------------------------------------------------------------


def test_each_die_or_the_total_while_both_unused() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(2, 3))
    assert {"20-22", "20-23", "20-25"} <= steps(s)
    play(s, "20-22")
    assert s.dice == (3,)
    assert steps(s) == {"22-25"}  # the total is gone once a die is used


def test_total_consumes_both_dice_and_ends_the_turn() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(2, 3))
    play(s, "20-25")
    assert s.dice == () and s.to_move == B and s.is_chance()


def test_a_step_must_be_made_when_one_is_legal() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(2, 3))
    assert s.current_player == Y and s.legal_moves()  # no pass move exists
    assert all(str(m) != "pass" for m in s.legal_moves())


def test_unusable_die_is_lost_and_the_turn_passes() -> None:
    # after 20-22 with the 2, the 6 would need 22-28 but two blue pieces block 28
    s = position({20: (Y, 1), 28: (B, 2), 40: (B, 1)}, dice=(2, 6))
    play(s, "20-22")
    assert s.dice == () and s.to_move == B


# -- doubles and forfeits (I-5) ---------------------------------------------------------------------------


def test_doubles_give_the_same_player_the_next_roll() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(3, 3))
    assert s.doubles
    play(s, "20-23", "23-26")
    assert s.is_chance() and s.to_move == Y and not s.doubles


def test_doubles_using_the_total_also_roll_again() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(3, 3))
    play(s, "20-26")
    assert s.is_chance() and s.to_move == Y


def test_no_legal_step_forfeits_even_on_doubles() -> None:
    # yellow's only piece at 46: 3 and 6 overshoot the goal; back 3 (43) and back 6 (40) are track spaces
    s = position({46: (Y, 1), 30: (B, 1)}, to_move=Y)
    s.apply(Roll(3, 3))
    assert s.dice == () and not s.doubles and s.to_move == B and s.is_chance()


def test_waiting_piece_with_no_entry_forfeits() -> None:
    s = position({3: (B, 2), 5: (B, 2), 30: (Y, 1)}, waiting=(1, 0))
    s.apply(Roll(3, 5))
    assert s.to_move == B and s.waiting(Y) == 1


# -- piece moves ------------------------------------------------------------------------------------------


def test_piece_moves_forward_exactly_and_passes_over_anything() -> None:
    s = position({10: (Y, 1), 11: (B, 3), 12: (B, 2), 30: (B, 1)}, dice=(4, 5))
    assert {"10-14", "10-15"} <= steps(s)
    assert "10-19" in steps(s)


def test_blue_moves_toward_zero() -> None:
    s = position({30: (B, 1), 10: (Y, 1)}, to_move=B, dice=(1, 2))
    assert steps(s) == {"30-29", "30-28", "30-27"}


def test_backward_only_onto_a_camp() -> None:
    s = position({14: (Y, 1), 40: (B, 1)}, dice=(2, 3))
    assert "14-12" in steps(s)  # back 2 onto camp 12
    assert "14-11" not in steps(s) and "14-9" not in steps(s)


def test_backward_onto_own_base_camp() -> None:
    s = position({3: (Y, 1), 40: (B, 1)}, dice=(1, 2))
    assert "3-0" in steps(s)


def test_backward_onto_opposing_camp_follows_camp_rules() -> None:
    s = position({20: (Y, 1), 18: (B, 1), 40: (B, 1)}, dice=(2, 5))
    assert "20-18" not in steps(s)  # a lone piece never takes a camp held by the opponent


# -- stack moves (and I-2) ---------------------------------------------------------------------------------


def test_worked_case_piece_onto_stack_then_stack_of_four_moves() -> None:
    s = position({0: (Y, 1), 6: (Y, 3), 30: (B, 1)}, dice=(4, 6))
    assert "S6-12" not in steps(s) and "S6-18" not in steps(s)  # the 4 alone first: stack has 3
    play(s, "0-6")
    assert s.at(6) == (Y, 4)
    assert {"S6-12", "S6-18"} <= steps(s)
    play(s, "S6-18")
    assert s.at(18) == (Y, 4) and s.at(6) is None


def test_stack_size_must_equal_a_die_or_the_total() -> None:
    s = position({12: (Y, 3), 40: (B, 1)}, dice=(1, 2))
    assert {"S12-18", "S12-24", "S12-6", "S12-0"} <= steps(s)  # total 3
    s = position({12: (Y, 3), 40: (B, 1)}, dice=(1, 4))
    assert not any(m.startswith("S") for m in steps(s))


def test_stack_moves_backward_two_camps_i2() -> None:
    s = position({24: (Y, 2), 40: (B, 1)}, dice=(2, 5))
    assert {"S24-30", "S24-36", "S24-18", "S24-12"} <= steps(s)


def test_stacks_on_track_spaces_never_move_whole() -> None:
    s = position({13: (Y, 2), 40: (B, 1)}, dice=(2, 5))
    assert not any(m.startswith("S") for m in steps(s))
    play(s, "13-15")
    assert s.at(13) == (Y, 1) and s.at(15) == (Y, 1)


def test_a_single_piece_on_a_camp_is_no_stack() -> None:
    s = position({12: (Y, 1), 40: (B, 1)}, dice=(1, 3))
    assert not any(m.startswith("S") for m in steps(s))


def test_stack_move_joins_own_stack() -> None:
    s = position({12: (Y, 2), 18: (Y, 3), 40: (B, 1)}, dice=(2, 6))
    play(s, "S12-18")
    assert s.at(18) == (Y, 5)


def test_stack_move_reaches_home_but_not_beyond() -> None:
    s = position({36: (Y, 2), 20: (Y, 1), 40: (B, 1)}, dice=(2, 6))
    assert {"S36-42", "S36-48"} <= steps(s)
    play(s, "S36-48")
    assert s.home(Y) == 11 and s.at(36) is None
    s = position({42: (Y, 2), 40: (B, 1)}, dice=(2, 6))
    assert "S42-48" in steps(s) and all(not m.startswith("S42-5") for m in steps(s))


# -- landing -----------------------------------------------------------------------------------------------


def test_landing_on_own_pieces_stacks_them() -> None:
    s = position({10: (Y, 1), 13: (Y, 2), 40: (B, 1)}, dice=(3, 5))
    play(s, "10-13")
    assert s.at(13) == (Y, 3)


def test_home_by_exact_count_and_no_overshoot() -> None:
    s = position({45: (Y, 1), 20: (Y, 1), 30: (B, 1)}, dice=(3, 5))
    assert "45-48" in steps(s)
    assert not any(m.startswith("45-") and m != "45-48" and int(m[3:]) > 48 for m in steps(s))
    assert all(m not in steps(s) for m in ("45-50", "45-53"))
    play(s, "45-48")
    assert s.home(Y) == 11 and s.at(48) is None


def test_overshoot_is_illegal() -> None:
    s = position({46: (Y, 1), 30: (B, 1)}, dice=(3, 5))
    assert steps(s) == set()  # 3, 5 and 8 all overshoot; no backward camp at 43, 41 or 38
    assert s.to_json()["dice"] == [3, 5]


def test_arriving_home_ignores_pieces_on_their_base_i3() -> None:
    s = position({44: (Y, 1), 48: (B, 4), 30: (B, 1)}, dice=(4, 5))
    assert "44-48" in steps(s)
    play(s, "44-48")
    assert s.at(48) == (B, 4) and s.home(Y) == 12 and s.winner == Y


def test_blue_arrives_home_at_zero_ignoring_yellow_base_stack() -> None:
    s = position({0: (Y, 4), 3: (B, 1), 40: (B, 1)}, to_move=B, dice=(1, 3))
    play(s, "3-0")
    assert s.at(0) == (Y, 4) and s.home(B) == 11


def test_track_space_with_one_opposing_piece_is_sent() -> None:
    s = position({10: (Y, 1), 13: (B, 1), 40: (B, 1)}, dice=(3, 5))
    play(s, "10-13")
    assert s.at(13) == (Y, 1) and s.waiting(B) == 1


def test_track_space_with_two_opposing_pieces_blocks() -> None:
    s = position({10: (Y, 1), 13: (B, 2), 40: (B, 1)}, dice=(3, 5))
    assert "10-13" not in steps(s)


def test_lone_piece_cannot_land_on_a_camp_held_by_one_opposing_piece() -> None:
    s = position({10: (Y, 1), 12: (B, 1), 40: (B, 1)}, dice=(2, 5))
    assert "10-12" not in steps(s)


def test_stack_of_four_takes_camp_from_three_not_four() -> None:
    s = position({12: (Y, 4), 18: (B, 3), 40: (B, 1)}, dice=(1, 3))
    assert "S12-18" in steps(s)
    play(s, "S12-18")
    assert s.at(18) == (Y, 4) and s.waiting(B) == 3
    s = position({12: (Y, 4), 18: (B, 4), 40: (B, 1)}, dice=(1, 3))
    assert "S12-18" not in steps(s)


def test_stack_landing_on_a_track_space_is_impossible() -> None:
    s = position({12: (Y, 2), 40: (B, 1)}, dice=(2, 3))
    assert {m for m in steps(s) if m.startswith("S")} <= {"S12-18", "S12-24", "S12-6", "S12-0"}


# -- sending and entry (I-4) -------------------------------------------------------------------------------


def test_sent_pieces_wait_and_only_entries_are_legal() -> None:
    s = position({20: (Y, 1), 30: (B, 1)}, dice=(2, 5), waiting=(1, 0))
    assert steps(s) == {"E2", "E5"}


def test_entries_use_single_dice_never_the_total() -> None:
    s = position({20: (Y, 1), 30: (B, 1)}, dice=(2, 3), waiting=(2, 0))
    assert steps(s) == {"E2", "E3"}  # never E5


def test_blue_entries_with_6_and_2_go_to_42_and_46_only() -> None:
    s = position({20: (Y, 1), 30: (B, 1)}, to_move=B, dice=(2, 6), waiting=(0, 2))
    assert steps(s) == {"E42", "E46"}


def test_entry_can_send_a_lone_piece_on_a_track_space() -> None:
    s = position({3: (B, 1), 30: (B, 1), 20: (Y, 1)}, dice=(3, 4), waiting=(1, 0))
    play(s, "E3")
    assert s.at(3) == (Y, 1) and s.waiting(B) == 1


def test_entry_cannot_land_on_two_or_on_an_opposing_camp() -> None:
    s = position({3: (B, 2), 6: (B, 1), 30: (B, 1), 20: (Y, 1)}, dice=(3, 6), waiting=(1, 0))
    assert steps(s) == set()


def test_after_the_last_entry_the_other_die_is_free() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(2, 5), waiting=(1, 0))
    play(s, "E2")
    assert s.waiting(Y) == 0
    assert "20-25" in steps(s) and "2-7" in steps(s)


def test_second_waiting_piece_enters_with_the_other_die() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(2, 5), waiting=(2, 0))
    play(s, "E5")
    assert steps(s) == {"E2"}


# -- end ---------------------------------------------------------------------------------------------------


def test_last_piece_home_wins_and_clears_dice() -> None:
    s = position({46: (Y, 1), 30: (B, 1)}, dice=(2, 2))
    play(s, "46-48")
    assert s.is_over() and s.winner == Y and s.dice == () and s.current_player is None
    assert s.legal_moves() == [] and s.returns() == {"yellow": 1.0, "blue": 0.0}
    assert s.to_json()["winner"] == "yellow"


# -- notation ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["12-17", "S12-24", "E3", "E45", "R3,5", "17-12"])
def test_notation_round_trips(text: str) -> None:
    assert str(parse(text)) == text


def test_roll_notation_sorts_dice() -> None:
    assert str(parse("R5,3")) == "R3,5"


@pytest.mark.parametrize("text", ["", "12", "12-", "S-3", "E", "R0,3", "R3,7", "49-50", "12-12", "X3"])
def test_malformed_notation_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse(text)


def test_parse_move_tells_invalid_from_illegal() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(2, 3))
    with pytest.raises(InvalidMoveError):
        s.parse_move("twenty")
    with pytest.raises(IllegalMoveError, match="20-24"):
        s.parse_move("20-24")
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)
    assert str(s.parse_move(" 20-22 ")) == "20-22"


# -- serialisation -----------------------------------------------------------------------------------------


def test_json_round_trip_mid_turn() -> None:
    s = position({20: (Y, 1), 40: (B, 1)}, dice=(3, 3))
    play(s, "20-23")
    j = s.to_json()
    assert j["dice"] == [3] and j["doubles"] is True
    again = type(s).from_json(j)
    assert again == s and again.to_json() == j


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"to_move": "green"}, "to_move"),
        ({"dice": [7]}, "dice"),
        ({"dice": [1, 2, 3]}, "dice"),
        ({"doubles": "yes"}, "doubles"),
        ({"board": {"49": ["yellow", 1]}}, "board"),
        ({"board": {"0": ["yellow", 13]}}, "board.0"),
        ({"waiting": {"yellow": 1}}, "waiting"),
        ({"home": {"yellow": 0, "blue": 1}}, "pieces"),
        ({"winner": "blue"}, "winner"),
        ({"game": "chess"}, "game"),
    ],
)
def test_from_json_rejects_inconsistent_states(patch: dict[str, object], message: str) -> None:
    data = new_game().to_json() | patch
    with pytest.raises(ValueError, match=message):
        type(new_game()).from_json(data)
