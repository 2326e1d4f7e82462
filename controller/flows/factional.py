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

The tray is judged by ``controller.referee.Referee`` (the sensed cells, the settle and grace timers,
sensors declared broken); what a row means is this game's: one chit on a new cell is a ``control``
event, two chits or a change while an event is being entered is a fix-up, and nothing is applied while
a row is ambiguous. Every other event comes from the buttons, built field by field from the engine's
``next_field``. The flow never decides a rule, and journals (fsynced) every event before showing it;
the die is a chance outcome from the table's dice.

Any event since the last die can be taken back, one at a time, as Hannibal's and Cannon Ball's steps
are (an ``undo`` line journals the position before it): people press the wrong faction or enter a
battle's result wrongly. A die is never taken back, nor anything before it. A taken-back province
change leaves its chit on the wrong cell: the tray must then show the position again before any chit
is read as an event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from controller.chance_entry import ChanceEntry, Entry
from controller.events import ButtonEvent, CellChanged, Event, Fault, Press, TimerFired
from controller.flows import FlowContext, TableParts
from controller.flows import factional_screens as screens
from controller.journal import UNDO
from controller.referee import Referee
from controller.screen import Screen
from controller.sensed import ignore_sensor, put_back
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
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": f"to_{p.value}", "source": [q for q in Phase if q is not Phase.OVER], "dest": p} for p in Phase]


# -- reading the tray --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TrayReading:
    """What the sensed tray says, row by row, against the engine's holders."""

    moved: tuple[Control, ...] = ()  # rows whose one chit sits on another cell: a province changed hands
    lifted: tuple[str, ...] = ()  # held rows that read empty: a chit in the hand, or taken off
    doubled: tuple[str, ...] = ()  # rows with two chits or more: nothing can be read from them

    @property
    def matches(self) -> bool:
        return not (self.moved or self.lifted or self.doubled)


def read_tray(control: Mapping[str, str | None], seen: Set[str], ignored: Set[str]) -> TrayReading:
    """Each row on its own: a cell declared broken that should hold the chit counts as holding it."""
    rows: dict[str, list[str]] = {p: [] for p in control}
    for loc in seen:
        if loc in CELLS:
            row, cell_holder = CELLS[loc]
            rows[row].append(cell_holder)
    moved: list[Control] = []
    lifted: list[str] = []
    doubled: list[str] = []
    for province, holder in control.items():
        here = rows[province]
        if len(here) > 1:
            doubled.append(province)
        elif here and here[0] != holder:
            moved.append(Control(province, here[0]))
        elif not here and holder is not None and location(province, holder) not in ignored:
            lifted.append(province)
    return TrayReading(tuple(moved), tuple(lifted), tuple(doubled))


def tray_fixups(control: Mapping[str, str | None], seen: Set[str], ignored: Set[str]) -> tuple[str, ...]:
    """Row by row, what to lift and where to put a chit (``lift LOC``, ``put 1 on LOC``)."""
    out: list[str] = []
    for province, holder in control.items():
        want = location(province, holder) if holder is not None else None
        out += [f"lift {cell}" for h in HOLDERS if (cell := location(province, h)) in seen and cell != want]
        if want is not None and want not in seen and want not in ignored:
            out.append(f"put 1 on {want}")
    return tuple(out)


# -- the flow ----------------------------------------------------------------------------------------------

