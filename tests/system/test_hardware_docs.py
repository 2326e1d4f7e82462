"""``docs/hardware.md`` stays true for a builder: its wiring pictures are drawn from the current profiles, it
has a section for every game with that game's profile, reed count and matrix, and it names one diode, the same
in its parts list, in its text and in ``firmware_bridge/README.md``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from support import ROOT_DIR

from engines.registry import GameInfo, games
from hw_config import load_profile

ROOT = ROOT_DIR
HARDWARE = ROOT / "docs" / "hardware.md"
BRIDGE_README = ROOT / "firmware_bridge" / "README.md"
DIODE = re.compile(r"\b(1N\d{3,4}[A-Z]?|BA[STV]\d{2}[A-Z]?)\b")  # 1N4148, 1N5817, BAT85, BAT43, BAS85, BAV21 ...


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole line) up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines()
    assert heading in lines, f"docs/hardware.md has no section {heading!r}"
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines))
                if re.match(rf"#{{1,{level}}} ", lines[i])), len(lines))
    return "\n".join(lines[start:end])


def _recommended() -> str:
    found = re.findall(r"\*\*Use (\S+) Schottky diodes\*\*", HARDWARE.read_text(encoding="utf-8"))
    assert len(found) == 1, f"docs/hardware.md recommends {found or 'no diode'}: one '**Use PART Schottky diodes**'"
    return str(found[0])


def test_the_wiring_pictures_are_current() -> None:
    result = subprocess.run([sys.executable, "docs/wiring.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    text = HARDWARE.read_text(encoding="utf-8")
    for name in ("pi.svg", "bridge.svg"):
        assert f"](wiring/{name})" in text, f"docs/hardware.md does not show docs/wiring/{name}"


@pytest.mark.parametrize("info", games(), ids=lambda info: info.name)
def test_every_game_has_its_section(info: GameInfo) -> None:
    name, title = info.name, info.title
    section = _section(HARDWARE.read_text(encoding="utf-8"), f"### {title}")
    profile = load_profile(name)
    assert f"`{name}`" in section, f"the {title} section does not name its profile {name}"
    assert f"{len(profile.cells)} reeds" in section, f"the {title} section does not say {len(profile.cells)} reeds"
    assert f"{len(profile.rows)} x {len(profile.cols)}" in section, f"the {title} section does not give its matrix"
    assert f"boardkeeper board {name}" in section, f"the {title} section does not say how to print its board"


def test_one_diode_in_the_parts_list_the_text_and_the_bridge_readme() -> None:
    part = _recommended()
    parts = _section(HARDWARE.read_text(encoding="utf-8"), "## Parts list")
    rows = [line for line in parts.splitlines() if line.startswith("|") and "diode" in line.lower()]
    assert rows, "the parts list has no diode"
    named = {p for row in rows for p in DIODE.findall(row)}
    assert named == {part}, f"the parts list names {sorted(named)}, the text recommends {part}"
    for paragraph in re.split(r"\n\s*\n", BRIDGE_README.read_text(encoding="utf-8")):
        if "diode" in paragraph.lower() and DIODE.search(paragraph):
            first = DIODE.findall(paragraph)[0]
            assert first == part, f"firmware_bridge/README.md recommends {first} ({paragraph[:80]!r}...), " \
                                  f"docs/hardware.md {part}"
