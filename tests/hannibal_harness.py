"""A simulated Hannibal table for end-to-end tests: the tests act only as people do (magnets, buttons)
and read only what people see (the screen), plus the journal on disk."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.dice import Dice
from controller.flows.hannibal import Phase
from controller.screen import Screen
from controller.table import Table, build_table, load_backend, profile_for
from engines.base import GameState, Move
from engines.bots.match import Bot
from engines.hannibal import new_game
from firmware_bridge.codec import Colour
from firmware_bridge.firmware import pico

TICK = 0.005


class Scripted:
    """A bot that plays the steps it is told: for a step whose outcome the test must know in advance."""

    def __init__(self, *steps: str) -> None:
        self.steps = list(steps)

    def choose(self, state: GameState) -> Move:
        return state.parse_move(self.steps.pop(0))


class Harness:
    def __init__(self, journal: Path, *, seed: int = 0, set_up: bool = True, profile: str = "hannibal-sim",
                 bots: Mapping[str, Bot] | None = None, seats: Mapping[str, str] | None = None,
                 far: frozenset[str] = frozenset()) -> None:
        self.profile = profile_for(profile)
        self.hw = load_backend(self.profile, seed=seed)
        self.board = self.hw.board
        self.clock = self.hw.clock
        self.screens: list[Screen] = []
        import random

        self.table: Table = build_table(self.profile, self.hw, journal, Dice(random.Random(seed)), seed=seed,
                                        echo=self.screens.append, bots=bots, seats=seats, far=far)
        self.journal_path = journal
        if set_up:
            for loc, (_, n) in new_game().occupancy().items():
                self.board.place(self.cell(loc), n)
        self.table.flow.start()
        self.run(0.2)

    # -- what people do ---------------------------------------------------------------------------------

    def cell(self, pos: int | str) -> tuple[int, int]:
        return self.profile.locations[pos if isinstance(pos, str) else f"pos:{pos}"]

    def lift(self, pos: int, n: int = 1) -> None:
        self.board.lift(self.cell(pos), n)
        self.run(0.4)

    def place(self, pos: int, n: int = 1) -> None:
        self.board.place(self.cell(pos), n)
        self.run(0.4)

    def move(self, src: int, dst: int, n: int = 1) -> None:
        self.lift(src, n)
        self.place(dst, n)

    def pick(self, notation: str) -> None:
        """Resolve a "Which move?" screen to ``notation`` with NEXT and OK, reading the screen."""
        assert self.phase is Phase.CHOOSE, self.text
        for _ in range(40):
            if f"> {notation}" in self.text:
                self.press("OK")
                return
            self.press("NEXT")
        raise AssertionError(f"{notation} is not offered: {self.text}")

    def play(self, src: int, dst: int, n: int = 1) -> None:
        """Make a move as a player does: move the piece, confirm with OK if the table saw nothing, and
        pick it if the table asks which move it was."""
        seq = len(self.moves())
        self.move(src, dst, n)
        self.run(0.4)
        if len(self.moves()) == seq and self.phase is Phase.STEP:
            self.press("OK")
        if self.phase is Phase.CHOOSE:
            self.pick(f"{src}-{dst}" if n == 1 else f"S{src}-{dst}")
        assert len(self.moves()) == seq + 1, self.text

    def press(self, button: str) -> None:
        pin = self.profile.buttons[button].pin
        assert pin is not None
        self.board.press_pin(pin)
        self.run(0.08)
        self.board.release_pin(pin)
        self.run(0.2)

    def hold(self, button: str) -> None:
        """Held past the profile's hold time, then let go."""
        pin = self.profile.buttons[button].pin
        assert pin is not None
        self.board.press_pin(pin)
        self.run(self.profile.timing.hold_s + 0.2)
        self.board.release_pin(pin)
        self.run(0.2)

    def roll(self, a: int, b: int) -> None:
        """Physical dice typed in with the buttons: NEXT opens the entry, NEXT steps a die, OK takes it."""
        assert self.phase is Phase.ROLL, self.text
        self.press("NEXT")
        for value in (a, b):
            for _ in range(value - 1):
                self.press("NEXT")
            self.press("OK")

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / TICK)):
            self.table.loop.tick()
            self.clock.advance(TICK)

    # -- what people see ----------------------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self.table.display.current.text() if self.table.display.current else ""

    @property
    def lights(self) -> dict[str, str]:
        """The board's lit LEDs as the players see them (a profile with ``[leds]`` on the simulated bridge): the
        box each lies under, and its colour's meaning."""
        leds = self.profile.leds
        assert leds is not None
        box = {i: loc.removeprefix("pos:") for loc, i in leds.at.items()}
        return {box[i]: Colour(pico.PALETTE.index(rgb)).name.lower() for i, rgb in self.hw.mcu.strip.lit.items()}

    @property
    def phase(self) -> Phase:
        return self.table.flow.phase

    def journal(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.journal_path.read_text().splitlines()]

    def moves(self) -> list[str]:
        return [line["move"] for line in self.journal()[1:]]


def yellow_turn(t: Harness) -> None:
    """Yellow's first turn, made by the people at the table: their own dice 1 and 5, then 12-17 and 0-1."""
    t.roll(1, 5)
    t.play(12, 17)
    t.play(0, 1)
    assert t.phase is Phase.ROLL and "Blue: press ROLL" in t.text
