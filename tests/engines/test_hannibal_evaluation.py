"""The Hannibal evaluation's risk term read from bit-mask tables (issue 16) gives exactly the numbers of the
square-by-square walk it replaced, so the bots choose as before."""

from __future__ import annotations

import random

from engines.base import sample_chance
from engines.hannibal import State, new_game
from engines.hannibal.heuristic import HIT, HOME_BONUS, WAITING_PENALTY, evaluate


def _risk_reference(board: tuple[int, ...], p: int, opp_waiting: int) -> float:
    """The walk as first written: for each lone piece, every square up to 12 behind it in the opponent's way."""
    sign = 1 if p == 0 else -1
    total = 0.0
    for pos, v in enumerate(board):
        if v * sign != 1 or pos % 6 == 0:
            continue
        chance = 0.0
        for d in range(1, 13):
            src = pos + sign * d
            if not 0 <= src <= 48:
                break
            if board[src] * sign < 0:
                chance = max(chance, HIT[d])
        entry_d = 48 - pos if p == 0 else pos
        if opp_waiting and 1 <= entry_d <= 6:
            chance = max(chance, HIT[entry_d])
        total += chance * ((pos if p == 0 else 48 - pos) + WAITING_PENALTY)
    return total


def _evaluate_reference(state: State, player: str) -> float:
    board = state.signed_counts
    score = [0.0, 0.0]
    for pos, v in enumerate(board):
        if v > 0:
            score[0] += v * pos
        elif v < 0:
            score[1] += -v * (48 - pos)
    for i, p in enumerate(("yellow", "blue")):
        score[i] += state.home(p) * (48 + HOME_BONUS) - state.waiting(p) * WAITING_PENALTY
    score[0] -= _risk_reference(board, 0, state.waiting("blue"))
    score[1] -= _risk_reference(board, 1, state.waiting("yellow"))
    me = 0 if player == "yellow" else 1
    return score[me] - score[1 - me]


def test_evaluation_is_exactly_the_square_by_square_walk() -> None:
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = new_game()
        while not s.is_over():
            for player in ("yellow", "blue"):
                assert evaluate(s, player) == _evaluate_reference(s, player)
                checked += 1
            s.apply(sample_chance(s, rng) if s.is_chance() else rng.choice(s.legal_moves()))
    assert checked > 10_000
