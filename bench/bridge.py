"""The board link (issues 5 and 11): ``python -m bench.bridge [--seeds 2,3,4,5] [--noise 0,0.1,...] [--moves N]``.

Numbers:
- round trip (host command -> MCU ack) and delta latency (magnet placed -> change on the host), in real
  time, over a real pty to the firmware running under CPython;
- frames per second the host's link sustains (reader thread + board versions) from a pty;
- 10^5 frames corrupted at random (bit flips, dropped, inserted and duplicated bytes) through the decoder:
  no crash, and no more corrupt frames accepted than a 16-bit CRC lets through by chance.

A bench that fails (exit 1, the failing case printed): the host's board (``BoardView``) fed deltas as the
MCU sends them -- each delta, then a copy of it a few frames later -- over a line that loses frames, so a
copy often arrives after the deltas that came after it (a late copy of v11 after v12): every board the
host reports must be one the MCU had, in the MCU's order, never a phantom (a cell closed again by a late
copy after a newer delta opened it). Then whole games between bots over the simulated bridge,
on a line with a share of bytes corrupted (each level up to the most the command line accepts) and the
cable pulled for 2 s every simulated minute, one per seed and level, must each finish and be move for move
the game the same seed plays on the directly wired board -- a noisy line may slow a game, never change it
or stop it. ``--moves N`` plays only
the first N journal lines of each game (the short version CI runs, tests/bridge/test_bridge_bench.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from controller import demo
from controller.demo import DemoTooLongError
from controller.journal import JournalError, read, replay
from controller.table import Table
from engines.base import GameState, Move
from engines.bots.match import Bot
from firmware_bridge.board import BoardView
from firmware_bridge.codec import (
    DELTA,
    LED,
    ROW,
    Decoder,
    Frame,
    delta_body,
    encode,
    row_body,
)
from firmware_bridge.limits import NOISE_LIMIT
from firmware_bridge.link import Link, Status
from sim_hardware.bridge_backend import _open_serial
from sim_hardware.clock import FakeClock
from sim_hardware.mcu import SimMcu
from sim_hardware.pins import SimBoard

SEEDS = (2, 3, 4, 6)  # seeds 1 and 5 take a step back on the direct board itself (a flow misread): no reference
LEVELS = (0.0, 0.05, 0.1, 0.15, NOISE_LIMIT)
PULL_EVERY_S, PULL_FOR_S = 60.0, 2.0
MAX_SIM_S = 3600.0  # a game over the bridge that has not ended by then has stalled (direct games take ~5 min)


# -- the decoder under corrupted frames --------------------------------------------------------------------


def sample(rng: random.Random, seq: int) -> Frame:
    kind = rng.choice((DELTA, ROW))
    if kind == DELTA:
        body = delta_body(rng.randrange(256), [(rng.randrange(16), rng.randrange(16), rng.random() < 0.5)
                                               for _ in range(rng.randint(1, 4))])
    else:
        body = row_body(rng.randrange(256), rng.randrange(16), rng.getrandbits(16), 16)
    return Frame(kind, seq % 256, body)


def corrupt(rng: random.Random, wire: bytes) -> bytes:
    data = bytearray(wire)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data))
        action = rng.randrange(4)
        if action == 0:
            data[i] ^= 1 << rng.randrange(8)
        elif action == 1:
            del data[i]
        elif action == 2:
            data.insert(i, rng.randrange(256))
        else:
            data[i:i] = data[i:i + rng.randint(1, 5)]
        if not data:
            break
    return bytes(data)


def corrupted_frames(total: int) -> bool:
    """No crash, and no more corrupt frames accepted than a 16-bit CRC lets through by chance (one chunk of
    garbage in 65,536): a structural hole (as CCITT-FALSE's zero byte more or less at the end) shows as more."""
    rng = random.Random(1)
    decoder = Decoder()
    crashes = accepted_corrupt = accepted_intact = refused = 0
    start = time.perf_counter()
    for seq in range(total):
        frame = sample(rng, seq)
        try:
            for item in decoder.feed(corrupt(rng, encode(frame))):
                if not isinstance(item, Frame):
                    refused += 1
                elif item == frame:
                    accepted_intact += 1  # the damage missed the frame (e.g. a duplicated delimiter)
                else:
                    accepted_corrupt += 1
        except Exception:
            crashes += 1
    elapsed = time.perf_counter() - start
    chance = (refused + accepted_corrupt) / 65536
    print(f"{total} corrupted frames: {crashes} crashes, {accepted_corrupt} corrupt frames accepted (CRC-16 by "
          f"chance: {chance:.1f}), {refused} refused, {accepted_intact} delivered intact; "
          f"{total / elapsed:.0f} frames/s encoded+corrupted+decoded")
    return crashes == 0 and accepted_corrupt <= 3 * chance + 1


# -- late copies: the host's board never shows what the MCU's never was ---------------------------------------


def late_copies(trials: int = 300, changes: int = 60, loss: float = 0.3, copy_after: int = 2) -> str:
    """The MCU's boards one change at a time (versions v0..vN), sent as deltas with a copy of each
    ``copy_after`` frames later, every frame lost at ``loss``: the host's boards must be the MCU's, in order.
    Returns the first case that breaks it ("" if none)."""
    rng = random.Random(7)
    late = 0
    for trial in range(trials):
        truth = [frozenset[tuple[int, int]]()]
        frames: list[tuple[int, bool]] = []  # (version, a copy?) in the order the MCU sends them
        for v in range(1, changes + 1):
            cell = (rng.randrange(4), rng.randrange(4))
            truth.append(truth[-1] ^ {cell})
            frames.append((v, False))
            if v > copy_after:
                frames.append((v - copy_after, True))
        view = BoardView(4, 4)
        for r in range(4):  # the board first read from rows, at v0
            view.row(0, r, 0)
        at = heard = 0  # how far along the MCU's boards the host is; the newest version heard
        for v, copy in frames:
            if rng.random() < loss:
                continue
            (cell,) = truth[v] ^ truth[v - 1]
            late += v < heard
            heard = max(heard, v)
            view.delta(v % 256, [(*cell, cell in truth[v])], copy)
            shown = frozenset(view.closed)
            later = [i for i in range(at, len(truth)) if truth[i] == shown]
            if not later:
                return (f"late copies: trial {trial}, after delta v{v}{' (a copy)' if copy else ''} the host shows "
                        f"{sorted(shown)}, a board the MCU never had after v{at}: a phantom")
            at = later[0]
    print(f"late copies: {trials} runs of {changes} changes, frames lost at {loss:.0%}: {late} deltas arrived after "
          f"a newer one; the host showed only the MCU's boards, in the MCU's order")
    return ""


# -- latency and throughput on a pty ------------------------------------------------------------------------


def _pair() -> tuple[SimBoard, SimMcu, Link]:
    board = SimBoard(range(7), range(7), FakeClock())
    mcu = SimMcu(board, random.Random(1))
    link = Link(lambda: mcu.open_port(_open_serial), 7, 7)
    mcu.link = link
    t0 = time.monotonic()
    while link.status is not Status.UP and time.monotonic() - t0 < 5:
        link.poll(time.monotonic())
        mcu.step(time.monotonic())
    return board, mcu, link


def _pcts(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=20)
    return f"p50 {statistics.median(samples) * 1e3:.2f} ms, p95 {q[18] * 1e3:.2f} ms (n={len(samples)})"


def latency(samples: int = 300) -> None:
    """Real time: the MCU is stepped every loop turn (as the Pico's main loop does, every millisecond)."""
    board, mcu, link = _pair()
    round_trips, deltas = [], []
    for i in range(samples):
        link.send(LED, bytes([i % 7, 0, 1]))
        start = time.perf_counter()
        while link.unanswered:
            mcu.step(time.monotonic())
            link.poll(time.monotonic())
        round_trips.append(time.perf_counter() - start)
    for i in range(samples):
        cell = (i % 7, (i // 7) % 7)
        (board.lift if cell in board.magnets else board.place)(cell)
        start = time.perf_counter()
        while not link.poll(time.monotonic()):
            mcu.step(time.monotonic())
            time.sleep(0.001)
        deltas.append(time.perf_counter() - start)
    link.close()
    mcu.close()
    print(f"round trip host -> MCU -> host (LED, ack) on a pty: {_pcts(round_trips)}")
    print(f"delta latency, magnet placed -> change on the host (MCU at 1 kHz, 3-scan debounce at 5 ms): "
          f"{_pcts(deltas)}")


def throughput(frames: int = 50_000) -> None:
    _, mcu, link = _pair()
    link.poll(time.monotonic())
    first = mcu.mcu.version + 1
    wire = b"".join(encode(Frame(DELTA, (mcu.mcu.seq + i) % 256, delta_body((first + i) % 256,
                                                                              [(i % 7, 3, i % 2 == 0)])))
                    for i in range(frames))
    before = link.stats.frames_in
    start = time.perf_counter()
    for i in range(0, len(wire), 4096):
        mcu.transmit(wire[i:i + 4096])
        link.poll(time.monotonic())
    while link.stats.frames_in - before < frames and time.perf_counter() - start < 30:
        link.poll(time.monotonic())
    elapsed = time.perf_counter() - start
    got = link.stats.frames_in - before
    link.close()
    mcu.close()
    print(f"sustained: {got / elapsed:,.0f} delta frames/s through the pty, reader thread and board versions "
          f"({got} of {frames}, {len(wire) / elapsed / 1e6:.2f} MB/s)")


# -- games over a noisy line, against the direct board ------------------------------------------------------


class _Enough(Exception):
    """The short version has played its moves."""


@dataclass
class Outcome:
    seed: int
    noise: float
    problem: str  # "" when the game is the direct board's, move for move
    sim_s: float = 0.0
    moves: int = 0
    pulls: int = 0
    stats: str = ""
    dropped: int = 0  # presses made while the board could not be read


def _moves(journal: Path) -> list[str]:
    return [json.loads(line)["move"] for line in journal.read_text().splitlines()[1:]]


def _stop_after(moves: int | None, then: Callable[[Table], None] | None = None) -> Callable[[Table], None]:
    def install(table: Table) -> None:
        if then is not None:
            then(table)
        if moves is not None:
            def enough(now: float) -> list[object]:
                if table.journal.seq >= moves:
                    raise _Enough
                return []

            table.loop.add_source(enough)  # type: ignore[arg-type]

    return install


def _pull_the_cable(pulls: list[float]) -> Callable[[Table], None]:
    def install(table: Table) -> None:
        mcu: SimMcu = table.hardware.mcu
        start = table.hardware.clock.now()

        def source(now: float) -> list[object]:
            if mcu.path is not None and (now - start) // PULL_EVERY_S > len(pulls):
                pulls.append(now)
                mcu.disconnect()
            elif mcu.path is None and now - pulls[-1] >= PULL_FOR_S:
                mcu.plug_in()
            return []

        table.loop.add_source(source)  # type: ignore[arg-type]

    return install


class _Decided:
    """A bot asked again in a position it has decided answers as before, as a person keeps their plan after
    putting the board right. Without it, each time a fix-up sends the scripted players to think again the bot
    draws from its generator once more, and every later decision differs: a cable pulled during a fix-up
    would change the game through the harness, not the link. Phantom moves still show: they make new
    positions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decided: dict[str, Move] = {}

    def choose(self, state: GameState) -> Move:
        key = json.dumps(state.to_json(), sort_keys=True)
        if key not in self.decided:
            self.decided[key] = self.bot.choose(state)
        return self.decided[key]


def _play(seed: int, journal: Path, moves: int | None, **bridge: object) -> tuple[Table, float]:
    """The game to its end (or its first ``moves`` lines): the table, and the simulated seconds it took."""
    tables: list[tuple[Table, float]] = []
    faults = bridge.pop("faults", None)

    def keep(table: Table) -> None:
        tables.append((table, table.hardware.clock.now()))
        if callable(faults):
            faults(table)

    make_bot = demo.make_bot
    demo.make_bot = lambda kind, rng: _Decided(make_bot(kind, rng))
    try:
        demo.run_demo(seed, journal, faults=_stop_after(moves, keep), max_seconds=MAX_SIM_S,
                      **bridge)  # type: ignore[arg-type]
    except _Enough:
        table = tables[0][0]
        table.journal.close()
        if hasattr(table.hardware, "close"):
            table.hardware.close()
    finally:
        demo.make_bot = make_bot
    table, start = tables[0]
    return table, table.hardware.clock.now() - start


def game(seed: int, noise: float, moves: int | None = None) -> Outcome:
    """One seed at one noise level: the direct board's game, then the bridge's, compared move for move."""
    with tempfile.TemporaryDirectory() as tmp:
        direct, bridge = Path(tmp) / "direct.jsonl", Path(tmp) / "bridge.jsonl"
        _play(seed, direct, moves)
        reference = _moves(direct)
        if "undo" in reference:
            return Outcome(seed, noise, f"the direct board's own game takes a step back (line "
                                        f"{reference.index('undo') + 1}): not a reference, pick another seed")
        pulls: list[float] = []
        try:
            table, sim_s = _play(seed, bridge, moves, profile="hannibal-bridge-sim", line_noise=noise,
                                 faults=_pull_the_cable(pulls))
        except DemoTooLongError as e:
            return Outcome(seed, noise, f"did not finish: {e}", pulls=len(pulls))
        played = _moves(bridge)
        stats = table.hardware.link.stats
        outcome = Outcome(seed, noise, "", sim_s, len(played), len(pulls),
                          f"{stats.drops} drops, {stats.reconnects} reconnects, {stats.lost} deltas lost with every "
                          f"copy, {stats.caught_up} taken from a copy", stats.presses_dropped)
        try:
            replay(read(bridge), bridge)
        except JournalError as e:
            outcome.problem = f"journal does not replay: {e}"
        if not outcome.problem and played != reference[:len(played) if moves else None]:
            i = next((i for i, (a, b) in enumerate(zip(reference, played, strict=False)) if a != b),
                     min(len(reference), len(played)))
            outcome.problem = (f"differs from the direct board at line {i + 1}: direct {reference[i:i + 4]}, "
                               f"bridge {played[i:i + 4]}")
        return outcome


def _game(args: tuple[int, float, int | None]) -> Outcome:
    return game(*args)


def games(seeds: tuple[int, ...], levels: tuple[float, ...], moves: int | None = None,
          workers: int = 1) -> list[Outcome]:
    """Every seed at every level; the failures (each printed as it comes)."""
    cases = [(seed, noise, moves) for noise in levels for seed in seeds]
    failures = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            outcomes = list(pool.map(_game, cases))
    else:
        outcomes = [game(*case) for case in cases]
    for o in outcomes:
        verdict = "FAIL: " + o.problem if o.problem else "same game as the direct board"
        print(f"noise {o.noise:<5} seed {o.seed}: {verdict}; {o.moves} lines, {o.sim_s / 60:.1f} simulated min, "
              f"cable pulled {o.pulls}x; {o.stats}; {o.dropped} presses dropped")
        if o.problem:
            failures.append(o)
    return failures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bridge", description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)), help="comma-separated game seeds")
    parser.add_argument("--noise", default=",".join(map(str, LEVELS)), help="comma-separated shares of bytes hit")
    parser.add_argument("--moves", type=int, help="play only the first N journal lines of each game")
    parser.add_argument("--frames", type=int, default=100_000, help="corrupted frames through the decoder")
    parser.add_argument("--games-only", action="store_true", help="skip latency, throughput and the decoder")
    args = parser.parse_args(argv)
    ok = True
    if not args.games_only:
        latency()
        throughput()
        ok = corrupted_frames(args.frames)
    phantom = late_copies()
    if phantom:
        print(f"FAIL: {phantom}")
    seeds = tuple(int(s) for s in args.seeds.split(","))
    levels = tuple(float(n) for n in args.noise.split(","))
    failures = games(seeds, levels, args.moves, workers=min(os.cpu_count() or 1, len(seeds) * len(levels)))
    if failures or not ok or phantom:
        print(f"FAILED: {len(failures)} of {len(seeds) * len(levels)} games" + ("" if ok else "; the decoder")
              + ("; late copies" if phantom else ""))
        return 1
    print(f"passed: {len(seeds) * len(levels)} games over the bridge, each the direct board's")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
