"""The ``boardkeeper`` command line.

Every failure a user can cause (an unknown game, a bad option) ends in one clear line on stderr and
exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from engines.base import GameState, Move, sample_chance
from engines.bots import HeuristicBot, MCTSBot, RandomBot
from engines.bots.match import Bot
from engines.registry import games, get_game
from hw_config import ConfigError, Needs, load_profile

BOTS = ("random", "heuristic", "mcts")


def make_bot(kind: str, rng: random.Random) -> Bot:
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng)
    return MCTSBot(rng, iterations=32)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardkeeper", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="a whole bot-vs-bot game, printed move by move")
    demo.add_argument("game", choices=[g.name for g in games()])
    demo.add_argument("--seed", type=int, default=1, help="seeds the dice and the bots (default 1)")
    demo.add_argument("--yellow", choices=BOTS, default="heuristic", help="bot for the first seat")
    demo.add_argument("--blue", choices=BOTS, default="mcts", help="bot for the second seat")
    check = sub.add_parser("check-config", help="validate a board profile and its layout; exit 2 on any problem")
    check.add_argument("profile", help="a profile name (hannibal, hannibal-sim) or a path to a .toml file")
    return parser


def game_needs(game: str) -> Needs:
    """What a profile for ``game`` must provide; ``KeyError`` names the known games."""
    info = get_game(game)
    return Needs(info.locations(), info.buttons)


def check_config(profile: str) -> int:
    try:
        p = load_profile(profile, game_needs)
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


def demo(game: str, seed: int, seats: Sequence[str]) -> int:
    info = get_game(game)
    state: GameState = info.new_game()
    chance = random.Random(seed)
    bots = {p: make_bot(kind, random.Random(f"{seed}:{p}")) for p, kind in zip(info.players, seats, strict=True)}
    print(f"{info.title}: {' vs '.join(f'{p} ({k})' for p, k in zip(info.players, seats, strict=True))}, "
          f"seed {seed}")
    line: list[str] = []
    turn = 0
    while not state.is_over():
        player = state.current_player
        move: Move = sample_chance(state, chance) if player is None else bots[player].choose(state)
        if player is None:
            if line:
                print(" ".join(line))
            turn += 1
            line = [f"{turn:4d}. {state.to_json().get('to_move', '')}:", str(move)]
        else:
            line.append(str(move))
        state.apply(move)
    if line:
        print(" ".join(line))
    print(f"winner: {state.winner}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args.game, args.seed, (args.yellow, args.blue))
        if args.command == "check-config":
            return check_config(args.profile)
    except BrokenPipeError:  # output piped into head: not an error of ours
        sys.stderr.close()
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
