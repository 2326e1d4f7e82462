"""Scipio's fixed facts and its damage rule, kept apart from the state so they can be tested alone.

Rules: ``shared/rules/scipio.md``; interpretations are cited as I-n where they are used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

ARMIES: Final = ("rome", "carthage")
FIELDS: Final = ("yellow", "purple", "green")
FIELD_LETTERS: Final = {"yellow": "Y", "purple": "P", "green": "G"}
FORMATIONS: Final = tuple(f"{field}.{i}" for field in FIELDS for i in (0, 1))
CARDS: Final = (2, 3, 4, 5, 6, 7)  # I-1: the command cards of each army
TOKENS: Final = 34
DEFAULT_ORGANISATION: Final = (6, 5, 6, 5, 6, 6)  # I-3: what the menu offers first
# I-2: the six formations of an army form one line in FORMATIONS order; adjacency is that line.
ADJACENT: Final = {i: tuple(j for j in (i - 1, i + 1) if 0 <= j < len(FORMATIONS)) for i in range(len(FORMATIONS))}
NEW_ORDERS: Final = {"redeployment": 5, "relief": 1, "opportune": 2, "deserter": 1, "general": 1}

DamageStep = tuple[str, str, int, bool]
"""(field, army taking damage, amount, shield break kept)."""


def other(army: str) -> str:
    return ARMIES[1 - ARMIES.index(army)]


def field_formations(field: str) -> tuple[int, int]:
    """Indices (into FORMATIONS) of a field's two formations."""
    first = FIELDS.index(field) * 2
    return first, first + 1


def damage_plan(cards: Mapping[str, Mapping[str, int]], troops: Mapping[str, Mapping[str, int]],
                tiles: Mapping[str, int]) -> list[DamageStep]:
    """Steps 1-4 of "Dealing damage": who takes how much in which field, in resolution order.

    ``cards[field][army]`` is the card played, ``troops[field][army]`` the army's tokens in both of the
    field's formations, ``tiles[field]`` its strike order tile. Fields with equal cards are left out.
    """
    breaks: dict[str, str] = {}
    for field in FIELDS:
        rome, carthage = cards[field]["rome"], cards[field]["carthage"]
        if rome >= 2 * carthage:
            breaks[field] = "rome"
        elif carthage >= 2 * rome:
            breaks[field] = "carthage"
    count = {army: sum(1 for a in breaks.values() if a == army) for army in ARMIES}
    # Cancelling: only the army with more shield breaks keeps them; equal counts cancel all.
    keeper = max(ARMIES, key=lambda a: count[a]) if count["rome"] != count["carthage"] else None
    kept = {f for f, a in breaks.items() if a == keeper}
    order = sorted(FIELDS, key=lambda f: (f not in kept, tiles[f]))
    plan: list[DamageStep] = []
    for field in order:
        rome, carthage = cards[field]["rome"], cards[field]["carthage"]
        if rome == carthage:
            continue
        defender = "rome" if rome < carthage else "carthage"
        holds = troops[field][defender] >= troops[field][other(defender)]
        amount = (3 if holds else 4) if field in kept else (1 if holds else 2)
        plan.append((field, defender, amount, field in kept))
    return plan
