"""Whole games on the simulated table: the CLI demo, mistakes, chatter, a stuck sensor, power cuts."""

from __future__ import annotations

import json
import random
from pathlib import Path

from controller.cli import main
from controller.demo import run_demo
from controller.journal import read, replay
from controller.table import Table


def _steps(journal: Path) -> list[tuple[int, str]]:
    lines = [json.loads(x) for x in journal.read_text().splitlines()[1:]]
    return [(line["seq"], line["move"]) for line in lines if not line["move"].startswith("R")]


def test_cli_demo_plays_a_whole_game(tmp_path: Path, capsys: object) -> None:
    journal, frames = tmp_path / "game.jsonl", tmp_path / "frames"
    assert main(["demo", "hannibal", "--seed", "3", "--journal", str(journal), "--frames", str(frames)]) == 0
    contents = read(journal)
    assert contents.finished and contents.header["game"] == "hannibal" and contents.header["seed"] == 3
    final = replay(contents, journal)[-1]
    assert final.winner in ("yellow", "blue") and final.to_json() == contents.entries[-1].state
    assert len(list(frames.glob("*.png"))) > 100


def test_mistakes_are_all_caught_and_no_move_is_phantom(tmp_path: Path) -> None:
    journal = tmp_path / "game.jsonl"
    result = run_demo(5, journal, mistakes=0.3)
    assert result.players.mistakes_made >= 20
    meant = result.players.decisions
    for seq, move in _steps(journal):
        assert meant.get(seq - 1) == move, f"line {seq}: {move} committed, {meant.get(seq - 1)} meant"


def test_chatter_on_every_cell_changes_nothing(tmp_path: Path) -> None:
    clean = tmp_path / "clean.jsonl"
    run_demo(2, clean)
    noisy = tmp_path / "noisy.jsonl"
    bursts = {"count": 0}

    def chatter(table: Table) -> None:
        board = table.hardware.board
        rng = random.Random(99)
        cells = list(table.profile.cells)

        def source(now: float) -> list[object]:
            if rng.random() < 0.2:  # a bounce burst shorter than the debounce window, somewhere
                board.add_chatter(rng.choice(cells), 0.009)
                bursts["count"] += 1
            return []

        table.loop.add_source(source)  # type: ignore[arg-type]

    run_demo(2, noisy, faults=chatter)
    assert bursts["count"] > 10_000
    assert [m for _, m in _steps(noisy)] == [m for _, m in _steps(clean)]
    assert len(read(noisy).entries) == len(read(clean).entries)


def test_a_stuck_sensor_is_named_and_can_be_ignored(tmp_path: Path) -> None:
    screens: list[str] = []

    def stick(table: Table) -> None:
        cell = table.profile.locations["pos:27"]
        table.hardware.board.stuck_closed.add(cell)

    result = run_demo(4, tmp_path / "game.jsonl", faults=stick, echo=lambda s: screens.append(s.text()),
                      max_seconds=3600)
    assert any("sensor 27 stuck? OK = ignore it" in s for s in screens)
    assert result.table.flow.game.is_over()


def test_resume_after_a_kill_between_two_lines(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    run_demo(6, full)
    lines = full.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:60]))  # the process died right after writing line 60
    result = run_demo(6, cut)
    after = cut.read_bytes().splitlines(keepends=True)
    assert after[:60] == lines[:60]  # nothing lost, nothing rewritten, no die re-rolled
    assert result.table.resumed and read(cut).finished
    replay(read(cut), cut)


def test_resume_with_a_torn_last_line(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    run_demo(6, full)
    lines = full.read_bytes().splitlines(keepends=True)
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(b"".join(lines[:41]) + lines[41][:25])  # power cut in the middle of line 42
    contents = read(torn)
    assert contents.torn and len(contents.entries) == 40
    run_demo(6, torn)
    after = torn.read_bytes().splitlines(keepends=True)
    assert after[:41] == lines[:41]
    assert all(json.loads(x) for x in after)  # the torn fragment is gone
    replay(read(torn), torn)
