"""The sensed-board loop: the one way from sensor events to an applied move, shared by every sensed game.

The board referee (``controller.referee``) judges a sensed board against the engine's position; this
loop around it does everything else every sensed game needs, once: it takes the sensor and timer events
(``settle``, ``quiet``, ``stuck``), asks the referee at the right moments, and acts on its verdict through
the game's flow (``BoardGame``): a move to commit, candidates to offer, a fix-up list to show, the board
ready again. It names a sensor whose fix-up never clears (stuck closed, or dead under a piece) and lets
the players ignore it with OK; it offers a takeback when the board is put back to the position before
the last step; and it makes the board follow a move that did not come from the board (the menu, a bot,
a takeback), accepting nothing until the pieces show the position.

A flow asks only its own questions: where its phase stands for the board (``board_stage``), whether a
move may be made now, and what to do with a verdict. "Judge on settle only after a placement" is this
loop's rule for every game: a piece put down proves a move once the board has been still for the settle
time, a lift only once it has been quiet for the grace period, so a reed that closes for a moment (a
chattering reed) never becomes a move.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from controller.chance_entry import ChanceEntry, Entry
from controller.events import ButtonEvent, CellChanged, Event, Fault, Press, SeatDecision, TimerFired
from controller.flows import TableParts
from controller.journal import UNDO, Journal, JournalWriteError
from controller.loop import EventLoop
from controller.move_match import label
from controller.referee import Call, Referee, Stage, Verdict
from controller.screen import Screen
from engines.base import GameState, Move, acting_seat

S = TypeVar("S", bound=GameState)
log = logging.getLogger("boardkeeper")

STUCK = "stuck? OK = ignore it"  # what the screen says after the sensor's name
STAGES = {"setup": Stage.SETUP, "choose": Stage.CHOOSE, "fixup": Stage.FIXUP}  # a flow's phase -> the referee's


class BoardGame(Protocol):
    """What the loop asks of a game's flow: its questions and its answers to a verdict."""

    def board_stage(self) -> Stage | None: ...  # None: the board is not judged now (a question, a menu)

    def moves_allowed(self) -> bool: ...  # a move may be made on the board now (else it must stand still)

    def board_right(self) -> None: ...  # the board shows the position (after set-up, a fix-up, a follow)

    def misplaced(self) -> bool: ...  # the transition to the flow's fix-up phase

    def cancel(self) -> bool: ...  # leave the question on screen: the board changed under it

    def commit(self, move: Move) -> None: ...  # exactly this move was made on the board

    def offer(self, candidates: tuple[Move, ...], unseen: bool) -> None: ...  # ask which (unseen: OK, no fit)

    def takeback_offered(self) -> bool: ...  # the board is back at the last position: ask "Take back?"

    def say(self, notice: str) -> None: ...  # a notice on the screen (and in the log)

    def redraw(self) -> None: ...


