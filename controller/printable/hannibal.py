"""The Hannibal track to print and glue over the 7 x 7 reed grid.

Each square carries the position number and the layout name (``pos:17``) that
``hw_config/layouts/hannibal.toml`` wires to the reed under it (read through the shipped profile, so the
print cannot disagree with the table), the place of that reed, a line linking the positions in order
(drawn through the squares' centres, clear of the numbers in their corners) and the camps
(``engines.hannibal.is_camp``); a legend says what each mark means.
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
PATH = "#9aa88a"


def sheet() -> Sheet:
    profile = load_profile("hannibal")
    positions = {int(loc.partition(":")[2]): cell for loc, cell in profile.locations.items() if loc in LOCATIONS}
    rows, cols = len(profile.rows), len(profile.cols)
    width, board_h = 2 * MARGIN + cols * CELL, TOP + rows * CELL
    out = Sheet(width, board_h + 40, "Hannibal track (squares 40 mm; print at 100 %)")
    out.text((width / 2, TOP / 2), "HANNIBAL  ·  the track, 0 to 48  ·  camps shaded  ·  squares 40 mm", size=4.5)

    def centre(pos: int) -> tuple[float, float]:
        r, c = positions[pos]
        return MARGIN + c * CELL + CELL / 2, TOP + r * CELL + CELL / 2

    for pos, (r, c) in positions.items():
        out.rect(MARGIN + c * CELL, TOP + r * CELL, CELL, CELL, fill=CAMP_FILL if is_camp(pos) else TRACK_FILL,
                 stroke=INK, width=0.5)
    for pos in range(len(positions) - 1):
        out.line(centre(pos), centre(pos + 1), stroke=PATH, width=1.5)
    for pos in positions:
        x, y = centre(pos)
        out.reed((x, y), CELL)
        out.text((x - 10, y - 10), str(pos), size=7, kind="pos")
        out.text((x - 9, y + 15), f"pos:{pos}", size=2.6, fill="#505050", kind="loc")
        if is_camp(pos):
            out.text((x + 9, y - 12), "CAMP", size=3.5, fill="#7a4a00")
    out.legend(board_h + 12, (
        (CAMP_FILL, "a camp (0 and 48: the Base Camps)"), (TRACK_FILL, "a square of the track"),
        (PATH, "the track's order, 0 to 48"), ("#707070", "a reed: one end of its glass under the dot"),
    ))
    return out


def draw(path: Path, paper: str = "a4") -> None:
    """The registry's ``printable``: the track as SVG, PNG or tiled PDF by ``path``'s suffix."""
    sheet().save(path, paper)
