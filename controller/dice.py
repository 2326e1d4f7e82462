"""Where chance outcomes come from: the system's entropy in play, a seeded generator in demos and tests."""

from __future__ import annotations

import random
import secrets

from engines.base import GameState, Move, sample_chance


class Dice:
    """Draws chance outcomes with the engine's probabilities; the caller journals before showing."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else secrets.SystemRandom()

    def roll(self, state: GameState) -> Move:
        return sample_chance(state, self.rng)
