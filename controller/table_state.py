"""The table state: one immutable snapshot of the table after each event, that every view reads.

After a loop turn in which anything a view shows changed (a journal line, the screen, a sensor, the fix-up
list), the table builds one ``TableState`` and hands it to its observers: the terminal's board view
today, the web page and the far table next. A view never decides anything and never reaches into the
flow: what it may show is here. An observer that fails is logged and dropped, so a view can never stop
the game.

Secrets: ``screen`` is the public screen (what the OLED shows, but a screen private to a seat is there
only as "look away"), and ``private`` holds each seat's own screen for that seat's view alone. ``shown``
is the table's own screen as it is: only the OLED draws it (the seat whose secret it shows is the one at
the table reading it). Before a game is attached (the resume question, the self-test) the state holds the
screen and the sensors only.
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
    """A seat as the views name it, and who plays it: "person" at the table, "bot:mcts", "far table" (remote
    play), later "phone"."""

    seat: str
    name: str
    played_by: str


@dataclass(frozen=True)
class Line:
    """One journal line, as a view lists the last moves."""

    seq: int
    player: str
    move: str


def _empty() -> Mapping[Any, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class TableState:
    game: str
    screen: Screen | None  # the public screen: what the OLED shows, a seat's secret only as "look away"
    shown: Screen | None  # the table's own screen as it is (the OLED's alone)
    sensed: frozenset[str]  # locations whose sensors read closed
    seq: int = 0  # journal lines so far
    phase: str = ""  # the flow's phase ("roll", "march", "fixup", ...); empty: no game attached yet
    seats: tuple[Seat, ...] = ()
    to_move: str | None = None  # the seat whose decision it is (None: chance, the table itself, or the end)
    over: bool = False
    outcome: str = "nobody yet"  # who won, for people
    scores: Mapping[str, int | float] = field(default_factory=_empty)  # where the game keeps any
    expected: Mapping[str, tuple[str, int]] = field(default_factory=_empty)  # the engine's occupancy
    kinds: Mapping[str, str] = field(default_factory=_empty)  # a piece of a kind of its own there: a cannon
    ignored: frozenset[str] = frozenset()  # sensors the players declared broken
    fixups: tuple[str, ...] = ()  # what the screen tells the players to put right
    notice: str = ""  # the flow's notice, if any ("Fix the board before rolling")
    recent: tuple[Line, ...] = ()  # the last journal lines, oldest first
    link: str | None = None  # the board link's state, where the board is read over serial
    private: Mapping[str, Screen] = field(default_factory=_empty)  # each seat's own screen
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=_empty)  # what a seat may decide on its page
    forms: Mapping[str, Mapping[str, Any]] = field(default_factory=_empty)  # a seat's decision as a form to fill
    seen: frozenset[str] = frozenset()  # a self-test's: the locations seen closing, and working
    report: tuple[str, ...] = ()  # a self-test's report as it stands (its final one once ``over``)

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

    def seen_by(self, *seats: str) -> Screen | None:
        """What the person playing ``seats`` may read of the table's screen: a secret entry of one of them
        as it is, anything else as the public screen (another seat's secret only as "look away")."""
        shown = self.shown
        return shown if shown is not None and shown.private in seats else self.screen

    def name(self, seat: str | None) -> str:
        return next((s.name for s in self.seats if s.seat == seat), seat or "")


def public_move(line: Line, withheld: bool) -> str:
    """A journal line's move as anyone at the table may read it: while a game hides information
    (``withheld``: until its end), its kind alone (``bet``, ``deal``), never what a secret was."""
    return line.move.split(" ", 1)[0] if withheld else line.move


def look_away(name: str) -> Screen:
    """The public face of a screen private to one seat: whose it is, and that everyone else looks away."""
    return Screen(f"{name}: secret", (f"everyone but {name}", "look away!"), footer="secret")


Observer = Callable[[TableState], None]


class StateFeed:
    """Builds a snapshot after each loop turn in which something shown changed, and hands it on.
    ``key()`` is what the views show, cheap to compare: a new snapshot is built only when it changed."""

    def __init__(self, build: Callable[[], TableState], key: Callable[[], tuple[Any, ...]]) -> None:
        self.build = build
        self.key = key
        self.observers: list[Observer] = []
        self.current: TableState | None = None
        self._key: tuple[Any, ...] | None = None

    def watch(self, observer: Observer) -> None:
        self.observers.append(observer)
        if self.current is not None:
            self._tell(observer, self.current)

    def attach(self, build: Callable[[], TableState], key: Callable[[], tuple[Any, ...]]) -> None:
        """A game came onto the table (or left it): its state from now on, built at the next refresh."""
        self.build, self.key, self._key = build, key, None

    def refresh(self) -> None:
        key = self.key()
        if key == self._key:
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
