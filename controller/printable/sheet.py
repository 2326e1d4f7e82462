"""A sheet drawn in millimetres and written as SVG, PNG or a tiled PDF by the file's suffix.

The drawers of the printable boards describe their shapes once; the sheet keeps them as a list so the
SVG (the print master, exact at 100 % scale) and the PNG (a preview, or for printers without SVG) are
drawn from the same data and cannot disagree. Text carries a ``kind`` that lands in the SVG's ``class``
attribute, which lets the tests count labels and reed marks without knowing the drawing (and the web page
leave the builder's marks out: the reeds and the legend). The PNG carries
its DPI, so it prints at its true size too; the PDF cuts the board into A4 or Letter pages
(``controller.printable.pdf``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import sqrt
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from PIL import Image, ImageDraw, ImageFont

from controller.printable.pdf import write_pdf

DPI = 150
MM_PER_INCH = 25.4

Point = tuple[float, float]


@dataclass(frozen=True)
class _Shape:
    kind: str  # "poly", "line" or "text"
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    text: str = ""
    size: float = 0.0
    css: str = ""
    anchor: str = "middle"


@dataclass
class Sheet:
    """``width`` by ``height`` millimetres, origin top left, y down."""

    width: float
    height: float
    title: str
    shapes: list[_Shape] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.3, kind: str = "") -> None:
        self.polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), fill=fill, stroke=stroke, width=width,
                     kind=kind)

    def polygon(self, points: tuple[Point, ...], *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.3, kind: str = "") -> None:
        self.shapes.append(_Shape("poly", points, fill, stroke, width, css=kind))

    def reed(self, centre: Point, room: float) -> None:
        """Where a location's reed goes, lying flat: one end of its glass under the location's centre (a dot), the
        glass pointing into the lower right corner, so the magnet over the centre is not over the reed's middle
        (its dead zone, ``docs/hardware.md``). ``room``: the location's smaller side, mm."""
        x, y = centre
        length = min(14.0, room * 0.6)
        d, w = length / sqrt(2), min(1.6, room * 0.08)
        self.polygon(((x - w, y), (x, y - w), (x + d + w, y + d), (x + d, y + d + w)), fill="#ffffff",
                     stroke="#707070", width=0.25, kind="reed")
        self.rect(x - w / 2, y - w / 2, w, w, fill="#707070", kind="reed-end")

    def legend(self, top: float, entries: tuple[tuple[str, str], ...], *, left: float = 20.0, size: float = 3.4,
               columns: int = 2) -> float:
        """Swatches and what they mean, ``columns`` to a row from ``top``: returns the bottom edge."""
        col_w = (self.width - 2 * left) / columns
        for i, (fill, words) in enumerate(entries):
            x, y = left + (i % columns) * col_w, top + (i // columns) * (size * 2.2)
            self.rect(x, y - size * 0.6, size * 1.2, size * 1.2, fill=fill, stroke="#202020", width=0.25,
                      kind="legend")
            self.text((x + size * 1.8, y), words, size=size, kind="legend", anchor="start")
        return top + ((len(entries) + columns - 1) // columns) * size * 2.2

    def line(self, a: Point, b: Point, *, stroke: str, width: float) -> None:
        self.shapes.append(_Shape("line", (a, b), None, stroke, width))

    def text(self, at: Point, text: str, *, size: float, fill: str = "#000000", kind: str = "",
             anchor: str = "middle") -> None:
        """Text centred on ``at`` (or starting there: ``anchor="start"``); ``size`` is the letter height in
        millimetres."""
        self.shapes.append(_Shape("text", (at,), fill, None, 0.0, text, size, kind, anchor))

    def save(self, path: Path, paper: str = "a4") -> None:
        """SVG (the print master), PNG (with its DPI) or PDF (tiled on ``paper``) by ``path``'s suffix."""
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(self.svg(), encoding="utf-8")
        elif suffix == ".pdf":
            write_pdf(path, self.png(), (self.width, self.height), self.title, paper)
        else:
            self.png().save(path, dpi=(DPI, DPI))

    def svg(self) -> str:
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}mm" height="{self.height:g}mm" '
               f'viewBox="0 0 {self.width:g} {self.height:g}">', f"<title>{escape(self.title)}</title>"]
        for s in self.shapes:
            paint = f'fill="{s.fill or "none"}"'
            if s.stroke:
                paint += f' stroke="{s.stroke}" stroke-width="{s.width:g}"'
            if s.kind == "poly":
                pts = " ".join(f"{x:g},{y:g}" for x, y in s.points)
                css = f" class={quoteattr(s.css)}" if s.css else ""
                out.append(f'<polygon points="{pts}"{css} {paint}/>')
            elif s.kind == "line":
                (x1, y1), (x2, y2) = s.points
                out.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" {paint} stroke-linecap="square"/>')
            else:
                (x, y), = s.points
                css = f" class={quoteattr(s.css)}" if s.css else ""
                out.append(f'<text x="{x:g}" y="{y:g}"{css} font-family="DejaVu Sans, Arial, sans-serif" '
                           f'font-size="{s.size * 1.4:g}" text-anchor="{s.anchor}" dominant-baseline="central" '
                           f'{paint}>{escape(s.text)}</text>')
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def png(self, dpi: int = DPI) -> Image.Image:
        scale = dpi / MM_PER_INCH
        image = Image.new("RGB", self.pixels(dpi), "white")
        draw = ImageDraw.Draw(image)
        fonts: dict[int, ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
        for s in self.shapes:
            pts = [(x * scale, y * scale) for x, y in s.points]
            if s.kind == "poly":
                outline = max(1, round(s.width * scale)) if s.stroke else 0
                draw.polygon(pts, fill=s.fill, outline=s.stroke, width=outline)
            elif s.kind == "line":
                draw.line(pts, fill=s.stroke, width=max(1, round(s.width * scale)))
            else:
                px = max(6, round(s.size * 1.4 * scale))
                if px not in fonts:
                    fonts[px] = ImageFont.load_default(size=px)
                draw.text(pts[0], s.text, fill=s.fill, font=fonts[px], anchor="mm" if s.anchor == "middle" else "lm")
        return image

    def pixels(self, dpi: int = DPI) -> tuple[int, int]:
        """The PNG's size for this sheet at ``dpi``."""
        return round(self.width / MM_PER_INCH * dpi), round(self.height / MM_PER_INCH * dpi)
