"""Draws the wiring pictures of ``docs/hardware.md`` from the shipped profiles: ``python docs/wiring.py``.

Why a generator and not a drawing: the pin numbers a builder solders against live in the profiles
(``hw_config/profiles/*.toml``), the Pi's header map in ``controller/wiring.py`` and the Pico's pins in
``firmware_bridge/firmware/pico.py``. A hand-made picture would keep its numbers when those change; this one
is drawn from them through the project's own profile reader, so it cannot drift (``--check`` in the tests).

- ``docs/wiring/pi.svg``: a board on the Pi's own pins (profile ``hannibal``): the 40-pin header with every
  line the profile uses, the reed matrix with a diode per reed and the layout's name of each cell, the
  buttons, the OLED on I2C, and one cell enlarged (which way the diode goes);
- ``docs/wiring/bridge.svg``: a board read by a Raspberry Pi Pico (profile ``hannibal-bridge``): the Pi's
  header, the UART and power between Pi and Pico, the Pico's matrix pins, the LED strip's data pin.

``--check`` writes nothing and exits 1 naming each picture that differs from what is on disk. Standard
library only (plus the project): the SVG is text, written with fixed formatting, so the same profiles always
give the same bytes.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.wiring import HEADER_PIN, I2C_PINS  # noqa: E402
from firmware_bridge.firmware.pico import FREE_PINS, LED_PIN, UART_RX, UART_TX, direct  # noqa: E402
from hw_config import Profile, load_profile  # noqa: E402

OUT = ROOT / "docs" / "wiring"
PI_PROFILE = "hannibal"
BRIDGE_PROFILE = "hannibal-bridge"

# the Pi's power pins on the 40-pin header; every other pin is a GPIO (HEADER_PIN)
PI_POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 20: "GND", 25: "GND", 30: "GND",
            34: "GND", 39: "GND"}
# the Pico's 40 pins: GP numbers by physical pin, and the rest
PICO_GP = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10, 15: 11, 16: 12, 17: 13, 19: 14,
           20: 15, 21: 16, 22: 17, 24: 18, 25: 19, 26: 20, 27: 21, 29: 22, 31: 26, 32: 27, 34: 28}
PICO_OTHER = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "GND", 38: "GND", 30: "RUN",
              35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 39: "VSYS", 40: "VBUS"}
PICO_PIN = {gp: pin for pin, gp in PICO_GP.items()}

INK = "#222222"
GREY = "#9a9a9a"
ROW = "#c0392b"
COL = "#1f6fb2"
BUTTON = "#2e7d32"
I2C = "#7b3fa0"
POWER = "#d35400"
GROUND = "#444444"
UART = "#00838f"
LED = "#b8860b"

PITCH = 24  # between two header pins
CELL_X, CELL_Y = 64, 62  # between two matrix columns, two rows

Point = tuple[float, float]


def _n(value: float) -> str:
    return f"{value:g}"


@dataclass
class Svg:
    """An SVG picture as text, in pixels, with a white background (the picture is read on dark pages too)."""

    width: int
    height: int
    parts: list[str] = field(default_factory=list)

    def line(self, a: Point, b: Point, colour: str = INK, width: float = 2) -> None:
        self.parts.append(f'<line x1="{_n(a[0])}" y1="{_n(a[1])}" x2="{_n(b[0])}" y2="{_n(b[1])}" '
                          f'stroke="{colour}" stroke-width="{_n(width)}"/>')

    def wire(self, points: Sequence[Point], colour: str = INK, width: float = 2) -> None:
        d = " ".join(f"{'M' if i == 0 else 'L'}{_n(x)} {_n(y)}" for i, (x, y) in enumerate(points))
        self.path(d, colour, width)

    def path(self, d: str, colour: str = INK, width: float = 2, fill: str = "none") -> None:
        self.parts.append(f'<path d="{d}" stroke="{colour}" stroke-width="{_n(width)}" fill="{fill}" '
                          'stroke-linejoin="round"/>')

    def rect(self, at: Point, w: float, h: float, *, stroke: str = INK, fill: str = "none", rx: float = 0,
             width: float = 1.5) -> None:
        self.parts.append(f'<rect x="{_n(at[0])}" y="{_n(at[1])}" width="{_n(w)}" height="{_n(h)}" rx="{_n(rx)}" '
                          f'stroke="{stroke}" stroke-width="{_n(width)}" fill="{fill}"/>')

    def dot(self, at: Point, r: float = 3.2, colour: str = INK, stroke: str = "none") -> None:
        self.parts.append(f'<circle cx="{_n(at[0])}" cy="{_n(at[1])}" r="{_n(r)}" fill="{colour}" stroke="{stroke}"/>')

    def polygon(self, points: Sequence[Point], colour: str = INK) -> None:
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{pts}" fill="{colour}" stroke="{colour}" stroke-linejoin="round"/>')

    def text(self, at: Point, text: str, *, size: float = 12, anchor: str = "start", colour: str = INK,
             bold: bool = False) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(f'<text x="{_n(at[0])}" y="{_n(at[1])}" font-size="{_n(size)}" text-anchor="{anchor}" '
                          f'fill="{colour}"{weight}>{escape(text)}</text>')

    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">')
        background = f'<rect width="{self.width}" height="{self.height}" fill="#ffffff"/>'
        return "\n".join([head, background, *self.parts, "</svg>", ""])


@dataclass(frozen=True)
class Label:
    """What a pin carries, as the picture names it: ``role`` (``row 0``, ``ROLL``), ``signal`` (``GPIO5``)."""

    role: str
    signal: str
    colour: str


# ---------------------------------------------------------------------------------------------- parts


def ground(svg: Svg, at: Point) -> None:
    """The ground symbol hanging from ``at``."""
    x, y = at
    svg.line((x, y), (x, y + 6), GROUND)
    for i, half in enumerate((8, 5, 2)):
        svg.line((x - half, y + 6 + 3 * i), (x + half, y + 6 + 3 * i), GROUND, 1.6)


def reed(svg: Svg, top: Point, length: float, colour: str = INK) -> None:
    """A reed switch lying along a vertical wire from ``top``: a glass capsule, two overlapping blades."""
    x, y = top
    w = max(8.0, length / 2.2)
    svg.rect((x - w / 2, y), w, length, stroke=colour, fill="#eef6f8", rx=w / 2, width=1.2)
    svg.line((x - w / 6, y), (x - w / 6, y + length * 0.6), colour, 1.4)
    svg.line((x + w / 6, y + length * 0.4), (x + w / 6, y + length), colour, 1.4)


def diode(svg: Svg, top: Point, length: float, colour: str = INK) -> None:
    """A diode on a vertical wire from ``top``, conducting downwards: the triangle points at the bar (the
    cathode, the band on the part)."""
    x, y = top
    half = length * 0.42
    svg.polygon([(x - half, y), (x + half, y), (x, y + length)], colour)
    svg.line((x - half, y + length), (x + half, y + length), colour, max(1.6, length / 6))


def switch(svg: Svg, left: Point, colour: str = BUTTON) -> Point:
    """A push button on a horizontal wire from ``left``; returns its right end."""
    x, y = left
    svg.dot((x + 4, y), 2.6, "#ffffff", colour)
    svg.dot((x + 26, y), 2.6, "#ffffff", colour)
    svg.line((x + 1, y - 7), (x + 29, y - 7), colour, 2)
    svg.line((x + 15, y - 7), (x + 15, y - 13), colour, 2)
    svg.line((x + 9, y - 13), (x + 21, y - 13), colour, 2)
    return x + 30, y


def hop_wire(svg: Svg, points: Sequence[Point], hops: Sequence[float], colour: str, width: float = 2) -> None:
    """A wire whose first segment is horizontal and jumps (a small arc) over the vertical wires at ``hops``."""
    (x0, y), rest = points[0], points[1:]
    d = f"M{_n(x0)} {_n(y)}"
    for hx in sorted(hops):
        d += f" H{_n(hx - 5)} A5 5 0 0 1 {_n(hx + 5)} {_n(y)}"
    d += "".join(f" L{_n(x)} {_n(y2)}" for x, y2 in rest)
    svg.path(d, colour, width)


def header(svg: Svg, at: Point, labels: dict[int, Label], title: str, wired: frozenset[int] = frozenset()) -> dict[
        int, Point]:
    """The Pi's 40-pin header, pin 1 top left, odd pins in the left column: each pin a numbered circle,
    labelled on its own side (odd to the left, even to the right) unless a wire leaves it (``wired``).
    Returns where each pin is."""
    x, y = at
    svg.text((x + PITCH / 2, y - 38), title, size=13, anchor="middle", bold=True)
    svg.text((x + PITCH / 2, y - 22), "(pin 1 is the square pad, by the SD card)", size=9.5, anchor="middle",
             colour=GREY)
    svg.rect((x - 13, y - 13), PITCH + 26, 20 * PITCH + 2, stroke=INK, fill="#f3f3f3", rx=4)
    where: dict[int, Point] = {}
    for pin in range(1, 41):
        px = x + (0 if pin % 2 else PITCH)
        py = y + (pin - 1) // 2 * PITCH
        where[pin] = (px, py)
        label = labels.get(pin)
        colour = label.colour if label else GREY
        if pin == 1:
            svg.rect((px - 9, py - 9), 18, 18, stroke=colour, fill="#ffffff", width=2)
        else:
            svg.dot((px, py), 9, "#ffffff", colour)
        svg.text((px, py + 3.5), str(pin), size=9, anchor="middle", colour=colour, bold=label is not None)
        if label is None or pin in wired:
            continue
        text = f"{label.role}  {label.signal}" if pin % 2 else f"{label.signal}  {label.role}"
        svg.text((px - 16, py + 4) if pin % 2 else (px + 16, py + 4), text.strip(), size=11,
                 anchor="end" if pin % 2 else "start", colour=label.colour,
                 bold=label.colour not in (GREY, GROUND, POWER))
    return where


def pico(svg: Svg, at: Point, labels: dict[int, Label], wired: frozenset[int]) -> dict[int, Point]:
    """A Raspberry Pi Pico seen from above, USB at the top: pins 1-20 down its left edge, 21-40 up its
    right edge; each pin labelled on its own side unless a wire leaves it. Returns where each pin is."""
    x, y = at  # pin 1
    width = 84
    svg.rect((x, y - 24), width, 20 * PITCH + 24, stroke=INK, fill="#e9f3e9", rx=6)
    svg.rect((x + width / 2 - 14, y - 34), 28, 14, stroke=INK, fill="#cfcfcf", rx=2)
    svg.text((x + width / 2, y + 20 * PITCH + 14), "Raspberry Pi Pico (top view, USB up)", size=13,
             anchor="middle", bold=True)
    svg.text((x + width / 2, y + 9.5 * PITCH), "RP2040", size=12, anchor="middle", colour=GREY, bold=True)
    where: dict[int, Point] = {}
    for pin in range(1, 41):
        left = pin <= 20
        px = x if left else x + width
        py = y + ((pin - 1) if left else (40 - pin)) * PITCH
        where[pin] = (px, py)
        label = labels.get(pin)
        colour = label.colour if label else GREY
        svg.dot((px, py), 4.5, "#ffffff", colour)
        svg.text((px + 8, py + 3.5) if left else (px - 8, py + 3.5), str(pin), size=8.5,
                 anchor="start" if left else "end", colour=colour)
        if label is None or pin in wired:
            continue
        text = f"{label.role}  {label.signal}" if left else f"{label.signal}  {label.role}"
        svg.text((px - 10, py + 4) if left else (px + 10, py + 4), text.strip(), size=11,
                 anchor="end" if left else "start", colour=label.colour,
                 bold=label.colour not in (GREY, GROUND, POWER))
    return where


def matrix(svg: Svg, at: Point, rows: Sequence[tuple[str, str]], cols: Sequence[tuple[str, str]],
           names: dict[tuple[int, int], str]) -> None:
    """The reed matrix, row wires across and column wires down; at each crossing a reed and a diode from
    the column to the row (the triangle points at the row), labelled with the layout's name of the cell.
    ``rows`` and ``cols`` are (line, where it goes) pairs."""
    x0, y0 = at
    right = x0 + (len(cols) - 1) * CELL_X + 44
    bottom = y0 + (len(rows) - 1) * CELL_Y
    for j, (name, goes) in enumerate(cols):
        x = x0 + j * CELL_X
        svg.text((x, y0 - 82), name, size=11, anchor="middle", colour=COL, bold=True)
        for k, part in enumerate(goes.split(" · ")):
            svg.text((x, y0 - 68 + 12 * k), part, size=10, anchor="middle", colour=COL)
        svg.line((x, y0 - 50), (x, bottom + 10), COL)
    for i, (name, goes) in enumerate(rows):
        y = y0 + i * CELL_Y
        svg.text((x0 - 24, y - 3), name, size=11, anchor="end", colour=ROW, bold=True)
        svg.text((x0 - 24, y + 10), goes, size=10, anchor="end", colour=ROW)
        svg.line((x0 - 18, y), (right, y), ROW)
        for j in range(len(cols)):
            x = x0 + j * CELL_X
            branch = y - 44
            svg.dot((x, branch), 2.8, COL)
            svg.wire([(x, branch), (x + 16, branch), (x + 16, y - 40)], INK, 1.4)
            reed(svg, (x + 16, y - 40), 14)
            svg.line((x + 16, y - 26), (x + 16, y - 21), INK, 1.4)
            diode(svg, (x + 16, y - 21), 8)
            svg.line((x + 16, y - 13), (x + 16, y), INK, 1.4)
            svg.dot((x + 16, y), 2.8, ROW)
            name_of = names.get((i, j), "spare")
            svg.text((x + 23, y - 27), name_of, size=8.5, colour=INK if (i, j) in names else GREY)


def one_cell(svg: Svg, at: Point, diode_part: str) -> None:
    """One cell enlarged: which way the diode goes, and the current of a closed reed."""
    x, y = at
    svg.text((x, y), "one cell, enlarged", size=12, bold=True)
    cx = x + 20
    svg.line((cx, y + 14), (cx, y + 186), COL, 3)
    svg.text((cx + 8, y + 26), "column: input, pulled up", size=10, colour=COL)
    svg.dot((cx, y + 40), 4, COL)
    wx = cx + 70
    svg.wire([(cx, y + 40), (wx, y + 40), (wx, y + 54)], INK, 2)
    reed(svg, (wx, y + 54), 46)
    svg.text((wx + 16, y + 74), "reed switch", size=10)
    svg.text((wx + 16, y + 87), "(normally open)", size=10, colour=GREY)
    svg.line((wx, y + 100), (wx, y + 112), INK, 2)
    diode(svg, (wx, y + 112), 26)
    svg.text((wx + 16, y + 124), diode_part, size=10, bold=True)
    svg.text((wx + 16, y + 137), "band (cathode)", size=10)
    svg.text((wx + 16, y + 150), "toward the row", size=10)
    svg.line((wx, y + 138), (wx, y + 170), INK, 2)
    svg.dot((wx, y + 170), 4, ROW)
    svg.line((x, y + 170), (x + 250, y + 170), ROW, 3)
    svg.text((x + 250, y + 186), "row: driven low in its turn", size=10, anchor="end", colour=ROW)
    ax = wx - 18
    svg.line((ax, y + 62), (ax, y + 150), POWER, 1.5)
    svg.polygon([(ax - 4, y + 142), (ax + 4, y + 142), (ax, y + 152)], POWER)
    svg.text((ax - 6, y + 110), "current", size=9, anchor="end", colour=POWER)
    svg.text((ax - 6, y + 121), "only this way", size=9, anchor="end", colour=POWER)


def buttons_panel(svg: Svg, at: Point, p: Profile) -> float:
    """Each button from its GPIO to ground (a matrix cell for a button in the matrix). Returns the bottom."""
    x, y = at
    svg.text((x, y), "buttons: GPIO to any GND pin", size=12, bold=True)
    svg.text((x, y + 15), "(the pull-ups are inside the Pi)", size=10, colour=GREY)
    y += 40
    for b in p.buttons.values():
        if b.pin is not None:
            where = f"GPIO{b.pin} · pin {HEADER_PIN[b.pin]}"
        elif b.cell is not None:
            where = f"matrix cell r{b.cell[0]} c{b.cell[1]}"
        else:
            where = "?"
        svg.text((x, y + 4), b.name, size=11, colour=BUTTON, bold=True)
        svg.text((x + 200, y + 4), where, size=11, anchor="end", colour=BUTTON)
        svg.line((x + 206, y), (x + 226, y), BUTTON)
        end = switch(svg, (x + 226, y))
        svg.wire([end, (end[0] + 20, y), (end[0] + 20, y + 2)], GROUND)
        ground(svg, (end[0] + 20, y + 2))
        y += 30
    return y


def oled_panel(svg: Svg, at: Point, p: Profile) -> None:
    """The OLED module and the four header pins it goes to."""
    x, y = at
    d = p.display
    sda, scl = I2C_PINS[d.bus]
    svg.text((x, y), f"OLED: {d.driver.upper()} {d.width}x{d.height}", size=12, bold=True)
    svg.text((x, y + 15), f"I2C bus {d.bus}, address 0x{d.address:02X}", size=10, colour=GREY)
    y += 10
    box_x = x + 170
    svg.rect((box_x, y + 16), 84, 118, stroke=INK, fill="#1b1b1b", rx=4)
    svg.rect((box_x + 12, y + 36), 60, 40, stroke="#4aa3df", fill="#0d2a3a", rx=2)
    pins = [("GND", "GND  pin 9", GROUND),
            ("VCC", "3V3  pin 1", POWER),
            ("SCL", f"GPIO{scl}  pin {HEADER_PIN[scl]}", I2C),
            ("SDA", f"GPIO{sda}  pin {HEADER_PIN[sda]}", I2C)]
    for k, (name, goes, colour) in enumerate(pins):
        py = y + 30 + k * 26
        svg.line((box_x - 40, py), (box_x, py), colour)
        svg.dot((box_x, py), 3, colour)
        svg.text((box_x - 46, py + 4), goes, size=11, anchor="end", colour=colour, bold=colour == I2C)
        svg.text((box_x + 8, py + 4), name, size=9, colour="#ffffff")
    svg.text((x, y + 150), "module pin order varies (GND VCC or VCC GND):", size=9.5, colour=GREY)
    svg.text((x, y + 162), "go by the names printed on it", size=9.5, colour=GREY)


# ---------------------------------------------------------------------------------------------- pictures


def _pi_labels(p: Profile) -> dict[int, Label]:
    labels = {pin: Label("", name, GROUND if name == "GND" else GREY) for pin, name in PI_POWER.items()}
    labels[1] = Label("OLED VCC", "3V3", POWER)
    labels[9] = Label("OLED, buttons", "GND", GROUND)
    sda, scl = I2C_PINS[p.display.bus]
    labels[HEADER_PIN[sda]] = Label("OLED SDA", f"GPIO{sda}", I2C)
    labels[HEADER_PIN[scl]] = Label("OLED SCL", f"GPIO{scl}", I2C)
    for b in p.buttons.values():
        if b.pin is not None:
            labels[HEADER_PIN[b.pin]] = Label(b.name, f"GPIO{b.pin}", BUTTON)
    return labels


def _names(p: Profile) -> dict[tuple[int, int], str]:
    names = dict(p.cells)
    names.update({b.cell: b.name for b in p.buttons.values() if b.cell is not None})
    return names


def pi_picture(p: Profile, diode_part: str) -> str:
    """The board on the Pi's own pins."""
    if p.backend != "gpio":
        raise SystemExit(f"{p.path.name}: backend {p.backend!r}, not a board on the Pi's own pins")
    labels = _pi_labels(p)
    for i, gpio in enumerate(p.rows):
        labels[HEADER_PIN[gpio]] = Label(f"row {i}", f"GPIO{gpio}", ROW)
    for j, gpio in enumerate(p.cols):
        labels[HEADER_PIN[gpio]] = Label(f"col {j}", f"GPIO{gpio}", COL)
    nrows, ncols = len(p.rows), len(p.cols)
    top = 128 + max(20 * PITCH, 184 - 128 + nrows * CELL_Y) + 40  # the panels under the header and the matrix
    svg = Svg(1000, top + max(50 + 30 * len(p.buttons), 200))
    svg.text((20, 30), f"Reed matrix on the Pi's own pins: profile {p.path.stem}, {nrows} x {ncols} matrix, "
                       f"{len(p.cells)} reeds", size=15, bold=True)
    svg.text((20, 50), "BCM GPIO numbers and header pins, as `boardkeeper check-config "
                       f"{p.path.stem} --wiring` prints them; a label on a pin = the line of that name",
             size=10.5, colour=GREY)
    header(svg, (170, 128), labels, "Pi 40-pin header")
    rows = [(f"row {i}", f"GPIO{g} · pin {HEADER_PIN[g]}") for i, g in enumerate(p.rows)]
    cols = [(f"col {j}", f"GPIO{g} · pin {HEADER_PIN[g]}") for j, g in enumerate(p.cols)]
    matrix(svg, (540, 184), rows, cols, _names(p))
    svg.text((540 + (ncols - 1) * CELL_X / 2, 184 + (nrows - 1) * CELL_Y + 36),
             "every crossing: column → reed → diode → row (names: the layout's locations)", size=10,
             anchor="middle", colour=GREY)
    buttons_panel(svg, (20, top), p)
    oled_panel(svg, (430, top), p)
    one_cell(svg, (720, top), diode_part)
    return svg.render()


