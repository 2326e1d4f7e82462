"""Chance entered by hand: the players roll their own dice or spin their own spinner and key the result in.

Every game with chance lets the players use their own physical dice or spinner instead of the table's
(DESIGN.md, "From sensors to moves"), at the prompt (NEXT where the table would roll or spin) or for the
whole game (``[chance] by_hand = true`` in the profile). The result is keyed in one value at a time with
NEXT and PREV and taken with OK; BACK goes back a value, or leaves. The game's flow turns the values into
its own chance move, which is journaled like a drawn one and marked ``"entered": true``, so a replay and
anyone reading the journal can tell a roll the players made from one the table drew.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Entry(Enum):
    """What a press did to the values being keyed in."""

    CHANGED = "changed"  # a value changed, or the next one began: redraw
    DONE = "done"  # every value is in: make the move
    LEFT = "left"  # BACK at the first value: the players leave the entry


@dataclass
class ChanceEntry:
    """``count`` values from 1 to ``sides`` (two dice of six, one spinner of twelve, one die of six)."""

    sides: int
    count: int
    values: list[int] = field(default_factory=lambda: [1])

    def press(self, button: str) -> Entry | None:
        """NEXT and PREV change the value shown, OK takes it (the last one: DONE), BACK goes back one."""
        if button in ("NEXT", "PREV"):
            step = 1 if button == "NEXT" else -1
            self.values[-1] = (self.values[-1] - 1 + step) % self.sides + 1
            return Entry.CHANGED
        if button == "OK":
            if len(self.values) == self.count:
                return Entry.DONE
            self.values.append(1)
            return Entry.CHANGED
        if button == "BACK":
            if len(self.values) == 1:
                return Entry.LEFT
            self.values.pop()
            return Entry.CHANGED
        return None

    @property
    def prompt(self) -> str:
        """The line that says which value is being keyed in: ``Die 2: 5``, or ``Spin: 7`` for a single one."""
        what = "Die" if self.sides == 6 else "Spin"
        number = f" {len(self.values)}" if self.count > 1 else ""
        return f"{what}{number}: {self.values[-1]}"
