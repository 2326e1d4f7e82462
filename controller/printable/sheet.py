"""A sheet drawn in millimetres and written as SVG or PNG by the file's suffix.

The drawers of the printable boards describe their shapes once; the sheet keeps them as a list so the
SVG (the print master, exact at 100 % scale) and the PNG (a preview, or for printers without SVG) are
drawn from the same data and cannot disagree. Text carries a ``kind`` that lands in the SVG's ``class``
attribute, which lets the tests count labels without knowing the drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from PIL import Image, ImageDraw, ImageFont

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


@dataclass
class Sheet:
    """``width`` by ``height`` millimetres, origin top left, y down."""

    width: float
    height: float
    title: str
    shapes: list[_Shape] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.3) -> None:
        self.polygon(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), fill=fill, stroke=stroke, width=width)

    def polygon(self, points: tuple[Point, ...], *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.3) -> None:
        self.shapes.append(_Shape("poly", points, fill, stroke, width))

    def line(self, a: Point, b: Point, *, stroke: str, width: float) -> None:
        self.shapes.append(_Shape("line", (a, b), None, stroke, width))

    def text(self, at: Point, text: str, *, size: float, fill: str = "#000000", kind: str = "") -> None:
        """Text centred on ``at``; ``size`` is the letter height in millimetres."""
        self.shapes.append(_Shape("text", (at,), fill, None, 0.0, text, size, kind))

    def save(self, path: Path) -> None:
        if path.suffix.lower() == ".svg":
            path.write_text(self.svg(), encoding="utf-8")
        else:
            self.png().save(path)

    def svg(self) -> str:
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}mm" height="{self.height:g}mm" '
               f'viewBox="0 0 {self.width:g} {self.height:g}">', f"<title>{escape(self.title)}</title>"]
        for s in self.shapes:
            paint = f'fill="{s.fill or "none"}"'
            if s.stroke:
                paint += f' stroke="{s.stroke}" stroke-width="{s.width:g}"'
            if s.kind == "poly":
                pts = " ".join(f"{x:g},{y:g}" for x, y in s.points)
                out.append(f'<polygon points="{pts}" {paint}/>')
            elif s.kind == "line":
                (x1, y1), (x2, y2) = s.points
                out.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" {paint} stroke-linecap="square"/>')
            else:
                (x, y), = s.points
                css = f" class={quoteattr(s.css)}" if s.css else ""
                out.append(f'<text x="{x:g}" y="{y:g}"{css} font-family="DejaVu Sans, Arial, sans-serif" '
                           f'font-size="{s.size * 1.4:g}" text-anchor="middle" dominant-baseline="central" '
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
                draw.text(pts[0], s.text, fill=s.fill, font=fonts[px], anchor="mm")
        return image

    def pixels(self, dpi: int = DPI) -> tuple[int, int]:
        """The PNG's size for this sheet at ``dpi``."""
        return round(self.width / MM_PER_INCH * dpi), round(self.height / MM_PER_INCH * dpi)
