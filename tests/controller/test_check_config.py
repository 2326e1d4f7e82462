"""``boardkeeper check-config``: shipped profiles pass; each kind of bad profile is named by file and key,
exits 2, and nothing starts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT_DIR

from controller.cli import main
from hw_config import ConfigError, load_profile

PROFILES = ROOT_DIR / "hw_config" / "profiles"
GOOD = (PROFILES / "hannibal.toml").read_text()


def _variant(tmp_path: Path, text: str, name: str = "bad.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("name", ["hannibal", "hannibal-sim"])
def test_shipped_profiles_pass(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", name]) == 0
    assert "OK" in capsys.readouterr().out


BAD: list[tuple[str, str, str, str]] = [
    # (what, search, replace, expected "key: message" fragment)
    ("unknown key", "[timing]", "[timing]\nscan_rate = 100", r"timing\.scan_rate: unknown key"),
    ("unknown section", "[timing]", "[lights]\ncount = 3\n\n[timing]", r"lights: unknown section"),
    ("LEDs on the Pi's own pins", "[timing]", "[leds]\norder = \"matrix\"\n\n[timing]",
     r"leds: the LED strip is driven by the board's microcontroller: use backend \"bridge\""),
    ("out-of-range pin", "rows = [5, 6, 13", "rows = [55, 6, 13", r"matrix\.rows\[0\]: pin 55 is out of range"),
    ("reserved EEPROM pin", "BACK = { pin = 4 }", "BACK = { pin = 0 }", r"buttons\.BACK\.pin: pin 0 is out of range"),
    ("duplicate pin in matrix", "cols = [21, 12", "cols = [5, 12", r"matrix\.cols\[0\]: GPIO 5 is already used by "
     r"matrix\.rows\[0\]"),
    ("button on a matrix pin", "OK = { pin = 27 }", "OK = { pin = 26 }", r"buttons\.OK\.pin: GPIO 26 is already used"),
    ("pin clashing with the display's I2C bus", "NEXT = { pin = 22 }", "NEXT = { pin = 3 }",
     r"display \(I2C bus 1\): GPIO 3 is already used by buttons\.NEXT\.pin"),
    ("missing button", "PREV = { pin = 23 }\n", "", r"buttons\.PREV: missing: the game needs this button"),
    ("bad display driver", 'driver = "ssd1306"', 'driver = "ssd9999"', r"display\.driver: 'ssd9999' is not one of"),
    ("unknown backend", 'backend = "gpio"', 'backend = "usb"', r"board\.backend: 'usb' is not one of"),
    ("pin factory of another backend", 'pin_factory = "lgpio"', 'pin_factory = "mock"',
     r"board\.pin_factory: 'mock' is not one of lgpio, rpigpio"),
    ("timing out of range", "scan_hz = 200", "scan_hz = 0", r"timing\.scan_hz: must be a number from 10"),
    ("debounce that swallows a quick press", "debounce_scans = 3", "debounce_scans = 20",
     r"timing\.debounce_scans: 20 scans at 200 Hz see only a press held 100 ms or more; .* at most 10 scans"),
    ("unknown game", 'game = "hannibal"', 'game = "chess"', r"board\.game: unknown game 'chess'"),
    ("matrix too small for the layout", "rows = [5, 6, 13, 19, 26, 16, 20]", "rows = [5, 6, 13, 19, 26, 16]",
     r"rows/cols: layout is 7x7, the matrix 6x7"),
    ("button cell mapped twice", "ROLL = { pin = 17 }", "ROLL = { cell = [0, 0] }",
     r"cells\.pos:0: cell \[0, 0\] is mapped twice \(also button ROLL\)"),
    ("button cell outside the matrix", "ROLL = { pin = 17 }", "ROLL = { cell = [9, 0] }",
     r"buttons\.ROLL\.cell: cell \[9, 0\] is outside the 7x7 matrix"),
    ("layout that does not exist", 'layout = "hannibal"', 'layout = "nowhere"', r"board\.layout: .*nowhere\.toml"),
    ("not TOML at all", "[board]", "[board", r"\.toml: not valid TOML"),
]


@pytest.mark.parametrize(("what", "search", "replace", "expected"), BAD, ids=[b[0] for b in BAD])
def test_bad_profile_is_named_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str,
                                          search: str, replace: str, expected: str) -> None:
    assert search in GOOD, what
    path = _variant(tmp_path, GOOD.replace(search, replace, 1))
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(expected, err), err
    assert str(path) in err or "layouts/hannibal.toml: " in err or "nowhere.toml" in err
    assert "nothing started" in err


def test_layout_problems_name_the_layout_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layouts = ROOT_DIR / "hw_config" / "layouts"
    text = (layouts / "hannibal.toml").read_text()
    assert '"pos:48" = [6, 6]' in text
    _variant(tmp_path, text.replace('"pos:48" = [6, 6]', '"pos:48" = [6, 5]').replace('"pos:3" = [0, 3]\n', ""),
             "broken-layout.toml")
    path = _variant(tmp_path, GOOD.replace('layout = "hannibal"', 'layout = "broken-layout.toml"'))
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "broken-layout.toml: cells.pos:48: cell [6, 5] is mapped twice (also pos:47)" in err
    assert "broken-layout.toml: cells: cell [6, 6] is not mapped at all" in err
    assert "broken-layout.toml: cells.pos:3: location not mapped to any cell" in err


def test_check_config_as_a_process_never_shows_a_traceback(tmp_path: Path) -> None:
    path = _variant(tmp_path, "\x00\x01 garbage")
    result = subprocess.run([sys.executable, "-m", "controller.cli", "check-config", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "not valid TOML" in result.stderr


LAYOUT = (ROOT_DIR / "hw_config" / "layouts" / "hannibal.toml").read_text()

EXACT: list[tuple[str, str, str, str]] = [
    # (what, search, replace, the one problem expected)
    ("fraction for a count", "debounce_scans = 3", "debounce_scans = 2.9",
     r"timing\.debounce_scans: must be an integer \(a count\), got 2\.9"),
    ("bool for a number", "scan_hz = 200", "scan_hz = true", r"timing\.scan_hz: must be a number, got True"),
    ("string pin", "rows = [5, 6", 'rows = ["5", 6', r"matrix\.rows\[0\]: pin '5' must be an integer"),
    ("bool pin", "OK = { pin = 27 }", "OK = { pin = true }", r"buttons\.OK\.pin: pin True must be an integer"),
    ("fraction for a display bus", "bus = 1", "bus = 1.0", r"display\.bus: must be an integer, got 1\.0"),
    ("bool for a cell", "ROLL = { pin = 17 }", "ROLL = { cell = [0, true] }",
     r"buttons\.ROLL\.cell: must be \[row, col\] \(two integers\), got \[0, True\]"),
    ("pin list longer than the header", "rows = [5, 6, 13, 19, 26, 16, 20]", "rows = [" + ", ".join(["5"] * 5000) + "]",
     r"matrix\.rows: 5000 pins; there are only 26 usable GPIOs"),
    ("non-UTF-8 byte", "[display]", "# caf\udce9\n[display]",
     r"\.toml: not valid TOML: byte 0xe9 on line \d+ is not UTF-8"),
    ("arrays nested too deep", "[display]", "deep = " + "[" * 20000 + "]" * 20000 + "\n[display]",
     r"\.toml: not valid TOML: arrays or tables nested too deeply"),
    ("file far too large", "[display]", "# " + "x" * 70_000 + "\n[display]", r"\.toml: too large: over 64 KiB"),
    ("backend refused once, not again for its pin factory", 'backend = "gpio"', 'backend = "usb"',
     r"board\.backend: 'usb' is not one of"),
]


@pytest.mark.parametrize(("what", "search", "replace", "expected"), EXACT, ids=[b[0] for b in EXACT])
def test_each_bad_value_is_exactly_one_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str,
                                               search: str, replace: str, expected: str) -> None:
    """Exact types (no bool for an int, no float for a count), sizes bounded, and no cascade: a bad pin
    still counts as a matrix line, so the layout is not reported as the wrong size because of it."""
    assert search in GOOD, what
    path = tmp_path / "bad.toml"
    path.write_bytes(GOOD.replace(search, replace, 1).encode("utf-8", errors="surrogateescape"))
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(expected, err), err
    assert err.endswith("1 problem(s); nothing started\n"), err


@pytest.mark.parametrize(("search", "replace", "expected"), [
    ('"pos:0" = [0, 0]', '"pos:0" = [0, true]',
     r"cells\.pos:0: must be \[row, col\] \(two integers\), got \[0, True\]"),
    ("rows = 7", "rows = 7\nunused = 5", r"unused: must be a list of \[row, col\], got 5"),
    ("rows = 7", "rows = 7.0", r"rows: must be an integer, got 7\.0"),
    ("rows = 7", "rows = 7\nunused = [" + ", ".join(["[0, 0]"] * 2000) + "]", r"unused: 2000 entries; at most 1024"),
], ids=["bool in a cell", "unused not a list", "fraction for a size", "unused too long"])
def test_layout_values_are_checked_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str], search: str,
                                           replace: str, expected: str) -> None:
    assert search in LAYOUT
    (tmp_path / "layout.toml").write_text(LAYOUT.replace(search, replace, 1))
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace('layout = "hannibal"', 'layout = "layout.toml"'))
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(expected, err) and "Traceback" not in err, err
    assert err.count("error:") <= 2, err  # the bad value, and at most the location it left unmapped


def test_a_runaway_profile_is_counted_in_full_and_told_in_twenty_lines(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace("[timing]", "[timing]\n" + "\n".join(f"unknown_{i} = 1" for i in range(500))))
    with pytest.raises(ConfigError) as caught:
        load_profile(path)
    message = str(caught.value).splitlines()
    assert len(caught.value.problems) == 500 and len(message) == 21 and message[-1] == "... and 480 more"
    assert main(["check-config", str(path)]) == 2
    assert capsys.readouterr().err.endswith("500 problem(s); nothing started\n")


def test_a_bridge_profile_whose_matrix_lines_repeat_is_refused(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The MCU's lines are no Pi GPIOs, but a line still cannot be two rows: the table would wait forever
    for a board whose firmware does not match."""
    text = (ROOT_DIR / "hw_config" / "profiles" / "hannibal-bridge.toml").read_text()
    assert "rows = [2, 3, 4, 5, 6, 7, 8]" in text
    path = _variant(tmp_path, text.replace("rows = [2, 3, 4, 5, 6, 7, 8]", "rows = [5, 5, 5, 5, 5, 5, 5]"))
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "matrix.rows[1]: line 5 is already matrix.rows[0]" in err and "6 problem(s)" in err, err


