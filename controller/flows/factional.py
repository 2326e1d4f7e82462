"""The Factional Hannibal flow: the Honor tray and the buttons turned into the ledger's events.

Phases (a ``transitions`` machine, Enum states, queued, no auto transitions)::

    SETUP --tray as the engine says--> BOARD (the Honor board and the conductor's question)
    BOARD --OK at reinforcements--> DUTIES (dominance, duties; NEXT pages) --OK--> DEAL --OK--> BOARD
    BOARD --faction button / NEXT--> FORM (an event word by word) --OK--> CONFIRM --OK--> BOARD | OVER
    BOARD/DUTIES/DEAL --a chit moved--> (control event, stays)   --a chit off, quiet--> NOBODY
    any phase --a row with two chits, or the tray changed during an entry--> FIXUP --tray right--> (back)
    BOARD/DUTIES/FIXUP --BACK--> UNDO (FORM: "Take back last") --OK--> the event before (the tray follows)
                                      --BACK--> where it was
    BOARD/DUTIES/DEAL --the tray put back as before the last event--> UNDO (BACK: the chit moved is an event)

The tray is judged by the sensed-board loop every sensed game shares (``controller.sensed``): the
engine projects a chit on a new cell as the ``control`` event it is, so a chit moved is proven like a
piece moved on Hannibal's track; a row with two chits fits no event and is listed to put right after
the grace period; a chit off the tray for the grace period asks whether nobody holds the province; a
change while an event is being entered is a fix-up; stuck and dead reeds are named and ignored on the
players' word; and a tray put back as before the last event offers to take it back. This flow keeps
only what the tray means for the game: why the fix-up list is up, and the questions it asks. Every
other event comes from the buttons, built field by field from the engine's ``next_field``. The flow
never decides a rule, and journals (fsynced) every event before showing it; the die is a chance
outcome from the table's dice.

Any event since the last die can be taken back, one at a time, as Hannibal's and Cannon Ball's steps
are (an ``undo`` line journals the position before it): people press the wrong faction or enter a
battle's result wrongly. A die is never taken back, nor anything before it. A taken-back province
change leaves its chit on the wrong cell: the tray must then show the position again before any chit
is read as an event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Set
from enum import Enum
from typing import Any, Final

from controller.chance_entry import ChanceEntry, Entry
from controller.flows import FlowContext
from controller.flows import factional_screens as screens
from controller.journal import UNDO
from controller.referee import Stage
from controller.screen import Screen
from controller.sensed import SensedBoard, SensedFlow
from engines.base import Move
from engines.factional import HOLDERS, PROVINCES, Answer, Control, Die, Play, Reinforced, State, location
from engines.factional.table import side_of

FACTION = "faction:"  # the faction buttons: "faction:rome-silver"
DONE = ""  # a menu option: the words entered already make the whole event
CONFIRMED: Final = ("control", "discard", "end")
"""Events entered by hand whose effect is shown for an OK first (a battle shows it with its PCs)."""
CELLS: Final = {location(p, h): (p, h) for p in PROVINCES for h in HOLDERS}


class Phase(Enum):
    SETUP = "setup"
    BOARD = "board"
    DUTIES = "duties"
    DEAL = "deal"
    FORM = "form"
    CONFIRM = "confirm"
    NOBODY = "nobody"
    FIXUP = "fixup"
    UNDO = "undo"
    DIE = "die"
    OVER = "over"


OPEN: Final = (Phase.BOARD, Phase.DUTIES, Phase.DEAL, Phase.NOBODY)
"""Phases in which a chit moved on the tray is a control event; in the others an event is being entered
(or the tray set right) and the tray must stay as it is."""
STAGES: Final = {Phase.SETUP: Stage.SETUP, Phase.FIXUP: Stage.FIXUP, Phase.NOBODY: Stage.CHOOSE}
"""The phases that are more than play to the sensed-board loop ("nobody?" is a question of which event)."""
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": f"to_{p.value}", "source": [q for q in Phase if q is not Phase.OVER], "dest": p} for p in Phase]


def doubled_rows(seen: Set[str]) -> tuple[str, ...]:
    """Provinces whose row on the tray holds two chits or more: nothing can be read from them."""
    chits = Counter(CELLS[loc][0] for loc in seen if loc in CELLS)
    return tuple(p for p in PROVINCES if chits[p] > 1)


# -- the flow ----------------------------------------------------------------------------------------------

class FactionalFlow(SensedFlow[State]):
    """Consumes events from the loop; owns the engine state, the journal and what the screen says."""

    STATE = State
    state: Phase  # set by the transitions machine
    to_setup: Callable[[], bool]
    to_board: Callable[[], bool]
    to_duties: Callable[[], bool]
    to_deal: Callable[[], bool]
    to_form: Callable[[], bool]
    to_confirm: Callable[[], bool]
    to_nobody: Callable[[], bool]
    to_fixup: Callable[[], bool]
    to_undo: Callable[[], bool]
    to_die: Callable[[], bool]
    to_over: Callable[[], bool]

    def __init__(self, context: FlowContext) -> None:
        super().__init__(context)
        timing = context.profile.timing
        self.by_hand = context.profile.chance.by_hand  # the players roll their own die and key it in ([chance] by_hand)
        self.entry = ChanceEntry(sides=6, count=1)
        self.board = SensedBoard(self, self.loop, lambda: self.game, settle_s=timing.settle_s, grace_s=timing.grace_s,
                                 log=self._log, journal=self.journal,
                                 previous=lambda: self.ledger.steps[-1][0] if self.ledger.steps else None)
        self.referee = self.board.referee
        self.notice = ""
        self.reason = ""  # why the fix-up list is on screen
        self.back = Phase.BOARD  # where a fix-up or the "nobody?" question returns to
        self.undo_from = Phase.BOARD  # where "Take back?" was asked from: BACK returns there
        self.nobody = ""  # the province whose chit is off the tray
        # the entry in progress (FORM, CONFIRM)
        self.words: list[str] = []
        self.options: list[str] = []
        self.selected = 0
        self.pending: str | None = None  # a battle's faction: did its partner's Full General fight?
        self.number: int | None = None  # the PCs being counted
        self._opened = 0  # words the entry was opened with: BACK past them leaves it
        # after reinforced
        self.pages: list[tuple[str, tuple[str, ...]]] = []
        self.page = 0
        self.start_machine(Phase, TRANSITIONS, Phase.SETUP)

    @property
    def fixups(self) -> tuple[str, ...]:
        """The tray's fix-up list on screen (``lift LOC``, ``put 1 HOLDER on PROVINCE:HOLDER``), if any."""
        return self.referee.fixups if self.state in (Phase.SETUP, Phase.FIXUP) else ()

    def start(self) -> None:
        """Judge the tray as it stands: a new game and a resumed one both start by setting it up."""
        self.board.judge(settled=True)
        self.redraw()

    def on_exit_SETUP(self) -> None:  # named by transitions after the Enum member
        self.referee.clear_fixups()

    def on_exit_FIXUP(self) -> None:
        self.referee.clear_fixups()
        self.notice = ""  # what it said was about the tray, which is right now

    # -- the buttons --------------------------------------------------------------------------------------

    def press(self, button: str) -> None:
        self.notice = ""
        phase = self.state
        if phase is Phase.DIE:
            self._die_button(button)
        elif phase is Phase.UNDO:
            if button == "OK":
                self._undo()
            elif button == "BACK":
                self._keep()
        elif phase is Phase.BOARD:
            self._board_button(button)
        elif phase is Phase.FORM:
            self._form_button(button)
        elif phase is Phase.CONFIRM:
            if button == "OK":
                self._commit_entry()
            elif button == "BACK":
                self._back_a_word()
        elif phase is Phase.DUTIES:
            if button in ("NEXT", "PREV"):
                self.page = (self.page + (1 if button == "NEXT" else -1)) % len(self.pages)
                self.redraw()
            elif button == "OK":
                self.to_deal()
            elif button == "BACK":
                self._ask_undo()
        elif phase is Phase.DEAL:
            if button == "OK":
                self._settle()
            elif button == "BACK":
                self.to_duties()
        elif phase is Phase.NOBODY:
            if button == "OK" and self._tray_event(Control(self.nobody, None)):
                self._resume()
        elif phase is Phase.FIXUP and button == "BACK":
            self._ask_undo()  # a wrongly read event needs no putting right first
        elif phase in (Phase.SETUP, Phase.FIXUP) and button == "OK":
            self.board.ok_on_fixup()  # a sensor named as stuck or dead is ignored

    def _board_button(self, button: str) -> None:
        """The conductor's question: OK answers it, a faction button names a faction or its side, NEXT
        and PREV open the list of every event legal now, BACK offers to take back the last event (but
        answers an activation: a veto; the list offers the takeback there)."""
        g = self.game
        faction = button.removeprefix(FACTION) if button.startswith(FACTION) else None
        if button in ("NEXT", "PREV"):
            self._open_form([])
        elif button == "BACK" and g.phase != "activation":
            self._ask_undo()
        elif g.phase == "activation":
            if button in ("OK", "BACK"):
                self._commit(Answer(approve=button == "OK"))
                self._settle()
        elif g.phase == "reinforcements":
            if button == "OK":
                self._reinforced()
        elif g.phase == "initiative":
            if faction is not None:
                self._commit(g.parse_move(f"initiative {side_of(faction)}"))
                self._settle()
            elif button == "OK":
                self._open_form(["initiative"])
        elif g.playing is None:
            if button == "OK":
                self._open_form(["end"])
        elif faction is not None:
            if faction in g.next_field(["play"]).words:
                self._open_form(["play", faction])
            else:
                self.notice = (f"not {screens.SIDE_NAMES[side_of(faction)]}'s play" if side_of(faction) != g.playing
                               else f"{screens.metal(faction)} has no card")
                self.redraw()
        elif button == "OK":
            self._open_form(["play"])

    # -- entering an event with the buttons -----------------------------------------------------------------

    def _open_form(self, words: list[str]) -> None:
        self.words = list(words)
        self._opened = len(words)
        if self._refresh_form():
            self.to_form()

    def _refresh_form(self) -> bool:
        """Offer the next field's words (a side-or-partner choice as its own yes/no question), or count a
        number; finish the entry when the words make the whole event. True if the form is on screen."""
        field = self.game.next_field(self.words)
        self.pending, self.selected = None, 0
        self.number = 0 if field.number and not field.words else None
        bases = list(dict.fromkeys(w.split("/")[0] for w in field.words))
        bases.sort(key=lambda w: (w == "none", list(screens.EVENTS).index(w) if not self.words else 0))
        self.options = ([DONE] if field.complete and bases else []) + bases
        if not self.words and self.ledger.steps:
            self.options.append(UNDO)  # "Take back last": the one way to it while an activation is asked
        if field.complete and not bases:
            self._finish_entry()
            return False
        return True

    def _form_button(self, button: str) -> None:
        if self.number is not None:
            if button in ("NEXT", "PREV"):
                self.number = max(0, self.number + (1 if button == "NEXT" else -1))
                self.redraw()
            elif button == "OK":
                self._take_word(str(self.number))
            elif button == "BACK":
                self._back_a_word()
            return
        if button in ("NEXT", "PREV"):
            self.selected = (self.selected + (1 if button == "NEXT" else -1)) % len(self.options)
            self.redraw()
        elif button == "OK":
            self._choose(self.options[self.selected])
        elif button == "BACK":
            self._back_a_word()
        elif button.startswith(FACTION):
            faction = button.removeprefix(FACTION)
            for option in (faction, side_of(faction)):
                if option in self.options and self.pending is None:
                    self._choose(option)
                    return

    def _choose(self, option: str) -> None:
        if option == DONE:
            self._finish_entry()
            return
        if option == UNDO:
            self._ask_undo()
            return
        if self.pending is None:
            variants = [w for w in self.game.next_field(self.words).words if w.split("/")[0] == option]
            if len(variants) > 1:  # a faction that may have fought with its partner's Full General
                self.pending, self.options, self.selected = option, variants, 0
                self.redraw()
                return
            option = variants[0]
        self._take_word(option)

    def _take_word(self, word: str) -> None:
        self.words.append(word)
        if self._refresh_form():
            self.to_form()

    def _back_a_word(self) -> None:
        """BACK: the yes/no question, else the last word, else (at the words it was opened with) the entry."""
        if self.pending is None and len(self.words) <= self._opened:
            self._settle()
            return
        if self.pending is None:
            self.words.pop()
        self._refresh_form()
        self.to_form()

    def _finish_entry(self) -> None:
        if self.words[0] in CONFIRMED:
            self.to_confirm()
        else:
            self._commit_entry()

    def _entry(self) -> Move:
        return self.game.parse_move(" ".join(self.words))

    def _commit_entry(self) -> None:
        move = self._entry()
        before = self.game
        if not self._commit(move):
            return
        if isinstance(move, Reinforced):
            self._after_reinforced(before)
            return
        self._settle()
        self._follow("move the chit" if isinstance(move, Control) else "tray moved meanwhile")

    # -- the conductor --------------------------------------------------------------------------------------

    def _reinforced(self) -> None:
        before = self.game
        if self._commit(self.game.parse_move("reinforced")):
            self._after_reinforced(before)

    def _after_reinforced(self, before: State) -> None:
        self.pages = screens.duty_pages(before.dominant, self.game)
        self.page = 0
        self.to_duties()

    def _settle(self) -> None:
        """Go where the position asks: the ranking, a die (rolled at once, or keyed in from the players' own
        with ``[chance] by_hand``), or the Honor board."""
        if self.game.is_chance() and self.by_hand:
            self.entry = ChanceEntry(sides=6, count=1)
            self.to_die()
            return
        if self.game.is_chance():
            die = self.dice.roll(self.game)
            if not self._commit(die):
                return
            assert isinstance(die, Die)
            self.display.show(screens.die_screen(die.value), hold=True)
        if self.game.is_over():
            self.to_over()
        else:
            self.to_board()

    def _die_button(self, button: str) -> None:
        """The players' own die keyed in (``ChanceEntry``): journaled as entered, then play goes on."""
        if self.entry.press(button) is not Entry.DONE:
            self.redraw()  # BACK at the one value stays: the die is due, the ledger cannot go on without it
            return
        die = next(m for m, _ in self.game.chance_outcomes() if isinstance(m, Die) and m.value == self.entry.values[0])
        if self._commit(die, entered=True):
            self.display.show(screens.die_screen(die.value), hold=True)
            self._settle()

    def _resume(self) -> None:
        """Back to where the players were before a fix-up or the "nobody?" question."""
        back, self.back = self.back, Phase.BOARD
        if back is Phase.BOARD or self.game.is_over():
            self._settle()
        elif back is Phase.FORM:
            self.to_form()
        else:
            {Phase.CONFIRM: self.to_confirm, Phase.DUTIES: self.to_duties, Phase.DEAL: self.to_deal}[back]()

    # -- the tray, as the sensed-board loop asks -------------------------------------------------------------

    def board_stage(self) -> Stage | None:
        """"Take back?" and the die are answered first: the tray is judged where the answer leads."""
        if self.state in (Phase.OVER, Phase.UNDO, Phase.DIE):
            return None
        return STAGES.get(self.state, Stage.PLAY)

    def moves_allowed(self) -> bool:
        """A chit moved is a control event where the players are between events (and in a fix-up asked
        there: a chit moved on instead of back); while an event is entered the tray must stay as it is."""
        return self.state in OPEN or (self.state is Phase.FIXUP and self.back in OPEN)

    def board_right(self) -> None:
        if self.state is Phase.SETUP:
            self._settle()
        elif self.state is Phase.FIXUP:
            self._resume()

    def misplaced(self) -> bool:
        """Into the fix-up phase, saying why (from the "nobody?" question, back to where it was asked)."""
        if self.state is not Phase.NOBODY:
            self.back = self.state
        doubled = doubled_rows(self.referee.seen())
        self.reason = ("chit moved mid-entry" if self.back in (Phase.FORM, Phase.CONFIRM)
                       else f"{screens.province_name(doubled[0])}: 2 chits" if doubled else "")
        return self.to_fixup()

    def cancel(self) -> bool:
        """The tray changed under the "nobody?" question: back where it was asked."""
        self._resume()
        return True

    def commit(self, move: Move) -> None:
        assert isinstance(move, Control)  # the one kind of event a tray can show
        self._tray_event(move)

    def offer(self, candidates: tuple[Move, ...], unseen: bool) -> None:
        """A chit off the tray for the grace period: nobody holds the province now? A chit on a new cell
        whose old one emptied last is read as moved (the chit on the new cell is the proof). Two events leave
        the tray alike only when a reed the players declared broken is in the way (a chit off the tray, or on
        the broken cell): then the question is "nobody?", and the menu enters the other."""
        moves = [m for m in candidates if isinstance(m, Control)]
        held = [m for m in moves if m.holder is not None]
        move = next((m for m in moves if m.holder is None), held[0] if len(held) == 1 else None)
        if move is None:  # several cells read alike, every one a holder's: the players say which on the menu
            self.say(f"{screens.province_name(moves[0].province)}: which cell? enter it on the menu")
            return
        if move.holder is not None:
            self._tray_event(move)
        elif self.state is Phase.FIXUP:
            self.board.show_fixups(self.referee.fixup_list())  # a chit in the hand while the tray is put right
        elif self.state is not Phase.NOBODY:
            self.nobody, self.back = move.province, self.state
            self.referee.asking(candidates, manual=False)
            self.to_nobody()

    def takeback_offered(self) -> bool:
        """The tray put back as it stood before the last event: "Take back?" (BACK at it reads the chit
        moved as the event it also is)."""
        if self.state not in (Phase.BOARD, Phase.DUTIES, Phase.DEAL) or not self.ledger.steps:
            return False
        self._ask_undo()
        return True

    def _tray_event(self, move: Control) -> bool:
        """A chit moved: journal the control event, then name the province, the holder and the Honor change."""
        before = self.game
        if not self._commit(move):
            return False
        self.display.show(screens.control_screen(before, self.game, move.province), hold=True)
        self.redraw()
        return True

    def _follow(self, reason: str) -> None:
        """An event not read from the tray (entered with the buttons, or taken back): the tray must show
        the position before any chit is read again, and the fix-up list says how."""
        self.board.follow()
        if self.state is Phase.FIXUP:
            self.reason = reason
            self.redraw()

    # -- committing and taking back ---------------------------------------------------------------------

    def _commit(self, move: Move, entered: bool = False) -> bool:
        """Journal first (fsynced), then make it the position: a power cut never loses or re-rolls.
        ``entered``: a die the players keyed in from their own."""
        player = (self.game.current_player or "table") if isinstance(move, (Play, Answer)) else \
            "chance" if self.game.is_chance() else "table"
        if not self.saved(self.ledger.record(move, player, entered=entered)):  # the die: never taken back
            return False
        self.board.new_position()
        return True

    def _ask_undo(self) -> None:
        """"Take back?" with the event and the Honor it gives back: BACK alone must never undo anything."""
        if not self.ledger.steps:
            self.notice = "nothing to take back"  # a new game, or the die was rolled since
            self.redraw()
            return
        self.undo_from = self.state
        self.to_undo()

    def _keep(self) -> None:
        """BACK at "Take back?": where it was asked, and the tray judged as it stands now."""
        {Phase.BOARD: self.to_board, Phase.DUTIES: self.to_duties, Phase.DEAL: self.to_deal, Phase.FORM: self.to_form,
         Phase.FIXUP: self.to_fixup}[self.undo_from]()
        self.board.judge(settled=True)

    def _undo(self) -> None:
        """Back to the position before the last event (journaled as ``undo``, signed by the table, which
        keeps the ledger); an entry in progress goes with it, and the tray must follow the fix-up list."""
        previous, event = self.ledger.steps[-1]
        now = self.game
        failed = self.ledger.take_back("table")
        if failed is not None:
            self._keep()
            self.notice = failed
            self.redraw()
            return
        self.back = Phase.BOARD
        self.board.new_position()
        self.referee.clear_fixups()  # a fix-up it was asked from is judged afresh against the position
        self.display.show(screens.taken_back_screen(now, previous, event), hold=True)
        self._settle()
        self._follow("taken back: as listed")

    # -- screens ------------------------------------------------------------------------------------------

    def _fixup_head(self) -> str:
        """Over the fix-up list: a sensor named as stuck or dead (the list's first line names its cell),
        else a notice, else why the list is up."""
        if self.board.suspect is not None:
            return screens.STUCK_LINE
        return self.notice or (self.reason if self.state is Phase.FIXUP else "")

    def screen(self) -> Screen:
        g, phase = self.game, self.state
        if phase is Phase.SETUP:
            return screens.fixup_screen("Set up the Honor tray", self._fixup_head(), self.referee.fixups)
        if phase is Phase.FIXUP:
            return screens.fixup_screen("Fix the Honor tray", self._fixup_head(), self.referee.fixups)
        if phase is Phase.DIE:
            return screens.die_entry_screen(self.entry.prompt)
        if phase is Phase.DUTIES:
            return screens.duties_screen(self.pages[self.page], self.page, len(self.pages))
        if phase is Phase.DEAL:
            return screens.deal_screen(g)
        if phase is Phase.NOBODY:
            return screens.nobody_screen(self.nobody, g.control[self.nobody])
        if phase is Phase.UNDO:
            previous, event = self.ledger.steps[-1]
            return screens.undo_screen(g, previous, event)
        if phase is Phase.CONFIRM:
            after = g.clone()
            after.apply(self._entry())
            return screens.confirm_screen(g, after, " ".join(self.words))
        if phase is Phase.FORM:
            if self.number is not None:
                after = g.clone()
                after.apply(g.parse_move(" ".join([*self.words, str(self.number)])))
                return screens.pcs_screen(g, after, self.number)
            labels = [screens.suffix_label(o) if self.pending else screens.option_label(self.words, o)
                      for o in self.options]
            return screens.menu_screen(screens.step_title(g, self.words, self.pending), labels, self.selected)
        return screens.position_screen(g, self.notice)


def create(context: FlowContext) -> FactionalFlow:
    """The registry's flow factory."""
    return FactionalFlow(context)
