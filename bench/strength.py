"""Bot strength over seeded Hannibal games, seats alternating: ``python -m bench.strength [GAMES] [ITER]``.

Issue 2's targets: the heuristic bot beats the random bot in at least 80 % of 200 games; MCTS with a
small budget beats the heuristic bot more often than not.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from engines.bots import HeuristicBot, MCTSBot, RandomBot, win_rate
from engines.bots.match import Bot
from engines.hannibal import new_game

BotMaker = Callable[[random.Random], Bot]


def match(a: BotMaker, b: BotMaker, games: int) -> float:
    """Win rate of ``a`` against ``b``; ``a`` sits yellow in even games and blue in odd ones."""

    def bots(seed: int) -> dict[str, Bot]:
        first, second = a(random.Random(seed * 2 + 1)), b(random.Random(seed * 2 + 2))
        return {"yellow": first, "blue": second} if seed % 2 == 0 else {"yellow": second, "blue": first}

    return win_rate(lambda seed: new_game(), bots, lambda seed: "yellow" if seed % 2 == 0 else "blue", games)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    iterations = int(argv[1]) if len(argv) > 1 else 64
    pairs: list[tuple[str, BotMaker, BotMaker]] = [
        ("heuristic vs random", HeuristicBot, RandomBot),
        (f"mcts({iterations}) vs random", lambda r: MCTSBot(r, iterations), RandomBot),
        (f"mcts({iterations}) vs heuristic", lambda r: MCTSBot(r, iterations), HeuristicBot),
    ]
    for name, a, b in pairs:
        start = time.perf_counter()
        rate = match(a, b, games)
        print(f"{name:28s} {rate:6.1%} of {games} games  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
