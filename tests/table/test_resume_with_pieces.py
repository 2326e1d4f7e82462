"""A game resumed after a power cut with its pieces still standing on the board (as they are: nobody clears
the table for a power cut) carries on at once. The boot test of the unit (``tests/system/test_unit_boot.py``) found
the table asking to set up every piece again: the scanner reported the standing pieces while the resume
question was up, to its handler, and the game attached after it never heard of them."""

from __future__ import annotations

import random
from pathlib import Path

from controller.demo import run_demo
from controller.dice import Dice
from controller.journal import read, replay
from controller.table import ask_resume, attach_game, await_next_game, build_io, load_backend, profile_for
from engines.registry import get_game


def _unfinished(tmp_path: Path, lines: int) -> Path:
    full = tmp_path / "full.jsonl"
    run_demo(8, full)
    path = tmp_path / "hannibal.jsonl"
    path.write_bytes(b"".join(full.read_bytes().splitlines(keepends=True)[:lines]))
    return path


def _standing(path: Path) -> dict[str, tuple[str, int]]:
    return replay(read(path), path)[-1].occupancy()


def _press(hardware: object, pin: int, *after: float) -> object:
    board, clock = hardware.board, hardware.clock  # type: ignore[attr-defined]
    t0 = clock.now()

    def person(now: float) -> list[object]:  # reads the screen, presses a little later, lets go later still
        if any(t0 + a <= now < t0 + a + 0.3 for a in after):
            board.press_pin(pin)
        else:
            board.release_pin(pin)
        return []

    return person


def test_a_resumed_game_sees_the_pieces_that_stood_through_the_resume_question(tmp_path: Path) -> None:
    path = _unfinished(tmp_path, 12)
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    for location, (_, count) in _standing(path).items():
        hardware.board.place(profile.locations[location], count)
    screens: list[str] = []
    io = build_io(profile, hardware, echo=lambda s: screens.append(s.title))
    ok = profile.buttons["OK"].pin
    assert ok is not None
    io.loop.add_source(_press(hardware, ok, 1.0))  # type: ignore[arg-type]
    assert ask_resume(io, path) is True
    table = attach_game(io, path, Dice(random.Random(1)))
    table.flow.start()
    clock = hardware.clock
    end = clock.now() + 5.0  # past the grace period: a board the game does not see would be listed by now
    table.loop.run(until=lambda: clock.now() >= end)
    assert table.flow.fixups == ()
    assert "Set up the board" not in screens, screens


def test_a_new_game_after_the_last_sees_the_pieces_set_up_while_its_result_showed(tmp_path: Path) -> None:
    path = tmp_path / "hannibal.jsonl"
    run_demo(8, path)  # the last game, finished: its result shows until OK, then OK again starts the next
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    for location, (_, count) in get_game("hannibal").new_game().occupancy().items():
        hardware.board.place(profile.locations[location], count)  # set up for the next game meanwhile
    io = build_io(profile, hardware)
    ok = profile.buttons["OK"].pin
    assert ok is not None
    io.loop.add_source(_press(hardware, ok, 1.0, 2.0))  # type: ignore[arg-type]
    await_next_game(io, path)
    table = attach_game(io, path, Dice(random.Random(1)))
    table.flow.start()
    clock = hardware.clock
    end = clock.now() + 5.0
    table.loop.run(until=lambda: clock.now() >= end)
    assert table.flow.fixups == ()
    assert table.display.current is not None and table.display.current.title != "Set up the board"
