"""A hand-made evaluation of Hannibal positions for the heuristic and MCTS bots.

Score per side = progress of every piece (positions travelled, home pieces counting the full track plus
a bonus) minus the expected loss of lone pieces on track spaces that an opposing piece can hit with one
roll, minus a penalty per waiting piece (entries block every other step). The value of a position is
the difference between the two sides, so it is symmetric and zero-sum.
"""

from __future__ import annotations

from typing import Final

from engines.hannibal.state import PLAYERS, State

HOME_BONUS: Final = 6.0
WAITING_PENALTY: Final = 4.0
RISK_WEIGHT: Final = 1.0
WIN_VALUE: Final = 1000.0


def _hit_chances() -> tuple[float, ...]:
    """Chance that one roll offers a given distance, by a die or the total (index = distance)."""
    out = [0.0] * 13
    for d in range(1, 13):
        hits = sum(1 for a in range(1, 7) for b in range(1, 7) if d in (a, b, a + b))
        out[d] = hits / 36
    return tuple(out)


HIT: Final = _hit_chances()


def evaluate(state: State, player: str) -> float:
    """How good the position is for ``player`` (positive = better than the opponent)."""
    me = PLAYERS.index(player)
    winner = state.winner
    if winner is not None:
        return WIN_VALUE if winner == player else -WIN_VALUE
    board = state.signed_counts
    score = [0.0, 0.0]
    for pos, v in enumerate(board):
        if v > 0:
            score[0] += v * pos
        elif v < 0:
            score[1] += -v * (48 - pos)
    for i, p in enumerate(PLAYERS):
        score[i] += state.home(p) * (48 + HOME_BONUS) - state.waiting(p) * WAITING_PENALTY
    score[0] -= RISK_WEIGHT * _risk(board, 0, state.waiting("blue"))
    score[1] -= RISK_WEIGHT * _risk(board, 1, state.waiting("yellow"))
    return score[me] - score[1 - me]


def _risk(board: tuple[int, ...], p: int, opp_waiting: int) -> float:
    """Expected progress lost by ``p``'s lone pieces on track spaces within one roll of an opponent."""
    sign = 1 if p == 0 else -1
    total = 0.0
    for pos, v in enumerate(board):
        if v * sign != 1 or pos % 6 == 0:
            continue
        chance = 0.0
        for d in range(1, 13):
            src = pos + sign * d  # where an opposing piece must stand to reach pos moving its way
            if not 0 <= src <= 48:
                break
            if board[src] * sign < 0:
                chance = max(chance, HIT[d])
        if opp_waiting:
            entry_d = 48 - pos if p == 0 else pos  # opponent's entry distance onto pos
            if 1 <= entry_d <= 6:
                chance = max(chance, HIT[entry_d])
        progress = pos if p == 0 else 48 - pos
        total += chance * (progress + WAITING_PENALTY)
    return total

