"""The table's own game menu (``play --menu DIR``): several boards installed, one chosen on the OLED with NEXT,
PREV and OK, the choice remembered, an unfinished game offered first, and a game's end back to the menu when
the players hold BACK. Driven through the simulated boards' buttons, as a person at the table would."""

from __future__ import annotations

import logging
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import ROOT_DIR

from controller.cli import play_menu
from controller.dice import Dice
from controller.menu import installed_boards
from controller.stop import StopRequested
from controller.table import attach_game, await_next_game, build_io, load_backend, profile_for

PROFILES = ROOT_DIR / "hw_config" / "profiles"
READ_S = 0.5  # a person reads the screen before pressing


class Person:
    """Presses a button when the OLED's title starts as it expects and has been up long enough to read, one
    step after another; at the end of the script, the service is stopped (as systemctl stop would)."""

    def __init__(self, script: list[tuple[str, str, float]]) -> None:
        self.script = list(script)  # (title, button, seconds held)
        self.titles: list[str] = []
        self.io: Any = None
        self._down: tuple[int, float] | None = None
        self._since = 0.0  # when the title or the last press changed what is on screen

    def attach(self, io: Any) -> None:
        self.io = io
        io.loop.add_source(self.poll)

    def poll(self, now: float) -> list[object]:
        io = self.io
        title = io.display.current.title if io.display.current is not None else ""
        if not self.titles or self.titles[-1] != title:
            self.titles.append(title)
            self._since = now
        board = io.hardware.board
        if self._down is not None:
            pin, until = self._down
            if now >= until:
                board.release_pin(pin)
                self._down = None
                self._since = now
            return []
        if not self.script:
            raise StopRequested("SIGTERM")
        want, button, held = self.script[0]
        if title.startswith(want) and now - self._since >= READ_S:
            self.script.pop(0)
            pin = io.profile.buttons[button].pin
            board.press_pin(pin)
            self._down = (pin, now + held)
        return []


@pytest.fixture
def boards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Two boards installed (Hannibal's track on the Pi's pins, Factional's tray on a Pico), a layout file
    beside them, and a state directory of the service's own."""
    folder = tmp_path / "etc"
    folder.mkdir()
    for name in ("hannibal-sim", "factional-sim"):
        shutil.copy(PROFILES / f"{name}.toml", folder / f"{name}.toml")
    shutil.copy(ROOT_DIR / "hw_config" / "layouts" / "hannibal.toml", folder / "my-layout.toml")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    yield folder


def test_the_boards_are_the_profiles_that_check_out(boards: Path, caplog: pytest.LogCaptureFixture) -> None:
    (boards / "broken.toml").write_text('[board]\ngame = "chess"\n')
    with caplog.at_level(logging.WARNING):
        found = installed_boards(boards)
    assert [b.path.name for b in found] == ["factional-sim.toml", "hannibal-sim.toml"]  # not the layout file
    assert "left out of the menu" in caplog.text and "broken.toml" in caplog.text


def test_a_board_is_chosen_remembered_and_its_unfinished_game_offered_first(boards: Path, tmp_path: Path) -> None:
    first = Person([("Which board?", "NEXT", 0.1), ("Which board?", "OK", 0.1), ("Set up the board", "OK", 0.1)])
    assert play_menu(boards, attach=first.attach) == 0
    assert first.titles[0] == "Which board?" and any(t.startswith("Set up the board") for t in first.titles)
    state = tmp_path / "state"
    assert (state / "menu-last").read_text() == "hannibal-sim.toml\n"
    assert (state / "hannibal.jsonl").exists() and first.io.oled.drawn.title == "Stopped"  # the game is safe
    again = Person([("Which board?", "OK", 0.1), ("Resume the game?", "OK", 0.1)])  # opened on the saved game
    assert play_menu(boards, attach=again.attach) == 0
    assert again.titles[:2] == ["Which board?", "Resume the game?"]
    assert any(t.startswith("Set up the board") for t in again.titles[2:])


def test_another_board_is_taken_up_and_the_first_let_go(boards: Path, tmp_path: Path) -> None:
    seen: list[Any] = []
    person = Person([("Which board?", "OK", 0.1), ("Set up the Honor tray", "OK", 0.1)])

    def attach(io: Any) -> None:
        seen.append(io)
        person.attach(io)

    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "menu-last").write_text("hannibal-sim.toml\n")
    person.script.insert(0, ("Which board?", "PREV", 0.1))  # from the remembered Hannibal up to Factional
    assert play_menu(boards, attach=attach) == 0
    assert [io.profile.game for io in seen] == ["hannibal", "factional"]  # the menu on the first, then the tray's
    assert "Set up the Honor tray" in person.titles and (tmp_path / "state" / "factional.jsonl").exists()
    assert seen[0].hardware.pin_factory.pins == {}  # Hannibal's buttons and matrix let go of their pins


def test_holding_back_after_a_game_returns_to_the_menu(tmp_path: Path) -> None:
    profile = profile_for("hannibal-sim")
    io = build_io(profile, load_backend(profile))
    table = attach_game(io, tmp_path / "hannibal.jsonl", Dice(random.Random(1)))
    table.journal.close()
    person = Person([("", "BACK", 1.5)])  # held past the profile's hold time
    person.attach(io)
    assert await_next_game(io, tmp_path / "hannibal.jsonl", menu=True) is False
    assert list(tmp_path.glob("hannibal-*.finished.jsonl"))
