"""The ``boardkeeper`` command line.

Every failure a user can cause (an unknown game, a bad profile, a broken journal, a bad option) ends in
one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from controller import journal
from controller.demo import run_demo
from controller.dice import Dice
from controller.flows import scipio_screens
from controller.flows.hannibal import position_screen
from controller.journal import JournalError
from controller.screen import Screen
from controller.table import ask_resume, attach_game, build_io, load_backend, profile_for
from controller.terminal import run_terminal
from engines.base import GameState
from engines.hannibal import State
from engines.registry import games, get_game
from engines.scipio import State as ScipioState
from firmware_bridge.link import NOISE_LIMIT
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
    demo.add_argument("--yellow", choices=BOTS, default="heuristic", help="bot for the first seat (yellow, Rome)")
    demo.add_argument("--blue", choices=BOTS, default="heuristic", help="bot for the second seat (blue, Carthage)")
    demo.add_argument("--mistakes", type=float, default=0.0, help="share of moves the players get wrong (0..1)")
    demo.add_argument("--quiet", action="store_true", help="print only the result, not every screen")
    demo.add_argument("--backend", choices=("direct", "bridge"), default="direct",
                      help="the board read by the Pi's pins (direct) or by the simulated MCU over serial (bridge)")
    demo.add_argument("--line-noise", type=float, default=0.0,
                      help=f"--backend bridge: share of bytes corrupted on the serial line (0..{NOISE_LIMIT})")
    play = sub.add_parser("play", help="play on the real board (or --sim: at the terminal against a bot)")
    play.add_argument("game", choices=[g.name for g in games()])
    play.add_argument("--profile", help="board profile (default: the game's, e.g. hannibal)")
    play.add_argument("--journal", type=Path, help="journal file (default: in the state directory); "
                      "an unfinished one is resumed")
    play.add_argument("--sim", action="store_true", help="the simulated table at the terminal, against a bot")
    play.add_argument("--as", dest="human", choices=("yellow", "blue"), default="yellow", help="your seat (--sim)")
    play.add_argument("--seed", type=int, help="seed the dice and bot (--sim only; default: random)")
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
          f"display {p.display.driver} {p.display.width}x{p.display.height}"
          + (f", board over serial {p.serial.url} at {p.serial.baud} baud" if p.serial else ""))
    return 0


def demo(args: argparse.Namespace) -> int:
    if not 0.0 <= args.mistakes <= 1.0:
        raise UsageError(f"--mistakes must be between 0 and 1, got {args.mistakes}")
    if not 0.0 <= args.line_noise <= NOISE_LIMIT:
        raise UsageError(f"--line-noise must be between 0 and {NOISE_LIMIT} (the most the board link is shown to "
                         f"carry a game through), got {args.line_noise}")
    if args.line_noise and args.backend != "bridge":
        raise UsageError("--line-noise is for --backend bridge: the direct backend has no serial line")
    bridge = args.backend == "bridge"
    if bridge and args.game != "hannibal":
        raise UsageError(f"--backend bridge: no bridge profile for {args.game} yet (hannibal has one)")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.journal or Path(tmp) / "demo.jsonl"

        def echo(screen: Screen) -> None:
            if not args.quiet:
                print(screen.text(), end="\n\n")

        first, second = get_game(args.game).players
        result = run_demo(args.seed, path, game=args.game, frames=args.frames,
                          seats={first: args.yellow, second: args.blue}, mistakes=args.mistakes, echo=echo,
                          profile=f"{args.game}-bridge-sim" if bridge else f"{args.game}-sim",
                          line_noise=args.line_noise if bridge else None)
        flow = result.table.flow
        print(f"winner: {flow.game.winner}  journal lines: {result.table.journal.seq}  "
              f"simulated time: {result.sim_seconds / 60:.1f} min  frames: {result.table.display.frames}"
              + (f"  journal: {args.journal}" if args.journal else ""))
    return 0


def state_dir() -> Path:
    """Where journals live: systemd's StateDirectory when run as the service, else the XDG state home."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "boardkeeper"


def play(args: argparse.Namespace) -> int:
    path = args.journal or state_dir() / f"{args.game}.jsonl"
    if args.sim:
        return run_terminal(path, human=args.human, seed=args.seed)
    if args.seed is not None:
        raise UsageError("--seed is for --sim only: the real table rolls with the system's entropy")
    profile = profile_for(args.profile or args.game)
    if profile.game != args.game:
        raise UsageError(f"profile {profile.path} is for {profile.game}, not {args.game}")
    if profile.backend in ("sim", "sim-bridge"):
        raise UsageError(f"profile {profile.path} is simulated; use --sim or a real profile")
    try:
        hardware = load_backend(profile)
    except RuntimeError as e:
        raise UsageError(str(e)) from None
    io = build_io(profile, hardware)
    ask_resume(io, path)
    table = attach_game(io, path, Dice())
    table.flow.start()
    try:
        table.loop.run(until=table.finished)
    except KeyboardInterrupt:
        print(f"stopped; the game is safe in {path} and resumes on the next start", file=sys.stderr)
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
    if isinstance(state, State):
        return position_screen(state)
    if isinstance(state, ScipioState):
        return scipio_screens.position_screen(state)
    raise UsageError(f"replay does not know how to show {state.game} yet")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args)
        if args.command == "check-config":
            return check_config(args.profile)
        if args.command == "play":
            return play(args)
        if args.command == "replay":
            return replay_journal(args.journal)
    except (UsageError, JournalError, ConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a path the user gave that cannot be used (a file for --frames, a full disk)
        print(f"error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head: not an error of ours
        sys.stderr.close()
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
