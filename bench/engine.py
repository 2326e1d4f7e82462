"""Engine speed (issue 16): Hannibal decisions/s against OpenSpiel's backgammon (C++ via pyspiel).

A decision is one ``legal_moves()`` + ``apply()`` at a player's node, and the chance moves between them
are applied too, for both games alike. ``bench.playouts`` times whole random playouts, so its numbers
include drawing the random moves (``random.choices`` over 21 weighted rolls costs about as much as a
Hannibal decision); here the games are played once to record their moves and then replayed against the
clock, so only the engines' own calls are timed. Both games are replayed in turns, several rounds, and
the best round of each counts, in CPU time of this process: a busy machine slows both alike.

How much of the legal moves a decision reads changes what it costs, since Hannibal's ``legal_moves()``
builds a move object only when one is read (``engines.hannibal.legal``) while pyspiel's
``legal_actions()`` always builds its list. So three readings are timed, on both sides alike:

- ``count``: the number of legal moves, then the move played (the issue's "legal moves + apply"; a bot
  that judges the position, the table checking a move). The target is on this one.
- ``pick``: the number, then the move played taken out of the sequence by its index, as a random
  playout does (``rng.choice``).
- ``every``: every legal move built into a list, as a search that tries them all does.

``python -m bench.engine`` prints the rates and ratios, and exits 1 when the ``count`` ratio is under 5.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from engines.hannibal import new_game

TARGET_RATIO = 5.0
GAMES = 40
ROUNDS = 7
READINGS = ("count", "pick", "every")

Replay = list[tuple[int, Any]]  # (index among the legal moves, or -1 at a chance node; move) in the order played


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
                moves.append((-1, move))
            else:
                legal = s.legal_moves()
                index = rng.randrange(len(legal))
                move = legal[index]
                moves.append((index, move))
            s.apply(move)
        out.append(moves)
    return out


def replay_hannibal(games: list[Replay], reading: str) -> float:
    start = time.process_time()
    for moves in games:
        s = new_game()
        if reading == "count":
            for index, move in moves:
                if index >= 0:
                    len(s.legal_moves())
                s.apply(move)
        elif reading == "pick":
            for index, move in moves:
                if index >= 0:
                    legal = s.legal_moves()
                    len(legal)
                    move = legal[index]
                s.apply(move)
        else:
            for index, move in moves:
                if index >= 0:
                    move = list(s.legal_moves())[index]
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
                moves.append((-1, action))
            else:
                legal = s.legal_actions()
                index = rng.randrange(len(legal))
                action = legal[index]
                moves.append((index, action))
            s.apply_action(action)
        out.append(moves)
    return game, out


def replay_backgammon(game: Any, games: list[Replay], reading: str) -> float:
    """The same three readings; ``legal_actions()`` is a new list each call, so ``every`` only copies it,
    as ``list()`` of a Hannibal sequence builds one. Written out apart from ``replay_hannibal`` rather than
    as one loop over adapters: a call through an adapter would add the same Python overhead to every
    decision of both games and pull the ratio towards 1."""
    start = time.process_time()
    for moves in games:
        s = game.new_initial_state()
        if reading == "count":
            for index, action in moves:
                if index >= 0:
                    len(s.legal_actions())
                s.apply_action(action)
        elif reading == "pick":
            for index, action in moves:
                if index >= 0:
                    legal = s.legal_actions()
                    len(legal)
                    action = legal[index]
                s.apply_action(action)
        else:
            for index, action in moves:
                if index >= 0:
                    action = list(s.legal_actions())[index]
                s.apply_action(action)
    return time.process_time() - start


def rate(replay: Callable[[str], float], games: list[Replay], reading: str) -> float:
    """Decisions per second, the best of ``ROUNDS`` rounds."""
    decisions = sum(index >= 0 for moves in games for index, _ in moves)
    return decisions / min(replay(reading) for _ in range(ROUNDS))


def report() -> bool:
    hannibal = record_hannibal()
    recorded = record_backgammon()
    met = True
    for reading in READINGS:
        h = rate(partial(replay_hannibal, hannibal), hannibal, reading)
        if recorded is None:
            print(f"{reading:5} hannibal {h:8.0f} decisions/s")
            continue
        game, played = recorded
        b = rate(partial(replay_backgammon, game, played), played, reading)
        ratio = h / b
        line = f"{reading:5} hannibal {h:8.0f} decisions/s, backgammon (pyspiel) {b:7.0f}: ratio {ratio:.2f}x"
        if reading == "count":
            ok = ratio >= TARGET_RATIO
            met = met and ok
            line += f" (target >= {TARGET_RATIO:.0f}x: {'met' if ok else 'NOT met'})"
        print(line)
        if reading == "count" and not met:
            print(f"TARGET MISSED: decisions/s ratio {ratio:.2f} < {TARGET_RATIO} (count, then apply)")
    if recorded is None:
        print("backgammon (pyspiel): not installed -- pip install -e '.[bench]' for the comparison")
    return met


if __name__ == "__main__":
    sys.exit(0 if report() else 1)
