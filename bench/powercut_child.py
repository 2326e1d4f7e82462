"""One demo run for ``bench.powercut``, instrumented from outside the controller so that a kill can be
turned into a real power cut afterwards.

A SIGKILL keeps the page cache: every byte written survives it, fsynced or not, so a journal that never
fsyncs passes a plain kill test. This wrapper records, in a log the parent reads after the kill, the
length of each regular file at each successful ``os.fsync`` (by inode, so the header's temporary file
is followed through its rename) and, at each frame the display draws, a hash of the game state behind
it and what the frame shows (its screen: title, lines, dice, headline). The parent then cuts everything
that was never synced and checks every frame against what the journal held at that moment: the state,
and the chance outcome it shows (dice, spinner, die), which must be the last one fsynced.

It can also kill itself at the moments a timer rarely hits (``--kill``):
``write:K:F``   the K-th journal write, after a share F of its bytes (a cut mid-line);
``sync:K``      the K-th journal fsync, before it runs (written, not yet durable);
``synced:K``    the K-th journal fsync, after it returns (durable, not yet shown).

And plant the faults the bench must catch (``--plant``): ``no-fsync`` (every fsync a no-op),
``late-journal`` (each line written one move late, after its screen), ``eager-torn`` (resume drops a
complete last line as torn), ``shown-first`` (a roll's dice drawn on the OLED, "Rolled 3,5", before the
roll is journaled, while the flow's position is still the one before it: a view drawing at once instead of
from the table state built after the loop turn, whose journal lines are then fsynced).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller import journal as journal_module
from controller.demo import run_demo
from controller.table import Table

PLANTS = ("no-fsync", "late-journal", "eager-torn", "shown-first")


def state_hash(state: dict[str, Any]) -> str:
    """Identifies a game state on both sides: the child's frames and the parent's journal lines."""
    return hashlib.sha1(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


class Recorder:
    def __init__(self, log: Path, journal: Path, kill: str | None) -> None:
        self.fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.journal = journal
        kind, _, rest = (kill or "none:0").partition(":")
        self.kill_kind = kind
        count, _, share = rest.partition(":")
        self.kill_at = int(count)
        self.kill_share = float(share or 0)
        self.writes = 0
        self.syncs = 0
        self.write: Callable[[int, Any], int] = os.write
        self.fsync: Callable[[Any], None] = os.fsync

    def note(self, text: str) -> None:
        self.write(self.fd, (text + "\n").encode())  # written before anything that follows it can happen

    def is_journal(self, fd: Any) -> bool:
        try:
            return os.fstat(fd).st_ino == os.stat(self.journal).st_ino
        except OSError:
            return False

    def die(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    def patched_write(self, fd: int, data: Any) -> int:
        if self.is_journal(fd):
            self.writes += 1
            if self.kill_kind == "write" and self.writes == self.kill_at:
                self.write(fd, bytes(data)[: int(len(data) * self.kill_share)])
                self.die()
        return self.write(fd, data)

    def patched_fsync(self, fd: Any) -> None:
        journal = self.is_journal(fd)
        if journal:
            self.syncs += 1
            if self.kill_kind == "sync" and self.syncs == self.kill_at:
                self.die()
        self.fsync(fd)
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            self.note(f"sync {info.st_ino} {info.st_size}")
        if journal and self.kill_kind == "synced" and self.syncs == self.kill_at:
            self.die()


def plant(kind: str) -> None:
    """Break the property on purpose, from outside the code under test."""
    if kind == "no-fsync":
        os.fsync = lambda fd: None
    elif kind == "late-journal":
        original = journal_module.Journal.append
        held: dict[int, tuple[str, str, dict[str, Any], bool]] = {}

        def late(self: journal_module.Journal, player: str, move: str, state: Any, *, entered: bool = False) -> None:
            previous = held.get(id(self))
            held[id(self)] = (player, move, dict(state), entered)
            if previous is not None:
                original(self, *previous[:3], entered=previous[3])

        journal_module.Journal.append = late  # type: ignore[method-assign]
    elif kind == "eager-torn":
        resume = journal_module.Journal.resume.__func__  # type: ignore[attr-defined]

        def eager(cls: type[journal_module.Journal], path: Path,
                  contents: journal_module.Contents) -> journal_module.Journal:
            if contents.entries:  # cut the last complete line as if it were torn
                kept = path.read_bytes()[: contents.good_bytes]
                contents.good_bytes, contents.torn = kept[:-1].rfind(b"\n") + 1, True
            journal: journal_module.Journal = resume(cls, path, contents)
            return journal

        journal_module.Journal.resume = classmethod(eager)  # type: ignore[method-assign,assignment]
    elif kind == "shown-first":
        from controller.dice import Dice
        from controller.screen import Screen

        roll = Dice.roll

        def shown_first(self: Dice, state: Any) -> Any:
            move = roll(self, state)
            numbers = tuple(int(n) for n in str(move).strip("R").split(",") if n.isdigit())
            if shown_first.oled is not None and numbers:  # type: ignore[attr-defined]
                shown_first.oled.draw(Screen(f"Rolled {move}", (), dice=numbers))  # type: ignore[attr-defined]
            return move

        shown_first.oled = None  # type: ignore[attr-defined]
        Dice.roll = shown_first  # type: ignore[method-assign]
        PLANTED.append(shown_first)


PLANTED: list[Any] = []  # the plants that need the table once it is built


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench.powercut_child")
    parser.add_argument("--game", required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--kill")
    parser.add_argument("--plant", choices=PLANTS)
    args = parser.parse_args(argv)
    recorder = Recorder(args.log, args.journal, args.kill)
    os.write = recorder.patched_write
    os.fsync = recorder.patched_fsync
    if args.plant:
        plant(args.plant)
    tables: list[Table] = []

    def frame(screen: Any) -> None:
        if tables:
            shows = json.dumps({"title": screen.title, "lines": list(screen.lines), "dice": list(screen.dice),
                                "headline": screen.headline}, separators=(",", ":"))
            recorder.note(f"frame {state_hash(tables[0].flow.game.to_json())} {shows}")

    def built(table: Table) -> None:
        tables.append(table)
        for planted in PLANTED:
            planted.oled = table.oled

    run_demo(args.seed, args.journal, game=args.game, echo=frame, faults=built)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
