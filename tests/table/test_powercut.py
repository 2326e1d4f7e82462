"""A short power-cut run (the long one is ``python -m bench.powercut``): every game with a simulated table
is killed mid-write, between a write and its fsync and after the fsync, each kill made a real
power cut (what was not fsynced is dropped, half kept or NUL bytes); and each planted fault (no fsync, the
journal written after the screen, a complete last line dropped as torn) makes the bench fail."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.powercut import Outcome, PowerCutFailure, demo_games, main, play_with_cuts
from controller.journal import read
from engines.registry import get_game

GAMES = demo_games()


@pytest.mark.parametrize("game", GAMES)
def test_a_game_survives_power_cuts(tmp_path: Path, game: str) -> None:
    outcome = Outcome()
    journal = tmp_path / "game.jsonl"
    play_with_cuts(journal, seed=11, rng=random.Random(5), outcome=outcome, max_kills=4, game=game,
                   kinds=("write", "sync", "synced"))  # they land however fast the machine is
    assert outcome.kills >= (0 if get_game(game).short else 1)  # a short game may end before a kill lands
    assert outcome.games[game] == 1 and outcome.frames_checked > 0
    assert read(journal).finished


def test_the_bench_exits_1_naming_the_case_when_nothing_is_fsynced(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["1", "1", "--game", "hannibal", "--plant", "no-fsync"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL: hannibal seed 1, run 1") and "shows a state the journal did not hold" in out


@pytest.mark.parametrize(("plant", "message"), [
    ("late-journal", "shows a state the journal did not hold"),
    ("shown-first", "shows a chance outcome the journal did not hold: 'Rolled R"),
    ("eager-torn", "on disk before the run was lost or changed"),
])
def test_the_bench_fails_on_a_planted_fault(tmp_path: Path, plant: str, message: str) -> None:
    with pytest.raises(PowerCutFailure, match=message):
        play_with_cuts(tmp_path / "game.jsonl", seed=1, rng=random.Random(1), outcome=Outcome(), max_kills=3,
                       plant=plant)
