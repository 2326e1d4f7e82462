"""A short power-cut run (the soak is ``python -m bench.powercut``): SIGKILL the demo, restart it on the
same journal, and find every line written before the cut intact and the game finished."""

from __future__ import annotations

import random
from pathlib import Path

from bench.powercut import Outcome, play_with_cuts
from controller.journal import read


def test_a_game_survives_power_cuts(tmp_path: Path) -> None:
    outcome = Outcome()
    journal = tmp_path / "game.jsonl"
    play_with_cuts(journal, seed=11, rng=random.Random(5), outcome=outcome, max_kills=3,
                   delays=(0.5, 0.9))
    assert outcome.kills >= 1 and outcome.games == 1  # wall-clock kills: at least the first always lands
    assert read(journal).finished
