"""The printable boards through ``boardkeeper board``, for all five games: an SVG naming every place the layout
wires and marking where each reed goes, a PNG that carries its DPI (so it prints at true size), and a PDF of A4
or Letter pages whose tiles add up to the board's true size."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from controller.cli import main
from controller.printable.pdf import PAPERS, PT_PER_MM
from controller.printable.sheet import DPI
from engines.registry import games
from hw_config import load_profile

SVG = "{http://www.w3.org/2000/svg}"
GAMES = [g.name for g in games()]


def _svg(tmp_path: Path, game: str) -> ET.Element:
    out = tmp_path / f"{game}.svg"
    assert main(["board", game, "--out", str(out)]) == 0
    return ET.parse(out).getroot()


def _labels(root: ET.Element, kind: str) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == kind]


def _mm(root: ET.Element) -> tuple[float, float]:
    return float(root.get("width", "").removesuffix("mm")), float(root.get("height", "").removesuffix("mm"))


def test_every_game_has_a_printable_board() -> None:
    assert all(g.printable for g in games()) and len(GAMES) == 5


@pytest.mark.parametrize("game", [g for g in GAMES if g != "cannonball"])
def test_every_reed_of_the_layout_is_named_once_and_marked(tmp_path: Path, game: str) -> None:
    root = _svg(tmp_path, game)
    profile = load_profile(game)
    wired, named = set(profile.locations), _labels(root, "loc")
    assert len(named) == len(set(named)) and wired <= set(named)  # each place once, by the layout's own name
    assert set(named) - wired <= set(profile.buttons)  # a pad that is a button, by the profile's name
    reeds = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "reed"]
    assert len(reeds) == len(wired)
    assert _labels(root, "legend")  # what the colours and marks mean


def test_scipio_pads_show_each_tap_and_card_button_of_the_profile(tmp_path: Path) -> None:
    root = _svg(tmp_path, "scipio")
    buttons = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "button"]
    pads = [b for b in load_profile("scipio").buttons if b.startswith(("tap:", "card:"))]
    assert len(buttons) == len(pads) == 24


def test_cannonball_svg_has_every_box_site_and_gate_and_explains_the_stars(tmp_path: Path) -> None:
    from engines.cannonball import BOX_NAMES, GATES, SITES

    root = _svg(tmp_path, "cannonball")
    assert sorted(_labels(root, "box")) == sorted(BOX_NAMES) and len(BOX_NAMES) == 216
    assert sorted(_labels(root, "site")) == sorted(f"bridge {s}" for s in SITES)
    assert sorted(_labels(root, "gate")) == sorted(f"{g} gate" for g in GATES)
    assert len([p for p in root.iter(f"{SVG}polygon") if p.get("class") == "reed"]) == 216
    legend = " ".join(_labels(root, "legend"))
    assert "a blue cannon starts here (d2, g2, b5)" in legend and "gate's slot" in legend
    assert root.get("width") == "400mm"  # 12 boxes of 30 mm and two 20 mm margins: true print scale


def test_hannibal_numbers_follow_the_layout(tmp_path: Path) -> None:
    from controller.printable.hannibal import CELL, MARGIN, TOP

    root = _svg(tmp_path, "hannibal")
    assert sorted(int(n) for n in _labels(root, "pos")) == list(range(49))
    cells = load_profile("hannibal").locations
    for t in root.iter(f"{SVG}text"):
        if t.get("class") == "pos":
            r, c = cells[f"pos:{t.text}"]
            assert int((float(t.get("x", "0")) - MARGIN) // CELL) == c
            assert int((float(t.get("y", "0")) - TOP) // CELL) == r


@pytest.mark.parametrize("game", GAMES)
def test_the_png_carries_its_dpi_and_the_svg_s_true_size(tmp_path: Path, game: str) -> None:
    width, height = _mm(_svg(tmp_path, game))
    out = tmp_path / f"{game}.png"
    assert main(["board", game, "--out", str(out)]) == 0
    with Image.open(out) as image:
        assert image.size == (round(width / 25.4 * DPI), round(height / 25.4 * DPI))
        assert tuple(round(d) for d in image.info["dpi"]) == (DPI, DPI)


def _pages(pdf: bytes) -> list[tuple[tuple[float, float], tuple[float, float, float, float]]]:
    """Each page's size and where its tile's image lies on it (width, height, x, y), in millimetres."""
    boxes = [(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)]
    images = [tuple(float(v) for v in m) for m in re.findall(rb"q ([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm /Im Do Q",
                                                             pdf)]
    assert len(boxes) == len(images) and pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    return [((bw / PT_PER_MM, bh / PT_PER_MM), (w / PT_PER_MM, h / PT_PER_MM, x / PT_PER_MM, y / PT_PER_MM))
            for (bw, bh), (w, h, x, y) in zip(boxes, images, strict=True)]


@pytest.mark.parametrize(("game", "paper"), [(g, "a4") for g in GAMES] + [("cannonball", "letter")])
def test_the_pdf_tiles_the_board_at_true_size_on_the_paper(tmp_path: Path, game: str, paper: str) -> None:
    width, height = _mm(_svg(tmp_path, game))
    out = tmp_path / f"{game}.pdf"
    assert main(["board", game, "--out", str(out), "--paper", paper]) == 0
    pages = _pages(out.read_bytes())
    short, long = PAPERS[paper]
    for (pw, ph), (w, h, x, y) in pages:
        assert sorted((round(pw, 1), round(ph, 1))) == [round(short, 1), round(long, 1)]
        assert x >= 10 and pw - (x + w) >= 10 and y >= 10 and ph - (y + h) >= 10  # inside what printers print
    # the tiles, named on their pages in reading order: the first row's widths add up to the board's width, the
    # first column's heights to its height
    names = re.findall(rb"tile ([A-Z])(\d+) of (\d+): (\d+) across, (\d+) down", out.read_bytes())
    cols, rows = int(names[0][3]), int(names[0][4])
    assert [(n[0], n[1]) for n in names] == [(bytes([65 + c]), str(r + 1).encode()) for r in range(rows)
                                             for c in range(cols)] and len(pages) == cols * rows
    assert sum(p[1][0] for p in pages[:cols]) == pytest.approx(width, abs=0.01)
    assert sum(p[1][1] for p in pages[::cols]) == pytest.approx(height, abs=0.01)
    assert len(pages) > (1 if width * height > short * long else 0)
