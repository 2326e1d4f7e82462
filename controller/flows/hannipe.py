"""The Hannipe! game flow: secret bets behind a look-away screen, the leader's card, the tips, the mat.

Phases (a ``transitions`` machine, Enum states, queued, no auto transitions; where ``onward`` leads is
decided by the position, so a resumed game lands in the right phase)::

    LOOK (everyone but one seat looks away) --OK--> BET | TIP      BET / TIP (a hand) --BACK--> LOOK
    BET --OK--> LOOK (next seat) | TURN          TURN --OK--> TIP (or LOOK with dealt cards)
    TIP --OK--> TIP | LOOK | TURN | FINISH       TIP/TURN --BACK--> the last tip taken back
    FINISH (bets revealed, payouts) --OK--> COINS --OK--> the next race | OVER
    any play phase --the mat differs from the race--> MAT --the mat matches--> the step again
    MAT --the pawns put back as before the last tip--> UNDO --OK--> the tip taken back  --BACK--> MAT
    FAR (a far seat acts, or its table's share of a card is awaited) --its line, or the share--> the step

With a far table (remote play) the race's secrets stay at their seats' tables: this table's cards are drawn
face down with the far table (``dealer``: ``controller.remote.dealer``), and each of its sealed bets is revealed
by itself after the last tip (step ``reveal``). A far seat's move comes as the far table's line, and the mat
follows it as it follows a move made here.

The mat's reeds only say "a pawn is here", so they make no move: the sensed-board loop
(``controller.sensed``) compares them with the engine's ``occupancy()``. After every horse movement (and
whenever a pawn is knocked) the screen lists the pawn moves still to make and takes no input until the
sensed mat is exactly the race; pawns put back where they stood before the last tip offer to take it back.
Chance (programme, shuffle, deal) comes from the dice source; every move is journaled (fsynced) before
the screen shows its effect. The flow decides no rule: it offers the engine's legal moves and applies them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from typing import Any, Protocol

from controller.flows import FlowContext
from controller.flows import hannipe_screens as screens
from controller.referee import Stage
from controller.screen import Screen
from controller.sensed import SensedBoard, SensedFlow
from engines.base import IllegalMoveError, InvalidMoveError, Move, acting_seat
from engines.hannipe import HORSES, NAMES, Action, State

HORSE = "horse:"  # the horse buttons: "horse:noiro" names Noiro at one press


class Phase(Enum):
    LOOK = "look"
    BET = "bet"
    TURN = "turn"
    TIP = "tip"
    MAT = "mat"
    UNDO = "undo"
    FINISH = "finish"
    COINS = "coins"
    OVER = "over"
    FAR = "far"


_PLAY = [Phase.LOOK, Phase.BET, Phase.TURN, Phase.TIP, Phase.FAR]
"""Phases where a decision is asked: the mat must show the race before any of them takes input."""

_ASKED = (Phase.LOOK, Phase.BET, Phase.TIP)
"""Phases in which a seat's bet or tip is asked for: what a seat's page may decide then."""

_STEP_DONE = [*_PLAY, Phase.MAT, Phase.UNDO]
"""Where ``onward`` is asked after a step: a decision made or taken back, the mat put right, the start."""
_NEXT_STEP = [*_STEP_DONE, Phase.COINS]


TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "onward", "source": _STEP_DONE, "dest": Phase.FINISH, "conditions": "finish_due"},
    {"trigger": "onward", "source": [*_STEP_DONE, Phase.FINISH], "dest": Phase.OVER, "conditions": "game_over"},
    {"trigger": "onward", "source": Phase.FINISH, "dest": Phase.COINS},
    {"trigger": "onward", "source": _NEXT_STEP, "dest": Phase.MAT, "conditions": "mat_differs",
     "after": "follow"},
    {"trigger": "onward", "source": _NEXT_STEP, "dest": Phase.FAR, "conditions": "far_due"},
    {"trigger": "onward", "source": _NEXT_STEP, "dest": Phase.TURN, "conditions": "turn_due"},
    {"trigger": "onward", "source": _NEXT_STEP, "dest": Phase.LOOK, "conditions": "secret_due",
     "before": "fresh_entry"},
    {"trigger": "onward", "source": _NEXT_STEP, "dest": Phase.TIP, "before": "fresh_entry"},
    {"trigger": "ready", "source": Phase.LOOK, "dest": Phase.BET, "conditions": "bet_due"},
    {"trigger": "ready", "source": Phase.LOOK, "dest": Phase.TIP},
    {"trigger": "hide", "source": [Phase.BET, Phase.TIP], "dest": Phase.LOOK},
    {"trigger": "misplaced", "source": _PLAY, "dest": Phase.MAT, "before": "knocked"},
    {"trigger": "misplaced", "source": Phase.UNDO, "dest": Phase.MAT},
    {"trigger": "ask_undo", "source": [*_PLAY, Phase.MAT], "dest": Phase.UNDO},
]


class Dealer(Protocol):
    """The draws of a race shared with a far table (``controller.remote.dealer.Dealer``)."""

    def draw(self, state: State) -> Move | None: ...


class HannipeFlow(SensedFlow[State]):
    """Consumes events from the loop; owns the engine state, the journal and what the screen says.

    ``history`` is the position before, and the notation of, each step since the last chance outcome
    (from the journal on a resume): what BACK may still take back. ``names`` are the seats as the
    screens name them (the profile's ``[seats]``); moves and the journal keep the engine's seats.
    """

    STATE = State
    FAR_PLAY = True
    state: Phase  # set by the transitions machine
    # triggers the machine adds to the model (declared for the type checker)
    onward: Callable[[], bool]
    ready: Callable[[], bool]
    hide: Callable[[], bool]
    misplaced: Callable[[], bool]
    ask_undo: Callable[[], bool]

    def __init__(self, context: FlowContext) -> None:
        super().__init__(context)
        self.names = context.seat_names
        # the mat is never judged for a move, only compared with the race, at once (no settle or grace time)
        self.board = SensedBoard(self, self.loop, lambda: self.game, settle_s=0.0, grace_s=0.0, log=self._log,
                                 journal=self.journal, previous=self._previous)
        self.referee = self.board.referee
        self.notice = ""
        self.moved = ""  # the last movement: the mat screen's title
        self.selected = 0  # the bet's starter
        self.horse = ""  # the tip being chosen
        self.face = ""
        self.choosing_face = False
        self.paid_shown = 0  # the last race whose finish the players have seen
        self.dealer: Dealer | None = None  # set by remote play: the race's cards drawn with the far table
        self.awaiting = False  # a draw here waits for the far table's share of a card
        self.start_machine(Phase, TRANSITIONS, Phase.LOOK)

    # -- conditions and phase entry ----------------------------------------------------------------------

    def finish_due(self) -> bool:
        """A race ended that the players have not seen the finish of (the payout is inside the last tip)."""
        g = self.game
        return g.last_race is not None and g.last_race.race > self.paid_shown and (g.is_over() or g.step == "programme")

    def mat_differs(self) -> bool:
        return bool(self._fixups())

    def turn_due(self) -> bool:
        return self.game.step == "turn"

    def far_due(self) -> bool:
        """A far seat acts now, or this table's draw waits for the far table: nothing here is asked."""
        return self.far_turn() or self.awaiting

    def secret_due(self) -> bool:
        """A bet, or a tip from a dealt hand: everyone else looks away first."""
        return self.game.step == "bet" or self.game.hands is not None

    def bet_due(self) -> bool:
        return self.game.step == "bet"

    def fresh_entry(self) -> None:
        """A new seat's bet or tip starts from the first choice, with no notice left from the last one."""
        self.notice = ""
        self.selected = 0
        self.choosing_face = False
        if self.game.step == "tip":
            self.horse, self.face = self._cards()[0]

    @property
    def fixups(self) -> tuple[str, ...]:
        """The pawn moves still to make while play waits for them, by location (``lift noiro:3``, ``put 1
        noiro on noiro:5``) as the terminal's ``fix`` reads them; the screen says the same by horse and row."""
        return self.referee.fixups if self.state is Phase.MAT else ()

    def start(self) -> None:
        self._advance()

    # -- events -------------------------------------------------------------------------------------------

    def knocked(self) -> None:
        self.moved = "Pawn moved!"

    def follow(self) -> None:
        """A step moved a horse: the pawns must follow it before play goes on (no takeback offered meanwhile)."""
        self.board.follow()

    # -- the mat (asked by the sensed-board loop) --------------------------------------------------------

    def board_stage(self) -> Stage | None:
        if self.state in (Phase.MAT, Phase.UNDO):
            return Stage.FIXUP
        return Stage.PLAY if self.state in _PLAY else None

    def moves_allowed(self) -> bool:
        return False  # the reeds say only "a pawn is here": every step comes from the buttons

    def board_right(self) -> None:
        if self.state in (Phase.MAT, Phase.UNDO):
            self.referee.clear_fixups()
            self._advance()

    def cancel(self) -> bool:
        return False  # no question about the mat is ever asked (the mat proves no move)

    def commit(self, move: Move) -> None:
        raise AssertionError(f"the mat proved {move}, but it proves no move")

    def offer(self, candidates: tuple[Move, ...], unseen: bool) -> None:
        raise AssertionError("the mat offers no moves")

    def takeback_offered(self) -> bool:
        """The pawns were put back as they stood before the last tip: offer to take it back (not a step the far
        table may have acted on, nor one after which the far table gave its share of the next card)."""
        if self._step_stands():
            return False
        self.ask_undo()
        return True

    def say(self, notice: str) -> None:
        """A stuck or dead reed named: the mat screen shows it by horse and row (``stuck_line``)."""
        self._log(notice)
        self.redraw()

    def _step_stands(self) -> bool:
        """With a far table, the last step may not be taken back: the far table may have acted on it, or gave its
        share of the card due next (a leader who read the card could then tip again)."""
        return self.far_step_stands() or (self.dealer is not None and self.game.face_down() is not None)

    def _previous(self) -> State | None:
        """The race before the last tip, while BACK may still take it back (none past a chance event)."""
        return self.ledger.steps[-1][0] if self.ledger.steps and self.ledger.steps[-1][1].startswith("tip") else None

    def press(self, button: str) -> None:
        phase = self.state
        if phase is Phase.LOOK:
            if button == "OK":
                self.ready()
            elif button == "BACK" and self.game.step == "tip":
                self._take_back()
        elif phase is Phase.BET:
            self._bet_button(button)
        elif phase is Phase.TURN:
            if button == "OK":
                self._turn()
            elif button == "BACK":
                self._take_back()
        elif phase is Phase.TIP:
            self._tip_button(button)
        elif phase is Phase.FINISH and button == "OK":
            assert self.game.last_race is not None
            self.paid_shown = self.game.last_race.race
            self.onward()  # the game is over, or the coins table before the next race
        elif phase is Phase.COINS and button == "OK" and self._draw_chance():
            self.onward()
        elif phase is Phase.MAT and button == "OK":
            self.board.ok_on_fixup()  # the reed named as stuck or dead is ignored
        elif phase is Phase.UNDO:
            if button == "OK":
                self._take_back()
            elif button == "BACK":
                self.misplaced()  # the tip stands: the pawns go back where it put them
                self.board.judge(settled=True)

    # -- what comes next ----------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Take the engine to its next decision and ask for it: the finish and the coins first if a race
        just ended, the mat put right first if it differs from the race."""
        if self.finish_due() or self.game_over() or self._draw_chance():
            self.onward()

    def _draw_chance(self) -> bool:
        """Draw what chance decides (programme, shuffle, deal), and reveal this table's sealed bets after the
        race's last tip; False if it could not be journaled. Whatever is the far table's to draw or reveal, and a
        card whose far share has not come, is waited for (``far_due``)."""
        self.awaiting = False
        while not self.game.is_over() and not self.far_turn():
            g = self.game
            if g.is_chance():
                move = self._chance_move()
                if move is None:
                    self.awaiting = True
                    return True
            elif g.step == "reveal":
                [move] = g.legal_moves()  # the bet this table sealed, opened as the rules say
            else:
                return True
            if not self._apply(move):
                return False
            self._shown(move)
        return True

    def _chance_move(self) -> Move | None:
        """The chance outcome this table journals now: from the dice, or, where the race's cards are face down
        with a far table, from the dealer (None while it waits for the far share)."""
        g = self.game
        if self.dealer is not None and (g.face_down() is not None or g.decks() is not None):
            return self.dealer.draw(g)
        return self.dice.roll(g)

    def _shown(self, move: Move) -> None:
        """A programme drawn: the mat's pawns go to row 1, and the screen says so for a while."""
        assert isinstance(move, Action)
        if move.kind == "programme":
            self.moved = f"Race {self.game.race}: prog {move.number}"
            self.display.show(screens.position_screen(self.game, "pawns to row 1", names=self.names), hold=True)

    def play_face_down(self) -> None:
        """Remote play's word that something came from the far table: a draw that waited for it goes on."""
        if self.state is Phase.FAR and self.awaiting:
            self._advance()

    def apply_far(self, move: Move, player: str, entered: bool) -> None:
        """A far seat's move, bet, reveal or draw, applied as here: a horse that moved, the mat follows."""
        before = self.game
        if not self._apply(move):
            return
        assert isinstance(move, Action)
        if move.kind == "tip":
            self.moved = screens.tipped_title(self._name(move.seat), move.horse, move.face)
            self._show_movement(before, move.horse)
        elif move.kind == "turn":
            self._turned(before)
        else:
            self._shown(move)
        self._advance()

    # -- decisions ----------------------------------------------------------------------------------------

    def _bet_button(self, button: str) -> None:
        starters = self.game.starters
        if button.startswith(HORSE) and button[len(HORSE):] in starters:
            self.selected = starters.index(button[len(HORSE):])
        elif button in ("NEXT", "PREV"):
            self.selected = (self.selected + (1 if button == "NEXT" else -1)) % len(starters)
        elif button == "BACK":
            self.hide()
            return
        elif button == "OK":
            seat = self.game.current_player
            if self._apply(self.game.parse_move(f"bet {seat} {starters[self.selected]}")):
                self.display.show(Screen(f"{self._name(seat)} has bet", ("the bet stays secret", "until the finish")),
                                  hold=True)
                self._advance()
            return
        self.redraw()

    def choices(self, seat: str) -> tuple[str, ...]:
        """The bet or the tips a person's seat may make on its page while the table asks for them."""
        g = self.game
        if (g.current_player != seat or g.step not in ("bet", "tip") or g.is_over() or seat in self.context.bots
                or seat in self.context.far or self.state not in _ASKED):
            return ()
        return tuple(str(m) for m in g.legal_moves())

    def decide(self, seat: str, move: str) -> str | None:
        """A bet or a tip made on the seat's own page: no one need look away, and the buttons' entry on the
        table is skipped; the same line is journaled, and the table moves on as after OK."""
        g, name = self.game, self._name(seat)
        if g.is_over():
            return "the game is over"
        if seat in self.context.bots or seat in self.context.far:
            return f"{name} is not played at this table by a person"
        if g.current_player != seat or g.step not in ("bet", "tip"):
            return f"it is not {name}'s bet or tip now"
        if self.state not in _ASKED:
            return "put the pawns right first" if self.state is Phase.MAT else "the table is busy: try again"
        try:
            action = g.parse_move(move)
        except (InvalidMoveError, IllegalMoveError) as e:
            return str(e)
        if not isinstance(action, Action) or action.kind not in ("bet", "tip") or action.seat != seat:
            return f"only {name}'s own bet or tip is made on this page"
        seq = self.journal.seq
        if action.kind == "bet":
            if self._apply(action):
                self.display.show(Screen(f"{name} has bet", ("the bet stays secret", "until the finish")), hold=True)
                self._advance()
        else:
            self.horse, self.face = action.horse, action.face
            self._tip()
        return None if self.journal.seq > seq else f"not saved: {self.notice or 'the journal could not be written'}"

    def _turn(self) -> None:
        before = self.game
        move = self.game.parse_move("turn") if self.game.face_down() is None or self.dealer is None \
            else self.dealer.draw(self.game)
        if move is None:
            self.notice = "the far table's share of the card: wait"
            self.redraw()
            return
        if not self._apply(move):
            return
        self._turned(before)
        self._advance()

    def _turned(self, before: State) -> None:
        horse = self.game.turned[-1]
        self.moved = f"Turned {NAMES[horse]} +{self.game.values[horse]}"
        self._show_movement(before, horse)

    def _cards(self) -> list[tuple[str, str]]:
        """The tips the seat may play now: its hand, or every card still unplayed (physical cards)."""
        return [(m.horse, m.face) for m in self.game.legal_moves() if isinstance(m, Action)]

    def _tip_button(self, button: str) -> None:
        cards = self._cards()
        horses = list(dict.fromkeys(h for h, _ in cards))
        faces = [f for h, f in cards if h == self.horse]
        self.notice = ""
        if button.startswith(HORSE):
            horse = button[len(HORSE):]
            if horse in horses:
                self.horse, self.face = horse, next(f for h, f in cards if h == horse)
            else:
                self.notice = f"no {NAMES.get(horse, horse)} card"
        elif button in ("NEXT", "PREV"):
            step = 1 if button == "NEXT" else -1
            if self.choosing_face:
                self.face = faces[(faces.index(self.face) + step) % len(faces)]
            else:
                self.horse = horses[(horses.index(self.horse) + step) % len(horses)]
                self.face = next(f for h, f in cards if h == self.horse)
        elif button == "BACK":
            if self.choosing_face:
                self.choosing_face = False
            elif self._take_back():
                return
            elif self.game.hands is not None:
                self.hide()  # the hand goes off the screen
                return
        elif button == "OK":
            if not self.choosing_face:
                self.choosing_face = True
            else:
                self._tip()
                return
        self.redraw()

    def _tip(self) -> None:
        before = self.game
        seat = before.current_player
        if not self._apply(before.parse_move(f"tip {seat} {self.horse} {self.face}")):
            return
        self.moved = screens.tipped_title(self._name(seat), self.horse, self.face)
        self._show_movement(before, self.horse)
        self._advance()

    def _take_back(self) -> bool:
        """BACK takes back the last tip while the next seat has not played (never past a chance event), and,
        with a far table, only the table's own, while the far table cannot have acted on it."""
        if not self.ledger.steps or not self.ledger.steps[-1][1].startswith("tip") or self._step_stands():
            return False
        previous, text = self.ledger.steps[-1]
        if not self.saved(self.ledger.take_back(self.game.current_player or "chance")):
            return True
        self.board.new_position()
        self.referee.clear_fixups()
        move = previous.parse_move(text)
        assert isinstance(move, Action)
        who = self._name(move.seat)
        self.moved = screens.fit(f"Taken back: {who} {move.horse} {move.face}",
                                 f"Back: {who} {screens.SHORT[move.horse]} {move.face}")
        self._advance()
        return True

    def _show_movement(self, before: State, horse: str) -> None:
        """Held on screen for the message time: which horse moved from which row to which."""
        if not self.game.order or self.game.is_over():
            return  # the race is over: the finish screen says who won, at once
        was, now = _row(before, horse), _row(self.game, horse)
        change = f": row {was} to {now}" if was != now else f" now on row {now}"  # passing a line-mate
        self.display.show(Screen(self.moved, (f"{NAMES[horse]}{change}", screens.order_line(self.game))),
                          hold=True)

    # -- the mat ------------------------------------------------------------------------------------------

    def _diff(self) -> list[tuple[str, str | None, list[str]]]:
        """Each lane that differs from the race: its horse, the location its pawn must go to (None if it
        stands right or does not run) and the locations where a pawn must go away."""
        want = {h: loc for loc, (h, _) in self.game.occupancy().items()}
        seen, ignored = self.referee.seen(), self.referee.ignored
        out = []
        for h in HORSES:
            lane = sorted(loc for loc in seen if loc.startswith(f"lane:{h}:"))
            target = want.get(h)
            extra = [loc for loc in lane if loc != target]
            missing = target if target is not None and target not in lane and target not in ignored else None
            if missing or extra:
                out.append((h, missing, extra))
        return out

    def _fixups(self) -> tuple[str, ...]:
        """What the screen lists: a missing pawn is "to row n" (moved from its wrong row, if it stands in
        one), a pawn where none belongs is lifted."""
        out: list[str] = []
        for h, missing, extra in self._diff():
            if missing is not None:
                out.append(f"{NAMES[h]} to row {missing.rsplit(':', 1)[1]}")
                extra = extra[1:]  # the pawn standing in a wrong row is the one to move
            out += [f"lift {NAMES[h]} row {loc.rsplit(':', 1)[1]}" for loc in extra]
        return tuple(out)

    # -- committing ---------------------------------------------------------------------------------------

    def _apply(self, move: Move) -> bool:
        """Journal first (fsynced), then make it the position: a power cut never loses or re-draws."""
        if not self.saved(self.ledger.record(move, self.game.current_player or "chance")):
            return False
        self.board.new_position()
        return True

    # -- screens ------------------------------------------------------------------------------------------

    def screen(self) -> Screen:
        g, phase = self.game, self.state
        seat = g.current_player or ""
        names = self.names
        if phase is Phase.OVER:
            return screens.position_screen(g, names=names)
        if phase is Phase.FINISH:
            return screens.finish_screen(g, names)
        if phase is Phase.COINS:
            return screens.coins_screen(g, names)
        if phase is Phase.MAT:
            suspect = self.board.suspect
            stuck = () if suspect is None else (screens.stuck_line(suspect),)
            return screens.mat_screen(self.moved or "Set the pawns", (*stuck, *self._fixups()))
        if phase is Phase.UNDO:
            previous, tip = self.ledger.steps[-1]
            move = previous.parse_move(tip)
            assert isinstance(move, Action)
            return screens.undo_screen(self._name(move.seat), move.horse, move.face)
        if phase is Phase.LOOK:
            return screens.handoff_screen(self._name(seat), "your bet" if g.step == "bet" else "your tip")
        if phase is Phase.BET:
            return screens.bet_screen(g, seat, self.selected, names)
        if phase is Phase.TURN:
            return screens.turn_screen(g, self.notice, names)
        if phase is Phase.FAR:
            waits = f"{self._name(acting_seat(g))} at far table" if self.far_turn() else "cards from far table"
            return replace(screens.position_screen(g, self.notice or waits, names=names), footer="far table plays")
        return screens.tip_screen(g, seat, self.horse, self.face, self.choosing_face, self.notice, names)

    def _name(self, seat: str | None) -> str:
        return self.names.get(seat or "", seat or "")


def _row(g: State, horse: str) -> int:
    return next(i for i, line in enumerate(g.order, 1) if horse in line)


def create(context: FlowContext) -> HannipeFlow:
    """The registry's flow factory."""
    return HannipeFlow(context)
