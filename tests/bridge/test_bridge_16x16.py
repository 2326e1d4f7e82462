"""A 16x16 board on the bridge: the firmware reads it through the simulated 74HC595/74HC165 chains, and the
host's link, over a real pty, follows it cell for cell -- on a clean line and on a noisy one, where lost
deltas come back from their copies or from rows of 16 columns each."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import partial

import pytest

from firmware_bridge.link import Link, Status
from sim_hardware.bridge_backend import _open_serial
from sim_hardware.clock import FakeClock
from sim_hardware.mcu import STEP_S, SimMcu
from sim_hardware.pins import SimBoard

Cell = tuple[int, int]


class Bench:
    def __init__(self, noise: float) -> None:
        self.clock = FakeClock()
        self.board = SimBoard(range(16), range(16), self.clock)
        self.mcu = SimMcu(self.board, random.Random(16), noise=noise)
        self.link = Link(partial(self.mcu.open_port, _open_serial), 16, 16)
        self.mcu.link = self.link
        self.seen: set[Cell] = set()

    def in_step(self) -> bool:
        return self.link.status is Status.UP and self.seen == set(self.board.magnets)

    def run(self, seconds: float, *, until_in_step: bool = False) -> None:
        for _ in range(round(seconds / STEP_S)):
            if until_in_step and self.in_step():
                return
            self.clock.sleep(STEP_S)
            self.mcu.step(self.clock.now())
            for cell, closed in self.link.poll(self.clock.now()):
                assert closed != (cell in self.seen), f"{cell} reported {closed} twice"  # never a phantom
                (self.seen.add if closed else self.seen.discard)(cell)

    def close(self) -> None:
        self.link.close()
        self.mcu.close()


@pytest.fixture
def bench() -> Iterator[Bench]:
    b = Bench(noise=0.0)
    yield b
    b.close()


def test_the_board_at_boot_then_every_change_in_every_quarter(bench: Bench) -> None:
    corners = {(0, 0), (7, 7), (8, 8), (15, 15), (0, 15), (15, 0), (7, 8), (8, 7)}
    for cell in corners:
        bench.board.place(cell)
    bench.run(0.5)
    assert bench.link.status is Status.UP and bench.seen == corners
    rng = random.Random(3)
    for _ in range(40):
        cell = (rng.randrange(16), rng.randrange(16))
        (bench.board.lift if cell in bench.board.magnets else bench.board.place)(cell)
        bench.run(0.03)
        assert bench.seen == set(bench.board.magnets)
    assert bench.link.stats.damaged == bench.link.stats.lost == 0


def test_a_noisy_line_delays_a_16x16_board_and_never_changes_it() -> None:
    bench = Bench(noise=0.2)
    try:
        rng = random.Random(5)
        for _ in range(10):
            for _ in range(rng.randint(1, 3)):  # a hand moving pieces: a few changes, then a pause
                cell = (rng.randrange(16), rng.randrange(16))
                (bench.board.lift if cell in bench.board.magnets else bench.board.place)(cell)
                bench.run(rng.uniform(0.05, 0.3))
            bench.run(15.0, until_in_step=True)  # 16 rows to gather when every copy of a delta is lost
            assert bench.in_step()
        stats = bench.link.stats
        assert stats.damaged > 100 and stats.caught_up > 0 and stats.drops == 0
    finally:
        bench.close()
