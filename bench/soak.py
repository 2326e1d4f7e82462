"""Sensor soak: demo games under every sensor fault a table meets, checked for phantom moves.

``python -m bench.soak [GAMES]`` (default 100). Each game gets: short chatter bursts on random cells all
game long, a piece bumped and put back now and then, a button held down at start, and one of a sensor
stuck closed or a sensor dead (never closes) appearing mid-game. The scripted players fail loudly if the
table ever offers moves that exclude the one they made, and every committed step is compared with the
move they meant: any difference is a phantom move.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.demo import DemoResult, run_demo
from controller.journal import read
from controller.table import Table


@dataclass
class SoakStats:
    games: int = 0
    phantom: int = 0
    taken_back: int = 0  # steps a faulty sensor made the table apply, seen on screen and taken back
    chatter_bursts: int = 0
    bumps: int = 0
    stuck_named: int = 0
    faults: list[str] = field(default_factory=list)


def faulty(seed: int, stats: SoakStats, screens: list[str]) -> object:
    rng = random.Random(seed)

    def install(table: Table) -> None:
        board = table.hardware.board
        profile = table.profile
        cells = list(profile.cells)
        ok_pin = profile.buttons["OK"].pin
        board.press_pin(ok_pin)  # leaned on at power-up: must be ignored until released
        start = table.loop.clock.now()
        stuck_at = start + rng.uniform(30, 120)
        kind = rng.choice(("closed", "open"))
        state = {"stuck": False, "released": False}

        def source(now: float) -> list[object]:
            if not state["released"] and now - start > 2.0:
                board.release_pin(ok_pin)
                state["released"] = True
            if rng.random() < 0.05:
                board.add_chatter(rng.choice(cells), 0.009)
                stats.chatter_bursts += 1
            if rng.random() < 0.002:
                cell = rng.choice(cells)
                if board.count(cell) and cell not in board.stuck_open | board.stuck_closed:
                    board.lift(cell, 1)  # bumped off for an instant and put straight back
                    board.place(cell, 1)
                    stats.bumps += 1
            if not state["stuck"] and now >= stuck_at:
                state["stuck"] = True
                target = rng.choice(cells)
                (board.stuck_closed if kind == "closed" else board.stuck_open).add(target)
                stats.faults.append(f"seed {seed}: sensor {profile.cells[target]} stuck {kind}")
            return []

        table.loop.add_source(source)  # type: ignore[arg-type]

    return install


def soak_game(seed: int, journal: Path, stats: SoakStats, max_seconds: float = 3 * 3600) -> DemoResult:
    screens: list[str] = []
    result = run_demo(seed, journal, mistakes=0.1, faults=faulty(seed, stats, screens),  # type: ignore[arg-type]
                      echo=lambda s: screens.append(s.text()), max_seconds=max_seconds)
    stats.games += 1
    stats.stuck_named += any("stuck? OK = ignore it" in s for s in screens)
    stats.taken_back += result.players.takebacks
    phantoms = phantom_steps(journal, result.players.decisions)
    stats.phantom += len(phantoms)
    stats.faults += [f"seed {seed}: phantom {p}" for p in phantoms]
    return result


def phantom_steps(journal: Path, meant: dict[int, str]) -> list[str]:
    """Steps that stand in the game's record (not taken back) although nobody meant them."""
    standing: list[tuple[int, str]] = []
    for entry in read(journal).entries:
        if entry.move.startswith("R"):
            continue
        if entry.move == "undo":
            standing.pop()
        else:
            standing.append((entry.seq, entry.move))
    return [f"line {seq}: {move}" for seq, move in standing if meant.get(seq - 1) != move]


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 100
    stats = SoakStats()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(games):
            soak_game(seed, Path(tmp) / f"{seed}.jsonl", stats)
    print(f"sensor soak: {stats.games} games, {stats.phantom} phantom moves standing, {stats.taken_back} "
          f"sensor-made steps seen and taken back, {stats.chatter_bursts} chatter "
          f"bursts, {stats.bumps} bumps, stuck/dead sensors named on screen in {stats.stuck_named} games "
          f"({time.perf_counter() - start:.0f} s)")
    for line in stats.faults:
        if "phantom" in line:
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
