"""Factional Hannibal's Honor tray to print and glue over its 120 reeds: one row per province (in the digest's
order, with its Honor Points), one column per holder (the four factions, then each side's "held jointly");
each cell named as the layout names its reed (``tray:latium:rome-silver``) and shaded by its side."""

from __future__ import annotations

from pathlib import Path

from controller.flows.factional_screens import NAMES, SIDE_NAMES, province_name
from controller.printable import grid
from controller.printable.sheet import Sheet
from engines.factional.table import HOLDERS, PROVINCES, location
from hw_config import load_profile

SIDE_FILLS = {"rome": "#f6d2cc", "carthage": "#cfdcf6"}
JOINT_FILLS = {"rome": "#e8b4aa", "carthage": "#a9c0ec"}


def _fill(holder: str) -> str:
    side = holder.split("-")[0]
    return JOINT_FILLS[side] if holder == side else SIDE_FILLS[side]


def _holder(holder: str) -> str:
    return NAMES.get(holder) or f"{SIDE_NAMES[holder]} jointly"


def sheet() -> Sheet:
    cells = load_profile("factional").locations
    rows = [[grid.Pad(location(p, h), _holder(h), _fill(h)) for h in HOLDERS] for p in PROVINCES]
    assert {pad.location for row in rows for pad in row} == set(cells)  # the tray names every reed of the layout
    return grid.sheet(grid.Grid(
        "Factional Hannibal Honor tray (cells 40 x 17 mm; print at 100 %)",
        "FACTIONAL HANNIBAL  ·  the Honor tray  ·  each chit in its holder's cell",
        rows, [f"{province_name(p)} ({hp} HP)" for p, (hp, _) in PROVINCES.items()],
        [_holder(h) for h in HOLDERS], (40.0, 17.0),
        (("#f6d2cc", "Rome's factions: Silver, Copper"), ("#e8b4aa", "held by Rome jointly"),
         ("#cfdcf6", "Carthage's factions: Silver, Copper"), ("#a9c0ec", "held by Carthage jointly"),
         ("#ffffff", "a chit off the tray: nobody holds that province")),
        name_w=46.0))


def draw(path: Path, paper: str = "a4") -> None:
    """The registry's ``printable``: the tray as SVG, PNG or tiled PDF by ``path``'s suffix."""
    sheet().save(path, paper)