BRIDGE_SIM = (ROOT_DIR / "hw_config" / "profiles" / "hannibal-bridge-sim.toml").read_text()


@pytest.mark.parametrize(("order", "expected"), [
    ('"snake"', r"leds\.order: must be \"matrix\" or a list naming the location above each LED"),
    ("[]", r"leds\.order: must be \"matrix\" or a list"),
    ('["pos:0", "pos:99"]', r"leds\.order\[1\]: 'pos:99' is not a location of the layout"),
    ('["pos:0", "", "pos:0"]', r"leds\.order\[2\]: 'pos:0' already has LED 0: one LED a location"),
    ('["pos:0", 3]', r"leds\.order\[1\]: 3 is not a location of the layout"),
    (repr([""] * 50).replace("'", '"'), r"leds\.order: 50 LEDs: the firmware drives one per matrix cell, 49 at most"),
])
def test_the_led_strip_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], order: str,
                                  expected: str) -> None:
    start = BRIDGE_SIM.index("order = [")
    path = _variant(tmp_path, BRIDGE_SIM[:start] + f"order = {order}\n")
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(expected, err) and "1 problem(s)" in err, err


def test_a_strip_in_the_matrix_order_lights_each_cell_at_its_matrix_place(tmp_path: Path) -> None:
    start = BRIDGE_SIM.index("order = [")
    profile = load_profile(_variant(tmp_path, BRIDGE_SIM[:start] + 'order = "matrix"\n'))
    assert profile.leds is not None and profile.leds.at["pos:36"] == 5 * 7 + 5 and len(profile.leds.at) == 49


