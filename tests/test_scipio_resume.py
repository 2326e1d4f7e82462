"""Scipio resumes from any line of its journal: a power cut can land after any decision, draw or shuffle.

Each cut journal is resumed on a fresh simulated table (new pins, reeds that read nothing until the first
scan, tokens wherever the players left them) and played to the end by the scripted players, who put the
tokens back as the screen asks. Run as a script for a wider sweep than the suite affords::

    python -m tests.test_scipio_resume 1-16
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from controller import journal
from controller.demo import run_demo
from controller.flows.scipio import Phase

SUITE_SEEDS = (3, 6)  # every cut of these two games runs in the suite; others in the script


@dataclass
class Sweep:
    seed: int
    lines: int = 0  # journal lines of the whole game, header included
    resumed: int = 0
    finished: int = 0
    failures: list[str] = field(default_factory=list)


def resume_every_cut(seed: int, workdir: Path, cuts: range | None = None) -> Sweep:
    """Play ``seed`` whole, then for each cut (default: after every line but the last) resume a copy of the
    journal cut there and play it out; each must end with a winner and a journal that replays."""
    whole = workdir / f"whole-{seed}.jsonl"
    run_demo(seed, whole, game="scipio")
    lines = whole.read_bytes().splitlines(keepends=True)
    sweep = Sweep(seed, len(lines))
    for k in cuts or range(1, len(lines)):
        cut = workdir / f"cut-{seed}-{k}.jsonl"
        cut.write_bytes(b"".join(lines[:k]))
        sweep.resumed += 1
        try:
            result = run_demo(seed, cut, game="scipio")
            kept = cut.read_bytes().splitlines(keepends=True)
            states = journal.replay(journal.read(cut), cut)
            assert kept[:k] == lines[:k], "a line journaled before the cut changed"
            assert states[-1].winner in ("rome", "carthage")
            assert result.table.flow.phase is Phase.OVER
            sweep.finished += 1
        except Exception as e:  # noqa: BLE001 -- the sweep reports every failing cut, not only the first
            sweep.failures.append(f"seed {seed} cut after line {k}: {type(e).__name__}: {e}")
        finally:
            cut.unlink(missing_ok=True)
    return sweep


@pytest.mark.parametrize("seed", SUITE_SEEDS)
def test_every_cut_resumes_to_a_winner(seed: int, tmp_path: Path) -> None:
    sweep = resume_every_cut(seed, tmp_path)
    assert not sweep.failures, "\n".join(sweep.failures)
    assert sweep.finished == sweep.lines - 1 > 20


def main(argv: list[str]) -> int:
    first, _, last = (argv[0] if argv else "1-16").partition("-")
    seeds = range(int(first), int(last or first) + 1)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            sweep = resume_every_cut(seed, Path(tmp))
            failed += len(sweep.failures)
            print(f"seed {seed}: {sweep.lines} lines, cuts resumed {sweep.resumed}, finished {sweep.finished}",
                  flush=True)
            for failure in sweep.failures:
                print("  " + failure, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
