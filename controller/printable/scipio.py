"""Scipio's formation pads to print and glue over the reeds and buttons: for each army a row of its six
formations (each a pile of tokens on a reed, with the tap button that takes one token off) in line order,
shaded by field, and a row of its six command-card pads (buttons, 2 to 7). Named as the layout and the
profile name them (``rome:yellow.0``, ``tap:rome:yellow.0``, ``card:rome:5``)."""

from __future__ import annotations

from pathlib import Path

from controller.printable import grid
from controller.printable.sheet import Sheet
from engines.scipio.rules import ARMIES, CARDS, FORMATIONS
from hw_config import load_profile

FIELD_FILLS = {"yellow": "#fbe99a", "purple": "#e2cdf4", "green": "#c8ecc0"}


def sheet() -> Sheet:
    profile = load_profile("scipio")
    rows: list[list[grid.Pad | None]] = []
    names = []
    for army in ARMIES:
        rows.append([grid.Pad(f"{army}:{f}", f, FIELD_FILLS[f.split(".")[0]], tap=f"tap:{army}:{f}")
                     for f in FORMATIONS])
        rows.append([grid.Pad(f"card:{army}:{n}", f"card {n}", "#ffffff", button=True) for n in CARDS])
        names += [f"{army.capitalize()}: formations", f"{army.capitalize()}: cards"]
    reeds = {pad.location for row in rows for pad in row if pad is not None and not pad.button}
    buttons = {name for row in rows for pad in row if pad is not None for name in (pad.tap, pad.location * pad.button)}
    assert reeds == set(profile.locations) and buttons - {""} <= set(profile.buttons)  # as the table names them
    return grid.sheet(grid.Grid(
        "Scipio formation pads (pads 45 mm; print at 100 %)",
        "SCIPIO  ·  formation pads: tokens on the reed, tap to take one off  ·  card pads: press to play",
        rows, names, (), (45.0, 45.0),
        (("#fbe99a", "the yellow field's formations, .0 and .1"), ("#e2cdf4", "the purple field's"),
         ("#c8ecc0", "the green field's"), ("#ffffff", "a command card 2 to 7: press its pad to play it")),
        name_w=58.0))


def draw(path: Path, paper: str = "a4") -> None:
    """The registry's ``printable``: the pads as SVG, PNG or tiled PDF by ``path``'s suffix."""
    sheet().save(path, paper)
