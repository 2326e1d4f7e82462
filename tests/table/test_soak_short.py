"""A short sensor soak (the long one is ``python -m bench.soak``): chatter and bumps long enough to get
past the debounce, a button held at power-up and a sensor stuck mid-game, with no phantom move standing;
and a planted phantom (sensors lying like a legal move while BACK is dead) that the soak must report."""

from __future__ import annotations

from pathlib import Path

from bench.soak import BUMP_S, CHATTER_S, SoakStats, soak_game
from controller.table import profile_for


def test_the_faults_are_long_enough_to_reach_the_table() -> None:
    timing = profile_for("hannibal-sim").timing
    debounce_s = timing.debounce_scans / timing.scan_hz
    assert min(CHATTER_S) > debounce_s and min(BUMP_S) > debounce_s


def test_faulty_sensors_cause_no_phantom_move(tmp_path: Path) -> None:
    stats = SoakStats()
    result = soak_game(1, tmp_path / "1.jsonl", stats)  # a sensor stuck closed mid-game
    assert result is not None and result.table.flow.game.is_over()
    assert stats.failures == [] and stats.phantom == 0
    assert stats.chatter_seen > 20 and stats.bumps_seen == stats.bumps > 0  # they reached the table
    assert stats.stuck_named == 1


def test_a_step_a_dead_sensor_made_the_table_take_is_taken_back_once(tmp_path: Path) -> None:
    stats = SoakStats()
    soak_game(11, tmp_path / "11.jsonl", stats)  # a reed dies under a step's target (pos:29 since the fix-up
    # lists' reading order changed the hands' timing): the step then reads as another one, onto a stack
    assert stats.failures == [] and any("stuck open" in f for f in stats.faults), stats.faults
    assert stats.taken_back == 1  # OK let the table guess 16-18 once; then the players name their move


def test_a_soak_game_depends_on_its_seed_alone(tmp_path: Path) -> None:
    """``--seed N`` must replay the game the long run played as seed N: nothing may carry over from the
    games before it in the same process (the first minutes of a game are enough to tell)."""
    for name, seeds in (("alone", (2,)), ("after", (5, 2))):
        for seed in seeds:
            soak_game(seed, tmp_path / f"{name}-{seed}.jsonl", SoakStats(), max_seconds=150)
    alone, after = ((tmp_path / f"{name}-2.jsonl").read_text().splitlines()[1:] for name in ("alone", "after"))
    assert len(alone) > 10 and alone == after  # the header's start time aside, byte for byte


def test_the_soak_reports_a_planted_phantom_move(tmp_path: Path) -> None:
    stats = SoakStats()
    soak_game(3, tmp_path / "3.jsonl", stats, plant="phantom")  # a seed where the planted lie is taken as a move
    assert stats.phantom >= 1 and any("phantom move standing" in f for f in stats.failures), stats.failures
