"""A hand-made evaluation of Scipio positions, and the organisations bots consider.

Value for an army = its tokens minus the opponent's, after the damage already decided is taken, minus a
risk term for thin formations (an empty formation loses the game, so the last few tokens of a formation
are worth far more than the thirtieth). When the army has placed its cards and the opponent has not yet,
the damage is averaged over the opponent's possible placements (at most ``SAMPLES`` of them, spread
evenly): that is the most the army can know at that moment.
"""

from __future__ import annotations

from itertools import permutations
from typing import Final

from engines.scipio.moves import Order, org
from engines.scipio.rules import ARMIES, FIELDS, TOKENS, damage_plan, field_formations, other
from engines.scipio.state import State

WIN_VALUE: Final = 1000.0
RISK: Final = (0.0, 12.0, 5.0, 2.0, 0.8, 0.3)  # by tokens left in a formation: 1 is one hit from losing
SAMPLES: Final = 10


def evaluate(state: State, army: str) -> float:
    if state.winner is not None:
        return WIN_VALUE if state.winner == army else -WIN_VALUE
    if state.troops[army] is None or state.troops[other(army)] is None:
        return 0.0
    troops = {a: list(state.troops[a] or ()) for a in ARMIES}
    if state.step == "place" and state.placed[army] is not None and state.placed[other(army)] is None:
        return _expected_after_placement(state, army, troops)
    plan = state.plan if state.step == "remove" else []
    return _value(_after(troops, plan), army)


def _after(troops: dict[str, list[int]], plan: list[tuple[str, str, int, bool]]) -> dict[str, list[int]]:
    """Troops once the pending damage is taken, spread to keep the two formations even; ``[]`` marks an
    army that cannot take it without emptying a formation."""
    out = {a: t[:] for a, t in troops.items()}
    for field, defender, amount, _ in plan:
        t = out[defender]
        if not t:
            continue
        i, j = field_formations(field)
        if amount > t[i] + t[j] - 2:
            out[defender] = []
            continue
        for _ in range(amount):
            k = i if t[i] >= t[j] else j
            t[k] -= 1
    return out


def _value(troops: dict[str, list[int]], army: str) -> float:
    mine, theirs = troops[army], troops[other(army)]
    if not mine:
        return -WIN_VALUE / 2
    if not theirs:
        return WIN_VALUE / 2
    return (sum(mine) - sum(theirs)) - _risk(mine) + _risk(theirs)


def _risk(troops: list[int]) -> float:
    return sum(RISK[n] if n < len(RISK) else 0.0 for n in troops)


def _expected_after_placement(state: State, army: str, troops: dict[str, list[int]]) -> float:
    enemy = other(army)
    mine = state.placed[army]
    assert mine is not None
    options = list(permutations(sorted(state.hands[enemy]), 3))
    stride = max(1, len(options) // SAMPLES)
    field_troops = {f: {a: sum(troops[a][k] for k in field_formations(f)) for a in ARMIES} for f in FIELDS}
    total = 0.0
    picked = options[::stride]
    for cards in picked:
        per_field = {f: {army: mine[f], enemy: c} for f, c in zip(FIELDS, cards, strict=True)}
        total += _value(_after(troops, damage_plan(per_field, field_troops, state.tiles)), army)
    return total / len(picked)


def _balanced_organisations() -> list[tuple[int, ...]]:
    """Every ordering of 5, 6 and 7 token formations that adds up to 34 (90 of them)."""
    out: set[tuple[int, ...]] = set()
    for sevens in range(3):
        sixes = 4 - 2 * sevens
        fives = 6 - sixes - sevens
        base = (5,) * fives + (6,) * sixes + (7,) * sevens
        assert sum(base) == TOKENS
        out.update(permutations(base))
    return sorted(out)


BALANCED: Final = tuple(_balanced_organisations())


def candidates(state: State) -> list[Order]:
    """The moves bots weigh: all legal moves, except that an organisation is one of the balanced ones
    (searching all 237,336 splits would drown the search, and a thin formation only invites defeat)."""
    player = state.current_player
    if state.step == "org" and player is not None:
        return [org(player, counts) for counts in BALANCED]
    return [m for m in state.legal_moves() if isinstance(m, Order)]
