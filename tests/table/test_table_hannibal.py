"""Hannibal end to end on the simulated table: magnets and buttons in, screens and journal out."""

from __future__ import annotations

from pathlib import Path

from hannibal_harness import Harness

from controller.flows.hannibal import Phase
from hw_config.profile import PROFILES


def test_set_up_board_leads_to_the_first_roll(table: Harness) -> None:
    assert table.phase is Phase.ROLL
    assert "Yellow: press ROLL" in table.text
    assert table.moves() == []


def test_an_empty_board_gets_setup_instructions(tmp_path: Path) -> None:
    t = Harness(tmp_path / "j.jsonl", set_up=False)
    assert t.phase is Phase.SETUP
    assert "put 4 yellow on 0" in t.text and "put 4 blue on 48" in t.text
    t.place(0, 4)
    assert "put 4 yellow on 0" not in t.text


def test_roll_button_rolls_and_journals_before_showing(table: Harness) -> None:
    table.press("ROLL")
    lines = table.journal()
    assert lines[1]["move"].startswith("R") and lines[1]["player"] == "yellow"
    shown = lines[1]["state"]["dice"]
    assert table.phase is Phase.STEP and f"[{shown[0]} {shown[1]}]" in table.text


def test_a_visible_move_commits_on_placing(table: Harness) -> None:
    table.roll(1, 5)
    table.move(12, 17)  # only 12-17 can put a piece on 17 with 1 and 5
    assert table.moves() == ["R1,5", "12-17"]
    assert "[1]" in table.text


def test_a_reed_closing_for_a_moment_is_no_move(table: Harness) -> None:
    table.roll(1, 5)
    table.board.stuck_closed.add(table.cell(17))  # a chattering reed reads a piece on 17, as 12-17 would
    table.run(0.1)
    table.board.stuck_closed.discard(table.cell(17))
    table.run(1.0)
    assert table.moves() == ["R1,5"] and table.phase is Phase.STEP


def test_a_move_the_sensors_cannot_tell_is_asked(table: Harness) -> None:
    table.roll(5, 6)
    table.move(12, 17)  # 12-17 with the 5, or 6-17 with the total: both leave the same sensors
    table.run(0.5)
    assert table.phase is Phase.CHOOSE and "12-17" in table.text and "6-17" in table.text
    table.pick("12-17")
    assert table.moves() == ["R5,6", "12-17"]


def test_illegal_placement_is_guided_back_and_nothing_applied(table: Harness) -> None:
    table.roll(1, 2)
    table.move(12, 20)  # 8 is no die nor total
    table.run(3.5)  # the grace period
    assert table.phase is Phase.FIXUP
    assert "lift 20" in table.text
    assert table.moves() == ["R1,2"]
    table.lift(20)
    table.place(12)
    assert table.phase is Phase.STEP and table.moves() == ["R1,2"]


def test_ambiguous_hidden_move_is_chosen_with_the_buttons(table: Harness) -> None:
    table.roll(3, 6)
    table.move(0, 6)  # a piece from the stack on 0 onto the stack on 6: no sensor changes
    assert table.moves() == ["R3,6"]
    table.press("OK")
    assert table.phase is Phase.CHOOSE
    assert "> 0-6" in table.text and "6-12" in table.text
    table.press("NEXT")
    assert "> 6-12" in table.text
    table.press("PREV")
    table.press("OK")
    assert table.moves() == ["R3,6", "0-6"]


def test_send_doubles_and_entry(table: Harness) -> None:
    table.roll(1, 5)
    table.play(12, 17)
    table.play(0, 1)
    table.roll(6, 6)  # blue
    table.play(36, 30)
    table.play(30, 24)
    assert table.phase is Phase.ROLL and "Blue: press ROLL" in table.text  # doubles: blue again
    table.roll(1, 6)
    table.play(24, 23)
    table.lift(23)
    table.lift(17)  # the yellow piece goes to its waiting pool
    table.place(17)
    assert table.moves()[-1] == "23-17"
    assert "Yellow 1 off 17 to wait" in "\n".join(s.text() for s in table.screens)
    assert "Wait Y1 B0" in table.text
    table.roll(2, 4)
    assert "Enter a piece" in table.text
    table.place(4)
    assert table.moves()[-1] == "E4"
    assert table.journal()[-1]["state"]["waiting"] == {"yellow": 0, "blue": 0}