@pytest.mark.parametrize(("section", "expected"), [
    ('url = "mqtt://broker.example/ours"\nseats = ["green"]', r"remote\.seats: 'green' is no seat of the game"),
    ('url = "mqtt://broker.example/ours"\nseats = ["yellow", "blue"]', r"remote\.seats: every seat is this table's"),
    ('url = "http://broker.example/ours"\nseats = ["yellow"]', r"remote\.url: .*scheme must be mqtt:// or mqtts://"),
    ('url = "mqtt://broker.example/"\nseats = ["yellow"]', r"remote\.url: .*no game code after the host"),
    ('url = "mqtt://broker.example/ours"\nseats = "yellow"', r"remote\.seats: must be a list of this table's seats"),
])
def test_a_shared_game_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], section: str,
                                  expected: str) -> None:
    path = _variant(tmp_path, GOOD + f"\n[remote]\n{section}\n")
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(expected, err) and "1 problem(s)" in err, err


def test_the_profiles_shared_game_is_the_one_play_joins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _variant(tmp_path, GOOD + '\n[remote]\nurl = "mqtt://127.0.0.1:1/ours"\nseats = ["yellow"]\n')
    assert load_profile(path).remote is not None
    assert main(["play", "hannibal", "--profile", str(path), "--seat", "blue=mcts"]) == 2  # blue is the far table's
    assert "the far table's seats are played there" in capsys.readouterr().err
