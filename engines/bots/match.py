"""Playing bots against each other: the driver used by demos, tests and the strength report."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from engines.base import GameState, Move, sample_chance


class Bot(Protocol):
    def choose(self, state: GameState) -> Move: ...


@dataclass
class GameRecord:
    state: GameState
    moves: list[Move]


class GameTooLongError(RuntimeError):
    """A game passed its move limit: a bug or a degenerate pair of bots, never silently a draw."""


def play_game(
    state: GameState, bots: Mapping[str, Bot], chance: random.Random, *, max_moves: int = 100_000
) -> GameRecord:
    """Play ``state`` to the end: chance moves from ``chance``, decisions from each player's bot."""
    moves: list[Move] = []
    while not state.is_over():
        if len(moves) >= max_moves:
            raise GameTooLongError(f"{state.game}: no winner after {max_moves} moves")
        player = state.current_player
        move = sample_chance(state, chance) if player is None else bots[player].choose(state)
        state.apply(move)
        moves.append(move)
    return GameRecord(state, moves)


def win_rate(
    new_game: Callable[[int], GameState],
    make_bots: Callable[[int], Mapping[str, Bot]],
    candidate: Callable[[int], str],
    games: int,
) -> float:
    """Share of ``games`` seeded games won by the player ``candidate(seed)`` names.

    The caller alternates seats through ``candidate`` and ``make_bots`` so first-move advantage cancels.
    """
    wins = 0
    for seed in range(games):
        record = play_game(new_game(seed), make_bots(seed), random.Random(seed))
        wins += record.state.winner == candidate(seed)
    return wins / games
