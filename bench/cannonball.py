"""Cannon Ball engine and bots: playout speed, time per bot move, and (``--strength``) how decisive bot games are.

``python -m bench.cannonball [--seconds S] [--strength] [--games N] [--mcts N]``

- Random playouts: a decision is one ``legal_moves()`` + ``apply()`` at a player's node (spins are sampled
  and applied in the same loop, and their time counts too); games end at a 300-turn limit.
- Bot move times (p50/p95 over every decision in a few seeded games): the heuristic bot, and MCTS with a
  small budget over the same whole-turn plans. Both plan a march at its first step and play the rest of
  the plan from a cache, so the median decision is cheap and the 95th percentile is the planning.
- ``--strength``: the share of heuristic-vs-heuristic games decided within the 300-turn limit over N seeds
  (goal: at least 90 %; the bench exits 1 and names the drawn seeds below it) and the heuristic bot's win
  rate against the random bot, seats alternating.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from engines.base import sample_chance
from engines.bots import HeuristicBot, MCTSBot, RandomBot
from engines.bots.match import Bot
from engines.cannonball import State, new_game
from engines.registry import get_game

TURN_LIMIT = 300
DECISIVE_GOAL = 0.9
BotMaker = Callable[[random.Random], Bot]


def playouts(seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Random games for ``seconds``: (games, decisions, elapsed)."""
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = new_game(turn_limit=TURN_LIMIT)
        while not s.is_over():
            if s.is_chance():
                s.apply(sample_chance(s, rng))
            else:
                s.apply(rng.choice(s.legal_moves()))
                decisions += 1
        games += 1
    return games, decisions, time.perf_counter() - start


def play(seed: int, blue: BotMaker, gray: BotMaker, *, max_decisions: int | None = None,
         timed: str | None = None) -> tuple[State, list[float]]:
    """One seeded game; the times of ``timed``'s decisions (both sides' when ``None``)."""
    s = new_game(turn_limit=TURN_LIMIT)
    bots = {"blue": blue(random.Random(seed * 2 + 1)), "gray": gray(random.Random(seed * 2 + 2))}
    chance = random.Random(seed)
    times: list[float] = []
    while not s.is_over() and (max_decisions is None or len(times) < max_decisions):
        player = s.current_player
        if player is None:
            s.apply(sample_chance(s, chance))
            continue
        start = time.perf_counter()
        move = bots[player].choose(s)
        if timed in (None, player):
            times.append(time.perf_counter() - start)
        s.apply(move)
    return s, times


def _ms(times: list[float]) -> str:
    cuts = statistics.quantiles(times, n=20)
    return f"p50 {statistics.median(times) * 1000:7.1f} ms  p95 {cuts[18] * 1000:7.1f} ms  ({len(times)} moves)"


def report_speed(seconds: float, mcts: int) -> None:
    games, decisions, elapsed = playouts(seconds)
    print(f"random playouts: {decisions / elapsed:10.0f} decisions/s {games / elapsed:6.2f} games/s "
          f"({decisions / games:.0f} decisions/game)", flush=True)
    heuristic: list[float] = []
    for seed in range(3):
        heuristic += play(seed, HeuristicBot, HeuristicBot)[1]
    print(f"heuristic bot  : {_ms(heuristic)}", flush=True)
    tree: list[float] = []
    for seed in range(2):
        tree += play(seed, lambda r: MCTSBot(r, mcts), HeuristicBot, max_decisions=80, timed="blue")[1]
    print(f"mcts({mcts}) bot   : {_ms(tree)}", flush=True)


def report_strength(games: int) -> bool:
    """Print the strength figures; ``False`` when the decisive share misses its goal."""
    start = time.perf_counter()
    drawn = []
    turns = []
    for seed in range(games):
        final, _ = play(seed, HeuristicBot, HeuristicBot)
        turns.append(final.turn)
        if final.winner is None:
            drawn.append(seed)
    share = 1 - len(drawn) / games
    ok = share >= DECISIVE_GOAL
    print(f"heuristic vs heuristic: {share:6.1%} decisive within {TURN_LIMIT} turns over {games} seeds "
          f"(goal >= {DECISIVE_GOAL:.0%}: {'met' if ok else 'NOT met'}; median {statistics.median(turns):.0f} "
          f"turns; {time.perf_counter() - start:.0f} s)", flush=True)
    if not ok:
        print(f"  drawn seeds: {', '.join(map(str, drawn))} "
              "(replay: bench.cannonball.play(seed, HeuristicBot, HeuristicBot))")
    start = time.perf_counter()
    wins = 0
    for seed in range(games):
        seats = (HeuristicBot, RandomBot) if seed % 2 == 0 else (RandomBot, HeuristicBot)
        final, _ = play(seed, *seats)
        wins += final.winner == ("blue" if seed % 2 == 0 else "gray")
    print(f"heuristic vs random   : {wins / games:6.1%} won over {games} seeds, seats alternating "
          f"({time.perf_counter() - start:.0f} s)", flush=True)
    return ok


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cannonball", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="random playout time (default 3)")
    demo = get_game("cannonball").search_iterations
    parser.add_argument("--mcts", type=int, default=demo, help=f"MCTS iterations a decision (default {demo}, a demo's)")
    parser.add_argument("--strength", action="store_true", help="also play the strength games")
    parser.add_argument("--games", type=int, default=50, help="seeds per strength pairing (default 50)")
    args = parser.parse_args(argv)
    report_speed(args.seconds, args.mcts)
    if args.strength and not report_strength(args.games):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
