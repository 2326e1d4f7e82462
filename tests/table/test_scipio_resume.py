"""Scipio resumes from any line of its journal: a power cut can land after any decision, draw or shuffle.

Each cut journal is resumed on a fresh simulated table (new pins, reeds that read nothing until the first
scan, tokens wherever the players left them) and played to the end by the scripted players, who put the
tokens back as the screen asks. Run as a script for a wider sweep than the suite affords::

    python tests/table/test_scipio_resume.py 1-16              # the demo's heuristic bots
    python tests/table/test_scipio_resume.py 1-40 random       # random bots: shorter games, odder positions

The suite runs every cut of two random-bot games that between them reach every New Orders step but the
Deserter's (the third game's cuts around it stand in), with a reveal, damage and a new round each.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from test_table_scipio import without_pads

from controller import journal
from controller.demo import run_demo
from controller.flows.scipio import Phase

RANDOM = {"rome": "random", "carthage": "random"}
SUITE_CUTS = {8: None, 18: None, 5: range(13, 17)}  # seed -> cuts (None: after every line)


@dataclass
class Sweep:
    seed: int
    lines: int = 0  # journal lines of the whole game, header included
    resumed: int = 0
    finished: int = 0
    failures: list[str] = field(default_factory=list)


def resume_every_cut(seed: int, workdir: Path, cuts: range | None = None,
                     seats: Mapping[str, str] | None = None, profile: str | None = None) -> Sweep:
    """Play ``seed`` whole, then for each cut (default: after every line but the last) resume a copy of the
    journal cut there and play it out; each must end with a winner and a journal that replays."""
    whole = workdir / f"whole-{seed}.jsonl"
    run_demo(seed, whole, game="scipio", seats=seats, profile=profile)
    lines = whole.read_bytes().splitlines(keepends=True)
    sweep = Sweep(seed, len(lines))
    for k in cuts or range(1, len(lines)):
        cut = workdir / f"cut-{seed}-{k}.jsonl"
        cut.write_bytes(b"".join(lines[:k]))
        sweep.resumed += 1
        try:
            result = run_demo(seed, cut, game="scipio", seats=seats, profile=profile)
            kept = cut.read_bytes().splitlines(keepends=True)
            states = journal.replay(journal.read(cut), cut)
            assert kept[:k] == lines[:k], "a line journaled before the cut changed"
            assert states[-1].winner in ("rome", "carthage")
            assert result.table.flow.phase is Phase.OVER
            assert not result.table.flow.ignored, "a reed was declared broken that never was"
            sweep.finished += 1
        except Exception as e:
            sweep.failures.append(f"seed {seed} cut after line {k}: {type(e).__name__}: {e}")
        finally:
            cut.unlink(missing_ok=True)
    return sweep


@pytest.mark.parametrize("seed", SUITE_CUTS)
def test_every_cut_resumes_to_a_winner(seed: int, tmp_path: Path) -> None:
    cuts = SUITE_CUTS[seed]
    sweep = resume_every_cut(seed, tmp_path, cuts, RANDOM)
    assert not sweep.failures, "\n".join(sweep.failures)
    assert sweep.finished == (len(cuts) if cuts else sweep.lines - 1) and sweep.finished > 3


def test_cuts_around_the_cards_entered_on_the_menu_resume(tmp_path: Path) -> None:
    """Without card pads the cards go through the look-away screen and the menu."""
    sweep = resume_every_cut(8, tmp_path, range(2, 8), RANDOM, str(without_pads(tmp_path)))
    assert not sweep.failures, "\n".join(sweep.failures)
    assert sweep.finished == 6


@pytest.mark.parametrize("kind", ["remove", "draw", "card"])
def test_a_line_torn_by_the_power_cut_is_dropped_and_the_game_goes_on(kind: str, tmp_path: Path) -> None:
    """The cut lands while the line after a removal, a draw or a card is being written: that half line is
    dropped, the game resumes at the step before it and is played out."""
    whole = tmp_path / "whole.jsonl"
    run_demo(8, whole, game="scipio", seats=RANDOM)
    lines = whole.read_bytes().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if f'"move":"{kind} '.encode() in line) + 1
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:k]) + lines[k][: len(lines[k]) // 2])
    result = run_demo(8, cut, game="scipio", seats=RANDOM)
    assert result.table.resumed and result.table.flow.phase is Phase.OVER
    assert cut.read_bytes().splitlines(keepends=True)[:k] == lines[:k]
    assert journal.replay(journal.read(cut), cut)[-1].winner in ("rome", "carthage")


def main(argv: list[str]) -> int:
    first, _, last = (argv[0] if argv else "1-16").partition("-")
    seeds = range(int(first), int(last or first) + 1)
    seats = RANDOM if argv[1:] == ["random"] else None
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            sweep = resume_every_cut(seed, Path(tmp), seats=seats)
            failed += len(sweep.failures)
            print(f"seed {seed}: {sweep.lines} lines, cuts resumed {sweep.resumed}, finished {sweep.finished}",
                  flush=True)
            for failure in sweep.failures:
                print("  " + failure, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