def bridge_picture(p: Profile, diode_part: str) -> str:
    """The board whose matrix a Pico reads, wired to the Pi's UART."""
    if p.backend != "bridge":
        raise SystemExit(f"{p.path.name}: backend {p.backend!r}, not a board read by the Pico")
    nrows, ncols = len(p.rows), len(p.cols)
    if not direct(nrows, ncols):
        raise SystemExit(f"{p.path.name}: a {nrows}x{ncols} matrix goes through shift registers; this picture "
                         "draws the Pico's own pins (firmware_bridge/README.md has the 16x16 build)")
    row_gp = FREE_PINS[:nrows]
    col_gp = FREE_PINS[nrows:nrows + ncols]
    labels = _pi_labels(p)
    tx_pi, rx_pi, gnd_pi, v5_pi = HEADER_PIN[14], HEADER_PIN[15], 14, 4
    labels[tx_pi] = Label("", "GPIO14 TXD", UART)
    labels[rx_pi] = Label("", "GPIO15 RXD", UART)
    labels[gnd_pi] = Label("", "GND", GROUND)
    labels[v5_pi] = Label("", "5V", POWER)
    wired_pi = frozenset({tx_pi, rx_pi, gnd_pi, v5_pi})

    pico_labels = {pin: Label("", name, GROUND if name == "GND" else GREY) for pin, name in PICO_OTHER.items()
                   if name == "GND"}
    for i, gp in enumerate(row_gp):
        pico_labels[PICO_PIN[gp]] = Label(f"row {i}", f"GP{gp}", ROW)
    for j, gp in enumerate(col_gp):
        pico_labels[PICO_PIN[gp]] = Label(f"col {j}", f"GP{gp}", COL)
    pico_labels[PICO_PIN[UART_TX]] = Label("", f"GP{UART_TX} TX", UART)
    pico_labels[PICO_PIN[UART_RX]] = Label("", f"GP{UART_RX} RX", UART)
    pico_labels[PICO_PIN[LED_PIN]] = Label("LED strip DIN", f"GP{LED_PIN}", LED)
    pico_labels[39] = Label("", "VSYS", POWER)
    pico_labels[38] = Label("LED strip GND", "GND", GROUND)
    wired_pico = frozenset({PICO_PIN[UART_TX], PICO_PIN[UART_RX], 3, 39, PICO_PIN[LED_PIN], 38})

    pico_y = 128 + (rx_pi - 1) // 2 * PITCH  # the Pico's pin 1 level with the Pi's RXD (below)
    matrix_top = pico_y + 20 * PITCH + 170
    svg = Svg(1000, matrix_top + (nrows - 1) * CELL_Y + 40)
    svg.text((20, 30), f"Reed matrix on a Raspberry Pi Pico: profile {p.path.stem}, {nrows} x {ncols} matrix, "
                       f"{len(p.cells)} reeds", size=15, bold=True)
    svg.text((20, 50), "the Pi keeps the buttons and the OLED (as in pi.svg); the Pico scans the matrix and "
                       "reports over its UART", size=10.5, colour=GREY)
    pi = header(svg, (170, 128), labels, "Pi 40-pin header", wired_pi)
    # RXD-TX and GND-GND run straight across, TXD-RX crosses the RXD wire once (a hop)
    pico_at = (640.0, float(pico_y))
    pc = pico(svg, pico_at, pico_labels, wired_pico)

    def out(pin: int) -> Point:  # where a wire leaves a pin on the header's right column: the circle's edge
        return pi[pin][0] + 9, pi[pin][1]

    def into(pin: int) -> Point:  # where a wire meets a Pico pin: the circle's edge
        x, y = pc[pin]
        return (x - 4.5 if pin <= 20 else x + 4.5), y

    cross_x = 470.0
    svg.wire([out(gnd_pi), into(3)], GROUND)
    svg.text((300, pi[gnd_pi][1] - 5), "GND ─ GND", size=10, colour=GROUND)
    hop_wire(svg, [out(rx_pi), into(PICO_PIN[UART_TX])], [cross_x], UART)
    svg.text((300, pi[rx_pi][1] - 5), f"RXD ← GP{UART_TX} TX", size=10, colour=UART, bold=True)
    rx = into(PICO_PIN[UART_RX])
    svg.wire([out(tx_pi), (cross_x, pi[tx_pi][1]), (cross_x, rx[1]), rx], UART)
    svg.text((300, pi[tx_pi][1] - 5), f"TXD → GP{UART_RX} RX", size=10, colour=UART, bold=True)
    vsys = into(39)
    top = pico_at[1] - 66
    svg.wire([out(v5_pi), (420, pi[v5_pi][1]), (420, top), (vsys[0] + 36, top), (vsys[0] + 36, vsys[1]), vsys],
             POWER)
    svg.text((pico_at[0] - 80, top - 6), "5V → VSYS (or power the Pico by USB)", size=10, colour=POWER)
    svg.text((pico_at[0] + 42, pico_at[1] + 20 * PITCH + 30), f"UART0 at {p.serial.baud if p.serial else 115200} "
             f"baud: {p.serial.url if p.serial else '/dev/serial0'} on the Pi", size=10, anchor="middle", colour=UART)

    led_panel(svg, into(PICO_PIN[LED_PIN]), into(38), nrows * ncols)

    rows = [(f"row {i}", f"GP{gp} · pin {PICO_PIN[gp]}") for i, gp in enumerate(row_gp)]
    cols = [(f"col {j}", f"GP{gp} · pin {PICO_PIN[gp]}") for j, gp in enumerate(col_gp)]
    svg.text((20, matrix_top - 120), "the matrix, on the Pico's pins", size=13, bold=True)
    svg.text((20, matrix_top - 102), f"{diode_part} per reed, band toward the row", size=10.5)
    svg.text((20, matrix_top - 88), "(one cell enlarged: pi.svg)", size=10.5, colour=GREY)
    svg.text((20, matrix_top - 70), f"main.py: run({nrows}, {ncols})", size=10.5, colour=INK, bold=True)
    matrix(svg, (420, matrix_top), rows, cols, _names(p))
    return svg.render()


