"""The Hannibal game flow: what the table senses and the buttons say, turned into engine moves.

Phases (a ``transitions`` machine, Enum states, queued, no auto transitions):

    SETUP --board matches--> ROLL --ROLL--> STEP --move sensed/chosen--> STEP | ROLL | OVER
    STEP --ambiguous / NEXT--> CHOOSE --OK--> (commit)      STEP/ROLL --BACK--> UNDO --OK--> (take back)
    ROLL --NEXT--> DICE (physical dice typed in) --OK,OK--> STEP
    any board phase --board matches nothing after the grace period--> FIXUP --board back--> (where it was)

A seat may be played by a bot (``FlowContext.bots``, ``play hannibal --seat blue=mcts``). Its dice are rolled
when anyone presses ROLL (or typed in with NEXT), as for a person: the players see the roll before the bot
answers. In STEP the bot decides at the next loop turn, so the roll is on screen while it thinks; its step
is journaled and applied like a move chosen from the menu, so the board must follow: FIXUP shows the step
and the referee's fix-up list, and nothing else is accepted until the board matches (a step the sensors
cannot see, a piece from a stack onto a stack, waits for OK). BACK takes back a person's step as before;
a bot's step stands (taken back, the bot would only decide again), and the bot's roll already put the
person's steps beyond BACK, as any roll does.

The flow never decides a rule: every move is the engine's, every commit is journaled (and fsynced)
before the screen shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING, Any

from controller.chance_entry import ChanceEntry
from controller.flows import FlowContext
from controller.flows.hannibal_screens import NAMES, position_screen
from controller.referee import Stage
from controller.screen import Screen
from controller.sensed import SensedBoard, SensedFlow
from engines.base import GameState, Move
from engines.hannibal import State, Step
from engines.hannibal.moves import PIECE, STACK

if TYPE_CHECKING:
    from engines.bots.match import Bot


class Phase(Enum):
    SETUP = "setup"
    ROLL = "roll"
    DICE = "dice"
    STEP = "step"
    CHOOSE = "choose"
    FIXUP = "fixup"
    UNDO = "undo"
    OVER = "over"


BOARD_PHASES = (Phase.SETUP, Phase.ROLL, Phase.STEP, Phase.CHOOSE, Phase.FIXUP)

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "board_ready", "source": [Phase.SETUP, Phase.FIXUP], "dest": Phase.ROLL,
     "conditions": "roll_due"},
    {"trigger": "board_ready", "source": [Phase.SETUP, Phase.FIXUP], "dest": Phase.STEP,
     "conditions": "step_due"},
    {"trigger": "board_ready", "source": [Phase.SETUP, Phase.FIXUP], "dest": Phase.OVER},
    {"trigger": "misplaced", "source": [Phase.SETUP, Phase.ROLL, Phase.STEP, Phase.CHOOSE], "dest": Phase.FIXUP},
    {"trigger": "rolled", "source": [Phase.ROLL, Phase.DICE], "dest": Phase.STEP, "conditions": "step_due"},
    {"trigger": "rolled", "source": [Phase.ROLL, Phase.DICE], "dest": Phase.ROLL},
    {"trigger": "enter_dice", "source": Phase.ROLL, "dest": Phase.DICE},
    {"trigger": "cancel", "source": [Phase.DICE, Phase.CHOOSE, Phase.UNDO], "dest": Phase.ROLL,
     "conditions": "roll_due"},
    {"trigger": "cancel", "source": [Phase.DICE, Phase.CHOOSE, Phase.UNDO], "dest": Phase.STEP},
    {"trigger": "choose", "source": [Phase.STEP, Phase.CHOOSE, Phase.FIXUP], "dest": Phase.CHOOSE},
    {"trigger": "committed", "source": [Phase.STEP, Phase.CHOOSE, Phase.FIXUP, Phase.UNDO], "dest": Phase.OVER,
     "conditions": "game_over"},
    {"trigger": "committed", "source": [Phase.STEP, Phase.CHOOSE, Phase.FIXUP, Phase.UNDO], "dest": Phase.ROLL,
     "conditions": "roll_due"},
    {"trigger": "committed", "source": [Phase.STEP, Phase.CHOOSE, Phase.FIXUP, Phase.UNDO], "dest": Phase.STEP},
    {"trigger": "ask_undo", "source": [Phase.ROLL, Phase.STEP, Phase.FIXUP], "dest": Phase.UNDO},
]


class HannibalFlow(SensedFlow[State]):
    """Consumes events from the loop; owns the engine state, the journal and what the screen says."""

    STATE = State
    FAR_PLAY = True
    state: Phase  # set by the transitions machine
    # triggers the machine adds to the model (declared for the type checker)
    rolled: Callable[[], bool]
    enter_dice: Callable[[], bool]

    def __init__(self, context: FlowContext) -> None:
        super().__init__(context)
        self.bots: Mapping[str, Bot] = context.bots
        timing = context.profile.timing
        self.bot_step = ""  # "Blue plays 36-30" while the board follows a bot's step
        self.bot_unseen = False  # that step changed no sensor (stack onto stack): OK says it was made
        self.board = SensedBoard(self, self.loop, lambda: self.game, settle_s=timing.settle_s, grace_s=timing.grace_s,
                                 log=self._log, journal=self.journal, previous=self._previous,
                                 alternative=_stack_alternative)
        self.referee = self.board.referee
        self.candidates: tuple[Move, ...] = ()
        self.selected = 0
        self.notice = ""
        self.by_hand = context.profile.chance.by_hand  # the players roll their own dice: ROLL asks for them
        self.entry = ChanceEntry(sides=6, count=2)
        self.start_machine(Phase, TRANSITIONS, Phase.SETUP)
        self.redraw()

    def start(self) -> None:
        """Judge the board as it stands (a resumed game may already be set up)."""
        self.board.judge(settled=True)
        self.redraw()

    def on_exit_FIXUP(self) -> None:  # named by transitions after the Enum member
        self.referee.clear_fixups()
        self.notice = ""  # what it said was about the board, which is right now
        self.bot_step = ""
        self.bot_unseen = False

    def on_enter_STEP(self) -> None:
        """A bot's step is due: decide it at the next loop turn, once the screen shows whose step it is."""
        if self.bot_turn():
            self.loop.set_timer("bot", 0.0)

    def on_exit_SETUP(self) -> None:
        self.on_exit_FIXUP()

    # -- conditions ---------------------------------------------------------------------------------------

    def roll_due(self) -> bool:
        return self.game.is_chance()

    def step_due(self) -> bool:
        return self.game.current_player is not None

    def bot_turn(self) -> bool:
        """A bot decides now: the sensors may show no move, and the menu offers none, for its seat."""
        return self.game.current_player in self.bots

    def can_undo(self) -> bool:
        """BACK may take a step back: there is one since the last roll, and a person at this table made it; with
        a far table, only while that person's turn goes on (after it, the far table may already have acted)."""
        return bool(self.ledger.steps) and self.ledger.steps[-1][0].to_move not in self.bots \
            and not self.far_step_stands()

    @property
    def last_step(self) -> str:
        """The last step applied and not taken back, while it can still be taken back."""
        return self.ledger.steps[-1][1] if self.ledger.steps else ""

    # -- the board ----------------------------------------------------------------------------------------

    @property
    def fixups(self) -> tuple[str, ...]:
        """The fix-up list on screen (the referee's)."""
        return self.referee.fixups

    @property
    def sensed(self) -> set[str]:
        """Locations whose sensors read closed (the referee's)."""
        return self.referee.sensed

    @property
    def last_step_by(self) -> str | None:
        """Who made the step ``last_step`` names: scripted players only answer for their own."""
        return self.ledger.steps[-1][0].to_move if self.ledger.steps else None

    def board_matches(self) -> bool:
        return self.referee.board_matches()

    # -- events -------------------------------------------------------------------------------------------

    def timer(self, name: str) -> None:
        if name == "bot":
            self._bot_decides()

    def press(self, button: str) -> None:
        phase = self.state
        self.notice = ""
        if phase in (Phase.ROLL, Phase.STEP) and self.far_turn() and button != "BACK":
            self.notice = f"{NAMES[self.game.to_move]} plays at the far table"
            self.redraw()
        elif phase is Phase.ROLL:
            if button == "ROLL" and not self.by_hand:
                self._roll()
            elif button in ("NEXT", "PREV", "ROLL"):  # the players' own dice (always, with [chance] by_hand)
                self.entry = ChanceEntry(sides=6, count=2)
                self.enter_dice()
            elif button == "BACK":
                self._back()
        elif phase is Phase.DICE:
            self._dice_button(button)
        elif phase is Phase.STEP and self.bot_turn():
            if button == "OK":  # the bot's last step could not be saved: try again
                self.loop.set_timer("bot", 0.0)
            elif button == "BACK":
                self._back()
        elif phase is Phase.STEP:
            if button == "OK":
                self.board.judge(settled=True, pressed_ok=True)
            elif button in ("NEXT", "PREV"):
                self._offer(tuple(self.game.legal_moves()), manual=True)
            elif button == "BACK":
                self._back()
        elif phase is Phase.CHOOSE:
            if button == "NEXT":
                self.selected = (self.selected + 1) % len(self.candidates)
                self.redraw()
            elif button == "PREV":
                self.selected = (self.selected - 1) % len(self.candidates)
                self.redraw()
            elif button == "OK":
                self.commit(self.candidates[self.selected])
            elif button == "BACK":
                self.cancel()
        elif phase is Phase.UNDO:
            if button == "OK":
                self._undo()
            elif button == "BACK":
                self.cancel()
                self.board.judge(settled=True)  # the step stands: a board put back must now be put right
        elif phase in (Phase.FIXUP, Phase.SETUP):
            self._fixup_button(button)
        else:
            self.redraw()

    def _fixup_button(self, button: str) -> None:
        """While the board is being put right: OK says a bot's step the sensors cannot see is made, or ignores
        a sensor named as stuck; BACK takes back the last step (a wrongly applied move needs no rebuilding
        first); NEXT plays from the menu, but never a bot's step."""
        if button == "OK" and self.bot_unseen and self.board_matches():
            self.board_ready()  # the players say they made the bot's step the sensors cannot see
        elif button == "OK":
            self.board.ok_on_fixup()
        elif button == "BACK" and self.state is Phase.FIXUP:
            self._back()
        elif button in ("NEXT", "PREV") and self.state is Phase.FIXUP and self.game.current_player is not None \
                and not self.bot_turn():
            self.referee.restoring = False
            self._offer(tuple(self.game.legal_moves()), manual=True)

    # -- the board (asked by the sensed-board loop) ----------------------------------------------------------

    def board_stage(self) -> Stage | None:
        if self.state not in BOARD_PHASES:
            return None
        return self.stage()

    def moves_allowed(self) -> bool:
        return not self.bot_turn() and not self.far_turn() and (self.state in (Phase.STEP, Phase.CHOOSE)
                                        or (self.state is Phase.FIXUP and not self.game.is_chance()))

    def board_right(self) -> None:
        if self.state is Phase.FIXUP and self.bot_unseen:  # the board is right again: OK when moved
            if self.referee.post_fixups(()):
                self.redraw()
        elif self.state in (Phase.SETUP, Phase.FIXUP):
            self.board_ready()
        elif self.state is Phase.STEP and self.bot_turn():  # a piece nudged as the bot was due is back
            self.loop.set_timer("bot", 0.0)

    def offer(self, candidates: tuple[Move, ...], unseen: bool) -> None:
        if not unseen:
            self._offer(candidates)
            return
        self._offer(candidates, manual=True)  # OK but no move fits: a sensor may be lying; the players say which
        self.notice = "Not seen: pick your move"
        self.redraw()

    def takeback_offered(self) -> bool:
        """The pieces were put back as they stood before the last step: offer to take it back."""
        if not self.can_undo() or self.state not in (Phase.ROLL, Phase.STEP, Phase.FIXUP):
            return False
        self.notice = ""
        self.ask_undo()
        return True

    def _previous(self) -> State | None:
        return self.ledger.steps[-1][0] if self.can_undo() else None

    # -- actions ------------------------------------------------------------------------------------------

    def _roll(self) -> None:
        if self.board.refuse_unless_right("Fix the board before rolling"):
            self._apply(self.dice.roll(self.game))

    def _dice_button(self, button: str) -> None:
        """Physical dice keyed in: two dice make the roll, journaled as entered."""
        values = self.key_in(button, "Fix the board before rolling")
        if values is not None:
            a, b = values
            self._apply(self.game.parse_move(f"R{min(a, b)},{max(a, b)}"), entered=True)

    def _offer(self, candidates: tuple[Move, ...], manual: bool = False) -> None:
        """Ask which move: the likely ones first, then every other legal move, so a move the sensors
        misread (a lying reed) can still be named. BACK leaves the list."""
        if not candidates:
            return
        self.referee.asking(candidates, manual)
        rest = tuple(m for m in self.game.legal_moves() if m not in candidates)
        self.candidates = candidates + rest
        self.selected = 0
        self.notice = "Pick the move you made" if not manual else "Pick a move, then do it"
        if self.state is Phase.CHOOSE:
            self.redraw()
        else:
            self.choose()

    def commit(self, move: Move) -> None:
        self.notice = self._checklist(self.game, move) if isinstance(move, Step) else ""
        self._apply(move)

    def _apply(self, move: Move, entered: bool = False) -> bool:
        """Journal first (fsynced), then make it the position (the ledger's rule): a power cut never loses
        or re-rolls. ``entered``: a roll the players keyed in from their own dice."""
        player = self.game.to_move
        was_chance = self.game.is_chance()
        if not self.saved(self.ledger.record(move, player, entered=entered)):
            return False
        after = self.game
        self.board.new_position()
        self.candidates = ()
        if was_chance:
            if after.is_chance():
                self.notice = f"{NAMES[player]} rolled {move}: no move, turn passes"
            self.rolled()
            # a roll that passes the turn, or a bot's, stays up a moment: the next screen would hide the dice
            self.display.show(self.screen(), hold=after.is_chance() or self.bot_turn())
        else:
            self.committed()
        self.board.follow()
        return True

    def _back(self) -> None:
        """BACK: offer to take back the last step, if a person made it; a bot's step stands."""
        if self.can_undo():
            self.ask_undo()
        elif self.ledger.steps:
            self.notice = f"{NAMES[self.ledger.steps[-1][0].to_move]}'s step stands"
            self.redraw()

    def _bot_decides(self) -> None:
        """The bot whose step is due chooses (within its think budget), and the step is journaled and applied
        like one chosen from the menu: the board must follow, and the screen says how."""
        if self.state is not Phase.STEP or not self.bot_turn() or not self.board_matches():
            return  # the board changed meanwhile: the step is decided once it is back
        player = self.game.to_move
        self._follow_step(self.bots[player].choose(self.game.clone()), f"{NAMES[player]} plays")

    def apply_far(self, move: Move, player: str, entered: bool) -> None:
        """A far seat's roll is shown as the table's own; its step is followed on the board like a bot's."""
        if self.game.is_chance():
            self._apply(move, entered=entered)
        else:
            self._follow_step(move, f"Far {NAMES[player]}:")

    def _follow_step(self, move: Move, title: str) -> None:
        """A step that did not come from this board (a bot's, a far table's): journaled and applied, then the
        board must follow; one the sensors cannot see (a stack onto a stack) waits for OK."""
        seq = self.journal.seq
        self.bot_step = f"{title} {move}"
        self.commit(move)
        if self.journal.seq == seq:  # not saved: the screen says why, and OK tries again
            self.bot_step = ""
        elif self.board_matches() and not self.game.is_over():
            self.bot_unseen = True  # no sensor changes (a stack onto a stack): OK says the piece was moved
            self.misplaced()

    def _undo(self) -> None:
        if not self.saved(self.ledger.take_back(self.game.to_move)):
            self.cancel()
            return
        self.taken_back()

    def _checklist(self, before: State, step: Step) -> str:
        """A send has a second physical action the sensors cannot check: the sent pieces go to wait."""
        landing = before.at(step.dst)
        if landing is not None and landing[0] != before.to_move and step.dst not in (0, 48):
            return f"{NAMES[landing[0]]} {landing[1]} off {step.dst} to wait"
        return ""

    # -- screens ------------------------------------------------------------------------------------------

    def screen(self) -> Screen:
        g = self.game
        phase = self.state
        notice = (self.notice,) if self.notice else ()
        if phase is Phase.SETUP:
            state = self.fixups or (("Board OK",) if self.board_matches() else ("Reading the board...",))
            return Screen("Set up the board", (*notice, *state), footer="Hannibal")
        if phase is Phase.FIXUP and self.bot_step:
            done = ("then press OK",) if self.bot_unseen else ()
            return Screen(self.bot_step, (*notice, *self.fixups, *done), footer="then play on")
        if phase is Phase.FIXUP:
            return Screen("Fix the board", (*notice, *self.fixups), footer="then play on")
        if phase is Phase.DICE:
            return Screen(f"{NAMES[g.to_move]}: your dice", (self.entry.prompt, "NEXT/PREV change"),
                          dice=tuple(self.entry.values), footer="OK next, BACK cancel")
        if phase is Phase.CHOOSE:
            return Screen("Which move?", tuple(str(m) for m in self.candidates), selected=self.selected,
                          footer="NEXT/PREV, OK")
        if phase is Phase.UNDO:
            last = self.ledger.steps[-1][0] if self.ledger.steps else None
            return Screen("Take back?", (f"Back to {NAMES[last.to_move]}'s" if last else "", "position before",
                                         "the last step"), footer="OK yes, BACK no")
        if phase in (Phase.ROLL, Phase.STEP) and self.far_turn():  # no button here rolls or moves for it
            return replace(position_screen(g, self.notice or "at the far table", self.last_step),
                           footer="far table plays")
        if phase is Phase.STEP and self.bot_turn():  # NEXT offers no menu for the bot's step: say only BACK
            return replace(position_screen(g, self.notice or f"{NAMES[g.to_move]} is thinking", self.last_step),
                           footer="BACK undo")
        if phase is Phase.ROLL:  # NEXT here keys in the players' own dice, not the menu of moves
            return replace(position_screen(g, self.notice, self.last_step), footer="NEXT dice, BACK undo")
        return position_screen(g, self.notice, self.last_step)


def create(context: FlowContext) -> HannibalFlow:
    """The registry's flow factory."""
    return HannibalFlow(context)


def _stack_alternative(game: GameState, move: Move) -> Move | None:
    """A stack move whose first piece down looks exactly like ``move``, when one is legal: people often
    move a stack a piece at a time, and taking one piece off a stack changes no sensor. So a piece move off
    a stack (its start stays occupied) onto an empty square looks, the moment it lands, like the first
    piece of any stack moving to that square, from the same start or from another stack; the table must
    not take it as that piece move (seed 53 of the soak: the first piece of S48-36 made 30-36 stand)."""
    if not isinstance(game, State) or not isinstance(move, Step) or move.kind != PIECE:
        return None
    start = game.at(move.src)
    if start is None or start[1] < 2:
        return None  # its start empties: no stack moving elsewhere looks like that
    stacks = [m for m in game.legal_moves() if isinstance(m, Step) and m.kind == STACK and m.dst == move.dst]
    same = Step(STACK, move.src, move.dst)
    return same if same in stacks else next(iter(stacks), None)
