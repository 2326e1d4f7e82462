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
    rome_breaks: list[str] = []  # in FIELDS order
    carthage_breaks: list[str] = []
    for field in FIELDS:
        played = cards[field]
        rome, carthage = played["rome"], played["carthage"]
        if rome >= 2 * carthage:
            rome_breaks.append(field)
        elif carthage >= 2 * rome:
            carthage_breaks.append(field)
    # Cancelling: only the army with more shield breaks keeps them; equal counts cancel all.
    lead = len(rome_breaks) - len(carthage_breaks)
    kept = rome_breaks if lead > 0 else carthage_breaks if lead < 0 else []
    order = sorted(FIELDS, key=lambda f: (f not in kept, tiles[f]))
    plan: list[DamageStep] = []
    for field in order:
        played = cards[field]
        rome, carthage = played["rome"], played["carthage"]
        if rome == carthage:
            continue
        defender, attacker = ("rome", "carthage") if rome < carthage else ("carthage", "rome")
        held = troops[field]
        holds = held[defender] >= held[attacker]
        shield = field in kept
        amount = (3 if holds else 4) if shield else (1 if holds else 2)
        plan.append((field, defender, amount, shield))
    return plan
