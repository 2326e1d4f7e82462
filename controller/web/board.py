"""The board the web page draws under the pieces: an SVG with one anchor per location of the game.

Where the game has a printable board (its registry entry's ``printable``), the page draws that very sheet,
so the phone shows the board the players glued over the reeds, and each location's piece goes where the
sheet labels it: a label of the sheet names a location when its ``class`` (the sheet's kind of label:
``pos``, ``box``, ``site``, ``gate``) and its words hold every part of the location's name (``pos:27`` is
the ``pos`` label "27", ``bridge:k`` the ``site`` label "bridge k", ``gate:east`` the ``gate`` label "east
gate"). The piece is drawn at the centre of the smallest shape around its label that holds no other
location's label (a square of the track, a bridge), else on the label itself (a gate's slot inside a box).

A sheet may instead name each place in full, by a ``loc`` label (``lane:noiro:3``), as the grid boards do.
A game without a printable board, or one whose sheet does not name every location, gets a table built from
the names alone: a row for each name less its last part, a column for each last part (``lane:noiro:3`` is
row ``noiro``, column ``3``; ``tray:apulia:rome`` row ``apulia``, column ``rome``), in the order of the
board's wiring (the layout of the game's first profile), so the rows follow the mat or the tray.
"""

from __future__ import annotations

import math
import re
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from controller.table import profile_for
from engines.registry import get_game, load_ref
from hw_config import ConfigError

SVG_NS = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]
GRID_CELL = 30.0
GRID_FONT = 6.0


@dataclass(frozen=True)
class Board:
    """A game's board as the page draws it: ``backdrop`` (SVG markup in a ``width`` x ``height`` view box)
    under one anchor per location, each piece ``radius`` big; ``source`` says which geometry it is
    ("printable" or "names")."""

    game: str
    width: float
    height: float
    backdrop: str
    anchors: Mapping[str, Point]
    radius: float
    source: str

    def svg(self) -> str:
        """The page's board: the backdrop, then a group per location (``data-loc``) the page's script fills
        with the piece, its count and the sensor's disagreement; a unit of room around it for the strokes."""
        places = "".join(f'<g class="place" data-loc={quoteattr(loc)} transform="translate({x:g} {y:g})"/>'
                         for loc, (x, y) in self.anchors.items())
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" '
                f'viewBox="-1 -1 {self.width + 2:g} {self.height + 2:g}" data-game={quoteattr(self.game)} '
                f'data-radius="{self.radius:g}" data-source="{self.source}">'
                f'<g class="backdrop">{self.backdrop}</g><g class="places">{places}</g></svg>')


@cache
def board_for(game: str) -> Board:
    """The board of ``game`` (a registry name), drawn once per process: the printable sheet where it names
    every location, else the table of names."""
    info = get_game(game)
    locations = sorted(info.locations(), key=_natural)
    if info.printable is not None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "board.svg"
            load_ref(info.printable)(path)
            board = from_sheet(game, path.read_text(encoding="utf-8"), locations)
        if board is not None:
            return board
    return from_names(game, locations, _wiring_order(info.profiles))


def from_sheet(game: str, svg: str, locations: Sequence[str]) -> Board | None:
    """The printable sheet ``svg`` with an anchor for each location, or ``None`` if a location is named by no
    label of the sheet, or by several."""
    root = ET.fromstring(svg)
    labels: list[tuple[set[str], Point]] = []
    names: dict[str, list[Point]] = {}  # a "loc" label: the layout's own name of the place it is printed in
    shapes: list[list[Point]] = []
    for element in root:
        if element.tag == f"{SVG_NS}text" and element.get("class"):
            at = (float(element.get("x", 0)), float(element.get("y", 0)))
            words = set((element.text or "").split()) | {element.get("class", "")}
            labels.append((words, at))
            if element.get("class") == "loc":
                names.setdefault(element.text or "", []).append(at)
        elif element.tag == f"{SVG_NS}polygon" and element.get("class") not in ("reed", "reed-end", "legend"):
            shapes.append([_point(pair) for pair in element.get("points", "").split()])
    named: dict[str, Point] = {}
    for loc in locations:
        parts = set(re.split(r"[:\s]+", loc))
        found = names.get(loc) or [at for words, at in labels if parts <= words]
        if len(found) != 1:
            return None
        named[loc] = found[0]
    points = list(named.values())
    anchors = {loc: _inside(at, shapes, points) for loc, at in named.items()}
    box = root.get("viewBox", "0 0 100 100").split()
    body = re.search(r"<svg[^>]*>(.*)</svg>", svg, re.S)
    kept = [line for line in (body.group(1) if body else "").splitlines()
            if not re.search(r'class="(reed|legend)[^"]*"', line)]  # the builder's marks: not for the players
    bottom = max((y for points in shapes for _, y in points), default=float(box[3]))
    return Board(game, float(box[2]), min(float(box[3]), bottom + 10.0), "\n".join(kept), anchors,
                 _radius(anchors.values()), "printable")


