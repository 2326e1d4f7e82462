"""A whole bot-vs-bot game on the simulated table: the bots act physically, the flow sees only pins."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.dice import Dice
from controller.realtime import RealTime
from controller.remote.play import LINGER_S, join
from controller.screen import Screen
from controller.table import Table, build_table, keep_finished_aside, load_backend, profile_for, scripted_players
from engines.bots import HeuristicBot, MCTSBot, RandomBot
from engines.bots.match import Bot
from engines.registry import games, get_game
from hw_config.remote import Remote

MAX_SIM_SECONDS = 6 * 3600.0
REMOTE_SPEED = 100.0  # simulated seconds per real second with a far table: a far line takes a few real ms
SENSOR_FAULTS = {"stuck": "stuck_closed", "dead": "stuck_open"}  # --fault KIND:LOC -> the simulated board's set


class DemoTooLongError(RuntimeError):
    """The simulated game did not end: a flow or player bug, never a silent success."""


class DemoStalledError(RuntimeError):
    """One fault keeps coming and nothing can be saved (a full disk): the demo cannot go on."""


class RemoteStoppedError(RuntimeError):
    """The two tables no longer play one game (a fork, a state that differs): play stopped on this table."""


@dataclass
class DemoResult:
    table: Table
    players: Any  # the game's scripted players (sim_hardware)
    sim_seconds: float

    @property
    def outcome(self) -> str:
        return self.table.outcome()


def make_bot(kind: str, rng: random.Random, *, think_ms: int | None = None,
             clock: Callable[[], float] = time.monotonic) -> Bot:
    """A bot of ``kind``. ``think_ms`` (a real table's budget, read on ``clock``) caps MCTS's time a decision;
    demos give none, so their fixed iteration count makes the same seed the same game."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "mcts":
        return MCTSBot(rng, think_ms=think_ms, clock=clock)
    return HeuristicBot(rng)


def run_demo(seed: int, journal: Path, *, game: str | None = None, frames: Path | None = None,
             profile: str | None = None, options: dict[str, Any] | None = None,
             seats: Mapping[str, str] | None = None, mistakes: float = 0.0,
             echo: Callable[[Screen], None] | None = None, faults: Callable[[Table], None] | None = None,
             max_seconds: float = MAX_SIM_SECONDS, line_noise: float | None = None,
             sensor_faults: Sequence[str] = (), views: Sequence[Callable[[Table], None]] = (),
             speed: float | None = None, remote: Remote | None = None,
             far: frozenset[str] = frozenset()) -> DemoResult:
    """Play (or resume) the game in ``journal`` to its end on the simulated table. ``options`` are the new
    game's (default: the registry's demo options); ``seats`` maps each seat to a bot kind (default: every
    seat heuristic). ``line_noise`` is for a profile whose board is read over serial (``sim-bridge``): the
    share of bytes corrupted on the line. ``sensor_faults`` (``stuck:LOC``, ``dead:LOC``; LOC as the layout
    names it) break a reed for the whole game: stuck closed, or dead under whatever stands on it. ``views`` are
    attached to the table before the game starts (the web page: it watches the table state and deals the
    seats' codes); ``speed`` paces the simulated clock at that many simulated seconds per real second, so a
    person can watch (default: as fast as it goes; with a far table ``REMOTE_SPEED``, since the far table's
    lines take real time). ``remote``: the game is shared with a far table over that broker, which plays the
    seats ``far``; this table's bots and scripted hands play the others and follow the far seats' moves."""
    prof = profile_for(profile or f"{game or games()[0].name}-sim")  # default: the first game registered
    info = get_game(prof.game)
    keep_finished_aside(journal)  # before the dice are salted: the same seed plays the same new game
    broken = [sensor_fault(spec, prof.locations) for spec in sensor_faults]
    hardware = load_backend(prof, frames_dir=frames, seed=seed,
                            **({} if line_noise is None else {"line_noise": line_noise}))
    break_reeds(hardware.board, broken)
    clock = hardware.clock

    def stamped(screen: Screen) -> None:
        if echo is not None:
            echo(screen)

    salt = table_salt(journal)
    # with a far table, each table draws its own seats' chance: the same seed must not draw the same numbers
    # at both (a spin-off would tie for ever)
    rng = random.Random(seed * 7919 + salt) if remote is None else random.Random(f"{seed}:{sorted(far)}:{salt}")
    table = build_table(prof, hardware, journal, Dice(rng),
                        seed=seed, echo=stamped, options=info.options(sim=True) if options is None else options,
                        far=far)
    default = dict.fromkeys(table.flow.game.players, "heuristic") if info.bots else {}  # no bots: scripted people
    kinds = {seat: kind for seat, kind in (seats or default).items() if seat not in far}
    bots = {p: make_bot(k, random.Random(f"{seed}:{p}:{table.journal.seq}")) for p, k in kinds.items()}
    players = scripted_players(prof.game)(hardware.board, prof, table.flow, bots, random.Random(seed), mistakes)
    players.patient = speed is not None  # a demo paced for a person to watch: its hands wait as people would
    table.loop.add_source(players.poll)
    if faults is not None:
        faults(table)
    for view in views:
        view(table)
    play = join(table, remote, set(table.flow.game.players) - far) if remote is not None else None
    if speed is not None or play is not None:
        table.loop.after_tick(RealTime(clock, speed or REMOTE_SPEED))
    start = clock.now()
    table.flow.start()
    table.loop.run(until=lambda: (table.finished() and players.idle())
                   or clock.now() - start > max_seconds or table.faults.stalled() is not None
                   or (play is not None and play.stopped is not None))
    if play is not None:
        play.link.close(linger_s=0.0 if play.stopped else LINGER_S)
        if play.stopped is not None:
            table.journal.close()
            raise RemoteStoppedError(f"remote play stopped: {play.stopped}")
    if table.finished():
        table.log_over()
    stalled = table.faults.stalled()
    if stalled is not None:
        table.journal.close()
        raise DemoStalledError(f"{stalled} (said {table.faults.counts[stalled]} times; nothing saved since)")
    if not table.finished():
        raise DemoTooLongError(f"no winner after {max_seconds:.0f} simulated seconds "
                               f"(phase {table.flow.phase.value}, journal line {table.journal.seq})")
    table.journal.close()
    if hasattr(hardware, "close"):  # the bridge: the link's reader thread and the pty
        hardware.close()
    return DemoResult(table, players, clock.now() - start)


def sensor_fault(spec: str, locations: Mapping[str, tuple[int, int]]) -> tuple[str, tuple[int, int]]:
    """``stuck:pos:27`` -> ("stuck", the cell of pos:27); ``ValueError`` saying what is wrong."""
    kind, _, location = spec.partition(":")
    if kind not in SENSOR_FAULTS:
        raise ValueError(f"--fault {spec}: KIND:LOC with KIND one of {', '.join(SENSOR_FAULTS)}")
    if location not in locations:
        some = ", ".join(sorted(locations)[:3])
        raise ValueError(f"--fault {spec}: {location!r} is no location of the layout (such as {some})")
    return kind, locations[location]


def break_reeds(board: Any, broken: Sequence[tuple[str, tuple[int, int]]]) -> None:
    """Break the simulated board's reeds as ``sensor_fault`` read them: each for as long as the board lives."""
    for kind, cell in broken:
        getattr(board, SENSOR_FAULTS[kind]).add(cell)


def table_salt(journal: Path) -> int:
    """Dice after a resume must not repeat the ones before it: salt the generator with the journal length."""
    try:
        return sum(1 for _ in journal.open("rb"))
    except OSError:
        return 0

