"""Scanning cost (issue 16): Pin-API calls per second at idle and while pieces move, idle CPU share, and
how fast a piece put down on an idle table is reported.

``python -m bench.scan`` prints each number with its target and exits 1 when one is missed. The table
is the simulated one (``hannibal-sim``): every call the controller makes on a pin, or on the matrix
lines that stand for one lgpio group call, is counted through a proxy. CPU share is wall time per
simulated second on this machine (a Zero 2 W is 13-29x slower).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.dice import Dice
from controller.events import CellChanged, Event
from controller.table import Table, build_table, load_backend, profile_for
from engines.hannibal import new_game
from sim_hardware.clock import FakeClock

# Measured on the unmodified checkout (commit 9a4f3d8, this bench copied into it): the loop ticked at
# 200 Hz, each tick read 7 rows x (drive + 7 column reads + release) and the 5 button pins.
TODAY_IDLE_CALLS_PER_S = 13_603.0
IDLE_TARGET = TODAY_IDLE_CALLS_PER_S / 8
CATCH_TARGET_S = 0.050
CALLS_PER_ROW_TARGET = 2


class Counter:
    calls = 0


class Counted:
    """Stands in for a pin or the matrix lines: every attribute read, method call and write is one call."""

    def __init__(self, target: Any, counter: Counter) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_counter", counter)

    def __getattr__(self, name: str) -> Any:
        self._counter.calls += 1
        return getattr(self._target, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._counter.calls += 1
        setattr(self._target, name, value)


class CountedFactory:
    """The pin factory as the controller sees it, handing out counted pins (and counted matrix lines where
    the factory reads a row in one call)."""

    def __init__(self, factory: Any, counter: Counter) -> None:
        self._factory = factory
        self._counter = counter
        if hasattr(factory, "matrix_lines"):
            self.matrix_lines = self._matrix_lines

    def pin(self, name: str) -> Counted:
        return Counted(self._factory.pin(name), self._counter)

    def _matrix_lines(self, rows: list[int], cols: list[int]) -> Counted:
        return Counted(self._factory.matrix_lines(rows, cols), self._counter)


class PlacingClock(FakeClock):
    """A fake clock that lets a person act at an exact moment between two loop turns."""

    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None
        self.act: Any = None

    def sleep(self, seconds: float) -> None:
        end = self.now() + seconds
        if self.at is not None and self.now() <= self.at < end:
            super().sleep(self.at - self.now())
            act, self.at = self.act, None
            act()
        super().sleep(end - self.now())


@dataclass
class Numbers:
    idle_calls_per_s: float
    moving_calls_per_s: float
    idle_cpu_share: float
    calls_per_row: float
    worst_catch_s: float

    def failures(self) -> list[str]:
        out = []
        if self.idle_calls_per_s > IDLE_TARGET:
            out.append(f"idle pin calls/s {self.idle_calls_per_s:.0f} > {IDLE_TARGET:.0f}")
        if self.calls_per_row > CALLS_PER_ROW_TARGET:
            out.append(f"pin calls per row per scan {self.calls_per_row:.2f} > {CALLS_PER_ROW_TARGET}")
        if self.worst_catch_s > CATCH_TARGET_S:
            out.append(f"a placement on an idle table took {self.worst_catch_s * 1000:.1f} ms to report")
        return out


def _table(tmp: Path, counter: Counter | None) -> tuple[Table, Any]:
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    hardware.clock = PlacingClock()
    hardware.board.clock = hardware.clock
    if counter is not None:
        hardware.pin_factory = CountedFactory(hardware.pin_factory, counter)
    table = build_table(profile, hardware, tmp / "j.jsonl", Dice(random.Random(1)))
    for loc, (_, n) in new_game().occupancy().items():
        hardware.board.place(profile.locations[loc], n)
    table.flow.start()
    return table, hardware


def _run(table: Table, seconds: float) -> None:
    clock = table.loop.clock
    end = clock.now() + seconds
    table.loop.run(until=lambda: clock.now() >= end)


def idle(tmp: Path, seconds: float = 20.0) -> float:
    """Pin calls per simulated second of a set-up table nobody touches (after the first quiet seconds)."""
    counter = Counter()
    table, _ = _table(tmp, counter)
    _run(table, 3.0)
    counter.calls = 0
    _run(table, seconds)
    return counter.calls / seconds


def idle_cpu(tmp: Path, seconds: float = 60.0) -> float:
    """Wall seconds per simulated second of that idle table, without the counting proxies."""
    table, _ = _table(tmp, None)
    _run(table, 3.0)
    start = time.perf_counter()
    _run(table, seconds)
    return (time.perf_counter() - start) / seconds


def moving(tmp: Path, seconds: float = 10.0) -> float:
    """Pin calls per simulated second while someone lifts and puts down a piece every half second."""
    counter = Counter()
    table, hardware = _table(tmp, counter)
    cell = table.profile.locations["pos:24"]  # an empty camp at the start
    flips = [0]

    def hand(now: float) -> list[Event]:
        if now >= flips[0] * 0.5 + start:
            (hardware.board.lift if hardware.board.count(cell) else hardware.board.place)(cell)
            flips[0] += 1
        return []

    start = table.loop.clock.now()
    table.loop.add_source(hand)
    _run(table, 1.0)
    counter.calls = 0
    _run(table, seconds)
    return counter.calls / seconds


def calls_per_row(tmp: Path) -> float:
    """Pin calls of one scan of the matrix, per row."""
    counter = Counter()
    table, _ = _table(tmp, counter)
    table.loop.tick()
    counter.calls = 0
    table.inputs.scanner.scan(table.loop.clock.now())
    return counter.calls / len(table.profile.rows)


def catch_time(tmp: Path, offset: float) -> float:
    """Time from a piece put down ``offset`` seconds into a quiet stretch to its cell change."""
    table, hardware = _table(tmp, Counter())
    clock: PlacingClock = table.loop.clock  # type: ignore[assignment]
    cell = table.profile.locations["pos:24"]
    _run(table, 3.0)
    seen: list[float] = []
    placed: list[float] = []
    handle = table.flow.handle

    def watch(event: Event) -> None:
        if isinstance(event, CellChanged) and event.closed and event.cell == cell:
            seen.append(event.at)
        handle(event)

    def put() -> None:
        hardware.board.place(cell)
        placed.append(clock.now())

    table.loop.set_handler(watch)
    clock.at, clock.act = clock.now() + offset, put
    _run(table, 0.5)
    return seen[0] - placed[0] if seen and placed else float("inf")


def worst_catch(tmp: Path, phases: int = 40) -> float:
    """The longest catch time over put-down moments spread across several idle periods."""
    return max(catch_time(tmp / str(i), 0.0005 + i * 0.1 / phases) for i in range(phases))


def measure() -> Numbers:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "catch").mkdir()
        for i in range(40):
            (root / "catch" / str(i)).mkdir()
        return Numbers(idle(root / "catch" / "0"), moving(root / "catch" / "1"), idle_cpu(root / "catch" / "3"),
                       calls_per_row(root / "catch" / "2"), worst_catch(root / "catch"))


def report() -> bool:
    n = measure()
    print(f"pin calls per scan per row: {n.calls_per_row:.2f} (target <= {CALLS_PER_ROW_TARGET})")
    print(f"pin calls/s at idle: {n.idle_calls_per_s:.0f} (today {TODAY_IDLE_CALLS_PER_S:.0f}; "
          f"target <= 1/8 = {IDLE_TARGET:.0f})")
    print(f"pin calls/s while moving: {n.moving_calls_per_s:.0f}")
    print(f"idle table CPU share on this machine: {n.idle_cpu_share * 100:.3f} % of a core")
    print(f"worst time to report a piece put down on an idle table: {n.worst_catch_s * 1000:.1f} ms "
          f"(target <= {CATCH_TARGET_S * 1000:.0f} ms)")
    failures = n.failures()
    for failure in failures:
        print(f"TARGET MISSED: {failure}")
    return not failures


if __name__ == "__main__":
    sys.exit(0 if report() else 1)
