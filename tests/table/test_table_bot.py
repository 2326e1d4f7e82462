"""A person against a bot at the real table (``play hannibal --seat blue=mcts``), run on the simulated board:
the person rolls and moves yellow by magnets; the table rolls for blue when ROLL is pressed, the bot decides
(MCTS within its think budget, read on a fake clock), the step is journaled signed by blue and shown with the
referee's fix-up list, and the test moves the magnets as told. The bots are built by the same function
``play`` uses; the test acts only as people do and reads the screen and the journal."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hannibal_harness import Harness, Scripted, yellow_turn
from reading_clock import TICK, ReadingClock
from support import ROOT_DIR

from controller.cli import UsageError, main, resumed_bots, table_bots
from controller.flows.hannibal import Phase
from controller.journal import Journal, read
from controller.table import profile_for
from engines.base import GameState, Move
from engines.hannibal import State
from engines.registry import get_game

BUDGET_MS = 125  # 16 ticks: half of the 32 iterations MCTS would search without a budget
HANNIBAL = get_game("hannibal")


def _screen_lines(t: Harness) -> tuple[str, tuple[str, ...]]:
    screen = t.table.display.current
    assert screen is not None
    return screen.title, screen.lines


def _follow_the_bot(t: Harness, clock: ReadingClock | None = None) -> list[str]:
    """Do each step the screen tells the players to make for blue, as a person would, until it is no bot's
    step any more. Checks that each is journaled, signed by blue, before the screen shows it, and the fix-up
    list names the places the sensors see change. With ``clock``: each search stopped at the budget."""
    steps: list[str] = []
    searched = 0
    for _ in range(8):
        t.run(2.0)  # the roll's screen has had its minimum time
        title, lines = _screen_lines(t)
        if not title.startswith("Blue plays "):
            return steps
        step = title.removeprefix("Blue plays ")
        journal = t.journal()
        assert (journal[-1]["player"], journal[-1]["move"]) == ("blue", step)
        if clock is not None and clock.reads > searched:  # a new search (a turn's later steps come from its plan)
            assert clock.reads - searched == 1 + BUDGET_MS / 1000 / TICK  # a reading to start, one per iteration
            searched = clock.reads
        before = State.from_json(journal[-2]["state"])
        after = State.from_json(journal[-1]["state"])
        match = re.fullmatch(r"(S?)(\d+)-(\d+)", step)
        assert match is not None, step
        src, dst = int(match[2]), int(match[3])
        at_src, at_dst = before.at(src), before.at(dst)
        assert at_src is not None
        n = at_src[1] if match[1] else 1
        expected = ([f"lift {src}"] if after.at(src) is None else []) + \
                   ([f"put {n} blue on {dst}"] if at_dst is None else [])
        assert [line for line in lines if line.startswith(("lift", "put"))] == expected, lines
        if at_dst is not None and at_dst[0] == "yellow":  # a send: the yellow piece goes to wait
            assert f"Yellow {at_dst[1]} off {dst} to wait" in lines
            t.lift(dst, at_dst[1])
        t.move(src, dst, n)
        if "then press OK" in lines:  # the sensors cannot see it: the players say it is done
            t.press("OK")
        steps.append(step)
    raise AssertionError(f"the bot's turn did not end: {t.text}")


@pytest.fixture
def mcts_clock() -> ReadingClock:
    return ReadingClock()


@pytest.fixture
def table(tmp_path: Path, mcts_clock: ReadingClock, caplog: pytest.LogCaptureFixture) -> Harness:
    caplog.set_level(logging.INFO, logger="boardkeeper")
    bots = table_bots(HANNIBAL, HANNIBAL.seats(), ["blue=mcts"], BUDGET_MS, profile_for("hannibal-sim"),
                      clock=mcts_clock)
    assert "blue is played by mcts, thinking at most 125 ms" in caplog.text
    return Harness(tmp_path / "game.jsonl", bots=bots)


def test_a_person_plays_yellow_and_moves_the_pieces_of_an_mcts_blue(table: Harness, mcts_clock: ReadingClock) -> None:
    yellow_turn(table)
    table.press("ROLL")  # anyone presses it: the table rolls for blue
    roll = table.journal()[4]  # the bot has decided already: the roll is shown while the step waits its turn
    assert roll["player"] == "blue" and roll["move"].startswith("R")
    a, b = roll["state"]["dice"]
    assert f"[{a} {b}]" in table.text and "Blue is thinking" in table.text  # the roll stays up a moment
    assert "BACK undo" in table.text and "NEXT menu" not in table.text  # NEXT offers nothing for a bot's step
    steps = _follow_the_bot(table, mcts_clock)
    assert steps and mcts_clock.reads  # the bot searched, each time within its budget
    moves = table.moves()
    assert moves[:4] == ["R1,5", "12-17", "0-1", roll["move"]] and moves[4:] == steps
    assert [line["player"] for line in table.journal()[5:]] == ["blue"] * len(steps)
    who = "Blue" if a == b else "Yellow"  # doubles: blue rolls again
    assert table.phase is Phase.ROLL and f"{who}: press ROLL" in table.text


def test_nothing_else_is_accepted_until_the_board_shows_the_bots_step(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", bots={"blue": Scripted("36-30", "30-26")})
    yellow_turn(t)
    t.roll(4, 6)  # blue's own dice, typed in
    t.run(2.0)
    assert t.phase is Phase.FIXUP and t.text.splitlines()[:2] == ["Blue plays 36-30", "  put 1 blue on 30"]
    t.press("NEXT")  # no menu of blue's moves for the person
    assert t.phase is Phase.FIXUP
    t.move(17, 18)  # yellow's piece instead: never a move now, and the list says to put it back
    t.run(3.5)
    assert "lift 18" in t.text and "put 1 yellow on 17" in t.text and "put 1 blue on 30" in t.text
    assert t.moves()[-2:] == ["R4,6", "36-30"]
    t.move(18, 17)
    t.move(36, 30)
    t.run(2.0)
    assert t.text.splitlines()[:3] == ["Blue plays 30-26", "  lift 30", "  put 1 blue on 26"]
    t.move(30, 26)
    assert t.moves()[-2:] == ["36-30", "30-26"] and t.phase is Phase.ROLL and "Yellow: press ROLL" in t.text


def test_a_step_the_sensors_cannot_see_waits_for_ok(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", bots={"blue": Scripted("42-36", "36-34")})
    yellow_turn(t)
    t.roll(2, 6)
    t.run(2.0)
    assert t.text.splitlines()[:2] == ["Blue plays 42-36", "  then press OK"]
    t.move(42, 36)  # from a stack onto a stack: no sensor changes
    t.run(3.5)
    assert t.phase is Phase.FIXUP and t.moves()[-1] == "42-36"  # the next step waits for the players' word
    t.press("OK")
    t.run(2.0)
    assert "Blue plays 36-34" in t.text and "put 1 blue on 34" in t.text


def test_back_during_the_bots_turn(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", bots={"blue": Scripted("36-30", "30-26")})
    yellow_turn(t)
    t.press("BACK")  # before blue's roll: the person's last step is taken back, as ever
    t.press("OK")
    assert t.moves()[-2:] == ["0-1", "undo"]
    t.move(1, 0)
    assert t.phase is Phase.STEP and "Yellow to move" in t.text
    t.play(0, 1)
    t.roll(4, 6)
    t.run(2.0)
    t.press("BACK")  # the bot's step stands: taken back, it would only be decided again
    assert t.phase is Phase.FIXUP and "Blue's step stands" in t.text and t.moves()[-1] == "36-30"
    t.move(36, 30)
    t.run(2.0)
    t.move(30, 26)
    t.press("BACK")  # yellow to roll: the last step was blue's, and still stands
    assert t.phase is Phase.ROLL and "Blue's step stands" in t.text and t.moves()[-1] == "30-26"


def test_play_refuses_what_a_seat_cannot_do(caplog: pytest.LogCaptureFixture) -> None:
    profile = profile_for("hannibal-sim")
    seats = HANNIBAL.seats()
    with pytest.raises(UsageError, match=r"^scipio cannot seat a bot at the real table yet"):
        table_bots(get_game("scipio"), ("rome", "carthage"), ["rome=mcts"], None, profile_for("scipio-sim"))
    with pytest.raises(UsageError, match=r"^--think-ms is for a searching bot at the table"):
        table_bots(HANNIBAL, seats, [], 500, profile)
    with pytest.raises(UsageError, match=r"^--think-ms is for a searching bot at the table"):
        table_bots(HANNIBAL, seats, ["blue=heuristic"], 500, profile)
    with pytest.raises(UsageError, match=r"^--seat green=mcts: expected NAME=BOT with NAME one of yellow, blue"):
        table_bots(HANNIBAL, seats, ["green=mcts"], None, profile)
    caplog.set_level(logging.INFO, logger="boardkeeper")
    assert set(table_bots(HANNIBAL, seats, ["yellow=random", "blue=mcts"], None, profile)) == {"yellow", "blue"}
    assert "yellow is played by random" in caplog.text
    assert "blue is played by mcts, with its fixed search (no time budget)" in caplog.text


@pytest.mark.parametrize(("args", "message"), [
    (["play", "scipio", "--seat", "rome=mcts"], "error: scipio cannot seat a bot at the real table yet"),
    (["play", "hannibal", "--think-ms", "500"], "error: --think-ms is for a searching bot at the table"),
    (["play", "hannibal", "--sim", "--seat", "blue=mcts"], "error: --seat is for the real table"),
])
def test_the_command_line_refuses_in_one_line(args: list[str], message: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--journal", str(tmp_path / "j.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


def test_a_profile_budget_without_an_mcts_seat_is_said_unused(tmp_path: Path,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.toml"
    path.write_text((ROOT_DIR / "hw_config" / "profiles" / "hannibal-sim.toml")
                    .read_text() + "\n[bots]\nthink_ms = 800\n")
    caplog.set_level(logging.INFO, logger="boardkeeper")
    assert table_bots(HANNIBAL, HANNIBAL.seats(), [], None, profile_for(str(path))) == {}
    assert "the profile's [bots] think_ms = 800 is unused: no seat is played by mcts" in caplog.text


def test_play_names_each_bot_and_its_budget_before_opening_the_board(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "hannibal", "--seat", "blue=mcts",
                             "--think-ms", "500", "--journal", str(tmp_path / "j.jsonl")], capture_output=True,
                            text=True, timeout=120)
    assert "INFO blue is played by mcts, thinking at most 500 ms" in result.stderr
    assert result.returncode == 2 and "pin factory 'lgpio' unavailable" in result.stderr  # no Pi here


def test_a_piece_nudged_as_the_bot_is_due_delays_its_step_until_it_is_back(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", bots={"blue": Scripted("36-30", "30-26")})
    yellow_turn(t)
    roll = t.profile.buttons["ROLL"].pin
    assert roll is not None
    t.board.press_pin(roll)
    t.run(0.005)
    t.board.lift(t.cell(17))  # read in the very turn the bot would decide: the board no longer shows the position
    t.run(0.2)
    t.board.release_pin(roll)
    assert t.moves()[-1] == "R4,6" and t.phase is Phase.STEP
    t.place(17)  # back before the grace period: no fix-up list, and the bot goes on
    t.run(2.0)
    assert t.moves()[-1] == "36-30" and "Blue plays 36-30" in t.text


class FillsTheCard(Scripted):
    """Plays as told; the first time it is asked, the SD card fills up under the table (the journal is pointed
    at /dev/full) before its answer is saved."""

    def __init__(self, full: Path, *steps: str) -> None:
        super().__init__(*steps)
        self.full = full
        self.table: Harness | None = None
        self.good: Journal | None = None

    def choose(self, state: GameState) -> Move:
        if self.table is not None and self.good is None:
            self.good = self.table.table.flow.journal
            self.table.table.flow.ledger.journal = Journal(self.full, self.good.header, self.good.seq)
        return super().choose(state)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_bots_step_that_cannot_be_saved_is_tried_again_with_ok(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")
    bot = FillsTheCard(full, "36-30", "36-30", "30-26")
    t = Harness(tmp_path / "game.jsonl", bots={"blue": bot})
    bot.table = t
    yellow_turn(t)
    t.roll(4, 6)
    t.run(2.0)
    assert t.phase is Phase.STEP and "NOT SAVED: disk full" in t.text and t.moves()[-1] == "R4,6"
    assert bot.good is not None
    t.table.flow.ledger.journal = bot.good  # the card has room again
    t.press("OK")
    t.run(2.0)
    assert t.moves()[-1] == "36-30" and "Blue plays 36-30" in t.text


def test_a_game_resumed_while_the_board_follows_the_bot_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    t = Harness(path, bots={"blue": Scripted("36-30")})
    yellow_turn(t)
    t.roll(4, 6)
    t.run(2.0)
    assert "Blue plays 36-30" in t.text  # the power goes before anyone moves blue's piece
    board = State.from_json(t.journal()[-2]["state"]).occupancy()  # the pieces stand as before the bot's step
    again = Harness(path, bots={"blue": Scripted("30-26")}, set_up=False)  # started with the same --seat
    for loc, (_, n) in board.items():
        again.board.place(again.cell(loc), n)
    again.run(0.5)
    assert again.phase is Phase.SETUP and "put 1 blue on 30" in again.text
    again.move(36, 30)
    again.run(2.0)
    assert again.moves()[-2:] == ["36-30", "30-26"] and "Blue plays 30-26" in again.text


def _power_cut_with_blue_to_roll(path: Path, bot: str = "heuristic") -> None:
    """A game begun with ``--seat blue=BOT``: yellow has played its turn when the power goes."""
    t = Harness(path, bots=table_bots(HANNIBAL, HANNIBAL.seats(), [f"blue={bot}"], None,
                                      profile_for("hannibal-sim")), seats={"blue": bot})
    yellow_turn(t)


def test_the_journal_keeps_the_bots_a_game_began_with(tmp_path: Path) -> None:
    _power_cut_with_blue_to_roll(tmp_path / "bot.jsonl")
    assert read(tmp_path / "bot.jsonl").header["seats"] == {"blue": "heuristic"}
    people = Harness(tmp_path / "people.jsonl")
    yellow_turn(people)
    assert "seats" not in read(tmp_path / "people.jsonl").header  # people only: the header is as it always was


def test_a_resume_without_seat_plays_the_bots_the_game_began_with(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "game.jsonl"
    _power_cut_with_blue_to_roll(path)
    caplog.set_level(logging.INFO, logger="boardkeeper")
    bots = resumed_bots(HANNIBAL, HANNIBAL.seats(), path, [], {}, None, profile_for("hannibal-sim"))  # the service
    assert "resumed with the bots the game began with: blue=heuristic" in caplog.text
    again = Harness(path, bots=bots, set_up=False)
    for loc, (_, n) in State.from_json(again.journal()[-1]["state"]).occupancy().items():
        again.board.place(again.cell(loc), n)
    again.run(1.0)
    assert again.phase is Phase.ROLL and "Blue: press ROLL" in again.text
    again.press("ROLL")  # anyone presses it: blue is still the bot's
    assert _follow_the_bot(again) and again.journal()[-1]["player"] == "blue"


def test_seat_on_resume_overrides_the_saved_bots_and_says_so(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "game.jsonl"
    _power_cut_with_blue_to_roll(path)
    caplog.set_level(logging.INFO, logger="boardkeeper")
    given = table_bots(HANNIBAL, HANNIBAL.seats(), ["blue=random"], None, profile_for("hannibal-sim"))
    bots = resumed_bots(HANNIBAL, HANNIBAL.seats(), path, ["blue=random"], given, None, profile_for("hannibal-sim"))
    assert bots is given  # the command line's bots, not a second set
    assert set(bots) == {"blue"} and type(bots["blue"]).__name__ == "RandomBot"
    assert "--seat blue=random: the game began with blue=heuristic; playing as --seat says" in caplog.text


@pytest.mark.parametrize(("seats", "message"), [
    ({"blue": 3}, '"seats" must map each seat to a bot kind'),
    ({"green": "mcts"}, "the saved seats cannot be played"),
    ({"blue": "deep-blue"}, "the saved seats cannot be played"),
])
def test_saved_seats_that_cannot_be_played_leave_the_game_to_people(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                                    seats: dict[str, object], message: str) -> None:
    path = tmp_path / "game.jsonl"
    _power_cut_with_blue_to_roll(path)
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0]) | {"seats": seats}  # edited by hand
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    caplog.set_level(logging.INFO, logger="boardkeeper")
    assert resumed_bots(HANNIBAL, HANNIBAL.seats(), path, [], {}, None, profile_for("hannibal-sim")) == {}
    assert message in caplog.text and "people play every seat" in caplog.text
    again = Harness(path, set_up=False)  # the game itself resumes, people at both seats
    assert again.moves() == ["R1,5", "12-17", "0-1"] and again.phase is Phase.SETUP


def test_think_ms_on_resume_budgets_the_saved_mcts_seat(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    _power_cut_with_blue_to_roll(path, "mcts")
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "hannibal", "--think-ms", "500",
                             "--journal", str(path)], capture_output=True, text=True, timeout=120)
    assert "--think-ms is for a searching bot" not in result.stderr  # the service's command line, after a cut
    assert result.returncode == 2 and "pin factory 'lgpio' unavailable" in result.stderr  # no Pi here
    caplog.set_level(logging.INFO, logger="boardkeeper")
    bots = resumed_bots(HANNIBAL, HANNIBAL.seats(), path, [], {}, 500, profile_for("hannibal-sim"))
    assert set(bots) == {"blue"} and "blue is played by mcts, thinking at most 500 ms" in caplog.text
    people = tmp_path / "people.jsonl"
    yellow_turn(Harness(people))
    assert main(["play", "hannibal", "--think-ms", "500", "--journal", str(people)]) == 2
    assert capsys.readouterr().err.startswith("error: --think-ms is for a searching bot")  # no mcts to budget
