"""The baseline every other bot must beat."""

from __future__ import annotations

import random

from engines.base import GameState, Move


class RandomBot:
    """Picks uniformly among the legal moves with its own generator (reproducible per seed)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState) -> Move:
        return self.rng.choice(state.legal_moves())