def from_names(game: str, locations: Sequence[str], order: Mapping[str, int]) -> Board:
    """A table of the locations: rows by all but the last part of a name, columns by the last part, each in
    the order of ``order`` (location -> its place in the wiring; natural order for those it lacks)."""
    ranked = sorted(locations, key=lambda loc: (order.get(loc, len(order)), _natural(loc)))
    rows: list[str] = []
    cols: list[str] = []
    for loc in ranked:
        row, _, col = loc.rpartition(":")
        if row not in rows:
            rows.append(row)
        if col not in cols:
            cols.append(col)
    row_labels = _strip_common(rows)
    head_w = max(GRID_CELL, max(len(label) for label in row_labels) * GRID_FONT * 0.62 + 6)
    head_h = GRID_CELL * 0.8
    width, height = head_w + len(cols) * GRID_CELL, head_h + len(rows) * GRID_CELL
    out: list[str] = []
    for c, col in enumerate(cols):
        x = head_w + c * GRID_CELL + GRID_CELL / 2
        for k, piece in enumerate(col.split("-")):
            out.append(_text(x, head_h - 4 - (len(col.split("-")) - 1 - k) * GRID_FONT, piece, "col"))
    anchors: dict[str, Point] = {}
    for r, (row, label) in enumerate(zip(rows, row_labels, strict=True)):
        y = head_h + r * GRID_CELL
        out.append(_text(head_w - 4, y + GRID_CELL / 2, label, "row", anchor="end"))
        for c, col in enumerate(cols):
            loc = f"{row}:{col}" if row else col
            if loc in locations:
                x = head_w + c * GRID_CELL
                out.append(f'<rect class="cell" x="{x:g}" y="{y:g}" width="{GRID_CELL:g}" height="{GRID_CELL:g}"/>')
                anchors[loc] = (x + GRID_CELL / 2, y + GRID_CELL / 2)
    return Board(game, width, height, "".join(out), anchors, GRID_CELL * 0.38, "names")


def _wiring_order(profiles: Iterable[str]) -> dict[str, int]:
    """Each location's place in the wiring of the game's first profile that loads (matrix row, then column);
    empty if none does (the page then orders the names naturally)."""
    for name in profiles:
        try:
            cells = profile_for(name).cells
        except (ConfigError, KeyError):
            continue
        return {loc: rank for rank, (_, loc) in enumerate(sorted(cells.items()))}
    return {}


def _inside(at: Point, shapes: Sequence[Sequence[Point]], labels: Sequence[Point]) -> Point:
    """The centre of the smallest shape around ``at`` that holds no other label, else ``at`` itself."""
    around = [s for s in shapes if len(s) >= 3 and _contains(s, at)]
    if around:
        smallest = min(around, key=_area)
        if sum(1 for p in labels if _contains(smallest, p)) == 1:
            xs, ys = [p[0] for p in smallest], [p[1] for p in smallest]
            return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return at


def _contains(shape: Sequence[Point], p: Point) -> bool:
    """Whether ``p`` lies inside the polygon ``shape`` (even-odd rule)."""
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(shape, [*shape[1:], shape[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _area(shape: Sequence[Point]) -> float:
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(shape, [*shape[1:], shape[0]], strict=True))) / 2


def _radius(points: Iterable[Point]) -> float:
    """A piece's radius: a little less than half the distance between the two closest anchors, so no two
    pieces overlap."""
    pts = list(points)
    closest = min((math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]), default=20.0)
    return round(max(1.0, closest * 0.42), 2)


def _point(pair: str) -> Point:
    x, _, y = pair.partition(",")
    return float(x), float(y)


def _text(x: float, y: float, text: str, css: str, anchor: str = "middle") -> str:
    return (f'<text class="{css}" x="{x:g}" y="{y:g}" font-size="{GRID_FONT:g}" text-anchor="{anchor}" '
            f'dominant-baseline="central">{escape(text)}</text>')


def _strip_common(rows: Sequence[str]) -> list[str]:
    """Row labels without the parts every row shares (``lane:noiro`` -> ``noiro``)."""
    split = [row.split(":") for row in rows]
    common = 0
    while len(rows) > 1 and all(len(s) > common + 1 and s[common] == split[0][common] for s in split):
        common += 1
    return [":".join(s[common:]) for s in split]


def _natural(name: str) -> list[str | int]:
    """``pos:2`` before ``pos:10``."""
    return [int(piece) if piece.isdigit() else piece for piece in re.split(r"(\d+)", name)]
