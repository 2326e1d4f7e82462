"""The printable boards through ``boardkeeper board``: valid SVG with every label, PNG at 150 dpi."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from controller.cli import main
from controller.printable.sheet import DPI

SVG = "{http://www.w3.org/2000/svg}"


def _labels(path: Path, kind: str) -> list[str]:
    root = ET.parse(path).getroot()
    return [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == kind]


def test_cannonball_svg_has_every_box_site_and_gate(tmp_path: Path) -> None:
    from engines.cannonball import BOX_NAMES, GATES, SITES

    out = tmp_path / "cb.svg"
    assert main(["board", "cannonball", "--out", str(out)]) == 0
    assert sorted(_labels(out, "box")) == sorted(BOX_NAMES) and len(BOX_NAMES) == 216
    assert sorted(_labels(out, "site")) == sorted(f"bridge {s}" for s in SITES)
    assert sorted(_labels(out, "gate")) == sorted(f"{g} gate" for g in GATES)
    root = ET.parse(out).getroot()
    assert root.get("width") == "400mm"  # 12 boxes of 30 mm and two 20 mm margins: true print scale


def test_hannibal_svg_numbers_follow_the_layout(tmp_path: Path) -> None:
    from controller.printable.hannibal import CELL, MARGIN, TOP
    from hw_config import load_profile

    out = tmp_path / "h.svg"
    assert main(["board", "hannibal", "--out", str(out)]) == 0
    assert sorted(int(n) for n in _labels(out, "pos")) == list(range(49))
    cells = load_profile("hannibal").locations
    for t in ET.parse(out).getroot().iter(f"{SVG}text"):
        if t.get("class") == "pos":
            r, c = cells[f"pos:{t.text}"]
            assert int((float(t.get("x", "0")) - MARGIN) // CELL) == c
            assert int((float(t.get("y", "0")) - TOP) // CELL) == r


@pytest.mark.parametrize(("game", "mm"), [("cannonball", (400.0, 622.0)), ("hannibal", (320.0, 330.0))])
def test_png_is_drawn_at_150_dpi(tmp_path: Path, game: str, mm: tuple[float, float]) -> None:
    out = tmp_path / f"{game}.png"
    assert main(["board", game, "--out", str(out)]) == 0
    with Image.open(out) as image:
        assert image.size == (round(mm[0] / 25.4 * DPI), round(mm[1] / 25.4 * DPI))
