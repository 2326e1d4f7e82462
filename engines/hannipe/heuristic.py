"""A hand-made evaluation of Hannipe! positions for the heuristic and MCTS bots.

Value for a seat = its expected coins after this race minus half the best rival's, at ten points a coin
so that the MCTS squashing (``scale`` 40) still tells one coin from none. A finished game is worth
``WIN`` times the seat's share of the win, or ``-WIN`` for a loser: beyond any race in progress.

Expected coins come from a win chance per starter: a softmax over a "reach" = minus its line index plus
the places it should still make. Those are its horse card's value if not turned yet, plus every tip card
still to be played on it, each worth its value minus the turned card's value of the round it will be
played in. The rounds left are known as a multiset (the programme and the turned cards are public), so
each seat with a known hand plays its cards on its own horse in the rounds of lowest value and the rest
in the others, as a player backing that horse would; cards nobody knows of (a ``"table"`` game, a hand
not dealt yet) count as an average unplayed card. The softmax is wider while many tips remain.

Why this shape suits one-ply choice: playing a card now instead of later moves its horse by
(value - this round's value) instead of (value - an average round), so the evaluation rises exactly when
a card for one's own horse meets a low round or a card for a rival meets a high one; and a bet is judged
by the chance of the horse it backs times its payout, given the cards in hand.
"""

from __future__ import annotations

import math
from typing import Final

from engines.hannipe.data import CRAVACHE, PAYOUT, Card, tip_value
from engines.hannipe.state import State

COIN: Final = 10.0
WIN: Final = 100.0
RIVAL_WEIGHT: Final = 0.5
SPREAD: Final = (0.3, 0.15)  # softmax temperature: base + per square root of the tips still to play


def evaluate(state: State, player: str) -> float:
    if state.is_over():
        return WIN * state.returns()[player] if player in state.winners else -WIN
    expected = expected_coins(state)
    rival = max(v for p, v in expected.items() if p != player)
    return COIN * (expected[player] - RIVAL_WEIGHT * rival)


_last: dict[tuple[object, ...], dict[str, float]] = {}


def expected_coins(state: State) -> dict[str, float]:
    """Each seat's coins once this race is paid, by the win chances of ``win_chances``.

    The last answer is kept: MCTS asks for every seat's value of the same position one after the other.
    """
    key = state.key()
    if key not in _last:
        _last.clear()
        _last[key] = _expected_coins(state)
    return _last[key]


def _expected_coins(state: State) -> dict[str, float]:
    coins = {p: float(n) for p, n in state.coins.items()}
    if state.programme is None:
        return coins
    values = state.values
    chances = win_chances(state)
    for seat, horse in state.bets.items():
        if horse is None:  # still to bet: it will back the best
            coins[seat] += max(chances[h] * PAYOUT[v] for h, v in values.items())
        else:
            coins[seat] += chances[horse] * PAYOUT[values[horse]]
    return coins


def win_chances(state: State) -> dict[str, float]:
    """Chance each starter ends on the front line (the module docstring says how it is estimated)."""
    values = state.values
    turned = state.turned
    ahead = [values[h] for h in values if h not in turned]  # the rounds still to turn
    current = values[turned[-1]] if state.step == "tip" else None
    pending = state.seat_order[state.seat_order.index(state.current_player or ""):] if current is not None else ()
    reach = {h: float(-i) for i, line in enumerate(state.order) for h in line}
    for h in values:
        if h not in turned:  # its horse card will make it gain its value
            reach[h] += values[h]
    known = 0
    if state.hands is not None:
        for seat, hand in state.hands.items():
            if hand:
                known += len(hand)
                slots = sorted(ahead + ([current] if seat in pending and current is not None else []))
                _play_out(reach, hand, slots, state.bets[seat])
    remaining = len(values) * len(state.players) - len(state.played)
    unknown = remaining - known
    if unknown > 0:
        _average_tips(reach, state, unknown, ahead or [current or 0])
    spread = SPREAD[0] + SPREAD[1] * math.sqrt(remaining)
    top = max(reach.values())
    weights = {h: math.exp((r - top) / spread) for h, r in reach.items()}
    total = sum(weights.values())
    return {h: w / total for h, w in weights.items()}


def _play_out(reach: dict[str, float], hand: list[Card], slots: list[int], backed: str | None) -> None:
    """Add the places a seat's cards should give, played in the rounds ``slots`` (sorted values)."""
    if backed is None:
        mean = sum(slots) / len(slots)
        for horse, face in hand:
            reach[horse] += tip_value(face, len(slots) == 1) - mean
        return
    own = [face for horse, face in hand if horse == backed]
    for face in own:  # a cravache kept for the last round is worth 3
        reach[backed] += tip_value(face, True)
    reach[backed] -= sum(slots[:len(own)])
    rest = slots[len(own):]
    if rest:
        mean = sum(rest) / len(rest)
        for horse, face in hand:
            if horse != backed:
                reach[horse] += tip_value(face, len(slots) == 1) - mean


def _average_tips(reach: dict[str, float], state: State, count: int, rounds: list[int]) -> None:
    """``count`` tips from cards nobody knows of: each an average of the cards not seen yet."""
    unseen = state.undealt()
    total = sum(unseen.values())
    if total <= 0:
        return
    mean_round = sum(rounds) / len(rounds)
    for (horse, face), n in unseen.items():
        worth = 2.5 if face == CRAVACHE else float(face)  # a cravache: 2, or 3 in the last round
        reach[horse] += count * n * (worth - mean_round) / total
