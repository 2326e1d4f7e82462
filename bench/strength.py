"""Bot strength over seeded games, seats alternating.

``python -m bench.strength [GAMES] [ITER] [--game hannibal|scipio|all] [--mcts-games N]``

Hannibal (the default game), issue 2's targets: the heuristic bot beats the random bot in at least 80 % of
200 games; MCTS with a small budget beats the heuristic bot more often than not.

Scipio: the same three pairings. Its cards are hidden, so the heuristic and MCTS bots decide over
determinizations (Rome's pending cards or organisation resampled when Carthage decides), never over the
real hidden state. MCTS games cost far more than heuristic ones (about 7 s a game at 64 iterations), so
``--mcts-games`` sets a smaller sample for the two MCTS pairings (default: GAMES).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from engines import hannibal, scipio
from engines.base import GameState
from engines.bots import HeuristicBot, MCTSBot, RandomBot, win_rate
from engines.bots.match import Bot

BotMaker = Callable[[random.Random], Bot]


@dataclass(frozen=True)
class Game:
    new_game: Callable[[], GameState]
    seats: tuple[str, str]


GAMES: dict[str, Game] = {
    "hannibal": Game(hannibal.new_game, ("yellow", "blue")),
    "scipio": Game(scipio.new_game, ("rome", "carthage")),
}


def match(a: BotMaker, b: BotMaker, games: int, game: str = "hannibal") -> float:
    """Win rate of ``a`` against ``b``; ``a`` takes the first seat in even games and the second in odd ones."""
    spec = GAMES[game]
    first_seat, second_seat = spec.seats

    def bots(seed: int) -> dict[str, Bot]:
        first, second = a(random.Random(seed * 2 + 1)), b(random.Random(seed * 2 + 2))
        return {first_seat: first, second_seat: second} if seed % 2 == 0 else {first_seat: second, second_seat: first}

    return win_rate(lambda seed: spec.new_game(), bots, lambda seed: first_seat if seed % 2 == 0 else second_seat,
                    games)


def report(game: str, games: int, iterations: int, mcts_games: int) -> None:
    pairs: list[tuple[str, BotMaker, BotMaker, int]] = [
        ("heuristic vs random", HeuristicBot, RandomBot, games),
        (f"mcts({iterations}) vs random", lambda r: MCTSBot(r, iterations), RandomBot, mcts_games),
        (f"mcts({iterations}) vs heuristic", lambda r: MCTSBot(r, iterations), HeuristicBot, mcts_games),
    ]
    print(f"== {game}", flush=True)
    for name, a, b, n in pairs:
        start = time.perf_counter()
        rate = match(a, b, n, game)
        seconds = time.perf_counter() - start
        print(f"{name:28s} {rate:6.1%} of {n} games  ({seconds:.0f} s, {seconds / n:.2f} s/game)", flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("iterations", nargs="?", type=int, default=64, help="MCTS iterations (default 64)")
    parser.add_argument("--game", choices=[*GAMES, "all"], default="hannibal")
    parser.add_argument("--mcts-games", type=int, default=None, help="games for the MCTS pairings (default GAMES)")
    args = parser.parse_args(argv)
    for game in GAMES if args.game == "all" else [args.game]:
        report(game, args.games, args.iterations, args.mcts_games or args.games)


if __name__ == "__main__":
    main(sys.argv[1:])
