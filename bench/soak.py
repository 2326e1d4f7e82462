"""Sensor soak: demo games under the sensor faults a table meets, checked for phantom moves; exit 1,
naming the seed, when a move nobody made stands in a game or a game does not end.

``python -m bench.soak [GAMES] [--seed N ...] [--plant phantom]`` (default 100 games, seeds 0 to 99).
Every game is a function of its seed alone (simulated clock, seeded generators, nothing kept between
games), so ``--seed N`` replays exactly the game the long run played as seed N, and a failure prints the
command that does. Each game gets, all game long, chatter bursts on random cells longer than the
scanner's debounce (so they reach the table) and pieces bumped off their reed for longer than the
debounce and back; a button held down at power-up; and one of a sensor stuck closed or a sensor dead
(never closes) appearing mid-game. The scripted players fail
loudly if the table ever offers moves that exclude the one they made, take back any step shown that
they did not make, and every step left standing is compared with the move they meant: any difference
is a phantom move.

``--plant phantom`` proves the check can fail: sensors that lie together the way a legal move would,
while the table's BACK button is dead, so the players cannot take that move back.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.demo import DemoResult, DemoTooLongError, run_demo
from controller.events import Event
from controller.journal import read
from controller.table import Table

CHATTER_PER_S = 0.5  # bursts per simulated second, on random cells
CHATTER_S = (0.02, 0.08)  # longer than the debounce (3 scans at 200 Hz = 15 ms): the scanner sees them
BUMPS_PER_S = 0.05
BUMP_S = (0.03, 0.15)  # a piece knocked off its reed and back, long enough to be scanned
GAME_LIMIT_S = 3 * 3600.0
PLANTS = ("phantom",)


@dataclass
class SoakStats:
    games: int = 0
    phantom: int = 0
    taken_back: int = 0  # steps a faulty sensor made the table apply, seen on screen and taken back
    chatter_bursts: int = 0
    chatter_seen: int = 0  # bursts that changed what the table sensed (past the debounce)
    bumps: int = 0
    bumps_seen: int = 0
    stuck_named: int = 0
    failures: list[str] = field(default_factory=list)
    failed_seeds: list[int] = field(default_factory=list)  # each game's seed is all it takes to replay it
    faults: list[str] = field(default_factory=list)


class Faults:
    """A loop source that injects the faults; it acts on the board and never emits events."""

    def __init__(self, table: Table, seed: int, stats: SoakStats, plant: str | None) -> None:
        self.rng = random.Random(seed)
        self.table = table
        self.board = table.hardware.board
        self.cells = list(table.profile.cells)
        self.stats = stats
        self.seed = seed
        self.plant = plant
        self.start = self.last = table.loop.clock.now()
        self.ok_pin = table.profile.buttons["OK"].pin
        self.board.press_pin(self.ok_pin)  # leaned on at power-up: must be ignored until released
        self.released = False
        self.fault_at = self.start + self.rng.uniform(30, 120)
        self.fault_kind = self.rng.choice(("closed", "open"))
        self.fault_cell: tuple[int, int] | None = None
        self.bumped: dict[tuple[int, int], float] = {}  # cell -> when its piece is back on the reed
        self.bumps_seen: set[tuple[int, int]] = set()
        self.chattering: set[tuple[int, int]] = set()  # bursts not yet seen by the table
        self.ghost_at = self.start + self.rng.uniform(20, 60) if plant == "phantom" else None
        self.back_dead_until = 0.0
        self.rolled_at = -1
        self.lie: list[tuple[tuple[int, int], set[tuple[int, int]]]] = []  # (cell, the stuck set it is in)

    def poll(self, now: float) -> list[Event]:
        dt, self.last = now - self.last, now
        self._observe()
        if not self.released and now - self.start > 2.0:
            self.board.release_pin(self.ok_pin)
            self.released = True
        if self.rng.random() < CHATTER_PER_S * dt:
            cell = self.rng.choice(self.cells)
            self.board.add_chatter(cell, self.rng.uniform(*CHATTER_S))
            self.chattering.add(cell)
            self.stats.chatter_bursts += 1
        for cell in [c for c, until in self.bumped.items() if now >= until]:
            del self.bumped[cell]
            self.bumps_seen.discard(cell)
            self.board.stuck_open.discard(cell)
        if self.rng.random() < BUMPS_PER_S * dt:
            self._bump(now)
        if self.fault_cell is None and now >= self.fault_at:
            self._break_a_sensor()
        if self.ghost_at is not None and now >= self.ghost_at:
            self._ghost(now)
        return []

    def _observe(self) -> None:
        """Count the faults that reached the table: a bumped or chattering cell whose debounced reading
        (the scanner already ran in this loop turn) differs from the pieces really there."""
        sensed = self.table.inputs.scanner.closed_cells()  # type: ignore[attr-defined]
        for cell in list(self.chattering):
            if cell not in self.board.chatter:
                self.chattering.discard(cell)  # over; if it never showed, it stays unseen
            elif (cell in sensed) != self._truly_closed(cell):
                self.chattering.discard(cell)
                self.stats.chatter_seen += 1
        for cell in self.bumped:
            if cell in sensed or cell in self.bumps_seen:
                continue
            self.bumps_seen.add(cell)
            self.stats.bumps_seen += 1

    def _truly_closed(self, cell: tuple[int, int]) -> bool:
        if cell in self.board.stuck_open or cell in self.board.stuck_closed:
            return cell in self.board.stuck_closed
        return cell in self.board.magnets or cell in self.board.pressed

    def _bump(self, now: float) -> None:
        faulty = self.board.stuck_open | self.board.stuck_closed
        cell = self.rng.choice(self.cells)
        if self.board.count(cell) and cell not in faulty and cell != self.fault_cell:
            self.board.stuck_open.add(cell)  # the magnet is off the reed; the piece is still the piece
            self.bumped[cell] = now + self.rng.uniform(*BUMP_S)
            self.stats.bumps += 1

    def _break_a_sensor(self) -> None:
        cell = self.rng.choice([c for c in self.cells if c not in self.bumped])
        self.fault_cell = cell
        (self.board.stuck_closed if self.fault_kind == "closed" else self.board.stuck_open).add(cell)
        self.stats.faults.append(f"seed {self.seed}: sensor {self.table.profile.cells[cell]} stuck {self.fault_kind}")

    def _ghost(self, now: float) -> None:
        """The planted fault: right after a roll, while the players' hands are still on ROLL, two sensors
        lie together the way a legal move would change them, until the table has taken it as a move; and
        BACK is dead for the next seconds, so the players cannot take that move back."""
        flow = self.table.flow
        if self.lie:
            if flow.seq != self.rolled_at or now > self.back_dead_until:
                for cell, stuck in self.lie:
                    stuck.discard(cell)  # the sensors tell the truth again: the table asks for the board
                self.lie = []
                self.ghost_at = None
            return
        if flow.phase.value == "roll":
            self.rolled_at = flow.seq + 1  # the roll's line, once ROLL is pressed
            return
        if flow.phase.value != "step" or flow.seq != self.rolled_at:
            return
        game = flow.game
        before = {loc for loc, (_, n) in game.occupancy().items() if n}
        for move in self.rng.sample(list(game.legal_moves()), len(game.legal_moves())):
            after = game.clone()
            after.apply(move)
            sensed = {loc for loc, (_, n) in after.occupancy().items() if n}
            if sensed != before:
                break
        else:
            return
        where = self.table.profile.locations
        self.lie = [(where[loc], self.board.stuck_open) for loc in before - sensed]
        self.lie += [(where[loc], self.board.stuck_closed) for loc in sensed - before]
        for cell, stuck in self.lie:
            stuck.add(cell)
        back = self.table.profile.buttons["BACK"].pin
        press = self.board.press_pin
        self.back_dead_until = now + 30.0

        def dead_back(pin: int) -> None:
            if pin != back or self.table.loop.clock.now() >= self.back_dead_until:
                press(pin)

        self.board.press_pin = dead_back


def soak_game(seed: int, journal: Path, stats: SoakStats, *, plant: str | None = None,
              max_seconds: float = GAME_LIMIT_S) -> DemoResult | None:
    """One game under faults; what went wrong is added to ``stats.failures`` (None: it did not end)."""
    screens: list[str] = []
    failures_before = len(stats.failures)

    def install(table: Table) -> None:
        table.loop.add_source(Faults(table, seed, stats, plant).poll)

    result: DemoResult | None = None
    try:
        result = run_demo(seed, journal, mistakes=0.1, faults=install, echo=lambda s: screens.append(s.text()),
                          max_seconds=max_seconds)
    except (DemoTooLongError, AssertionError) as e:  # a stalled game, or players the table misread
        stats.failures.append(f"seed {seed}: {type(e).__name__}: {e}")
    stats.games += 1
    stats.stuck_named += any("stuck? OK = ignore it" in s for s in screens)
    if result is not None:
        stats.taken_back += result.players.takebacks
        phantoms = phantom_steps(journal, result.players.decisions)
        stats.phantom += len(phantoms)
        stats.failures += [f"seed {seed}: phantom move standing at journal {p}" for p in phantoms]
    if len(stats.failures) > failures_before:
        stats.failed_seeds.append(seed)
    return result


def phantom_steps(journal: Path, meant: dict[int, str]) -> list[str]:
    """Steps that stand in the game's record (not taken back) although nobody meant them. ``meant`` maps
    the journal length when a player decided to the step decided; a turn's standing steps are matched
    against the steps decided in that turn, so one phantom does not also make the real steps after it
    look out of place."""
    turns: list[list[tuple[int, str]]] = [[]]  # standing steps, one list per roll
    rolls = [0]  # the journal length at each roll
    for entry in read(journal).entries:
        if entry.move.startswith("R"):
            turns.append([])
            rolls.append(entry.seq)
        elif entry.move == "undo":
            turns[-1].pop()
        else:
            turns[-1].append((entry.seq, entry.move))
    phantoms = []
    for turn, start, end in zip(turns, rolls, [*rolls[1:], sys.maxsize], strict=True):
        decided = [move for at, move in meant.items() if start <= at < end]
        for seq, move in turn:
            if move in decided:
                decided.remove(move)
            else:
                phantoms.append(f"line {seq}: {move}")
    return phantoms


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=100)
    parser.add_argument("--seed", type=int, action="append", help="play only this seed (repeatable): a failure "
                        "of the long run, replayed exactly")
    parser.add_argument("--plant", choices=PLANTS, help="break the property on purpose: the bench must fail")
    args = parser.parse_args(argv)
    stats = SoakStats()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seed or range(args.games):
            soak_game(seed, Path(tmp) / f"{seed}.jsonl", stats, plant=args.plant)
    print(f"sensor soak: {stats.games} games, {stats.phantom} phantom moves standing, {stats.taken_back} "
          f"sensor-made steps seen and taken back, {stats.chatter_bursts} chatter bursts ({stats.chatter_seen} "
          f"sensed past the debounce), {stats.bumps} bumps ({stats.bumps_seen} sensed), "
          f"stuck/dead sensors named on screen in {stats.stuck_named} games "
          f"({time.perf_counter() - start:.0f} s)")
    for failure in stats.failures:
        print(f"FAIL: {failure}")
    if stats.failed_seeds:
        plant = f" --plant {args.plant}" if args.plant else ""
        print(f"replay: python -m bench.soak{plant} {' '.join(f'--seed {seed}' for seed in stats.failed_seeds)}")
    return 1 if stats.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
