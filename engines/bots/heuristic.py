"""A greedy bot: plays the whole turn that leads to the best-evaluated position."""

from __future__ import annotations

import random

from engines.base import GameState, HiddenInformation, Move
from engines.bots.plans import turn_plans
from engines.registry import Evaluator, get_game


class HeuristicBot:
    """Evaluates every end-of-turn position with the game's evaluation hook and plays toward the best.

    In a game with hidden information it never looks at what its player cannot see: it judges each
    first move over ``determinizations`` copies with the unseen resampled, and plays the best on average.
    Ties are broken with ``rng`` so seeded games differ but replay identically.
    """

    def __init__(self, rng: random.Random, evaluate: Evaluator | None = None, *, determinizations: int = 6) -> None:
        self.rng = rng
        self._evaluate = evaluate
        self.determinizations = determinizations

    def choose(self, state: GameState) -> Move:
        player = state.current_player
        if player is None:
            raise ValueError("no decision is due: the game is over or a chance event is next")
        evaluate = self._evaluate or evaluator_for(state)
        if not isinstance(state, HiddenInformation):
            return self.rng.choice(_best_first_moves([(seq[0], evaluate(end, player)) for seq, end in
                                                      turn_plans(state)]))
        totals: dict[Move, float] = {}
        # When nothing is hidden from the player yet (Rome decides before Carthage), every determinization is
        # the same position: judge each distinct one once and add its values as often as it was drawn.
        judged: dict[object, dict[Move, float]] = {}
        for _ in range(self.determinizations):
            world = state.determinize(player, self.rng)
            key = world.key()
            best_of = judged.get(key)
            if best_of is None:
                best_of = judged[key] = {}
                for seq, end in turn_plans(world):
                    value, best = evaluate(end, player), best_of.get(seq[0])
                    if best is None or value > best:
                        best_of[seq[0]] = value
            for move, value in best_of.items():
                totals[move] = totals.get(move, 0.0) + value
        return self.rng.choice(_best_first_moves(list(totals.items())))


def _best_first_moves(scored: list[tuple[Move, float]]) -> list[Move]:
    """The moves with the top value, in order and with repeats (a move leading to several equally good
    plans is that much likelier to be picked)."""
    top = max(v for _, v in scored)
    return [m for m, v in scored if v == top]


def evaluator_for(state: GameState) -> Evaluator:
    evaluate = get_game(state.game).evaluation()
    if evaluate is None:
        raise ValueError(f"{state.game} has no evaluation hook; give the bot one")
    return evaluate
