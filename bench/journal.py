"""The journal's fsync (issue 16): its share of a demo's time, and the commit latency on a slow disk.

fsync stays: it is the power-cut promise (a line is on the card before its effect is shown). The first
number is what it costs on this machine's disk over a whole demo game. The second replaces fsync with a
fake slow disk (50 ms per fsync) and times each loop turn that journals a line, from the turn's start to
its end, when the new screen is up; it also checks that every such turn put the new screen up (or, by
design, queued it behind a message still inside its minimum time).

``python -m bench.journal`` exits 1 if a journaled turn left the screen as it was.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from controller.demo import DemoTooLongError, run_demo
from controller.table import Table

SLOW_FSYNC_S = 0.050
SLOW_GAME_S = 150.0  # simulated seconds of the game played on the slow disk (about a hundred lines)


@contextmanager
def fsync_replaced(fsync: Callable[[int], None]) -> Iterator[None]:
    real = os.fsync
    os.fsync = fsync
    try:
        yield
    finally:
        os.fsync = real


def fsync_share(seed: int = 1) -> tuple[float, float, int]:
    """(seconds in fsync, seconds of the whole demo, fsyncs) for one demo game on this machine's disk."""
    spent = [0.0, 0]
    real = os.fsync

    def timed(fd: int) -> None:
        start = time.perf_counter()
        real(fd)
        spent[0] += time.perf_counter() - start
        spent[1] += 1

    with tempfile.TemporaryDirectory() as tmp, fsync_replaced(timed):
        start = time.perf_counter()
        run_demo(seed, Path(tmp) / "j.jsonl")
        total = time.perf_counter() - start
    return spent[0], total, int(spent[1])


def slow_disk(seed: int = 1) -> tuple[list[float], int, int, int]:
    """Commit turns on a 50 ms fsync: (their wall times, drawn in the same turn, queued behind a message,
    left as they were)."""
    latencies: list[float] = []
    counts = [0, 0, 0]

    def instrument(table: Table) -> None:
        tick = table.loop.tick
        display, oled = table.display, table.oled

        def timed() -> None:
            seq, frames = table.journal.seq, oled.frames
            start = time.perf_counter()
            tick()
            if table.journal.seq > seq:
                latencies.append(time.perf_counter() - start)
                if oled.frames > frames:
                    counts[0] += 1
                elif display.waiting:
                    counts[1] += 1
                else:
                    counts[2] += 1

        table.loop.tick = timed  # type: ignore[method-assign]

    def slow(fd: int) -> None:
        time.sleep(SLOW_FSYNC_S)

    # enough lines for the numbers: the game is cut short on purpose
    with tempfile.TemporaryDirectory() as tmp, fsync_replaced(slow), suppress(DemoTooLongError):
        run_demo(seed, Path(tmp) / "j.jsonl", faults=instrument, max_seconds=SLOW_GAME_S)
    return latencies, counts[0], counts[1], counts[2]


def report() -> bool:
    spent, total, n = fsync_share()
    print(f"fsync on this disk over a demo game: {n} fsyncs, {spent:.2f} s of {total:.2f} s "
          f"= {spent / total * 100:.1f} % of the demo's time ({spent / n * 1000:.2f} ms each)")
    latencies, drawn, queued, stale = slow_disk()
    ms = sorted(x * 1000 for x in latencies)
    print(f"slow disk ({SLOW_FSYNC_S * 1000:.0f} ms fsync), {len(ms)} journaled turns: turn time p50 "
          f"{statistics.median(ms):.1f} ms, p95 {ms[int(len(ms) * 0.95)]:.1f} ms; new screen drawn in the "
          f"same turn {drawn}, queued behind a message {queued}, screen left as it was {stale}")
    if stale:
        print(f"TARGET MISSED: {stale} journaled turns did not update the screen")
    return not stale


if __name__ == "__main__":
    sys.exit(0 if report() else 1)