class SensedFlow(TableParts[S]):
    """The part every flow judged by the sensed-board loop shares: the triggers its machine defines for the
    loop's verdicts (declared here for the type checker; the transitions machine adds them) and the notice
    the loop may put on the screen."""

    notice: str
    board_ready: Callable[[], bool]  # the board shows the position: play on (or the game is over)
    misplaced: Callable[[], bool]  # into the flow's fix-up phase
    cancel: Callable[[], bool]  # leave a question: back where the position says
    choose: Callable[[], bool]  # a question of which move is on screen
    committed: Callable[[], bool]  # a move or a takeback was applied: where the position leads
    ask_undo: Callable[[], bool]  # "Take back?"

    board: SensedBoard
    entry: ChanceEntry  # the players' own dice or spinner being keyed in

    def handle(self, event: Event) -> None:
        """The one dispatch of every sensed flow: the board's sensors and timers to the sensed-board loop,
        a press to the flow's buttons (or to the help pages while they are up), the flow's own timers to it,
        a fault said on the screen."""
        if self.board.handle(event):
            return
        if isinstance(event, ButtonEvent):
            if self._help_button(event):
                return
            if event.kind is Press.PRESS:
                if event.button in self.display.pages:
                    self._pressed_on = self.display.current
                self.press(event.button)
        elif isinstance(event, TimerFired):
            self.timer(event.name)
        elif isinstance(event, Fault):
            self.say(event.message)
        elif isinstance(event, SeatDecision):  # its answer goes to the page alone: a bet is no one else's
            why = self.decide(event.seat, event.move)
            log.info("%s's page: a decision %s", event.seat, "refused" if why else "taken")
            event.reply(why)

    def press(self, button: str) -> None:
        """A button pressed: what it means is the game's."""
        raise NotImplementedError

    _help: tuple[Screen, ...] = ()  # the held button's pages still to show, the one on screen first
    _pressed_on: Screen | None = None  # the screen the held button was pressed on

    def _help_button(self, event: ButtonEvent) -> bool:
        """Hold a button that has pages (``Display.pages``; NEXT: what the codes on the screen mean, PREV: the
        phones' seat codes when the web page is on): its pages over whatever the game shows, made for the
        screen the button was pressed on (the press itself acted first, as on every screen); NEXT turns the
        page, any other button puts the game's screen back. The presses that do so go no further."""
        if event.kind is Press.HOLD and event.button in self.display.pages:
            pages = self.display.pages[event.button](self._pressed_on or self.display.current or Screen(""))
            self._help = tuple(pages)
            self.display.overlay(self._help[0] if self._help else None, "help")
            return bool(self._help)
        if not self._help or event.kind is not Press.PRESS:
            return False
        self._help = self._help[1:] if event.button == "NEXT" else ()
        self.display.overlay(self._help[0] if self._help else None, "help")
        return True

    def choices(self, seat: str) -> tuple[str, ...]:
        """The decisions ``seat`` may make on its own page now, in the game's notation (none by default)."""
        return ()

    def form(self, seat: str) -> Mapping[str, Any] | None:
        """A decision of ``seat``'s too large for a button each (Scipio's organisation, its three cards), as a
        form its page fills in: ``title``, ``hint``, ``fields`` (each a ``label``, its ``choices`` and the
        ``value`` offered first) and ``move``, the notation the values fill (``place rome Y{0} P{1} G{2}``),
        sent to ``decide`` as any decision is. None: no such decision now (the default)."""
        return None

    def decide(self, seat: str, move: str) -> str | None:
        """A seat's own decision made on its page (a bet, a tip from its hand): taken as the same decision
        made with the buttons (None), or refused with why. A game with no secret decisions takes none."""
        return "this game takes no decisions from a seat's page"

    def timer(self, name: str) -> None:
        """One of the flow's own timers fired (a bot's turn, the spinner's frames); none by default."""

    def say(self, notice: str) -> None:
        """A notice on the screen and in the log (a fault, a stuck sensor, a refused roll)."""
        self.notice = notice
        self._log(notice)
        self.redraw()

    def stage(self) -> Stage:
        """What the flow's phase is to the referee, by its name: set-up, a question, a fix-up, or play."""
        return STAGES.get(self.state.value, Stage.PLAY)

    def taken_back(self) -> None:
        """The ledger went back a step: the pieces must follow (the fix-up list says how); if they were put
        back first, the screen says only that the step was taken back."""
        self.board.referee.taken_back()
        self.notice = "Taken back: put the pieces back"
        self.committed()
        self.board.follow()
        if self.state.value != "fixup":
            self.notice = "Taken back"
            self.redraw()

    # -- seats played at a far table (remote play) ------------------------------------------------------------

    FAR_PLAY = False  # a flow that can take a far table's lines (``takes_far``, ``far_line``) says so

    @property
    def far(self) -> frozenset[str]:
        """The seats a far table plays: their moves and rolls come from its journal lines."""
        return self.context.far

    def far_turn(self) -> bool:
        """A far seat acts now: nothing at this table may move or roll for it."""
        return acting_seat(self.game) in self.far

    def far_step_stands(self) -> bool:
        """With a far table, a step may be taken back only by its own table while its seat's turn goes on: after
        that, the far table may already have acted on it. Without one, nothing stands for that reason."""
        if not self.far or not self.ledger.steps:
            return False
        mover = acting_seat(self.ledger.steps[-1][0])
        return mover in self.far or mover != acting_seat(self.game)

    def wait_far(self, why: str, always: bool = False) -> None:
        """While a far seat acts (or ``always``), the screen says what the table waits for (``why``: the link's
        state, the code the far table joins with); a notice of the flow's own (a fault) is not covered, and the
        words go when the wait ends."""
        waiting = always or (self.far_turn() and self.far_ready())  # not while the players follow the last line
        words = why if waiting else ""
        if self.notice != words and self.notice in ("", self._far_words):
            self.notice = words
            self.redraw()
        self._far_words = words

    _far_words = ""  # what ``wait_far`` last put on the screen

    def takes_far(self, line: Mapping[str, Any]) -> bool:
        """The far table's next line can be applied now: it is that seat's turn (a takeback: its own last step)
        and this table's board shows the position, its players done with the last line's pieces."""
        player, acting = line["player"], acting_seat(self.game)
        if acting not in self.far or not self.far_ready():
            return False
        if line["move"] == UNDO:
            return bool(self.ledger.steps) and acting_seat(self.ledger.steps[-1][0]) == player == acting
        # a chance outcome is signed by the seat that drew it, or "chance" (every game's own signature)
        return bool(player == acting or (player == "chance" and self.game.is_chance()))

    def far_ready(self) -> bool:
        """The players are done with the last line: the board is judged as in play, and shows the position."""
        return self.board.game.board_stage() is Stage.PLAY and self.board.referee.board_matches()

    def far_line(self, line: Mapping[str, Any]) -> bool:
        """Apply the far table's line (``takes_far`` said it may be) and journal it as this table's own copy: a
        step the board must then follow, a roll shown, a takeback put back. False if it could not be saved."""
        player, move = line["player"], line["move"]
        player = acting_seat(self.game) or player  # the seat that drew a chance outcome signed "chance"
        name = self.context.seat_names[player]
        who = f"{name} (far table)" if name == player else f"{player} ({name}, far table)"
        seq = self.journal.seq
        if move == UNDO:
            step = self.ledger.steps[-1][1]
            if not self.saved(self.ledger.take_back(player)):
                return False
            log.info("%s took back %s: put the pieces back", who, step)
            self.taken_back()
            return True
        chance, board = self.game.is_chance(), self.game.occupancy()
        self.apply_far(self.game.parse_move(move), player, entered=bool(line.get("entered")))
        if self.journal.seq > seq and not chance:
            if self.game.occupancy() != board:
                log.info("%s moved %s: move it on your board", who, move)
            else:
                log.info("%s played %s", who, move)
        return self.journal.seq > seq

    def apply_far(self, move: Move, player: str, entered: bool) -> None:
        """A far seat's move or roll, applied as the flow applies a bot's: the board must follow."""
        raise NotImplementedError

    def key_in(self, button: str, refused: str) -> list[int] | None:
        """A press while the players key in their own dice or spinner (``entry``): the values once all are in
        and the board is right (else ``refused`` says why, with the fix-up list); None meanwhile. Leaving or
        finishing the entry leaves its phase (``cancel``)."""
        said = self.entry.press(button)
        if said is Entry.CHANGED:
            self.redraw()
        elif said is not None:
            self.cancel()
            if said is Entry.DONE and self.board.refuse_unless_right(refused):
                return self.entry.values
        return None


