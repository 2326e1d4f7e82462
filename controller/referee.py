"""The board referee: the game-agnostic judge of a sensed board (DESIGN.md, "The board referee").

Every game whose pieces are sensed shares it. It owns what the sensors said (the sensed occupancy, the
locations touched during the move, the sensors the players declared broken), the settle, quiet and stuck
timers, the projection of every legal move, which question is on screen (the candidates it asked about)
and the fix-up list. A flow tells it which stage the game is at and asks "what did the players do?"; the
answer is a ``Verdict``: nothing yet, the board is ready, a move, a choice to offer, a move nobody could
see, a fix-up list, or a stale question. The flow keeps only its game's decisions and screens.

Timers it sets on the loop, by name: ``settle`` (a piece was put down and the board went quiet),
``quiet`` (the grace period after the last change) and ``stuck`` (a fix-up list unchanged too long);
the flow passes them back through ``judge`` and ``stuck_location``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from controller.events import CellChanged
from controller.loop import EventLoop
from controller.move_match import Kind, Projection, fixup_list, kinds_of, label, move_match, occupied
from engines.base import GameState, Move

STUCK_S = 20.0  # a fix-up unchanged this long names the sensor as possibly stuck


class Stage(Enum):
    """Where the flow is, as far as judging the board goes."""

    SETUP = "setup"  # before play: the board must be set up as listed, at once
    PLAY = "play"  # a move may be made
    CHOOSE = "choose"  # a question about which move is on screen
    FIXUP = "fixup"  # a fix-up list is on screen


class Call(Enum):
    NONE = "none"  # nothing to do yet
    READY = "ready"  # the board shows the position: play may go on
    MOVE = "move"  # exactly this move was made: commit it
    OFFER = "offer"  # the sensors cannot tell these apart: ask which
    UNSEEN = "unseen"  # OK on a board that fits no move: ask which move was made (a sensor may be lying)
    FIXUP = "fixup"  # put the board right as listed
    STALE = "stale"  # the board changed under the question on screen: leave it, then judge again


@dataclass(frozen=True)
class Verdict:
    call: Call
    move: Move | None = None
    candidates: tuple[Move, ...] = ()
    fixups: tuple[str, ...] = ()


NOTHING = Verdict(Call.NONE)


class Referee:
    """Judges the sensed board against the engine's position (``position()``, read when judging).

    ``alternative(state, move)`` names a game's move whose first piece down the sensors cannot tell from
    ``move`` (a stack moved a piece at a time): the first piece down is then no proof, and both are asked.
    """

    def __init__(self, loop: EventLoop, position: Callable[[], GameState], *, settle_s: float, grace_s: float,
                 alternative: Callable[[GameState, Move], Move | None] | None = None) -> None:
        self.loop = loop
        self.position = position
        self.settle_s = settle_s
        self.grace_s = grace_s
        self.alternative = alternative
        self.sensed: set[str] = set()
        self.touched: set[str] = set()
        self.ignored: set[str] = set()  # sensors the players told us to ignore (stuck)
        self.fixups: tuple[str, ...] = ()
        self.restoring = False  # after a takeback or a menu move: the board must follow before play goes on
        self.last_placed = False
        self._last_location = ""
        self._last_change: float | None = None  # when a sensor last changed since the last commit
        self._projection: Projection | None = None
        self._fits: tuple[Move, ...] = ()
        self._manual = False  # the question on screen was opened from the menu, not asked by the board
        self._fixup_since: tuple[tuple[str, ...], float] | None = None

    # -- what the sensors say -----------------------------------------------------------------------------

    def sense(self, event: CellChanged) -> bool:
        """Keep the sensed occupancy up to date; False for a cell that is no location (a button)."""
        if event.location is None:
            return False
        if event.closed:
            self.sensed.add(event.location)
        else:
            self.sensed.discard(event.location)
        return True

    def record(self, event: CellChanged) -> None:
        """A sensor changed during a move: remember it and (re)start the settle and quiet timers."""
        if not self.sense(event) or event.location is None:
            return
        self.touched.add(event.location)
        self.last_placed = event.closed
        self._last_location = event.location
        self.loop.set_timer("settle", self.settle_s)
        self.loop.set_timer("quiet", self.grace_s)
        self._last_change = event.at

    def projection(self) -> Projection:
        if self._projection is None:
            game = self.position()
            moves = [] if game.is_chance() or game.is_over() else game.legal_moves()
            self._projection = Projection.of(game, moves)
        return self._projection

    def seen(self) -> frozenset[str]:
        """The sensed board, without the sensors the players declared broken."""
        return frozenset(self.sensed - self.ignored)

    def missing(self) -> tuple[str, ...]:
        """Locations that should hold pieces but read empty: what a game that senses only "empty or not"
        (Scipio's formations) checks, without projecting any move."""
        expected = {loc for loc, (_, n) in self.position().occupancy().items() if n > 0}
        return tuple(sorted(expected - self.sensed - self.ignored))

    def expected(self) -> frozenset[str]:
        """The locations the position says hold pieces: read from the engine's occupancy alone (no legal
        move is projected for a board that must only stand still)."""
        return occupied(self.position().occupancy())

    def board_matches(self) -> bool:
        return self.seen() == self.expected() - self.ignored

    def fixup_list(self) -> tuple[str, ...]:
        position = self.position()
        return fixup_list(position.occupancy(), self.seen(), frozenset(self.ignored), kinds_of(position))

    def grace_over(self) -> bool:
        """The board has been quiet for the grace period: whoever was moving has stopped (a stack moved by
        hand, a piece at a time, takes longer than any single gesture, so quiet counts, not the first change)."""
        return self._last_change is None or self.loop.clock.now() - self._last_change >= self.grace_s - 1e-9

    # -- the position changes -----------------------------------------------------------------------------

    def taken_back(self) -> None:
        """The position went back a step: project it afresh; the pieces will follow."""
        self._projection = None
        self.touched.clear()

    def new_position(self) -> None:
        """A move or roll was committed: a fresh start for the next move."""
        self.taken_back()
        self.fixups = ()
        self.loop.cancel_timer("settle")
        self.loop.cancel_timer("quiet")
        self._last_change = None

    def asking(self, candidates: tuple[Move, ...], manual: bool) -> None:
        """The flow put these candidates on screen (``manual``: the players opened the list)."""
        self._manual = manual
        self._fits = candidates

    # -- judging ------------------------------------------------------------------------------------------

    def judge(self, stage: Stage, *, moves_allowed: bool, placed: bool, settled: bool = False,
              pressed_ok: bool = False) -> Verdict:
        """What the players did, given the board now. ``placed``: a piece was just put down; ``settled``:
        the board has been quiet for the settle or grace time; ``pressed_ok``: OK was pressed. A board
        mid-move is not a mistake yet, and silence never becomes a move by itself."""
        if self.restoring or not moves_allowed:
            return self._judge_still(stage, settled)
        projection = self.projection()
        match = move_match(projection, self.seen(), self.touched, settled=settled, ok=pressed_ok,
                           ignored=frozenset(self.ignored))
        if stage is Stage.CHOOSE and not self._manual and set(match.candidates) != set(self._fits):
            return Verdict(Call.STALE)
        if match.kind is Kind.IDLE:
            if settled:
                self.touched.clear()
            if stage is Stage.FIXUP:
                return Verdict(Call.READY)
            return self._unseen() if pressed_ok else NOTHING
        if match.kind is Kind.MOVE and match.move is not None:
            move = match.move
            alternative = self.alternative(self.position(), move) if self.alternative is not None else None
            if alternative is not None:
                # a stack may be moving one piece at a time: the first piece down is no proof
                return Verdict(Call.OFFER, candidates=(move, alternative)) if settled or pressed_ok else NOTHING
            if pressed_ok or ((placed or (settled and self.last_placed))
                              and projection.placing_proves(move, self._last_location)):
                return Verdict(Call.MOVE, move)
            # only lifts seen: a piece may still be in the hand, so ask
            return Verdict(Call.OFFER, candidates=(move,)) if settled else NOTHING
        if match.kind is Kind.CHOOSE and (settled or pressed_ok):
            if stage is not Stage.CHOOSE or self._fits != match.candidates:
                return Verdict(Call.OFFER, candidates=match.candidates)
            return NOTHING
        if match.kind in (Kind.FIXUP, Kind.PENDING) and pressed_ok:
            return self._unseen()
        if match.kind is Kind.FIXUP and self.grace_over():
            return Verdict(Call.FIXUP, fixups=self.fixup_list())
        return NOTHING

    def _judge_still(self, stage: Stage, settled: bool) -> Verdict:
        """No move may happen now (set-up, a roll due, the board following a takeback): the board must
        show the engine's position."""
        if self.board_matches():
            self.touched.clear()
            self.restoring = False
            return Verdict(Call.READY)
        if stage is Stage.SETUP or self.restoring or self.grace_over():
            return Verdict(Call.FIXUP, fixups=self.fixup_list())
        return NOTHING

    def _unseen(self) -> Verdict:
        """OK on a board that fits no move (a dead sensor under the piece, a stuck one elsewhere): the
        moves leaving the lifted places first, else those the board shows, else every legal move."""
        projection = self.projection()
        lifted = projection.before_set - self.ignored - self.seen()
        moves = tuple(m for m, _, changed in projection.after if lifted and lifted <= changed)
        hidden = tuple(m for m, after, _ in projection.after if after - self.ignored == self.seen())
        return Verdict(Call.UNSEEN, candidates=moves or hidden or tuple(self.position().legal_moves()))

    def follow(self) -> tuple[str, ...] | None:
        """After a takeback or a menu move the pieces must follow: the list, or None if they already do."""
        if self.position().is_over() or self.board_matches():
            return None
        self.restoring = True
        return self.fixup_list()

    # -- fix-ups and stuck sensors ------------------------------------------------------------------------

    def post_fixups(self, fixups: tuple[str, ...]) -> bool:
        """The fix-up list on screen; True if it changed (the stuck timer starts over)."""
        if fixups == self.fixups:
            return False
        self.fixups = fixups
        self._fixup_since = (fixups, self.loop.clock.now())
        self.loop.set_timer("stuck", STUCK_S)
        return True

    def clear_fixups(self) -> None:
        self.fixups = ()
        self._fixup_since = None
        self.loop.cancel_timer("stuck")

    def stuck_location(self) -> str | None:
        """A fix-up list unchanged for STUCK_S: the first location it names may have a sensor stuck closed
        ("lift N" that never clears) or dead ("put N yellow on X" that never registers)."""
        if self._fixup_since is None or self.loop.clock.now() - self._fixup_since[1] < STUCK_S:
            return None
        wrong = self.seen() ^ (self.expected() - self.ignored)
        for instruction in self.fixups:
            named = instruction.split()[-1]  # "lift 17", "put 1 on lane:noiro:3": a label or the location
            location = next((loc for loc in wrong if named in (loc, label(loc))), None)
            if location is not None:
                return location
        return None

    def ignore(self, location: str) -> None:
        """The players say this sensor is broken: it takes no part from now on."""
        self.ignored.add(location)
