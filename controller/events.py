"""Events: everything that happens to the controller reaches the flow as one of these, through one queue."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

Cell = tuple[int, int]


@dataclass(frozen=True)
class CellChanged:
    """A debounced change of one matrix cell (closed = a magnet on it); ``location`` per the layout."""

    cell: Cell
    closed: bool
    at: float
    location: str | None = None


class Press(Enum):
    PRESS = "press"
    RELEASE = "release"
    HOLD = "hold"


@dataclass(frozen=True)
class ButtonEvent:
    button: str
    kind: Press
    at: float


@dataclass(frozen=True)
class TimerFired:
    """A timer set by the flow (settle, grace period, message time) has expired."""

    name: str
    at: float
    generation: int = 0


@dataclass(frozen=True)
class Fault:
    """Something the hardware layer noticed and the players must be told (a stuck cell, a held button)."""

    message: str
    at: float


@dataclass(frozen=True)
class SeatDecision:
    """A seat's own decision, made on its page (``move`` in the game's notation, as typed or picked there):
    the flow takes it as it takes the same decision made with the buttons, or refuses it, and says which to
    ``reply`` (None: taken; else why not, in one line), which hands the answer back to the page's thread."""

    seat: str
    move: str
    at: float
    reply: Callable[[str | None], None] = field(compare=False, repr=False)


Event = CellChanged | ButtonEvent | TimerFired | Fault | SeatDecision