class SensedBoard:
    """The referee and the loop around it, for one flow. ``previous()`` is the position before the last step
    that may still be taken back (None: none may), for the takeback offer."""

    def __init__(self, game: BoardGame, loop: EventLoop, position: Callable[[], GameState], *, settle_s: float,
                 grace_s: float, log: Callable[[str], None], journal: Journal,
                 previous: Callable[[], GameState | None] = lambda: None,
                 alternative: Callable[[GameState, Move], Move | None] | None = None) -> None:
        self.game = game
        self.loop = loop
        self.log = log
        self.journal = journal
        self.previous = previous
        self.referee = Referee(loop, position, settle_s=settle_s, grace_s=grace_s, alternative=alternative)
        self.suspect: str | None = None  # a sensor named as maybe stuck or dead: OK ignores it
        self._offered: GameState | None = None  # the position whose takeback was offered (once each)

    # -- events -------------------------------------------------------------------------------------------

    def handle(self, event: object) -> bool:
        """A sensor or one of the loop's timers: True if it was the board's (the flow need not look)."""
        if isinstance(event, CellChanged):
            if event.location is not None:
                self.referee.record(event)
                # judged now only to notice the board leaving a question or coming right after a fix-up;
                # a move is proven by the settle timer after a placement
                self.judge()
            return True
        if isinstance(event, TimerFired) and event.name in ("settle", "quiet", "stuck"):
            if event.name == "stuck":
                self._name_stuck()
            elif event.name == "quiet" or self.referee.last_placed:
                self.judge(settled=True)
            return True
        return False

    def ok_on_fixup(self) -> bool:
        """OK while a fix-up list is up: ignore the sensor named as stuck, if one is. True if it was."""
        location = self.suspect or self.referee.stuck_location()
        if location is None:
            return False
        ignore_sensor(self.referee, self.journal, self.log, location)
        self.suspect = None
        self.judge(settled=True)
        return True

    # -- judging ------------------------------------------------------------------------------------------

    def judge(self, *, settled: bool = False, pressed_ok: bool = False) -> None:
        """Ask the referee what the players did, and act on it through the flow."""
        stage = self.game.board_stage()
        if stage is None:
            return
        verdict = self.referee.judge(stage, moves_allowed=self.game.moves_allowed(), placed=False, settled=settled,
                                     pressed_ok=pressed_ok)
        if verdict.call is Call.STALE:
            self.game.cancel()  # the board changed under the question: judge it afresh
            verdict = self.referee.judge(Stage.PLAY, moves_allowed=True, placed=False, settled=settled,
                                         pressed_ok=pressed_ok)
        self._act(verdict)

    def _act(self, verdict: Verdict) -> None:
        # the board at the position before the last step is a takeback offer, whether it fits no move (a fix-up)
        # or a legal one too (a chit moved back to its old holder, a march step back to the box it left)
        if verdict.call in (Call.MOVE, Call.FIXUP) and self._back_to_previous() and self.game.takeback_offered():
            return
        if verdict.call is Call.READY:
            self.suspect = None
            self.game.board_right()
        elif verdict.call is Call.MOVE and verdict.move is not None:
            self.game.commit(verdict.move)
        elif verdict.call in (Call.OFFER, Call.UNSEEN):
            self.game.offer(verdict.candidates, unseen=verdict.call is Call.UNSEEN)
        elif verdict.call is Call.FIXUP:
            self.show_fixups(verdict.fixups)

    def _back_to_previous(self) -> bool:
        """The sensed board is the position before the last step: the players put that step back."""
        before = self.previous()
        if before is None or before is self._offered or not put_back(self.referee, before):
            return False  # nothing to take back, or asked once already
        self._offered = before
        return True

    def show_fixups(self, fixups: tuple[str, ...]) -> None:
        """The fix-up list on screen, in the flow's fix-up phase (entered if it is elsewhere)."""
        if self.game.board_stage() not in (Stage.FIXUP, Stage.SETUP):
            self.game.misplaced()
        if self.referee.post_fixups(fixups):
            self.game.redraw()

    def refuse_unless_right(self, notice: str) -> bool:
        """Chance is drawn only on a board that shows the position: else say ``notice`` and list the fix-ups.
        True if the board is right."""
        if self.referee.board_matches():
            return True
        self.game.say(notice)
        self.show_fixups(self.referee.fixup_list())
        return False

    def follow(self) -> None:
        """After a takeback or a move that did not come from the board (the menu, a bot), the pieces must
        follow: say how, at once, and accept no move until the board shows the position."""
        fixups = self.referee.follow()
        if fixups is not None:
            self.show_fixups(fixups)

    def new_position(self) -> None:
        self.suspect = None
        self.referee.new_position()

    def _name_stuck(self) -> None:
        """A fix-up list unchanged for long: its first wrong location's sensor may be stuck or dead."""
        location = self.referee.stuck_location()
        if location is not None and self.game.board_stage() in (Stage.FIXUP, Stage.SETUP):
            self.suspect = location
            self.game.say(f"sensor {label(location)} {STUCK}")


def put_back(referee: Referee, before: GameState) -> bool:
    """The sensed board shows ``before`` (the position before the last step), which the position now does
    not: the players put that step back, and a takeback is offered. Never while the board is still
    following a step (``restoring``): it shows the old position only because the pieces have not moved yet."""
    def shown(position: GameState) -> frozenset[str]:
        return frozenset(loc for loc, (_, n) in position.occupancy().items() if n > 0) - referee.ignored

    earlier = shown(before)
    return not referee.restoring and referee.seen() == earlier and earlier != shown(referee.position())


def ignore_sensor(referee: Referee, journal: Journal, log: Callable[[str], None], location: str) -> None:
    """The players say the sensor at ``location`` is broken: it takes no part from now on, and the log and
    the journal (a note, no move) say so, so the game's record tells why the board was judged without it."""
    referee.ignore(location)
    said = f"sensor {location} ignored on the players' word: stuck or dead"
    log(said)
    try:
        journal.note(said)
    except JournalWriteError as e:
        log(e.strerror or str(e))
