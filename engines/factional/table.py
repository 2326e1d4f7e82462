"""The variant's fixed facts in one place: factions, sides, the province table and the cards per turn.

Everything else in the engine derives from these tables, so a correction to the chits (an HP value, a
starting holder) is one edit here.
"""

from __future__ import annotations

from typing import Final

FACTIONS: Final = ("rome-silver", "rome-copper", "carthage-silver", "carthage-copper")
SIDES: Final = ("rome", "carthage")
HOLDERS: Final = (*FACTIONS, *SIDES)
"""Who can hold a province: a faction alone, or a side jointly (I-1); also the Honor tray's columns."""

FULL_GENERALS: Final = {"rome-silver": "P. Scipio", "rome-copper": "T. Longus", "carthage-silver": "Hannibal",
                        "carthage-copper": "Hanno"}

PROVINCES: Final[dict[str, tuple[int, str | None]]] = {
    # province: (Honor Points, holder at the start)
    "cisalpinia": (1, None),
    "etruria": (1, "rome-silver"),
    "samnium": (1, "rome-silver"),
    "latium": (5, "rome-silver"),
    "apulia": (1, "rome-copper"),
    "lucania": (1, "rome-copper"),
    "campania": (1, "rome-silver"),
    "sicilia": (1, "rome-copper"),
    "syracuse": (2, "rome-copper"),
    "sardinia": (1, "rome-copper"),
    "idubeda": (1, None),
    "orospeda": (1, "carthage-silver"),
    "celtiberia": (1, "carthage-silver"),
    "baetica": (1, "carthage-silver"),
    "w-numidia": (1, "carthage-copper"),
    "e-numidia": (1, "carthage-copper"),
    "carthaginia": (2, "carthage-copper"),
    "carthage": (5, "carthage-copper"),
    "transalpina": (1, None),
    "massilia": (1, None),
}
HISPANIA: Final = ("idubeda", "orospeda", "celtiberia", "baetica")
AFRICA: Final = ("w-numidia", "e-numidia", "carthaginia", "carthage")

START_DOMINANT: Final = {"rome": "rome-silver", "carthage": "carthage-copper"}
LAST_TURN: Final = 9
MAX_HAND: Final = 5


def cards_dealt(turn: int) -> int:
    """Rule 22: a bigger hand in the war's last three years."""
    return 4 if turn <= 6 else MAX_HAND


def side_of(holder: str) -> str:
    """The side of a faction, or the side itself (a jointly held province belongs to its side)."""
    return holder if holder in SIDES else holder.split("-")[0]


def partner(faction: str) -> str:
    side, metal = faction.split("-")
    return f"{side}-{'copper' if metal == 'silver' else 'silver'}"


def other_side(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def factions_of(side: str) -> tuple[str, str]:
    """A side's factions, silver first."""
    return f"{side}-silver", f"{side}-copper"


def location(province: str, holder: str) -> str:
    """The Honor tray cell of a province's chit: ``"tray:latium:rome-silver"``."""
    return f"tray:{province}:{holder}"


LOCATIONS: Final = tuple(location(p, h) for p in PROVINCES for h in HOLDERS)
