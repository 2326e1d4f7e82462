"""Scipio's fixed facts and its damage rule, kept apart from the state so they can be tested alone.

Rules: ``docs/rules/scipio.md``; interpretations are cited as I-n where they are used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


_OTHER: Final = {army: ARMIES[1 - i] for i, army in enumerate(ARMIES)}
_FIELD_FORMATIONS: Final = {field: (2 * i, 2 * i + 1) for i, field in enumerate(FIELDS)}


def other(army: str) -> str:
    return _OTHER[army]  # a table: bots ask hundreds of thousands of times a game


def field_formations(field: str) -> tuple[int, int]:
    """Indices (into FORMATIONS) of a field's two formations (a table: bots ask as often as ``other``)."""
    return _FIELD_FORMATIONS[field]


def cannot_take(plan: Sequence[DamageStep], troops: Mapping[str, Sequence[int] | None]) -> str | None:
    """The army that cannot take ``plan``'s first damage step without emptying a formation, and so loses
    (I-4), or ``None``. One place for the rule that the engine's moves, the bots' fast successors and the
    JSON reader all judge by."""
    if not plan:
        return None
    field, army, amount, _ = plan[0]
    formations = troops[army]
    assert formations is not None, "organisation not entered yet"
    i, j = field_formations(field)
    return army if amount > formations[i] + formations[j] - 2 else None


def damage_plan(cards: Mapping[str, Mapping[str, int]], troops: Mapping[str, Mapping[str, int]],
                tiles: Mapping[str, int]) -> list[DamageStep]:
    """Steps 1-4 of "Dealing damage": who takes how much in which field, in resolution order.

    ``cards[field][army]`` is the card played, ``troops[field][army]`` the army's tokens in both of the
    field's formations, ``tiles[field]`` its strike order tile. Fields with equal cards are left out.
    """
    return plan_damage(tuple(cards[f]["rome"] for f in FIELDS), tuple(cards[f]["carthage"] for f in FIELDS),
                       tuple(troops[f]["rome"] for f in FIELDS), tuple(troops[f]["carthage"] for f in FIELDS),
                       tuple(tiles[f] for f in FIELDS))


def plan_damage(rome_cards: Sequence[int], carthage_cards: Sequence[int], rome_troops: Sequence[int],
                carthage_troops: Sequence[int], tiles: Sequence[int]) -> list[DamageStep]:
    """``damage_plan`` with each argument given per field in FIELDS order: the engine reveals cards for
    every placement a bot weighs, and building the mappings cost more than the rule itself."""
    breaks = [0, 0, 0]  # per field: 1 Rome breaks the shield, 2 Carthage does
    rome_count = carthage_count = 0
    for i in range(3):
        rome, carthage = rome_cards[i], carthage_cards[i]
        if rome >= 2 * carthage:
            breaks[i] = 1
            rome_count += 1
        elif carthage >= 2 * rome:
            breaks[i] = 2
            carthage_count += 1
    # Cancelling: only the army with more shield breaks keeps them; equal counts cancel all.
    keeper = 1 if rome_count > carthage_count else 2 if carthage_count > rome_count else 0
    kept = [keeper != 0 and b == keeper for b in breaks]
    plan: list[DamageStep] = []
    by_tile = sorted(range(3), key=tiles.__getitem__)
    for i in [k for k in by_tile if kept[k]] + [k for k in by_tile if not kept[k]]:  # kept breaks first, by tile
        rome, carthage = rome_cards[i], carthage_cards[i]
        if rome == carthage:
            continue
        if rome < carthage:
            defender, holds = "rome", rome_troops[i] >= carthage_troops[i]
        else:
            defender, holds = "carthage", carthage_troops[i] >= rome_troops[i]
        shield = kept[i]
        amount = (3 if holds else 4) if shield else (1 if holds else 2)
        plan.append((FIELDS[i], defender, amount, shield))
    return plan
