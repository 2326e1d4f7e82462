"""Engine speed (issue 16): Hannibal decisions/s against OpenSpiel's backgammon (C++ via pyspiel).

A decision is one ``legal_moves()`` + ``apply()`` at a player's node, and the chance moves between them
are applied too, for both games alike. ``bench.playouts`` times whole random playouts, so its numbers
include drawing the random moves (``random.choices`` over 21 weighted rolls costs about as much as a
Hannibal decision); here the games are played once to record their moves and then replayed against the
clock, so only the engines' own calls are timed. Both games are replayed in turns, several rounds, and
the best round of each counts, in CPU time of this process: a busy machine slows both alike.

``python -m bench.engine`` prints both rates and the ratio, and exits 1 when the ratio is under 5.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from engines.hannibal import new_game

TARGET_RATIO = 5.0
GAMES = 40
ROUNDS = 7

Replay = list[tuple[bool, Any]]  # (a player's decision?, move) in the order played


def record_hannibal(games: int = GAMES, seed: int = 1) -> list[Replay]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = new_game()
        moves: Replay = []
        while not s.is_over():
            if s.is_chance():
                outcomes = s.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
                moves.append((False, move))
            else:
                move = rng.choice(s.legal_moves())
                moves.append((True, move))
            s.apply(move)
        out.append(moves)
    return out


def replay_hannibal(games: list[Replay]) -> float:
    start = time.process_time()
    for moves in games:
        s = new_game()
        for decision, move in moves:
            if decision:  # read, as a bot or the menu reads it: a list left unbuilt is no decision
                len(s.legal_moves())
            s.apply(move)
    return time.process_time() - start


def record_backgammon(games: int = GAMES, seed: int = 1) -> tuple[Any, list[Replay]] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = game.new_initial_state()
        moves: Replay = []
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes(), strict=True)
                action = rng.choices(actions, probs)[0]
                moves.append((False, action))
            else:
                action = rng.choice(s.legal_actions())
                moves.append((True, action))
            s.apply_action(action)
        out.append(moves)
    return game, out


def replay_backgammon(game: Any, games: list[Replay]) -> float:
    start = time.process_time()
    for moves in games:
        s = game.new_initial_state()
        for decision, action in moves:
            if decision:
                len(s.legal_actions())
            s.apply_action(action)
    return time.process_time() - start


def report() -> bool:
    hannibal = record_hannibal()
    recorded = record_backgammon()
    h_time: list[float] = []
    b_time: list[float] = []
    for _ in range(ROUNDS):
        h_time.append(replay_hannibal(hannibal))
        if recorded is not None:
            b_time.append(replay_backgammon(*recorded))
    h = sum(d for moves in hannibal for d, _ in moves) / min(h_time)
    print(f"hannibal   decisions/s (legal moves + apply, replayed): {h:10.0f}")
    if recorded is None:
        print("backgammon (pyspiel): not installed -- pip install -e '.[bench]' for the comparison")
        return True
    b = sum(d for moves in recorded[1] for d, _ in moves) / min(b_time)
    print(f"backgammon decisions/s (pyspiel, same replay)        : {b:10.0f}")
    ratio = h / b
    met = ratio >= TARGET_RATIO
    print(f"ratio hannibal/backgammon: {ratio:.2f}x (target >= {TARGET_RATIO:.0f}x: {'met' if met else 'NOT met'})")
    if not met:
        print(f"TARGET MISSED: decisions/s ratio {ratio:.2f} < {TARGET_RATIO}")
    return met


if __name__ == "__main__":
    sys.exit(0 if report() else 1)
