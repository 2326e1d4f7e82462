"""What every scripted player does with their hands: a queue of timed physical actions on the table.

Players decide when their hands are free (``_decide``), and what they decide becomes actions -- press a
button, lift or place magnets -- done one per loop turn, each followed by its pause. The games' scripted
tables differ only in what they decide.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

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
