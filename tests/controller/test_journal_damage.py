"""Torn versus damaged: only an incomplete last line (no newline, or the NUL bytes a power cut leaves
where data never reached the card) is dropped on resume. A complete line was written to its newline,
may have been fsynced and shown (a roll on the screen), so a complete line that does not parse or does
not follow from the one before is damage, named by its line, and the game is never played on without it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.dice import Dice
from controller.journal import Journal, JournalError, read, replay
from controller.table import ask_resume, attach_game, build_io, load_backend, profile_for
from engines.base import sample_chance
from engines.hannibal import new_game


@pytest.fixture(scope="module")
def full_game(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """Forty lines of a Hannibal game, signed as the table signs them (a roll by the player rolling)."""
    path = tmp_path_factory.mktemp("full") / "full.jsonl"
    journal = Journal.create(path, "hannibal", {})
    state, rng = new_game(), random.Random(6)
    while journal.seq < 40:
        player = state.to_move
        move = sample_chance(state, rng) if state.is_chance() else rng.choice(state.legal_moves())
        state.apply(move)
        journal.append(player, str(move), state.to_json())
    journal.close()
    return path.read_bytes().splitlines(keepends=True)


def _up_to_a_roll(lines: list[bytes], at_least: int = 15) -> list[bytes]:
    """The journal up to and including a roll line (one the screen has shown as dice)."""
    n = next(i for i in range(at_least, len(lines)) if json.loads(lines[i])["move"].startswith("R"))
    return lines[: n + 1]


def _flip(line: bytes, marker: bytes) -> bytes:
    """One bit flipped in the byte at ``marker``: what a worn SD card does to a line already written."""
    i = line.index(marker)
    return line[:i] + bytes([line[i] ^ 0x01]) + line[i + 1:]


def test_a_flipped_byte_in_the_last_line_is_damage_named_by_line(tmp_path: Path, full_game: list[bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"".join(lines[:-1]) + _flip(lines[-1], b'"R'))
    with pytest.raises(JournalError, match=rf":{len(lines)}: not JSON") as caught:
        read(path)
    assert caught.value.line == len(lines)


def test_a_last_line_signed_by_the_wrong_player_is_damage(tmp_path: Path, full_game: list[bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    last = json.loads(lines[-1])
    last["player"] = "blue" if last["player"] == "yellow" else "yellow"
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"".join(lines[:-1]) + json.dumps(last).encode() + b"\n")
    with pytest.raises(JournalError, match=rf":{len(lines)}: player '{last['player']}', expected") as caught:
        replay(read(path), path)
    assert caught.value.line == len(lines)


@pytest.mark.parametrize("tail", [
    pytest.param(lambda line: line[:-1], id="no newline"),
    pytest.param(lambda line: line[:30], id="half a line"),
    pytest.param(lambda line: b"\0" * len(line), id="all NUL"),
    pytest.param(lambda line: line[:30] + b"\0" * (len(line) - 30), id="half then NUL"),
])
def test_an_incomplete_last_line_is_torn_and_cut_on_resume(tmp_path: Path, full_game: list[bytes],
                                                            tail: Callable[[bytes], bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    path = tmp_path / "j.jsonl"
    kept = b"".join(lines[:-1])
    path.write_bytes(kept + tail(lines[-1]))
    contents = read(path)
    assert contents.torn and len(contents.entries) == len(lines) - 2 and contents.good_bytes == len(kept)
    Journal.resume(path, contents).close()
    assert path.read_bytes() == kept


def test_nul_bytes_after_a_complete_last_line_are_torn(tmp_path: Path, full_game: list[bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"".join(lines) + b"\0" * 300)
    contents = read(path)
    assert contents.torn and len(contents.entries) == len(lines) - 1


def test_nul_bytes_inside_a_complete_line_are_damage(tmp_path: Path, full_game: list[bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"".join(lines[:-1]) + b"\0" * (len(lines[-1]) - 1) + b"\n")
    with pytest.raises(JournalError, match=rf":{len(lines)}: not JSON"):
        read(path)


def test_demo_on_a_damaged_journal_refuses_instead_of_re_rolling(tmp_path: Path, full_game: list[bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    path = tmp_path / "j.jsonl"
    damaged = b"".join(lines[:-1]) + _flip(lines[-1], b'"R')
    path.write_bytes(damaged)
    result = subprocess.run([sys.executable, "-m", "controller.cli", "demo", "hannibal", "--seed", "6", "--journal",
                             str(path), "--quiet"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    said = result.stderr.strip().splitlines()
    assert said[-1].startswith("error: ") and f"j.jsonl:{len(lines)}: not JSON" in said[-1]
    assert all(" INFO " in line for line in said[:-1]), said  # the log's start line; the damage said once
    assert path.read_bytes() == damaged  # the roll the screen showed is still there, nothing appended


def test_the_resume_prompt_calls_a_damaged_last_line_damaged_and_keeps_it(tmp_path: Path,
                                                                         full_game: list[bytes]) -> None:
    lines = _up_to_a_roll(full_game)
    path = tmp_path / "hannibal.jsonl"
    damaged = b"".join(lines[:-1]) + _flip(lines[-1], b'"R')
    path.write_bytes(damaged)
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    screens: list[str] = []
    io = build_io(profile, hardware, echo=lambda s: screens.append(s.text()))
    back = profile.buttons["BACK"].pin
    assert back is not None
    t0 = hardware.clock.now()

    def person(now: float) -> list[object]:  # reads the prompt, presses BACK a second later
        if now - t0 > 1.0:
            hardware.board.press_pin(back)
        return []

    io.loop.add_source(person)  # type: ignore[arg-type]
    assert ask_resume(io, path) is False
    hardware.board.release_pin(back)
    assert screens[0].startswith("Saved game damaged")
    kept = list(tmp_path.glob("hannibal-*.damaged.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    table = attach_game(io, path, Dice())
    assert not table.resumed and table.journal.seq == 0