def test_takeback_after_confirmation(table: Harness) -> None:
    table.roll(1, 5)
    table.move(12, 17)
    table.press("BACK")
    assert table.phase is Phase.UNDO and "Take back?" in table.text
    table.press("OK")
    assert table.moves() == ["R1,5", "12-17", "undo"]
    assert table.journal()[-1]["state"]["dice"] == [1, 5]
    table.run(3.5)
    assert "lift 17" in table.text  # the board must follow
    table.lift(17)
    table.place(12)
    assert table.phase is Phase.STEP and "[1 5]" in table.text
    assert "put the pieces back" not in table.text  # the message went once it stopped being true


def test_takeback_declined_changes_nothing(table: Harness) -> None:
    table.roll(1, 5)
    table.move(12, 17)
    table.press("BACK")
    table.press("BACK")
    assert table.phase is Phase.STEP and table.moves() == ["R1,5", "12-17"]


def test_dice_are_never_taken_back(table: Harness) -> None:
    table.press("BACK")
    assert table.phase is Phase.ROLL  # nothing to take back before any step
    table.roll(5, 6)
    table.press("BACK")
    assert table.phase is Phase.STEP


def test_menu_move_without_sensors_then_board_follows(table: Harness) -> None:
    table.roll(5, 6)
    table.press("NEXT")
    assert table.phase is Phase.CHOOSE
    while "> 12-17" not in table.text:
        table.press("NEXT")
    table.press("OK")
    assert table.moves()[-1] == "12-17"
    table.run(3.5)
    assert "put 1 yellow on 17" in table.text


def test_a_piece_held_in_the_hand_is_asked_about_not_applied(table: Harness) -> None:
    table.roll(1, 5)
    table.play(6, 7)
    table.lift(7)  # thinking, piece in hand: 7-12 (onto the own stack) would fit the sensors
    table.run(3.5)
    assert table.moves() == ["R1,5", "6-7"] and table.phase is Phase.CHOOSE and "> 7-12" in table.text
    table.place(7)  # changes their mind: the question goes away, nothing is applied
    assert table.phase is Phase.STEP and table.moves() == ["R1,5", "6-7"]


def test_ok_on_an_unchanged_board_asks_and_back_means_no_move(table: Harness) -> None:
    table.roll(1, 6)
    table.press("OK")
    assert table.phase is Phase.CHOOSE
    table.press("BACK")  # "I did not move"
    assert table.phase is Phase.STEP and table.moves() == ["R1,6"]


def test_a_stack_moved_one_piece_at_a_time(table: Harness) -> None:
    table.roll(4, 6)
    for _ in range(4):
        table.move(12, 18)
        assert table.moves() == ["R4,6"]  # the first piece on 18 is no proof of 12-18
    table.run(3.5)  # the last change was a lift: the table asks rather than assume
    table.pick("S12-18")
    assert table.moves() == ["R4,6", "S12-18"]


def test_a_stack_moved_by_hand_is_no_piece_move_off_another_stack(table: Harness) -> None:
    table.roll(6, 6)
    table.play(12, 24)
    table.roll(2, 4)  # doubles: yellow again. 12-18 (the total) and S6-18 (4 pieces, a 4) are both legal
    table.move(6, 18)  # the first piece of the stack on 6: the sensors see 18 filled, exactly as 12-18 would
    assert table.moves() == ["R6,6", "12-24", "R2,4"]  # no proof of 12-18: it is asked, never applied
    assert table.phase is Phase.CHOOSE and "12-18" in table.text and "S6-18" in table.text
    for _ in range(3):
        table.move(6, 18)  # the rest of the stack; the last lift empties 6 and the question goes away
    table.run(3.5)
    table.pick("S6-18")
    assert table.moves() == ["R6,6", "12-24", "R2,4", "S6-18"]


