"""A searching bot's time budget (issue 16): ``MCTSBot(think_ms=...)`` stops when its clock says the budget is
spent, ``[bots] think_ms`` in a profile is checked like every other value, and ``play --think-ms`` overrides it.

The clock is injected and advanced by hand: no test here reads the wall clock or sleeps.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from reading_clock import TICK, ReadingClock
from support import ROOT_DIR

from controller.cli import UsageError, main, think_budget
from controller.demo import make_bot
from engines import cannonball, hannibal, scipio
from engines.base import GameState, sample_chance
from engines.bots import MCTSBot
from engines.registry import get_game
from hw_config import load_profile

PROFILES = ROOT_DIR / "hw_config" / "profiles"
GOOD = (PROFILES / "hannibal.toml").read_text()
def _decision(state: GameState, seed: int = 1) -> GameState:
    rng = random.Random(seed)
    while state.current_player is None:
        state.apply(sample_chance(state, rng))
    return state


def test_the_search_stops_when_the_budget_is_spent() -> None:
    clock = ReadingClock()
    bot = MCTSBot(random.Random(1), iterations=10_000, think_ms=8 * TICK * 1000, clock=clock)
    state = _decision(hannibal.new_game())
    bot.choose(state)
    # one reading to start, then one before each iteration after the first, until eight ticks have gone
    assert clock.reads == 1 + 8
    assert clock.now - 100.0 <= 8 * TICK + TICK


def test_each_determinization_gets_its_share_and_at_least_one_iteration() -> None:
    clock = ReadingClock()
    bot = MCTSBot(random.Random(1), iterations=10_000, think_ms=1, clock=clock, determinizations=4)
    state = _decision(scipio.new_game())
    state.apply(state.legal_moves()[0])  # Rome's organisation is in: Carthage decides over four worlds
    assert bot.choose(state) in state.legal_moves()
    assert clock.reads == 1 + 4  # the budget is gone at once: one iteration per world, one reading each


def test_a_budget_never_reached_changes_nothing() -> None:
    state = _decision(hannibal.new_game(), seed=3)
    fixed = MCTSBot(random.Random(7), iterations=32).choose(state.clone())
    clock = ReadingClock()
    budgeted = MCTSBot(random.Random(7), iterations=32, think_ms=60_000, clock=clock).choose(state.clone())
    assert budgeted == fixed
    assert clock.reads == 32  # read, but the iteration count decided


def test_without_a_count_the_game_sets_the_search() -> None:
    """A demo's MCTS bot names no iteration count: each game's registry entry does, Cannon Ball's smaller
    because each of its iterations plans a march (issue 16). Counted by the clock readings of a budget
    never reached, one per iteration."""
    for game in (hannibal, cannonball):
        clock = ReadingClock()
        state = _decision(game.new_game())
        make_bot("mcts", random.Random(1), think_ms=60_000, clock=clock).choose(state)
        assert clock.reads == get_game(state.game).search_iterations
    assert get_game("cannonball").search_iterations < get_game("hannibal").search_iterations


def test_without_a_budget_the_clock_is_never_read() -> None:
    clock = ReadingClock()
    MCTSBot(random.Random(1), iterations=16, clock=clock).choose(_decision(hannibal.new_game()))
    assert clock.reads == 0  # demos and tests: the same seed is the same game, however fast the machine


def _profile(tmp_path: Path, bots: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + bots)
    return path


def test_profile_think_ms_is_read_and_optional(tmp_path: Path) -> None:
    assert load_profile(PROFILES / "hannibal.toml").bots.think_ms is None
    assert load_profile(_profile(tmp_path, "\n[bots]\nthink_ms = 800\n")).bots.think_ms == 800


@pytest.mark.parametrize(("value", "expected"), [
    ("800.0", r"bots\.think_ms: must be an integer, got 800\.0"),
    ("true", r"bots\.think_ms: must be an integer, got True"),
    ('"800"', r"bots\.think_ms: must be an integer, got '800'"),
    ("0", r"bots\.think_ms: must be a whole number from 1 to 10000, got 0"),
    ("800\nthink_s = 1", r"bots\.think_s: unknown key \(known: think_ms\)"),
])
def test_a_bad_think_ms_is_one_problem_on_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str,
                                                   expected: str) -> None:
    path = _profile(tmp_path, f"\n[bots]\nthink_ms = {value}\n")
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(expected, err), err
    assert err.endswith("1 problem(s); nothing started\n"), err


def test_the_flag_overrides_the_profile(tmp_path: Path) -> None:
    profile = load_profile(_profile(tmp_path, "\n[bots]\nthink_ms = 800\n"))
    assert think_budget(None, profile) == 800
    assert think_budget(2000, profile) == 2000
    assert think_budget(None, load_profile(PROFILES / "hannibal.toml")) is None
    with pytest.raises(UsageError, match="--think-ms must be from 1 to 10000 ms, got 0"):
        think_budget(0, profile)


def test_think_ms_is_for_the_real_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "hannibal", "--sim", "--think-ms", "500", "--journal", str(tmp_path / "j.jsonl")]) == 2
    assert "--think-ms is for the real table" in capsys.readouterr().err
