"""The soak's scripted Hannibal players read the screen as people do: a step nobody made, shown while their
hands were busy moving a piece, is taken back even if the table asked a question and applied their own
step after it (soak seed 53 once let such a step stand: the players only looked when their hands were free).

The table here is a stand-in that shows screens on cue, so the players can be shown exactly that sequence."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hannibal_helpers import position

from controller.table import profile_for
from engines.bots import HeuristicBot
from engines.hannibal import State
from sim_hardware.clock import FakeClock
from sim_hardware.hannibal_players import ScriptedTable
from sim_hardware.pins import SimBoard


@dataclass
class Phase:
    value: str


@dataclass
class Screen:
    """What the players can read: the phase, the position, the journal length and "Done: ..."."""

    game: State
    phase: Phase = field(default_factory=lambda: Phase("roll"))
    seq: int = 3
    last_step: str = ""
    last_step_by: str | None = None
    candidates: tuple[Any, ...] = ()
    selected: int = 0
    fixups: tuple[str, ...] = ()
    notice: str = ""


@pytest.mark.parametrize(("shown_s", "seen"), [(0.6, True), (0.1, False)])
def test_a_step_nobody_made_is_taken_back_though_the_table_moved_on(shown_s: float, seen: bool) -> None:
    """Shown long enough to read (READ_S), it is taken back; flashed up for less, it goes unseen, as it would
    by people: the bench then fails, because it is the table's job to show it."""
    profile = profile_for("hannibal-sim")
    clock = FakeClock()
    board = SimBoard(profile.rows, profile.cols, clock)
    game = position({12: ("yellow", 4), 30: ("yellow", 2), 42: ("blue", 4)}, to_move="yellow")
    for loc, (_, n) in game.occupancy().items():
        board.place(profile.locations[loc], n)
    screen = Screen(game)
    bots = {p: HeuristicBot(random.Random(0)) for p in ("yellow", "blue")}
    players = ScriptedTable(board, profile, screen, bots, random.Random(0))
    presses: list[str] = []
    pins = {spec.pin: name for name, spec in profile.buttons.items()}

    def play(seconds: float) -> None:
        for _ in range(int(seconds / 0.01)):
            before = set(board.held_pins)
            players.poll(clock.now())
            presses.extend(pins[pin] for pin in board.held_pins - before)
            clock.advance(0.01)

    play(0.5)
    assert presses == ["ROLL"]
    game.apply(game.parse_move("R1,2"))
    screen.phase, screen.seq = Phase("step"), 4
    play(0.05)  # a step decided; the hands start on it
    meant = players.decisions[4]
    phantom = next(str(m) for m in game.legal_moves() if str(m) != meant)
    screen.seq, screen.last_step, screen.last_step_by = 5, phantom, "yellow"  # up while the hands are busy
    play(shown_s)
    assert presses == ["ROLL"]  # still moving their piece
    screen.phase = Phase("choose")  # then a question, and their own step on top: the phantom is off screen
    play(0.05)
    screen.phase, screen.seq, screen.last_step = Phase("step"), 6, meant
    play(5.0)
    assert (presses[1:3] == ["BACK", "OK"]) is seen and players.takebacks == seen
