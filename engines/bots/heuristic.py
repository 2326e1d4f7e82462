"""A greedy bot: plays the whole turn that leads to the best-evaluated position."""

from __future__ import annotations

import random

from engines.base import GameState, Move
from engines.bots.plans import turn_plans
from engines.registry import Evaluator, get_game


class HeuristicBot:
    """Evaluates every end-of-turn position with the game's evaluation hook and plays toward the best.

    Ties are broken with ``rng`` so seeded games differ but replay identically.
    """

    def __init__(self, rng: random.Random, evaluate: Evaluator | None = None) -> None:
        self.rng = rng
        self._evaluate = evaluate

    def choose(self, state: GameState) -> Move:
        player = state.current_player
        if player is None:
            raise ValueError("no decision is due: the game is over or a chance event is next")
        evaluate = self._evaluate or evaluator_for(state)
        best: list[Move] = []
        best_value = float("-inf")
        for seq, end in turn_plans(state):
            value = evaluate(end, player)
            if value > best_value:
                best, best_value = [seq[0]], value
            elif value == best_value:
                best.append(seq[0])
        return self.rng.choice(best)


def evaluator_for(state: GameState) -> Evaluator:
    evaluate = get_game(state.game).evaluation()
    if evaluate is None:
        raise ValueError(f"{state.game} has no evaluation hook; give the bot one")
    return evaluate