def test_the_choice_goes_away_when_the_board_is_put_back(table: Harness) -> None:
    table.roll(5, 6)
    table.move(12, 17)
    table.run(0.5)
    assert table.phase is Phase.CHOOSE
    table.move(17, 12)
    assert table.phase is Phase.STEP
    table.press("OK")
    assert table.moves() == ["R5,6"]


def test_a_dead_sensor_is_named_and_can_be_ignored(tmp_path: Path) -> None:
    t = Harness(tmp_path / "j.jsonl", set_up=False)
    t.board.stuck_open.add(t.cell(0))
    for loc in ("pos:0", "pos:6", "pos:12", "pos:36", "pos:42", "pos:48"):
        t.board.place(t.cell(loc), 4)
    t.run(21)
    assert "sensor 0 stuck? OK = ignore it" in t.text
    t.press("OK")
    assert t.phase is Phase.ROLL


def test_back_during_a_fixup_takes_back_the_wrong_move(table: Harness) -> None:
    table.roll(5, 6)
    table.move(12, 17)
    table.run(0.5)
    table.pick("6-17")  # the wrong one
    table.move(17, 19)  # and the piece wanders on: the board is no position the game had
    table.run(3.5)
    assert table.phase is Phase.FIXUP
    table.press("BACK")
    table.press("OK")
    assert table.moves()[-1] == "undo"


def test_putting_the_piece_back_offers_the_takeback(table: Harness) -> None:
    table.roll(5, 6)
    table.play(12, 17)
    assert table.moves() == ["R5,6", "12-17"]
    table.move(17, 12)  # the board as it stood before the step
    table.run(3.5)
    assert table.phase is Phase.UNDO and "Take back?" in table.text
    table.press("OK")
    assert table.moves() == ["R5,6", "12-17", "undo"] and table.phase is Phase.STEP
    assert "Taken back" in table.text and "put the pieces back" not in table.text  # they are back already


def test_a_declined_takeback_is_not_offered_again(table: Harness) -> None:
    table.roll(5, 6)
    table.play(12, 17)
    table.move(17, 12)
    table.run(3.5)
    table.press("BACK")  # no: the step stands, and the board is to be put right
    table.run(5)
    assert table.phase is Phase.FIXUP and "put 1" in table.text
    assert table.moves() == ["R5,6", "12-17"]


def test_a_roll_keyed_in_is_journaled_as_entered(table: Harness) -> None:
    table.roll(2, 6)
    assert table.moves() == ["R2,6"] and table.journal()[-1]["entered"] is True


def test_back_in_the_dice_entry_goes_back_a_die_then_leaves(table: Harness) -> None:
    table.press("NEXT")  # the entry: die 1 shows 1
    table.press("NEXT")
    table.press("OK")  # die 1 is a 2; die 2 is asked
    assert "Die 2: 1" in table.text
    table.press("BACK")
    assert "Die 1: 2" in table.text  # back to the first die, as keyed
    table.press("BACK")
    assert table.phase is Phase.ROLL and table.moves() == []


def test_a_profile_for_own_dice_asks_for_them_at_roll(tmp_path: Path) -> None:
    profile = tmp_path / "own-dice.toml"
    profile.write_text((PROFILES / "hannibal-sim.toml").read_text() + "\n[chance]\nby_hand = true\n")
    t = Harness(tmp_path / "j.jsonl", profile=str(profile))
    t.press("ROLL")
    assert t.phase is Phase.DICE and "Die 1: 1" in t.text  # the table draws nothing
    for _ in range(3):
        t.press("NEXT")
    t.press("OK")
    t.press("OK")
    assert t.moves() == ["R1,4"] and t.journal()[-1]["entered"] is True