class FactionalFlow(TableParts[State]):
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
        self.referee = Referee(self.loop, lambda: self.game, settle_s=timing.settle_s, grace_s=timing.grace_s)
        self.notice = ""
        self.reason = ""  # why the fix-up list is on screen
        self.suspect: str | None = None  # a sensor named as maybe stuck: OK ignores it
        self.back = Phase.BOARD  # where a fix-up or the "nobody?" question returns to
        self.undo_from = Phase.BOARD  # where "Take back?" was asked from: BACK returns there
        self._offered: State | None = None  # the position whose takeback the tray offered (once each)
        self.nobody = ""  # the province whose chit is off the tray
        # the entry in progress (FORM, CONFIRM)
        self.words: list[str] = []
        self.options: list[str] = []
        self.selected = 0
        self.pending: str | None = None  # a battle's faction: did its partner's Full General fight?
        self.number: int | None = None  # the PCs being counted
        self._opened = 0  # words the entry was opened with: BACK past them leaves it
        self._opened_at = 0.0  # when the entry was opened
        self._tray_at = -1.0  # when a tray sensor last changed
        # after reinforced
        self.pages: list[tuple[str, tuple[str, ...]]] = []
        self.page = 0
        self.start_machine(Phase, TRANSITIONS, Phase.SETUP)

    @property
    def fixups(self) -> tuple[str, ...]:
        """The tray's fix-up list on screen (``lift LOC``, ``put 1 on LOC``), if any."""
        return self.referee.fixups if self.state in (Phase.SETUP, Phase.FIXUP) else ()

    def start(self) -> None:
        """Judge the tray as it stands: a new game and a resumed one both start by setting it up."""
        self._judge()
        self.redraw()

    # -- events -------------------------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, CellChanged):
            if event.location is not None:
                self.referee.record(event)
                self._tray_at = event.at
        elif isinstance(event, ButtonEvent):
            if event.kind is Press.PRESS:
                self._button(event.button)
        elif isinstance(event, TimerFired):
            if event.name in ("settle", "quiet"):
                self._judge()
            elif event.name == "stuck":
                self._name_stuck_sensor()
        elif isinstance(event, Fault):
            self._log(event.message)
            self.notice = event.message
            self.redraw()

    def _button(self, button: str) -> None:
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
        elif phase in (Phase.SETUP, Phase.FIXUP) and button == "OK" and self.suspect is not None:
            ignore_sensor(self.referee, self.journal, self._log, self.suspect)
            self.suspect = None
            self._judge()

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
        self._opened_at = self.loop.clock.now()
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
        self._follow(move)

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

    # -- the tray -----------------------------------------------------------------------------------------

    def _reading(self) -> TrayReading:
        return read_tray(self.game.control, self.referee.seen(), self.referee.ignored)

    def _judge(self) -> None:
        """What the tray says, once it settled (a chit put down) or went quiet (the grace period)."""
        phase = self.state
        if phase in (Phase.OVER, Phase.UNDO, Phase.DIE):
            return  # "Take back?" or the die is answered first; the tray is judged where the answer leads
        reading = self._reading()
        if phase in (Phase.SETUP, Phase.FIXUP):
            # a chit moved on instead of back is an event -- unless the event was just taken back: then
            # the chit on its cell is that very event, and the tray must show the position first
            taken = (phase is Phase.FIXUP and self.back in OPEN and not self.referee.restoring and reading.moved
                     and not reading.doubled)
            if not (reading.matches or taken):
                self._post_fixups()
                return
            self.referee.clear_fixups()
            self.referee.restoring = False
            self.suspect = None
            if phase is Phase.SETUP:
                self._settle()
            else:
                self._resume()
            if taken:
                self._judge()  # someone moved the chit on instead of back: that is an event
            return
        grace = self.referee.grace_over()
        if phase not in OPEN:
            if not reading.matches and grace:
                self._fix("chit moved mid-entry")
            return
        if reading.doubled:
            if grace:
                self._fix(f"{screens.province_name(reading.doubled[0])}: 2 chits")
            return
        if reading.moved and self._tray_put_back():
            return
        for move in reading.moved:
            if not self._tray_event(move):
                return
        if phase is Phase.NOBODY and self.nobody not in reading.lifted:
            self._resume()
        elif reading.lifted and grace and phase is not Phase.NOBODY:
            self.nobody, self.back = reading.lifted[0], phase
            self.to_nobody()

    def _tray_put_back(self) -> bool:
        """The tray shows the position before the last event: "Take back?" (once; BACK at it reads the chit
        moved as the event it also is)."""
        before = self.ledger.steps[-1][0] if self.ledger.steps else None
        if self.state not in (Phase.BOARD, Phase.DUTIES, Phase.DEAL) or before is None or before is self._offered \
                or not put_back(self.referee, before):
            return False
        self._offered = before
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

    def _fix(self, reason: str) -> None:
        self.reason = reason
        if self.state is not Phase.NOBODY:  # from the "nobody?" question, back to where it was asked
            self.back = self.state
        self._post_fixups()
        self.to_fixup()

    def _follow(self, move: Move) -> None:
        """After an entry: a province entered by hand, whose chit must follow on the tray, or a tray
        changed while the entry was made, which must be put back (it was never read as an event)."""
        if self.game.is_over() or self._reading().matches:
            return
        if isinstance(move, Control):
            self._fix("move the chit")
        elif self._tray_at >= self._opened_at:
            self._fix("tray moved meanwhile")

    def _post_fixups(self) -> None:
        fixups = tray_fixups(self.game.control, self.referee.seen(), self.referee.ignored)
        if self.referee.post_fixups(fixups):
            self.redraw()

    def _name_stuck_sensor(self) -> None:
        """The same fix-up for a long time: its first cell's sensor may be stuck or dead."""
        if self.state in (Phase.SETUP, Phase.FIXUP) and self.referee.fixups:
            self.suspect = self.referee.fixups[0].split()[-1]
            self.notice = "stuck? OK: ignore it"  # over the list, whose first line names the sensor
            self._log(f"sensor {self.suspect} may be stuck")
            self.redraw()

    # -- committing and taking back ---------------------------------------------------------------------

    def _commit(self, move: Move, entered: bool = False) -> bool:
        """Journal first (fsynced), then make it the position: a power cut never loses or re-rolls.
        ``entered``: a die the players keyed in from their own."""
        player = (self.game.current_player or "table") if isinstance(move, (Play, Answer)) else \
            "chance" if self.game.is_chance() else "table"
        return self.saved(self.ledger.record(move, player, entered=entered))  # the die: never taken back

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
        self._judge()

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
        self.referee.taken_back()
        self.referee.clear_fixups()  # a fix-up it was asked from is judged afresh against the position
        self.display.show(screens.taken_back_screen(now, previous, event), hold=True)
        self._settle()
        self.referee.restoring = not self._reading().matches
        if self.referee.restoring:
            self._fix("taken back: as listed")

    # -- screens ------------------------------------------------------------------------------------------

    def screen(self) -> Screen:
        g, phase = self.game, self.state
        if phase is Phase.SETUP:
            return screens.fixup_screen("Set up the Honor tray", self.notice, self.referee.fixups)
        if phase is Phase.FIXUP:
            return screens.fixup_screen("Fix the Honor tray", self.notice or self.reason, self.referee.fixups)
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
