"""The ``boardkeeper`` command line.

Every failure a user can cause (an unknown game, a bad profile, a broken journal, a bad option) ends in
one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from controller import journal
from controller.flows.hannibal import position_screen
from controller.journal import JournalError
from controller.screen import Screen
from controller.table import profile_for
from engines.base import GameState
from engines.hannibal import State
from engines.registry import games
from hw_config import ConfigError

BOTS = ("random", "heuristic", "mcts")


class UsageError(Exception):
    """A problem with what the user asked for: printed as one line, exit 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardkeeper", description="Game master for a sensor-equipped board.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="a whole bot-vs-bot game on the simulated board, headless")
    demo.add_argument("game", choices=[g.name for g in games()])
    demo.add_argument("--seed", type=int, default=1, help="seeds the dice and the bots (default 1)")
    demo.add_argument("--journal", type=Path, help="journal file; an unfinished one is resumed (default: temporary)")
    demo.add_argument("--frames", type=Path, help="save every display frame as PNG in this folder")
    demo.add_argument("--yellow", choices=BOTS, default="heuristic", help="bot for the first seat")
    demo.add_argument("--blue", choices=BOTS, default="heuristic", help="bot for the second seat")
    demo.add_argument("--mistakes", type=float, default=0.0, help="share of moves the players get wrong (0..1)")
    demo.add_argument("--quiet", action="store_true", help="print only the result, not every screen")
    rep = sub.add_parser("replay", help="print a journal's game move by move with the screens it showed")
    rep.add_argument("journal", type=Path)
    check = sub.add_parser("check-config", help="validate a board profile and its layout; exit 2 on any problem")
    check.add_argument("profile", help="a profile name (hannibal, hannibal-sim) or a path to a .toml file")
    return parser


def check_config(profile: str) -> int:
    try:
        p = profile_for(profile)
    except ConfigError as e:
        for problem in e.problems:
            print(f"error: {problem}", file=sys.stderr)
        print(f"{len(e.problems)} problem(s); nothing started", file=sys.stderr)
        return 2
    buttons = ", ".join(f"{b.name}=GPIO{b.pin}" if b.pin is not None else f"{b.name}=cell{list(b.cell or ())}"
                        for b in p.buttons.values())
    print(f"{p.path}: OK -- {p.name}: game {p.game}, backend {p.backend} ({p.pin_factory}), "
          f"{len(p.rows)}x{len(p.cols)} matrix with {len(p.cells)} locations, buttons {buttons}, "
          f"display {p.display.driver} {p.display.width}x{p.display.height}")
    return 0


def demo(args: argparse.Namespace) -> int:
    if not 0.0 <= args.mistakes <= 1.0:
        raise UsageError(f"--mistakes must be between 0 and 1, got {args.mistakes}")
    runner = importlib.import_module("sim_hardware.demo")  # the simulation is loaded by name, never imported
    with tempfile.TemporaryDirectory() as tmp:
        path = args.journal or Path(tmp) / "demo.jsonl"

        def echo(screen: Screen) -> None:
            if not args.quiet:
                print(screen.text(), end="\n\n")

        result = runner.run_demo(args.seed, path, frames=args.frames, seats={"yellow": args.yellow,
                                 "blue": args.blue}, mistakes=args.mistakes, echo=echo)
        flow = result.table.flow
        print(f"winner: {flow.game.winner}  journal lines: {result.table.journal.seq}  "
              f"simulated time: {result.sim_seconds / 60:.1f} min  frames: {result.table.display.frames}"
              + (f"  journal: {args.journal}" if args.journal else ""))
    return 0


def replay_journal(path: Path) -> int:
    contents = journal.read(path)
    states = journal.replay(contents, path)
    header = contents.header
    print(f"{path}: {header['game']}, started {header.get('started', '?')}, seed {header.get('seed', '-')}"
          + ("  (torn last line ignored)" if contents.torn else ""))
    print(position_screen_for(states[0]).text(), end="\n\n")
    for entry, state in zip(contents.entries, states[1:], strict=True):
        print(f"{entry.seq:4d}  {entry.player:6s}  {entry.move}")
        print(position_screen_for(state).text(), end="\n\n")
    print("finished: " + (f"{states[-1].winner} won" if contents.finished else "no (resumable)"))
    return 0


def position_screen_for(state: GameState) -> Screen:
    if not isinstance(state, State):
        raise UsageError(f"replay does not know how to show {state.game} yet")
    return position_screen(state)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args)
        if args.command == "check-config":
            return check_config(args.profile)
        if args.command == "replay":
            return replay_journal(args.journal)
    except (UsageError, JournalError, ConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head: not an error of ours
        sys.stderr.close()
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
