"""The service's start: an unfinished game is offered on the OLED (OK resume, BACK new game)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from controller.demo import run_demo
from controller.dice import Dice
from controller.table import ask_resume, attach_game, build_io, load_backend, profile_for


def _unfinished(tmp_path: Path) -> Path:
    full = tmp_path / "full.jsonl"
    run_demo(8, full)
    path = tmp_path / "hannibal.jsonl"
    path.write_bytes(b"".join(full.read_bytes().splitlines(keepends=True)[:30]))
    return path


def _start(path: Path, button: str) -> tuple[object, list[str]]:
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    screens: list[str] = []
    io = build_io(profile, hardware, echo=lambda s: screens.append(s.text()))
    pin = profile.buttons[button].pin
    assert pin is not None
    t0 = hardware.clock.now()

    def person(now: float) -> list[object]:  # reads the prompt, presses the button a second later
        if now - t0 > 1.0:
            hardware.board.press_pin(pin)
        return []

    io.loop.add_source(person)  # type: ignore[arg-type]
    resumed = ask_resume(io, path)
    hardware.board.release_pin(pin)
    table = attach_game(io, path, Dice(random.Random(1)))
    return (resumed, table), screens


def test_ok_resumes_the_saved_game(tmp_path: Path) -> None:
    path = _unfinished(tmp_path)
    (resumed, table), screens = _start(path, "OK")
    assert resumed is True and table.resumed and table.journal.seq == 29  # type: ignore[attr-defined]
    assert screens[0].startswith("Resume the game?")


def test_back_starts_anew_and_keeps_the_old_journal(tmp_path: Path) -> None:
    path = _unfinished(tmp_path)
    old = path.read_bytes()
    (resumed, table), _ = _start(path, "BACK")
    assert resumed is False and not table.resumed  # type: ignore[attr-defined]
    kept = list(tmp_path.glob("hannibal-*.unfinished.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == old
    lines = path.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["game"] == "hannibal"  # a new game: just its header


def test_a_damaged_journal_is_said_on_screen_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "hannibal.jsonl"
    path.write_text('{"game": "hannibal", "options": {}}\n{"seq": 7}\n{"seq": 8}\n')
    (resumed, _), screens = _start(path, "BACK")
    assert resumed is False and screens[0].startswith("Saved game damaged")
    assert len(list(tmp_path.glob("hannibal-*.damaged.jsonl"))) == 1
