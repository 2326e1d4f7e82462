"""A board of pads in rows and columns, for the games whose board is a grid of places (Hannipe!'s track mat,
Scipio's formation pads, Factional Hannibal's Honor tray): the drawing the three share, so each game's own
module only says what each pad is called and what it means.

Every pad carries what the players read, the layout name the table uses for it (``lane:noiro:3``), and
where its reed goes (or, on a push button's pad, where the button goes); rows and columns are named at
the edge, and a legend under the board says what the colours and marks mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.printable.sheet import Sheet

MARGIN = 20.0
HEAD = 30.0  # the title's band over the board
INK = "#202020"


@dataclass(frozen=True)
class Pad:
    location: str  # the name the layout (or the profile's buttons) gives it
    label: str  # what the players read
    fill: str = "#ffffff"
    button: bool = False  # a push button under it, not a reed
    tap: str = ""  # a push button beside its reed, in its lower left corner (its name)


@dataclass(frozen=True)
class Grid:
    title: str  # the sheet's title (its SVG title, the PDF pages' heading)
    heading: str  # the line printed over the board
    rows: Sequence[Sequence[Pad | None]]
    row_names: Sequence[str]
    col_names: Sequence[str]
    cell: tuple[float, float]  # a pad's width and height, mm
    legend: tuple[tuple[str, str], ...]
    name_w: float = 40.0  # the row names' column, mm


def sheet(grid: Grid) -> Sheet:
    cw, ch = grid.cell
    cols = max(len(row) for row in grid.rows)
    left, top = MARGIN + grid.name_w, HEAD + 8
    width = left + cols * cw + MARGIN
    board_bottom = top + len(grid.rows) * ch
    out = Sheet(width, board_bottom + 16 + 8 * ((len(grid.legend) + 1) // 2), grid.title)
    out.text((width / 2, HEAD / 2), grid.heading, size=4.5)
    for c, name in enumerate(grid.col_names):
        out.text((left + c * cw + cw / 2, top - 4), name, size=3.4, kind="col")
    room = min(cw, ch)
    for r, row in enumerate(grid.rows):
        y = top + r * ch
        out.text((MARGIN + grid.name_w / 2, y + ch / 2), grid.row_names[r], size=3.8, kind="row")
        for c, pad in enumerate(row):
            if pad is None:
                continue
            x = left + c * cw
            out.rect(x, y, cw, ch, fill=pad.fill, stroke=INK, width=0.5)
            centre = (x + cw / 2, y + ch / 2)
            if pad.button:
                _button(out, centre, room)
            else:
                out.reed(centre, room)
            if pad.tap:
                corner = (x + room * 0.2, y + ch - room * 0.28)
                _button(out, corner, room * 0.4)
                out.text((corner[0], corner[1] - room * 0.17), "tap", size=min(2.4, ch * 0.1), kind="tap")
            out.text((x + cw / 2, y + min(6.0, ch * 0.22)), pad.label, size=min(4.0, ch * 0.16), kind="pad")
            fit = (cw - 2) / (len(pad.location) * 0.8)  # the name's letters about 0.8 of their height wide
            out.text((x + cw / 2, y + ch - min(3.5, ch * 0.12)), pad.location, size=min(2.4, ch * 0.1, fit),
                     fill="#505050", kind="loc")
    pads = [pad for row in grid.rows for pad in row if pad is not None]
    marks: tuple[tuple[str, str], ...] = ()
    if any(not p.button for p in pads):
        marks += (("#707070", "a reed: one end of its glass under the dot"),)
    if any(p.button or p.tap for p in pads):
        marks += (("#d0d0d0", "a push button: under the octagon"),)
    out.legend(board_bottom + 12, (*grid.legend, *marks))
    return out


def _button(out: Sheet, centre: tuple[float, float], room: float) -> None:
    """Where a push button goes: an octagon a 12 mm tactile button's cap fits in (smaller on a small pad)."""
    x, y = centre
    r = min(6.0, room * 0.3)
    k = r * 0.414
    out.polygon(((x - k, y - r), (x + k, y - r), (x + r, y - k), (x + r, y + k), (x + k, y + r), (x - k, y + r),
                 (x - r, y + k), (x - r, y - k)), fill="#d0d0d0", stroke="#505050", width=0.3, kind="button")
