"""Scripted hands for ``selftest --script``: touch every cell and press every button once, then hold BACK."""

from __future__ import annotations

from hw_config import Profile
from sim_hardware.hands import Hands
from sim_hardware.pins import SimBoard

TOUCH_S = 0.1  # a magnet held on a reed: longer than any debounce


class TouchEverything(Hands):
    def __init__(self, board: SimBoard, profile: Profile) -> None:
        super().__init__(board, profile)
        self._act(1.0, lambda: None, "let the start-up scan finish")
        for cell, name in sorted(profile.cells.items()):
            self._act(TOUCH_S, lambda c=cell: board.place(c), f"touch {name}")  # type: ignore[misc]
            self._act(TOUCH_S, lambda c=cell: board.lift(c), f"let go of {name}")  # type: ignore[misc]
        for button in profile.buttons:
            if button != "BACK":
                self._press(button, TOUCH_S)
        self._press("BACK", TOUCH_S)  # pressed once, counted
        hold = profile.buttons["BACK"]
        if hold.pin is not None:
            pin = hold.pin
            self._act(profile.timing.hold_s + 0.3, lambda: board.press_pin(pin), "hold BACK to end")
            self._act(0.1, lambda: board.release_pin(pin), "release BACK")
        elif hold.cell is not None:  # a button in the matrix, like the reeds
            cell = hold.cell
            self._act(profile.timing.hold_s + 0.3, lambda: board.pressed.add(cell), "hold BACK to end")
            self._act(0.1, lambda: board.pressed.discard(cell), "release BACK")

    def _decide(self, now: float) -> None:
        return  # everything was queued at the start
