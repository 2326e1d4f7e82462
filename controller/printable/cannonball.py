"""The Cannon Ball battlefield to print and glue over the 16 x 16 reed grid, drawn from the engine's tables.

Everything comes from ``engines.cannonball.board`` (blocks, forts, gates and their box pairs, stars,
flags, bridge sites), so the print cannot drift from the rules the table referees. Boxes are 30 mm, the
size of a cannon (I-6); north (gray's fort) is at the top, blue's fort in the south-west corner.
"""

from __future__ import annotations

from math import cos, pi, sin
from pathlib import Path

from controller.printable.sheet import Point, Sheet
from engines.cannonball import board as b

BOX = 30.0
MARGIN = 20.0
TOP = 32.0  # room for the title above the board
RIVER_ROW = 10
INK = "#202020"
SIDE_INK = ("#1f4fbf", "#505050")
FORT_FILL = ("#c9dafc", "#d6d6d6")
# sixteen light colours, far enough apart to tell the sections at a glance
SECTION_FILLS = ("#fde2b8", "#d4f2c4", "#f9c9d6", "#fff4a8", "#c8ecec", "#e6d4f7", "#f6d2b0", "#d9f0a3",
                 "#ffd1a1", "#bfe3d0", "#f4c2c2", "#e3e8a0", "#e9d8b0", "#f2d9ec", "#d1e8b7", "#eab8e0")


def _x(col: int) -> float:
    return MARGIN + col * BOX


def _y(row: int) -> float:
    """Top edge of a row's boxes (row 19 at the top; row 10 is the river)."""
    return TOP + (19 - row) * BOX


