"""Power cuts: demo games of every game with a simulated table, killed at random moments and restarted
on the same journal until they end; exit 1, naming the case, when a promise is broken.

``python -m bench.powercut [KILLS] [SEED] [--plant FAULT] [--game GAME ...]`` (defaults 200, 1, every
game whose simulated table ships). A SIGKILL alone keeps the page cache, so each kill is made a real power
cut: the child (``bench.powercut_child``) logs each fsync's file length, and everything written after the
last one is dropped, kept in part, or left as NUL bytes, as a card may do. Kills land at random times,
in the middle of a journal write, between a write and its fsync, and between an fsync and the screen.
The promises checked:

- no frame ever shows a game state the journal did not hold (fsynced) at that moment, nor a chance outcome
  (dice, spinner, die: the game's ``chance_screen``) that the fsynced journal did not hold last;
- a complete line on disk never disappears or changes in a later run (no move lost, no die re-rolled);
- after every run the journal replays move by move, and every game ends.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.powercut_child import PLANTS, state_hash
from controller.journal import UNDO, JournalError, read, replay
from controller.screen import Screen
from engines.registry import games, get_game, load_ref
from hw_config.profile import PROFILES

ROOT = Path(__file__).resolve().parent.parent  # the child runs as ``python -m bench.powercut_child`` from here
RUN_LIMIT_S = 600.0  # a run that is not cut must end by then
KILLS = ("timer", "write", "sync", "synced")


class PowerCutFailure(AssertionError):
    """A promise is broken; the message names the game, seed, run and kill."""


@dataclass
class Outcome:
    kills: int = 0
    games: Counter[str] = field(default_factory=Counter)
    runs: int = 0
    lines_checked: int = 0
    frames_checked: int = 0
    cuts: Counter[str] = field(default_factory=Counter)  # where the kill landed, and what the tail became


def demo_games() -> list[str]:
    """Every registered game with a simulated table to play its demo on."""
    return [g.name for g in games() if (PROFILES / f"{g.name}-sim.toml").exists()]


@dataclass(frozen=True)
class Log:
    """What the child recorded, in order: ("sync", inode, size) and ("frame", state hash, the screen as JSON)."""

    records: list[tuple[str, ...]]

    @classmethod
    def load(cls, path: Path) -> Log:
        text = path.read_text() if path.exists() else ""
        return cls([tuple(line.split(maxsplit=2)) for line in text.splitlines() if line.strip()])

    def synced(self, inode: int) -> int | None:
        """The file's length at its last fsync in this run, if it had one."""
        sizes = [int(r[2]) for r in self.records if r[0] == "sync" and int(r[1]) == inode]
        return sizes[-1] if sizes else None


def choose_kill(rng: random.Random, delays: tuple[float, float],
                kinds: tuple[str, ...] = KILLS) -> tuple[str | None, float]:
    """The child's own kill point (or None: the parent's timer) and the parent's timeout."""
    kind = rng.choice(kinds)
    if kind == "timer":
        return None, rng.uniform(*delays)
    count = rng.randint(1, 40)
    return (f"write:{count}:{rng.uniform(0.05, 0.95):.2f}" if kind == "write" else f"{kind}:{count}"), RUN_LIMIT_S


def held_states(data: bytes) -> tuple[str | None, dict[str, int]]:
    """The new game's state hash, and for each state a line of ``data`` holds, the byte offset where
    the first such line ends: a frame may show it once the journal is fsynced that far."""
    lines = data.split(b"\n")[:-1]
    if not lines:
        return None, {}
    try:
        header = json.loads(lines[0])
        initial = state_hash(get_game(header["game"]).new_game(**header["options"]).to_json())
    except (ValueError, KeyError, TypeError):
        return None, {}
    first_at: dict[str, int] = {}
    end = len(lines[0]) + 1
    for raw in lines[1:]:
        end += len(raw) + 1
        try:
            first_at.setdefault(state_hash(json.loads(raw)["state"]), end)
        except (ValueError, KeyError, TypeError):
            break  # damage: the replay below names it
    return initial, first_at


