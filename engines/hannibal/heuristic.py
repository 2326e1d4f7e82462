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


def _threat_tables() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The best hit chance against a lone piece, by which of the 12 squares behind it hold an opponent.

    Index: a 12-bit window of the opponent's squares. Ahead (yellow's threats come from higher squares):
    bit j is the square j + 1 beyond the piece. Behind (blue's come from lower squares): bit j is the
    square 12 - j before it. A piece's risk is then one table lookup instead of a walk over 12 squares,
    and the maximum is the same number the walk finds.
    """
    ahead = [0.0] * 4096
    behind = [0.0] * 4096
    for w in range(1, 4096):
        j = (w & -w).bit_length() - 1
        ahead[w] = max(ahead[w & (w - 1)], HIT[j + 1])
        behind[w] = max(behind[w & (w - 1)], HIT[12 - j])
    return tuple(ahead), tuple(behind)


_AHEAD, _BEHIND = _threat_tables()
_WINDOW: Final = 0xFFF


def evaluate(state: State, player: str) -> float:
    """How good the position is for ``player`` (positive = better than the opponent)."""
    me = PLAYERS.index(player)
    winner = state.winner
    if winner is not None:
        return WIN_VALUE if winner == player else -WIN_VALUE
    board = state.signed_counts
    score = [0.0, 0.0]
    occupied = [0, 0]  # bit masks of each side's squares
    lone: tuple[list[int], list[int]] = ([], [])  # each side's lone pieces on track spaces, in board order
    for pos, v in enumerate(board):
        if v > 0:
            score[0] += v * pos
            occupied[0] |= 1 << pos
            if v == 1 and pos % 6:
                lone[0].append(pos)
        elif v < 0:
            score[1] += -v * (48 - pos)
            occupied[1] |= 1 << pos
            if v == -1 and pos % 6:
                lone[1].append(pos)
    for i, p in enumerate(PLAYERS):
        score[i] += state.home(p) * (48 + HOME_BONUS) - state.waiting(p) * WAITING_PENALTY
    score[0] -= RISK_WEIGHT * _risk(lone[0], 0, occupied[1], state.waiting("blue"))
    score[1] -= RISK_WEIGHT * _risk(lone[1], 1, occupied[0], state.waiting("yellow"))
    return score[me] - score[1 - me]


def _risk(lone: list[int], p: int, opponent: int, opp_waiting: int) -> float:
    """Expected progress lost by ``p``'s ``lone`` pieces within one roll of an opponent (``opponent`` is the
    opponent's squares as a bit mask)."""
    total = 0.0
    for pos in lone:
        if p == 0:  # blue moves down the track: its threats stand above
            chance = _AHEAD[(opponent >> (pos + 1)) & _WINDOW]
            entry_d, progress = 48 - pos, pos
        else:
            chance = _BEHIND[((opponent << 12) >> pos) & _WINDOW]
            entry_d, progress = pos, 48 - pos
        if opp_waiting and 1 <= entry_d <= 6:  # the opponent's entry distance onto pos
            chance = max(chance, HIT[entry_d])
        total += chance * (progress + WAITING_PENALTY)
    return total
