"""The real Cannon Ball table's wiring: the 16x16 matrix through the Pico's 74HC595/74HC165 chains, laid
under the printed battlefield, and the table `check-config --wiring` prints for the builder."""

from __future__ import annotations

import pytest

from controller.cli import main
from controller.table import profile_for
from engines.cannonball import LOCATIONS
from engines.cannonball.board import BOX_NAMES, COLUMNS, GATE_PAIRS, GATES


def _board_row(wire: int) -> int:
    """The board row a row wire runs under: rows 1-8, then 12-19."""
    return wire + 1 if wire < 8 else wire + 4


def test_every_location_of_the_engine_has_its_own_cell_on_the_real_profile() -> None:
    p = profile_for("cannonball")
    assert set(p.locations) == set(LOCATIONS) and len(set(p.locations.values())) == len(LOCATIONS) == 226
    assert p.rows == p.cols == tuple(range(16))  # the chains' lines, as the firmware numbers them


def test_the_wires_follow_the_printed_battlefield() -> None:
    """A row wire runs under one row of boxes, a column wire under one column; the river banks, bridges
    and gates take the four spare column wires, each on a row wire near it."""
    cells = profile_for("cannonball").locations
    for loc, (r, c) in cells.items():
        kind, _, name = loc.partition(":")
        if kind == "box" and int(name[1:]) not in (9, 11):
            assert (_board_row(r), c) == (int(name[1:]), COLUMNS.index(name[0])), loc
        elif kind == "box":
            bank = int(name[1:])
            assert c >= 12 and 1 <= abs(_board_row(r) - bank) <= 3 and (_board_row(r) < 10) == (bank < 10), loc
        elif kind == "bridge":
            assert c in (12, 13, 14) and _board_row(r) in (5, 15), loc
        else:
            inside, outside = GATE_PAIRS[GATES.index(name)][1]  # the slot's reed lies by the middle pair
            rows = {int(BOX_NAMES[inside][1:]), int(BOX_NAMES[outside][1:])}
            assert c == 15 and min(abs(_board_row(r) - row) for row in rows) <= 2, loc


def test_check_config_wiring_names_every_line_its_chip_pin_and_cells(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "cannonball", "--wiring"]) == 0
    out = capsys.readouterr().out
    assert "SER GP2, SRCLK GP3, RCLK GP4, SH/LD GP5, CLK GP6, QH GP7" in out and "profile says" not in out
    rows = [line.split(": ", 2) for line in out.splitlines() if line.startswith("    row ")]
    cols = [line.split(": ", 2) for line in out.splitlines() if line.startswith("    col ")]
    assert [name for _, name, _ in rows[:2]] == ["U1 QA (pin 15)", "U1 QB (pin 1)"] and rows[8][1] == "U2 QA (pin 15)"
    assert [name for _, name, _ in cols[7:9]] == ["U3 H (pin 6)", "U4 A (pin 11)"]
    for lines in (rows, cols):
        assert len(lines) == 16
        listed = [loc for _, _, locs in lines for loc in locs.split() if loc != "spare"]
        assert sorted(listed) == sorted(LOCATIONS)
    assert rows[0][2].split() == [f"box:{col}1" for col in COLUMNS]