def chance_lines(data: bytes) -> list[tuple[int, str]]:
    """Each chance outcome the journal holds (the engine says which lines are chance, from the state before
    each), with the byte offset where its line ends: a frame may show it once the journal is fsynced that far."""
    lines = data.split(b"\n")[:-1]
    out: list[tuple[int, str]] = []
    try:
        header = json.loads(lines[0])
        info = get_game(header["game"])
        before = info.new_game(**header["options"])
        end = len(lines[0]) + 1
        for raw in lines[1:]:
            end += len(raw) + 1
            line = json.loads(raw)
            if "note" in line:
                continue
            if before.is_chance() and line["move"] != UNDO:
                out.append((end, line["move"]))
            before = type(before).from_json(line["state"])
    except (ValueError, KeyError, TypeError, IndexError):
        pass  # damage: the replay names it
    return out


def shown_outcome(game: str) -> Callable[[Screen, Sequence[str]], bool] | None:
    """The game's own judge of the chance outcome a screen shows (``GameInfo.chance_screen``)."""
    ref = get_game(game).chance_screen
    return None if ref is None else load_ref(ref)


def check_frames(log: Log, data: bytes, inode: int, durable_at_start: int, initial: str | None,
                 where: str, game: str = "hannibal") -> int:
    """Every frame's state was in the journal, fsynced, when the frame was drawn, and so was the chance
    outcome it shows; returns frames seen."""
    header_initial, first_at = held_states(data)
    initial = header_initial or initial
    chances = chance_lines(data)
    judge = shown_outcome(game)
    durable = durable_at_start
    frames = 0
    for record in log.records:
        if record[0] == "sync" and int(record[1]) == inode:
            durable = int(record[2])
        elif record[0] == "frame":
            frames += 1
            if record[1] != initial and first_at.get(record[1], len(data) + 1) > durable:
                saved = first_at.get(record[1])
                raise PowerCutFailure(
                    f"{where}: frame {frames} shows a state the journal did not hold: fsynced to byte {durable}, "
                    + (f"the state's line ends at byte {saved}, not yet fsynced when shown" if saved else
                       "the state is in no line at all"))
            if judge is not None and len(record) > 2:
                shows = json.loads(record[2])
                screen = Screen(shows["title"], tuple(shows["lines"]), dice=tuple(shows["dice"]),
                                headline=shows["headline"])
                held = [move for end, move in chances if end <= durable]
                if not judge(screen, held):
                    raise PowerCutFailure(
                        f"{where}: frame {frames} shows a chance outcome the journal did not hold: "
                        f"{screen.title!r} {screen.dice or ''} with the last fsynced chance "
                        f"{held[-1] if held else 'none'} "
                        f"(fsynced to byte {durable})")
    return frames


def power_cut(journal: Path, log: Log, start: tuple[int, int] | None, rng: random.Random, outcome: Outcome,
              where: str) -> None:
    """Make the kill a power cut: what was not fsynced is gone, half there, or NUL bytes."""
    if not journal.exists():
        return
    info = journal.stat()
    synced = log.synced(info.st_ino)
    if synced is not None and synced > info.st_size:
        raise PowerCutFailure(f"{where}: the journal is {info.st_size} bytes, shorter than its last fsync ({synced})")
    if synced is None and start is not None and start[0] == info.st_ino:
        # not synced in this run: what was there before it was on disk already, less a torn tail the
        # resume may have cut (whether that cut reached the card or not, both are fine to resume from)
        synced = min(start[1], info.st_size)
    if synced is None:  # created in this run, never synced: the file never reached the card
        journal.unlink()
        journal.with_name(journal.name + ".tmp").unlink(missing_ok=True)
        outcome.cuts["file lost"] += 1
        return
    tail = info.st_size - synced
    fate = rng.choice(("dropped", "partly kept", "NUL bytes")) if tail else "nothing unsynced"
    outcome.cuts[fate] += 1
    keep = rng.randint(0, tail)
    with journal.open("r+b") as f:
        if fate == "dropped":
            f.truncate(synced)
        elif fate == "partly kept":
            f.truncate(synced + keep)
        elif fate == "NUL bytes":
            f.seek(synced + keep)
            f.write(b"\0" * (tail - keep))


