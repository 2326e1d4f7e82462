"""Power cuts: demo games SIGKILLed at random moments and restarted on the same journal until they end.

``python -m bench.powercut [KILLS] [SEED]`` (defaults 200, 1). After every kill the journal must still be
valid move by move, and every complete line written before the kill must still be there, unchanged: no
move lost or doubled, no die re-rolled. Prints kills survived, games finished, lines re-checked.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from controller.journal import read, replay


@dataclass
class Outcome:
    kills: int = 0
    games: int = 0
    runs: int = 0
    lines_checked: int = 0


def complete_lines(path: Path) -> list[bytes]:
    if not path.exists():
        return []
    data = path.read_bytes()
    return data.split(b"\n")[:-1] if data else []


def play_with_cuts(journal: Path, seed: int, rng: random.Random, outcome: Outcome, max_kills: int,
                   delays: tuple[float, float] = (0.4, 3.0)) -> None:
    """One game, killed at random moments (never more than ``max_kills`` times), run to its end."""
    while True:
        before = complete_lines(journal)
        cmd = [sys.executable, "-m", "controller.cli", "demo", "hannibal", "--seed", str(seed), "--journal",
               str(journal), "--quiet"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        outcome.runs += 1
        cut = outcome.kills < max_kills
        try:
            _, err = proc.communicate(timeout=rng.uniform(*delays) if cut else 300)
            if proc.returncode != 0:
                raise AssertionError(f"demo failed after a power cut: {err.decode()[-500:]}")
            finished = True
        except subprocess.TimeoutExpired:
            proc.kill()  # SIGKILL: no cleanup, no flush, mid-write if it happens to be writing
            proc.communicate()
            outcome.kills += 1
            finished = False
        after = complete_lines(journal)
        if not finished and journal.exists() and read(journal).finished:
            finished = True  # cut after the winning line was saved: the game is over all the same
        torn_ok = len(after) >= len(before) - 1  # only a torn (never complete) last line may go
        if not (after[: len(before)] == before or (torn_ok and after == before[:-1])):
            raise AssertionError(f"{journal}: lines written before the cut changed or vanished")
        outcome.lines_checked += len(before)
        if journal.exists():
            replay(read(journal), journal)  # valid move by move (a torn tail is tolerated)
        if finished:
            contents = read(journal)
            assert contents.finished
            outcome.games += 1
            return


def run(kills: int, seed: int) -> Outcome:
    rng = random.Random(seed)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        game = 0
        while outcome.kills < kills:
            play_with_cuts(Path(tmp) / f"game-{game}.jsonl", seed + game, rng, outcome, kills)
            game += 1
    return outcome


def main(argv: list[str]) -> None:
    kills = int(argv[0]) if argv else 200
    seed = int(argv[1]) if len(argv) > 1 else 1
    start = time.perf_counter()
    o = run(kills, seed)
    print(f"power cuts survived: {o.kills} (target 200) over {o.games} games and {o.runs} starts; "
          f"{o.lines_checked} journal lines re-checked; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