def _corner(i: int) -> Point:
    col, row = i % b.WIDTH, b.ROWS[i // b.WIDTH]
    return _x(col), _y(row)


def _star(sheet: Sheet, cx: float, cy: float, r: float, fill: str) -> None:
    pts = tuple((cx + (r if k % 2 == 0 else r * 0.45) * sin(k * pi / 5), cy - (r if k % 2 == 0 else r * 0.45)
                 * cos(k * pi / 5)) for k in range(10))
    sheet.polygon(pts, fill=fill, stroke=INK, width=0.4)


def _flag(sheet: Sheet, x: float, y: float, fill: str) -> None:
    sheet.line((x, y), (x, y + 12), stroke=INK, width=0.8)
    sheet.polygon(((x, y), (x + 9, y + 2.5), (x, y + 5)), fill=fill, stroke=INK, width=0.4)


def sheet() -> Sheet:
    width = 2 * MARGIN + b.WIDTH * BOX
    height = TOP + 19 * BOX + 44
    out = Sheet(width, height, "Cannon Ball battlefield (boxes 30 mm; print at 100 %)")
    out.text((width / 2, TOP / 2), "CANNON BALL  ·  gray's fort north-east, blue's fort south-west  ·  boxes 30 mm",
             size=5)
    # boxes: fort or section colour
    for i in range(b.BOXES):
        x, y = _corner(i)
        fill = FORT_FILL[b.FORT_OF[i]] if b.FORT_OF[i] >= 0 else SECTION_FILLS[b.SECTION_OF[i]]
        out.rect(x, y, BOX, BOX, fill=fill, stroke="#8a8a8a", width=0.3)
        out.reed((x + BOX / 2, y + BOX / 2), BOX)  # under the stars and flags drawn later
    # the river and its six bridge sites (each has a reed under the bridge's magnet)
    river_y = _y(RIVER_ROW)
    out.rect(MARGIN, river_y, b.WIDTH * BOX, BOX, fill="#8cc4ec")
    out.text((MARGIN + 1.5 * BOX, river_y + BOX / 2), "river", size=4, fill="#1d5a8a")
    for site, name in enumerate(b.SITES):
        x = _x(b.COLUMNS.index(name))
        owner = b.SITE_OWNER[site]
        out.rect(x + 4, river_y - 2, BOX - 8, BOX + 4, fill="#c49a6c", stroke=SIDE_INK[owner], width=1.0)
        out.text((x + BOX / 2, river_y + BOX / 2 - 4), f"bridge {name}", size=3.2, kind="site")
        out.text((x + BOX / 2, river_y + BOX / 2 + 5), b.SIDES[owner], size=2.6, fill=SIDE_INK[owner])
    # block borders: section edges a little heavier than box lines
    for i in range(b.BOXES):
        x, y = _corner(i)
        col, row = i % b.WIDTH, b.ROWS[i // b.WIDTH]
        if col % 3 == 0:
            out.line((x, y), (x, y + BOX), stroke="#555555", width=0.8)
        if row in (1, 4, 7, 11, 14, 17):
            out.line((x, y + BOX), (x + BOX, y + BOX), stroke="#555555", width=0.8)
    # fort walls: every edge between a fort box and a box outside that fort, gates drawn over them
    gate_edges = {frozenset(pair): g for g, pairs in enumerate(b.GATE_PAIRS) for pair in pairs}
    for i in range(b.BOXES):
        if b.FORT_OF[i] < 0:
            continue
        x, y = _corner(i)
        col, row = i % b.WIDTH, b.ROWS[i // b.WIDTH]
        for dc, dr, a, c in ((1, 0, (x + BOX, y), (x + BOX, y + BOX)), (-1, 0, (x, y), (x, y + BOX)),
                             (0, 1, (x, y), (x + BOX, y)), (0, -1, (x, y + BOX), (x + BOX, y + BOX))):
            name = f"{b.COLUMNS[col + dc]}{row + dr}" if 0 <= col + dc < b.WIDTH else ""
            j = b.BOX_INDEX.get(name, -1)
            if j >= 0 and b.FORT_OF[j] == b.FORT_OF[i]:
                continue
            g = gate_edges.get(frozenset((i, j)))
            if g is None:
                out.line(a, c, stroke="#3b2a1a", width=2.5)
            else:
                out.line(a, c, stroke=SIDE_INK[b.GATE_OWNER[g]], width=4.0)
    for g, pairs in enumerate(b.GATE_PAIRS):
        inside, outside = pairs[1]  # the middle pair: the gate's reed lies under its slot there
        (xi, yi), (xo, yo) = _corner(inside), _corner(outside)
        cx, cy = (xi + xo) / 2 + BOX / 2, (yi + yo) / 2 + BOX / 2
        if yi != yo:  # a wall across a column: the slot's mark beside the box names there, not over them
            cx += 9
        out.rect(cx - 4, cy - 4, 8, 8, fill="#ffffff", stroke=SIDE_INK[b.GATE_OWNER[g]], width=0.8)
        out.text((cx, cy), "G", size=3.5, fill=SIDE_INK[b.GATE_OWNER[g]])
        ox, oy = _corner(outside)
        out.text((ox + BOX / 2, oy + 5), f"{b.GATES[g]} gate", size=2.6, fill=SIDE_INK[b.GATE_OWNER[g]], kind="gate")
    # stars (a cannon each at the start) and flags
    for side in (b.BLUE, b.GRAY):
        for i in b.STARS[side]:
            x, y = _corner(i)
            _star(out, x + BOX / 2, y + BOX / 2 - 2, 9, "#ffd21f" if side == b.BLUE else "#e8e8e8")
        x, y = _corner(b.FLAGS[side])
        _flag(out, x + BOX / 2 - 4, y + 6, SIDE_INK[side])
    for i, name in enumerate(b.BOX_NAMES):
        x, y = _corner(i)
        out.text((x + BOX / 2, y + BOX - 5), name, size=3.2, fill=INK, kind="box")
    out.rect(MARGIN, TOP, b.WIDTH * BOX, 19 * BOX, stroke=INK, width=1.0)
    out.legend(TOP + 19 * BOX + 12, (
        ("#ffd21f", "star, blue's fort: a blue cannon starts here (d2, g2, b5)"),
        ("#e8e8e8", "star, gray's fort: a gray cannon starts here (i18, f18, k15)"),
        (FORT_FILL[b.BLUE], "blue's fort (flag box c4: empty at the start)"),
        (FORT_FILL[b.GRAY], "gray's fort (flag box j16: empty at the start)"),
        (SECTION_FILLS[0], "a section: one colour each, its edges heavier"),
        ("#8cc4ec", "the river; brown: a bridge site, a reed under it"),
        ("#ffffff", "G on a fort wall: a gate's slot, its reed under the G"),
        ("#707070", "a reed: one end of its glass under the dot"),
    ))
    return out


def draw(path: Path, paper: str = "a4") -> None:
    """The registry's ``printable``: the battlefield as SVG, PNG or tiled PDF by ``path``'s suffix."""
    sheet().save(path, paper)