def led_panel(svg: Svg, data: Point, gnd: Point, count: int) -> None:
    """The optional WS2812 strip: GP16 through 330 Ohm into its DIN, its own 5 V supply with 1000 uF across,
    its ground joined to the Pico's."""
    x0 = data[0] + 40
    y_data = data[1]
    svg.text((x0 + 8, y_data - 164), "optional LED strip (WS2812)", size=12, colour=LED, bold=True)
    svg.text((x0 + 8, y_data - 150), f"up to {count} LEDs, one under", size=10, colour=LED)
    svg.text((x0 + 8, y_data - 137), "each location you want lit", size=10, colour=LED)
    # data: pin -> resistor -> DIN of LED 0
    svg.line(data, (x0 + 6, y_data), LED)
    svg.rect((x0 + 6, y_data - 6), 34, 12, stroke=LED, fill="#fff8e1", width=1.6)
    svg.text((x0 + 23, y_data - 10), "330 Ω", size=9.5, anchor="middle", colour=LED)
    leds_x = x0 + 70
    svg.line((x0 + 40, y_data), (leds_x, y_data), LED)
    for k in range(3):
        lx = leds_x + k * 56
        svg.rect((lx, y_data - 30), 40, 40, stroke=INK, fill="#fafafa", rx=3)
        svg.text((lx + 20, y_data - 14), f"LED {k}" if k < 2 else "…", size=9.5, anchor="middle")
        svg.text((lx + 20, y_data + 2), "DIN→", size=8, anchor="middle", colour=GREY)
        if k:
            svg.line((lx - 16, y_data), (lx, y_data), LED, 1.6)
    # power rails above the LEDs
    rail5, railg = y_data - 100, y_data - 76
    right = leds_x + 2 * 56 + 40
    svg.line((leds_x - 10, rail5), (right, rail5), POWER)
    svg.line((leds_x - 10, railg), (right, railg), GROUND)
    for k in range(3):
        lx = leds_x + k * 56
        svg.line((lx + 12, rail5), (lx + 12, y_data - 30), POWER, 1.4)
        svg.line((lx + 28, railg), (lx + 28, y_data - 30), GROUND, 1.4)
    svg.text((right, rail5 - 6), "+5 V (its own supply)", size=9.5, anchor="end", colour=POWER)
    svg.text((right, railg - 6), "GND", size=9.5, anchor="end", colour=GROUND)
    # 1000 uF across the supply, at the strip's input
    cx = leds_x - 10
    svg.line((cx, rail5), (cx, rail5 + 8), POWER, 1.6)
    svg.line((cx - 8, rail5 + 8), (cx + 8, rail5 + 8), INK, 2)
    svg.path(f"M{_n(cx - 8)} {_n(rail5 + 16)} Q{_n(cx)} {_n(rail5 + 11)} {_n(cx + 8)} {_n(rail5 + 16)}", INK, 2)
    svg.line((cx, rail5 + 14), (cx, railg), GROUND, 1.6)
    svg.text((cx - 12, rail5 + 16), "1000 µF", size=9.5, anchor="end")
    # the strip's ground joined to the Pico's
    svg.wire([gnd, (x0 - 10, gnd[1]), (x0 - 10, railg), (leds_x - 10, railg)], GROUND)
    svg.text((x0 - 4, gnd[1] - 5), "common GND", size=9.5, colour=GROUND)


# ---------------------------------------------------------------------------------------------- main


def recommended_diode() -> str:
    """The diode ``docs/hardware.md`` recommends (its ``**Use ... diodes**`` sentence): the pictures name the
    same part as the text."""
    text = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*Use (\S+) Schottky diodes\*\*", text)
    if found is None:
        raise SystemExit("docs/hardware.md: no '**Use PART Schottky diodes**' sentence to name the diode")
    return found.group(1)


def pictures() -> dict[str, str]:
    part = recommended_diode()
    return {"pi.svg": pi_picture(load_profile(PI_PROFILE), part),
            "bridge.svg": bridge_picture(load_profile(BRIDGE_PROFILE), part)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a picture is out of date")
    args = parser.parse_args(argv)
    stale = []
    for name, text in pictures().items():
        path = OUT / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        rel = path.relative_to(ROOT)
        print(f"{rel} is out of date: run python docs/wiring.py" if args.check else f"wrote {rel}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
