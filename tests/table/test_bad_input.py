"""Bad input everywhere: every kind of broken journal line and odd CLI option gets a clear message and
exit code 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEADER = '{"game": "hannibal", "options": {}}\n'
ROLL = json.dumps({"seq": 1, "player": "yellow", "move": "R3,5", "state": {
    "game": "hannibal", "to_move": "yellow", "dice": [3, 5], "doubles": False,
    "board": {"0": ["yellow", 4], "6": ["yellow", 4], "12": ["yellow", 4], "36": ["blue", 4],
              "42": ["blue", 4], "48": ["blue", 4]},
    "waiting": {"yellow": 0, "blue": 0}, "home": {"yellow": 0, "blue": 0}, "winner": None}}) + "\n"


def _replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(path)], capture_output=True,
                          text=True, timeout=60)


BROKEN = [
    ("empty file", "", "no header line"),
    ("header not an object", "[1, 2]\n", "not a journal header"),
    ("header without game", '{"options": {}}\n', "not a journal header"),
    ("unknown game", '{"game": "chess", "options": {}}\n', "unknown game 'chess'"),
    ("bad options", '{"game": "hannibal", "options": {"first": "green"}}\n', "bad options"),
    ("middle line not JSON", HEADER + "garbage\n" + ROLL, ":2: not JSON"),
    ("empty middle line", HEADER + "\n" + ROLL, ":2: empty line"),
    ("line is a list", HEADER + "[]\n", "expected an object"),
    ("missing keys", HEADER + '{"seq": 1}\n', "missing player, move, state"),
    ("wrong seq", HEADER + ROLL.replace('"seq": 1', '"seq": 5'), "seq 5, expected 1"),
    ("move not notation", HEADER + ROLL.replace('"R3,5"', '"roll please"'), "not Hannibal notation"),
    ("illegal move", HEADER + ROLL.replace('"R3,5"', '"12-17"'), "12-17 is not legal now"),
    ("state that differs", HEADER + ROLL.replace('"dice": [3, 5]', '"dice": [4, 5]'), "recorded state differs"),
    ("state of wrong type", HEADER + ROLL.replace('"state": {', '"state": 7, "x": {'), "state an object"),
    ("undo with nothing to undo", HEADER + '{"seq": 1, "player": "yellow", "move": "undo", "state": {}}\n',
     "undo with nothing to take back"),
    ("binary junk", "\x00\xff\xfe garbage\n" + ROLL, ":1: not JSON"),
]


@pytest.mark.parametrize(("what", "text", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_journal(tmp_path: Path, what: str, text: str, message: str) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    result = _replay(path)
    assert result.returncode == 2, what
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_torn_last_line_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(HEADER + ROLL + ROLL[:40])
    result = _replay(path)
    assert result.returncode == 0 and "torn last line ignored" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["demo", "hannibal", "--seed", "x"], "invalid int value"),
    (["demo", "hannibal", "--mistakes", "-0.1"], "--mistakes must be between 0 and 1"),
    (["demo", "hannibal", "--journal", "/"], "error:"),
    (["replay", "/no/such/journal.jsonl"], "cannot read"),
    (["check-config", "/no/such/profile.toml"], "no such file"),
    (["play", "hannibal", "--seed", "3"], "--seed is for --sim only"),
    (["frobnicate"], "invalid choice"),
    (["demo", "hannibal", "--frames", "/etc/hostname"], "File exists"),
])
def test_bad_command_lines(args: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
