"""Scipio's steps and the moves each offers, built once and shared.

Why built once: bots ask for the legal moves of every position they reach, and most steps offer the same
few moves over and over (the tile orders, a draw, one hand's placements, one removal's splits).
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import Final

from engines.base import Move
from engines.scipio.moves import draw, place, remove, tiles
from engines.scipio.rules import ARMIES

STEPS: Final = ("org", "tiles", "place", "remove", "offer", "card", "redeploy", "opportune", "opportune_draw",
                "relief", "deserter", "general", "over")
DRAWER_STEPS: Final = ("redeploy", "opportune", "opportune_draw", "relief", "general")
"""The steps the army that drew a New Orders card decides (``State.drawer``)."""
TILE_ORDERS: Final = tuple(tiles((a, b, c)) for a, b, c in permutations((1, 2, 3)))
DRAWS: Final = {army: draw(army) for army in ARMIES}  # the bots weigh the offer after every removal


@cache
def placements(army: str, hand: tuple[int, ...]) -> tuple[Move, ...]:
    """Every way to put three cards of ``hand`` on the fields (built once per hand: bots ask often)."""
    return tuple(place(army, (y, p, g)) for y, p, g in permutations(hand, 3))


@cache
def removals(army: str, field: str, amount: int, first: int, second: int) -> tuple[Move, ...]:
    """Every split of ``amount`` over a field's formations holding ``first`` and ``second`` tokens that
    leaves both non-empty (built once per case: bots weigh every removal of every plan)."""
    return tuple(remove(army, field, (x, amount - x)) for x in range(amount + 1)
                 if x < first and amount - x < second)
