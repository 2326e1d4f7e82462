"""The table state: one immutable snapshot of the table after each event, that every view reads.

After a loop turn in which anything a view shows changed (a journal line, the screen, a sensor, the fix-up
list), the table builds one ``TableState`` and hands it to its observers: the terminal's board view
today, the web page and the far table next. A view never decides anything and never reaches into the
flow: what it may show is here. An observer that fails is logged and dropped, so a view can never stop
the game.

Secrets: ``screen`` is the public screen (what the OLED shows; a screen private to a seat is there only
as "look away", its seat named in ``screen.private``), and ``private`` holds each seat's own screen for
that seat's view alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from controller.screen import Screen

log = logging.getLogger("boardkeeper")


@dataclass(frozen=True)
class Seat:
    """A seat as the views name it, and who plays it: "person" at the table, "bot:mcts", later "phone" or
    "far table"."""

    seat: str
    name: str
    played_by: str


@dataclass(frozen=True)
class Line:
    """One journal line, as a view lists the last moves."""

    seq: int
    player: str
    move: str


@dataclass(frozen=True)
class TableState:
    game: str
    seq: int  # journal lines so far
    phase: str  # the flow's phase ("roll", "march", "fixup", ...)
    seats: tuple[Seat, ...]
    to_move: str | None  # the seat whose decision it is (None: chance, the table itself, or the game is over)
    over: bool
    outcome: str  # who won, for people ("nobody yet" while playing)
    scores: Mapping[str, int | float]  # the game's scores where it keeps any (else empty)
    expected: Mapping[str, tuple[str, int]]  # the engine's occupancy: location -> (owner, count)
    sensed: frozenset[str]  # locations whose sensors read closed
    ignored: frozenset[str]  # sensors the players declared broken
    fixups: tuple[str, ...]  # what the screen tells the players to put right
    screen: Screen | None  # the public screen: what the OLED shows
    notice: str  # the flow's notice, if any ("Fix the board before rolling")
    recent: tuple[Line, ...]  # the last journal lines, oldest first
    link: str | None = None  # the board link's state, where the board is read over serial
    private: Mapping[str, Screen] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice (or die) the screen shows: what a view draws as faces."""
        return self.screen.dice if self.screen is not None else ()

    @property
    def candidates(self) -> tuple[str, ...]:
        """The menu on screen, if the screen is a menu (a question of which move, a choice)."""
        screen = self.screen
        return screen.lines if screen is not None and screen.selected is not None else ()

    @property
    def disagreeing(self) -> frozenset[str]:
        """Locations whose sensor disagrees with the engine: a piece missing, or one where none should be."""
        held = {loc for loc, (_, n) in self.expected.items() if n > 0}
        return frozenset((held ^ self.sensed) - self.ignored)

    def name(self, seat: str | None) -> str:
        return next((s.name for s in self.seats if s.seat == seat), seat or "")


def look_away(name: str) -> Screen:
    """The public face of a screen private to one seat: whose it is, and that everyone else looks away."""
    return Screen(f"{name}: secret", (f"everyone but {name}", "look away!"), footer="secret")


Observer = Callable[[TableState], None]


class StateFeed:
    """Builds a snapshot after each loop turn in which something shown changed, and hands it on."""

    def __init__(self, build: Callable[[], TableState]) -> None:
        self.build = build
        self.observers: list[Observer] = []
        self.current: TableState | None = None
        self._key: tuple[Any, ...] = ()

    def watch(self, observer: Observer) -> None:
        self.observers.append(observer)
        if self.current is not None:
            self._tell(observer, self.current)

    def refresh(self, key: tuple[Any, ...]) -> None:
        """``key`` is what the views show, cheap to compare: a new snapshot only when it changed."""
        if key == self._key and self.current is not None:
            return
        self._key = key
        self.current = self.build()
        for observer in list(self.observers):
            self._tell(observer, self.current)

    def _tell(self, observer: Observer, state: TableState) -> None:
        try:
            observer(state)
        except Exception:  # a view must never stop the game: say so once and stop feeding it
            log.exception("a view of the table failed and is no longer fed")
            self.observers.remove(observer)
