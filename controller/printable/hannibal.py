"""The Hannibal track to print and glue over the 7 x 7 reed grid.

Each square carries the position number that ``hw_config/layouts/hannibal.toml`` wires to the reed
under it (read through the shipped profile, so the print cannot disagree with the table), a line links
the positions in order, and camps (``engines.hannibal.is_camp``) are marked.
"""

from __future__ import annotations

from pathlib import Path

from controller.printable.sheet import Sheet
from engines.hannibal import LOCATIONS, is_camp
from hw_config import load_profile

CELL = 40.0
MARGIN = 20.0
TOP = 30.0
INK = "#202020"
CAMP_FILL = "#f6d68a"
TRACK_FILL = "#eef3e2"


def sheet() -> Sheet:
    profile = load_profile("hannibal")
    positions = {int(loc.partition(":")[2]): cell for loc, cell in profile.locations.items() if loc in LOCATIONS}
    rows, cols = len(profile.rows), len(profile.cols)
    width, height = 2 * MARGIN + cols * CELL, TOP + MARGIN + rows * CELL
    out = Sheet(width, height, "Hannibal track (squares 40 mm; print at 100 %)")
    out.text((width / 2, TOP / 2), "HANNIBAL  ·  the track, 0 to 48  ·  camps shaded  ·  squares 40 mm", size=4.5)

    def centre(pos: int) -> tuple[float, float]:
        r, c = positions[pos]
        return MARGIN + c * CELL + CELL / 2, TOP + r * CELL + CELL / 2

    for pos, (r, c) in positions.items():
        out.rect(MARGIN + c * CELL, TOP + r * CELL, CELL, CELL, fill=CAMP_FILL if is_camp(pos) else TRACK_FILL,
                 stroke=INK, width=0.5)
    for pos in range(len(positions) - 1):
        out.line(centre(pos), centre(pos + 1), stroke="#9aa88a", width=1.5)
    for pos in positions:
        x, y = centre(pos)
        out.text((x, y - 9), str(pos), size=7, kind="pos")
        if is_camp(pos):
            out.text((x, y + 11), "CAMP", size=3.5, fill="#7a4a00")
    return out


def draw(path: Path) -> None:
    """The registry's ``printable``: the track as SVG or PNG by ``path``'s suffix."""
    sheet().save(path)
