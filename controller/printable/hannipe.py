"""Hannipe!'s track mat to print and glue over its 36 reeds: one lane per horse, in the betting sheet's order
and the horse's colour (I-1), six rows from the front line (row 1) back; each pad named as the layout names
its reed (``lane:noiro:3``)."""

from __future__ import annotations

from pathlib import Path

from controller.printable import grid
from controller.printable.sheet import Sheet
from engines.hannipe.data import COLOURS, HORSES, NAMES
from hw_config import load_profile

FILLS = {"black": "#b8b8b8", "red": "#f4b0a8", "grey": "#e4e4e4", "green": "#bfe6b4", "yellow": "#fbe99a",
         "blue": "#b8cdf4"}  # light enough to read the names on


def sheet() -> Sheet:
    cells = load_profile("hannipe").locations
    rows = 1 + max(int(loc.rsplit(":", 1)[1]) for loc in cells)
    lanes = [[grid.Pad(f"lane:{h}:{r}", f"{NAMES[h]} {r}", FILLS[COLOURS[h]]) for r in range(1, rows)]
             for h in HORSES]
    assert {p.location for lane in lanes for p in lane} == set(cells)  # the mat names every reed of the layout
    return grid.sheet(grid.Grid(
        "Hannipe! track mat (pads 40 mm; print at 100 %)",
        "HANNIPE!  ·  the track mat  ·  row 1 is the front line  ·  pads 40 mm",
        lanes, [f"{NAMES[h]} ({COLOURS[h]})" for h in HORSES],
        ["row 1: front line", *(f"row {r}" for r in range(2, rows))], (40.0, 40.0),
        (("#fbe99a", "a horse's lane, in its colour: its pawn only"),
         ("#ffffff", "row 1 is the front line, row 2 the line behind it, and so on")), name_w=44.0))


def draw(path: Path, paper: str = "a4") -> None:
    """The registry's ``printable``: the mat as SVG, PNG or tiled PDF by ``path``'s suffix."""
    sheet().save(path, paper)
