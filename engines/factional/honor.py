"""Honor arithmetic: what provinces and battles are worth, who dominates, and the final order.

Pure functions of the state's tables, so the screen, the ranking and the tests compute Honor the same
way and nothing is cached that a ``control`` event could leave stale.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.factional.moves import Battle
from engines.factional.table import FACTIONS, HISPANIA, PROVINCES, SIDES, factions_of, other_side, partner, side_of

Control = Mapping[str, str | None]


def province_honor(control: Control, faction: str) -> int:
    """Rule 11 and I-1: the HP of provinces held alone, half (rounded down) of those held jointly."""
    side = side_of(faction)
    total = 0
    for province, holder in control.items():
        hp = PROVINCES[province][0]
        if holder == faction:
            total += hp
        elif holder == side:
            total += hp // 2
    return total


def honor(control: Control, ledger: Mapping[str, int]) -> dict[str, int]:
    return {f: province_honor(control, f) + ledger[f] for f in FACTIONS}


def battle_gains(battle: Battle) -> dict[str, int]:
    """Ledger changes (rules 12-15): the winner's controller gains the PCs, split with the partner when
    it won with the partner's Full General; a loser who had borrowed its partner's Full General pays
    them; a leaderless winner earns nobody anything (I-2)."""
    n = battle.pcs
    gains: dict[str, int] = {}
    if battle.winner is not None and battle.shared:
        gains = {battle.winner: n // 2, partner(battle.winner): n // 2}
    elif battle.winner is not None:
        gains = {battle.winner: n}
    if battle.loser is not None and battle.borrowed:
        gains[battle.loser] = -n  # the loser is never on the winner's side
    return gains


def recompute_dominance(totals: Mapping[str, int], dominant: Mapping[str, str]) -> dict[str, str]:
    """Rule 3: the side's faction with more Honor dominates; a tie keeps the dominant one."""
    out = dict(dominant)
    for side in SIDES:
        a, b = factions_of(side)
        if totals[a] != totals[b]:
            out[side] = a if totals[a] > totals[b] else b
    return out


def ranking(winner: str, totals: Mapping[str, int], dominant: Mapping[str, str]) -> list[str]:
    """Section V: the winning side's factions by Honor, then the losing side's; I-3 breaks ties by dominance."""
    order: list[str] = []
    for side in (winner, other_side(winner)):
        order += sorted(factions_of(side), key=lambda f: (-totals[f], f != dominant[side]))
    return order


def reinforcement_duties(control: Control, dominant: Mapping[str, str]) -> list[tuple[str, str]]:
    """Rules 9, 18 and 20 as (faction, duty) prompts. Jointly held Spanish provinces would count for
    both Carthaginian factions alike, so only provinces held alone decide who places the Spanish CUs."""
    rome, carthage = dominant["rome"], dominant["carthage"]
    spain = {f: sum(control[p] == f for p in HISPANIA) for f in factions_of("carthage")}
    silver, copper = spain.values()
    spanish = carthage if silver == copper else max(spain, key=lambda f: spain[f])
    return [
        (rome, "places 3 of the 5 regular reinforcement CUs; chooses and assigns its consul first"),
        (partner(rome), "places the other 2 CUs; chooses and assigns its consul second"),
        ("carthage-copper", "places the 1 CU in Africa"),
        ("carthage-silver", "places the 1 free CU"),
        (spanish, "places the Spanish CUs"),
        (rome, "decides the initiative and which Roman faction plays each card"),
        (carthage, "decides the initiative and which Carthaginian faction plays each card"),
    ]
