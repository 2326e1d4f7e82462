"""One flow per game: a transitions state machine turning sensed events into engine moves.

A game's flow module offers ``create(context) -> Flow``, named in its registry entry; the composition
root hands it a ``FlowContext`` and drives it only through the ``Flow`` protocol, so no generic module
knows which game is on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from transitions import Machine

from controller.dice import Dice
from controller.display import Display
from controller.events import Event
from controller.help import explain
from controller.journal import Journal
from controller.ledger import Ledger
from controller.loop import EventLoop
from controller.referee import Referee
from controller.screen import Screen
from engines.base import GameState
from engines.registry import get_game
from hw_config import Profile

S = TypeVar("S", bound=GameState)

if TYPE_CHECKING:  # the bots are built by the composition root: a flow only asks them to choose
    from engines.bots.match import Bot


@dataclass
class FlowContext:
    """Everything a flow is built from: the position (resumed or new), where it is journaled, the table's
    screen, loop and dice, the board profile, the steps since the last chance event (what BACK may
    still take back after a resume), where faults are reported, and the seats a bot plays at this table
    (``bots``, seat -> bot, built with its time budget by the composition root; empty: people only). Only a
    flow whose registry entry says ``table_bots`` is given any. ``far``: the seats a far table plays (remote
    play, ``controller.remote.play``), given only to a flow that can take their lines (``FarPlay``)."""

    game: GameState
    journal: Journal
    display: Display
    loop: EventLoop
    dice: Dice
    profile: Profile
    history: list[tuple[GameState, str]] = field(default_factory=list)
    on_fault: Callable[[str], None] | None = None
    bots: Mapping[str, Bot] = field(default_factory=dict)
    far: frozenset[str] = frozenset()  # seats played at a far table (remote play): their lines come from there

    @property
    def seat_names(self) -> dict[str, str]:
        """Each seat as the screens name it: the profile's ``[seats]``, else the engine's seat. Only
        screens use it; the journal and the engine keep the seats."""
        return {seat: self.profile.seats.get(seat, seat) for seat in self.game.players}


class TableParts(Generic[S]):
    """What every flow holds of the table (the journal, the screen, the loop, the dice, the profile, where
    faults go) and what every flow does with them the same way: its ``transitions`` machine (Enum states,
    queued, no auto transitions, the screen redrawn after each change), its phase, whether it is done,
    report a fault, and draw its own screen. The position is the ledger's (``controller.ledger``: journal
    first, the steps that may be taken back). A flow is built from the ``FlowContext`` alone, so the
    registry's flow factory is the flow's class."""

    state: Enum  # set by the transitions machine
    STATE: type[S]  # the game's own State class: the position a flow is handed must be one
    notice: str  # what the screen says over the flow's own lines (a fault, a refused step)

    def __init__(self, context: FlowContext) -> None:
        game = context.game
        assert isinstance(game, self.STATE), f"{type(self).__name__} needs a {self.STATE.__name__}"
        self.context = context
        self.display = context.display
        self.loop = context.loop
        self.dice = context.dice
        self.profile = context.profile
        self.on_fault = context.on_fault
        steps = [(s, move) for s, move in context.history if isinstance(s, self.STATE)]
        self.ledger = Ledger(game, context.journal, steps, self._log)
        title = get_game(context.profile.game).title
        self.display.pages["NEXT"] = lambda screen: explain(screen, title)  # hold NEXT: the screen's codes

    @property
    def game(self) -> S:
        """The position (the ledger's)."""
        return self.ledger.game

    @property
    def journal(self) -> Journal:
        """Where the position's steps are recorded (the ledger's)."""
        return self.ledger.journal

    def game_over(self) -> bool:
        """The condition every flow's machine asks before anything else: the game has ended."""
        return bool(self.game.is_over())

    def saved(self, failed: str | None) -> bool:
        """A line journaled (True), or not: then the screen says why (``failed``) and nothing was applied."""
        if failed is not None:
            self.notice = failed
            self.redraw()
        return failed is None

    def start_machine(self, states: type[Enum], transitions: list[dict[str, Any]], initial: Enum) -> None:
        self.machine = Machine(model=self, states=states, transitions=transitions, initial=initial, queued=True,
                               auto_transitions=False, after_state_change="redraw")

    @property
    def phase(self) -> Enum:
        return self.state

    @property
    def done(self) -> bool:
        """The result is up: the table may stop its loop (``Table.finished``)."""
        return bool(self.state.value == "over")

    @property
    def seq(self) -> int:
        """Journal lines so far: changes with every move, chance event and takeback."""
        return self.journal.seq

    def _log(self, message: str) -> None:
        if self.on_fault is not None:
            self.on_fault(message)

    def screen(self) -> Screen:
        raise NotImplementedError  # each game's flow draws its own

    def redraw(self) -> None:
        self.display.show(self.screen())


class Flow(Protocol):
    """What the table, the demo, the terminal and the scripted players see of any game's flow. A view reads
    none of it directly: the table state (``controller.table_state``) is built from it."""

    notice: str  # a message the screen shows over the flow's own lines ("Fix the board before rolling")
    referee: Referee  # the sensed board's judge: the sensors the players declared broken (``ignored``)

    @property
    def game(self) -> Any: ...  # the game's own State: scripted players read it as people read the board

    @property
    def phase(self) -> Enum: ...

    @property
    def seq(self) -> int: ...

    @property
    def fixups(self) -> tuple[str, ...]: ...  # what the screen tells the players to put right, if anything

    @property
    def far(self) -> frozenset[str]: ...  # the seats a far table plays (remote play)

    @property
    def done(self) -> bool: ...  # the game is over and its end is on screen (the last spin turned, payouts read)

    def start(self) -> None: ...

    def choices(self, seat: str) -> tuple[str, ...]: ...  # what the seat may decide on its own page now

    def form(self, seat: str) -> Mapping[str, Any] | None: ...  # a decision too large for buttons, as a form

    def handle(self, event: Event) -> None: ...