def play_with_cuts(journal: Path, seed: int, rng: random.Random, outcome: Outcome, max_kills: int, *,
                   game: str = "hannibal", delays: tuple[float, float] = (0.4, 3.0),
                   plant: str | None = None, kinds: tuple[str, ...] = KILLS) -> None:
    """One game, cut at random moments (never more than ``max_kills`` in all), run to its end. ``kinds``
    are where kills may land (``KILLS``); all but "timer" land whatever the machine's speed."""
    on_disk = b""  # the complete lines on the card: no later run may change or lose one
    initial = state_hash(get_game(game).new_game().to_json())
    while True:
        outcome.runs += 1
        log_path = journal.with_name(f"{journal.stem}.run{outcome.runs}.log")
        start = (journal.stat().st_ino, journal.stat().st_size) if journal.exists() else None
        kill, timeout = choose_kill(rng, delays, kinds) if outcome.kills < max_kills else (None, RUN_LIMIT_S)
        where = f"{game} seed {seed}, run {outcome.runs} (kill: {kill or f'timer {timeout:.1f} s'})"
        cmd = [sys.executable, "-m", "bench.powercut_child", "--game", game, "--seed", str(seed),
               "--journal", str(journal), "--log", str(log_path)]
        cmd += (["--kill", kill] if kill else []) + (["--plant", plant] if plant else [])
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()  # SIGKILL, at whatever the child was doing
            _, err = proc.communicate()
        killed = proc.returncode == -signal.SIGKILL
        if not killed and proc.returncode != 0:
            last = err.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            raise PowerCutFailure(f"{where}: the demo failed after a power cut: {last[0]}")
        log = Log.load(log_path)
        data = journal.read_bytes() if journal.exists() else b""
        if not data.startswith(on_disk):
            lost = on_disk[: next(i for i, (a, b) in enumerate(zip(on_disk, data + b"\0" * len(on_disk),
                                                                   strict=False)) if a != b)].count(b"\n") + 1
            raise PowerCutFailure(f"{where}: complete line {lost} on disk before the run was lost or changed")
        inode = journal.stat().st_ino if journal.exists() else -1
        outcome.frames_checked += check_frames(log, data, inode, len(on_disk), initial, where, game)
        if killed:
            outcome.kills += 1
            outcome.cuts[kill.partition(":")[0] if kill else "timer"] += 1
            power_cut(journal, log, start, rng, outcome, where)
        on_disk = b""
        if journal.exists():
            try:
                contents = read(journal)
                replay(contents, journal)
            except JournalError as e:
                raise PowerCutFailure(f"{where}: the journal does not replay: {e}") from None
            on_disk = journal.read_bytes()[: contents.good_bytes]
            outcome.lines_checked += len(contents.entries) + 1
            if contents.finished:
                outcome.games[game] += 1
                return
        if not killed:
            raise PowerCutFailure(f"{where}: the demo ended but the journal has no winner")


def run(kills: int, seed: int, *, plant: str | None = None, only: list[str] | None = None,
        delays: tuple[float, float] = (0.4, 3.0)) -> Outcome:
    """Games in turn (every demo game, or ``only``) until ``kills`` power cuts have landed."""
    rng = random.Random(seed)
    outcome = Outcome()
    names = only or demo_games()
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        while outcome.kills < kills:
            play_with_cuts(Path(tmp) / f"game-{n}.jsonl", seed + n, rng, outcome, kills, game=names[n % len(names)],
                           delays=delays, plant=plant)
            n += 1
    return outcome


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.powercut", description=__doc__.splitlines()[0])
    parser.add_argument("kills", nargs="?", type=int, default=200)
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--plant", choices=PLANTS, help="break the property on purpose: the bench must fail")
    parser.add_argument("--game", action="append", choices=demo_games(), help="only this game (repeatable)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        o = run(args.kills, args.seed, plant=args.plant, only=args.game)
    except PowerCutFailure as e:
        print(f"FAIL: {e}")
        return 1
    print(f"power cuts survived: {o.kills} over {sum(o.games.values())} games "
          f"({', '.join(f'{g} {n}' for g, n in sorted(o.games.items()))}) and {o.runs} starts; "
          f"{o.lines_checked} journal lines replayed, {o.frames_checked} frames checked against the fsynced "
          f"journal; {time.perf_counter() - start:.0f} s")
    print("cuts: " + ", ".join(f"{k} {v}" for k, v in sorted(o.cuts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
