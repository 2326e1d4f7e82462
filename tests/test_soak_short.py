"""A short sensor soak (the long one is ``python -m bench.soak``): chatter, bumps, a button held at power-up
and a sensor that dies mid-game, with no phantom move and the dead sensor named on screen."""

from __future__ import annotations

from pathlib import Path

from bench.soak import SoakStats, soak_game


def test_faulty_sensors_cause_no_phantom_move(tmp_path: Path) -> None:
    stats = SoakStats()
    for seed in (1, 4):  # one sensor stuck closed, one stuck closed elsewhere, mid-game
        result = soak_game(seed, tmp_path / f"{seed}.jsonl", stats)
        assert result.table.flow.game.is_over()
    assert stats.phantom == 0 and stats.games == 2
    assert stats.chatter_bursts > 1000 and stats.bumps > 0
    assert stats.stuck_named == 2
