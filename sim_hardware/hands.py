"""What every scripted player does with their hands: a queue of timed physical actions on the table.

Players decide when their hands are free (``_decide``), and what they decide becomes actions -- press a
button, lift or place magnets -- done one per loop turn, each followed by its pause. The games' scripted
tables differ only in what they decide.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from engines.bots.match import Bot
from hw_config import Profile
from sim_hardware.pins import SimBoard

PRESS_S = 0.08  # a button held down this long


@dataclass
class Action:
    delay: float  # seconds to wait after doing it
    do: Callable[[], None]
    note: str = ""


class Hands:
    """Registered on the event loop as a source that acts and never emits events."""

    def __init__(self, board: SimBoard, profile: Profile) -> None:
        self.board = board
        self.profile = profile
        self.actions: deque[Action] = deque()
        self.busy_until = 0.0
        self.now = 0.0

    def poll(self, now: float) -> list[object]:
        self.now = now
        if now < self.busy_until:
            return []
        if self.actions:
            action = self.actions.popleft()
            action.do()
            self.busy_until = now + action.delay
            self.look_again_at(self.busy_until)
            return []
        self._decide(now)
        return []

    def idle(self) -> bool:
        return not self.actions

    def look_again_at(self, moment: float) -> None:
        """Tell the simulated clock when these hands will act, so a sleeping loop turns then."""
        if self.board.clock is not None:
            self.board.clock.wake_at(moment)

    def _decide(self, now: float) -> None:
        """Look at the table and queue what to do next (nothing, if there is nothing to do)."""
        raise NotImplementedError

    def _set_count(self, cell: tuple[int, int], n: int) -> None:
        """Make ``cell`` hold exactly ``n`` magnets, against what is really there."""
        have = self.board.count(cell)
        if have > n:
            self.board.lift(cell, have - n)
        else:
            self.board.place(cell, n - have)

    def _ignore_named_sensor(self, notice: str, pause: float = 0.5) -> bool:
        """The table names a sensor that may be stuck or dead (``sensor X stuck? OK = ignore it``): the players
        see their pieces stand right and press OK to ignore it. True if they did."""
        if "stuck?" not in notice:
            return False
        self._press("OK", pause=pause)
        return True

    def _press(self, button: str, pause: float) -> None:
        spec = self.profile.buttons[button]
        if spec.pin is not None:
            pin = spec.pin
            self._act(PRESS_S, lambda: self.board.press_pin(pin), f"press {button}")
            self._act(pause, lambda: self.board.release_pin(pin), f"release {button}")
        else:
            assert spec.cell is not None
            cell = spec.cell
            self._act(PRESS_S, lambda: self.board.pressed.add(cell), f"press {button}")
            self._act(pause, lambda: self.board.pressed.discard(cell), f"release {button}")

    def _act(self, delay: float, do: Callable[[], None], note: str = "") -> None:
        self.actions.append(Action(delay, do, note))


class ScriptedPeople(Hands):
    """The people at a game's simulated table: what every game's scripted players are built from (the board,
    the profile, the controller's flow read as its screen would be, the bots that decide for them, their
    own generator and their share of mistakes). A game's players add their own state in ``_own_state``."""

    def __init__(self, board: SimBoard, profile: Profile, flow: Any, bots: Mapping[str, Bot],
                 rng: random.Random, mistakes: float = 0.0) -> None:
        super().__init__(board, profile)
        self.flow = flow
        self.bots = bots
        self.rng = rng
        self.mistakes = mistakes
        self.mistakes_made = 0
        self.cells = profile.locations
        self.patient = False
        """Watched by a person (the terminal, a page at a person's pace): the hands wait until what the screen
        says has been up long enough to read (a spin's number) before they act on it, as people at the table
        would. Tests and unpaced demos leave it off: a game's moves are the same either way, only slower."""
        self._fixups_done: tuple[tuple[str, ...], float] | None = None
        self._own_state()

    def _own_state(self) -> None:
        """A game's own state, set once the common parts are."""

    def _decide(self, now: float) -> None:
        """One look at the table: nothing more to do once the game is over, else what the game's people do."""
        phase = self.flow.phase.value
        if phase != "over":
            self._look(self.flow.game, phase, now)

    def _look(self, game: Any, phase: str, now: float) -> None:
        """What the game's people do on one look at the table (``phase``: the flow's, as its screen says)."""
        raise NotImplementedError

    def _follow_list(self, fixups: tuple[str, ...], now: float) -> bool:
        """Do the screen's fix-up list (``lift LOC``, ``put N [owner] on LOC``) against what is really there,
        so doing one twice is harmless; the same list again within 3 s is left alone (the sensors need the
        time). True if the hands were given the list."""
        if not fixups:
            return False
        if self._fixups_done is not None and self._fixups_done[0] == fixups and now - self._fixups_done[1] < 3.0:
            return False
        self._fixups_done = (fixups, now)
        for instruction in fixups:
            verb, *rest = instruction.split()
            if verb not in ("lift", "put"):
                continue
            count = 0 if verb == "lift" else int(rest[0])
            self._act(0.3, partial(self._set_count, self._fixup_cell(rest[-1]), count), instruction)
        return True

    def _fixup_cell(self, name: str) -> tuple[int, int]:
        """The cell a fix-up names: a location, or its label (the location without its kind, ``tray:`` or
        ``box:``, as the table's fix-up lists name places)."""
        if name in self.cells:
            return self.cells[name]
        return next(cell for loc, cell in self.cells.items() if loc.partition(":")[2] == name)
