"""A board larger than any home printer's paper, written as a PDF of A4 or Letter pages to trim and join.

The board is drawn once at the sheet's DPI, then cut into tiles. Each page carries one tile at exact size
(placed in millimetres, so the tiles add up to the board's true size whatever the rounding of pixels),
with crop marks at its corners, the names of the tiles that join it at each edge, a map of the whole board
with this tile filled, and the line to print at 100 %. The PDF is written here (a page is a few drawing
operators and one image): a PDF library would be a dependency for one page type.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 12.0
"""Millimetres left blank around a tile: most printers cannot print the last 4-5 mm, and the crop marks,
the neighbours' names and the page's heading are drawn there."""
HEAD = 14.0  # the heading's band over the tile


@dataclass(frozen=True)
class Tile:
    """One page's part of the board: columns A, B, ... left to right, rows 1, 2, ... top to bottom."""

    col: int
    row: int
    x: float  # its left edge on the board, mm
    y: float  # its top edge on the board, mm
    width: float
    height: float

    @property
    def name(self) -> str:
        return f"{chr(ord('A') + self.col)}{self.row + 1}"


@dataclass(frozen=True)
class Tiling:
    paper: tuple[float, float]  # the page as printed, mm (landscape when wider than tall)
    cols: int
    rows: int
    tiles: tuple[Tile, ...]


def tiling(width: float, height: float, paper: str) -> Tiling:
    """The fewest pages, upright or on their side, that hold a ``width`` x ``height`` mm board."""
    w, h = PAPERS[paper]
    best: Tiling | None = None
    for pw, ph in ((w, h), (h, w)):
        tw, th = pw - 2 * MARGIN, ph - 2 * MARGIN - HEAD
        cols, rows = math.ceil(width / tw - 1e-9), math.ceil(height / th - 1e-9)
        tiles = tuple(Tile(c, r, c * tw, r * th, min(tw, width - c * tw), min(th, height - r * th))
                      for r in range(rows) for c in range(cols))
        if best is None or len(tiles) < len(best.tiles):
            best = Tiling((pw, ph), cols, rows, tiles)
    assert best is not None
    return best


def write_pdf(path: Path, image: Image.Image, size: tuple[float, float], title: str, paper: str) -> Tiling:
    """``image`` (the board drawn ``size`` millimetres wide and high) as a tiled PDF on ``paper`` ("a4" or
    "letter"): the tiles are placed by the board's millimetres, not its pixels, which were rounded."""
    width, height = size
    dpi = image.width / width * MM_PER_INCH
    plan = tiling(width, height, paper)
    pw, ph = plan.paper
    objects: list[bytes] = [b"", b"", b""]  # the font, the catalog and the page tree, filled in below

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def px(mm: float) -> int:
        return round(mm / MM_PER_INCH * dpi)

    page_ids = []
    for tile in plan.tiles:
        crop = image.crop((px(tile.x), px(tile.y), px(tile.x + tile.width), px(tile.y + tile.height))).convert("RGB")
        data = zlib.compress(crop.tobytes(), 6)
        img = add(f"<< /Type /XObject /Subtype /Image /Width {crop.width} /Height {crop.height} /ColorSpace "
                  f"/DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode()
                  + data + b"\nendstream")
        content = _page_content(tile, plan, title, paper)
        contents = add(f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream")
        page_ids.append(add(f"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 {pw * PT_PER_MM:.3f} "
                            f"{ph * PT_PER_MM:.3f}] /Resources << /Font << /F1 1 0 R >> /XObject << /Im "
                            f"{img} 0 R >> >> /Contents {contents} 0 R >>".encode()))
    objects[0] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    objects[1] = b"<< /Type /Catalog /Pages 3 0 R >>"
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects[2] = f"<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 2 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return plan


def _page_content(tile: Tile, plan: Tiling, title: str, paper: str) -> bytes:
    """The page's drawing: the tile's image at its true size, crop marks, the neighbours, the heading."""
    pw, ph = plan.paper
    left, top = MARGIN, MARGIN + HEAD  # the tile's top-left corner on the page, mm from the page's top-left
    ops: list[str] = []

    def pt(x: float, y: float) -> str:  # page mm from the top-left to PDF points from the bottom-left
        return f"{x * PT_PER_MM:.3f} {(ph - y) * PT_PER_MM:.3f}"

    def text(x: float, y: float, size: float, words: str) -> None:
        safe = words.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"BT /F1 {size:g} Tf {pt(x, y)} Td ({safe}) Tj ET")

    def line(a: tuple[float, float], b: tuple[float, float]) -> None:
        ops.append(f"{pt(*a)} m {pt(*b)} l S")

    w, h = tile.width, tile.height
    ops.append(f"q {w * PT_PER_MM:.3f} 0 0 {h * PT_PER_MM:.3f} {pt(left, top + h)} cm /Im Do Q")
    ops.append("0 G 0.25 w")
    for cx, sx in ((left, -1), (left + w, 1)):  # crop marks: 6 mm lines off each corner, 1.5 mm clear of it
        for cy, sy in ((top, -1), (top + h, 1)):
            line((cx + sx * 1.5, cy), (cx + sx * 7.5, cy))
            line((cx, cy + sy * 1.5), (cx, cy + sy * 7.5))
    by_place = {(t.col, t.row): t for t in plan.tiles}
    joins = []
    for dc, dr, where, at in ((1, 0, "right", (left + w + 2, top + h / 2)), (-1, 0, "left", (1.5, top + h / 2)),
                              (0, -1, "top", (left + w / 2 - 8, top - 2)),
                              (0, 1, "bottom", (left + w / 2 - 8, top + h + 5))):
        other = by_place.get((tile.col + dc, tile.row + dr))
        if other is not None:
            text(at[0], at[1], 7, f"{other.name} >" if dc > 0 else f"< {other.name}" if dc < 0 else other.name)
            joins.append(f"{where} edge to {other.name}")
    text(left, MARGIN - 3, 10, f"{title} - tile {tile.name} of {len(plan.tiles)}: {plan.cols} across, "
                               f"{plan.rows} down")
    text(left, MARGIN + 2, 7, f"Print on {paper.upper()} at 100 % (actual size, not 'fit to page'). Trim at the "
                              "crop marks; butt the edges: " + ("; ".join(joins) or "one page") + ".")
    cell = 3.0  # the map of tiles in the page's top right corner, this one filled, clear of the crop marks
    mx = pw - MARGIN - plan.cols * cell
    for t in plan.tiles:
        x, y = mx + t.col * cell, MARGIN - 6 + t.row * cell * 0.8
        ops.append(f"{pt(x, y + cell * 0.8)} {cell * PT_PER_MM:.3f} {cell * 0.8 * PT_PER_MM:.3f} re "
                   + ("B" if t == tile else "S"))
    return "\n".join(ops).encode("latin-1")
