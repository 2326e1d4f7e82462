"""The Cannon Ball game flow: the turn menu, the Fort Commander spinner and marches judged on the board.

Phases (a ``transitions`` machine, Enum states, queued, no auto transitions; where a trigger leads is
decided by the position, so a resumed game lands in the right phase):

    SETUP --board matches--> SPIN | MENU | MARCH
    SPIN --SPIN (journaled, then shown)--> MENU | MARCH | SPIN (a tie in the spin-off)
    SPIN --NEXT (or SPIN with [chance] by_hand)--> ENTER (the players' own spinner keyed in) --OK--> (the spin)
    MENU --OK on march / shoot / rebuild / storm--> SPIN    MENU --gate put in or taken out of its slot--> (next turn)
    MARCH --a step on the board--> MARCH    MARCH --OK / NEXT--> CHOOSE (end, tnt, blew, any step) --OK--> ...
    any --the board must follow (removals, end-of-march resolution, a menu move)--> FIXUP --board matches--> ...
    MENU / MARCH / FIXUP --BACK--> UNDO --OK--> the step before (the pieces follow) --BACK--> where it was

The board referee judges marches against a *physical* projection (``PhysicalView``): each step moves
only the pieces a hand moves (an escorted cannon and its two troopers together), so the thousands of
escorted moves that differ only in the order of the escorts collapse into one each, and the removals an
attack, a shot or the end of a march causes are not guessed from the board: they are applied by the
engine and then listed ("lift e5") until the board matches. Every move is journaled (fsynced) before the
screen shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from typing import Any, cast

from controller.chance_entry import ChanceEntry
from controller.flows import FlowContext
from controller.flows.cannonball_screens import NAMES, position_screen, spin_said
from controller.referee import Stage
from controller.screen import Screen
from controller.sensed import SensedBoard, SensedFlow
from engines.base import GameState, Move
from engines.cannonball import BOX_NAMES, GATES, SITES, State
from engines.cannonball.board import GATE_OWNER
from engines.cannonball.movelist import MoveList
from engines.cannonball.moves import END, Blew, CannonMove, GateMove, Spin, Step, Tnt

SPINNER_FRAMES = 10  # the pointer passes this many numbers before it stops on the one drawn
SPINNER_S = 0.08  # each for this long


class Phase(Enum):
    SETUP = "setup"
    SPIN = "spin"
    MENU = "menu"
    MARCH = "march"
    CHOOSE = "choose"
    FIXUP = "fixup"
    UNDO = "undo"
    ENTER = "enter"
    OVER = "over"


WRONG_BUTTON = {
    Phase.SPIN: "SPIN spins",  # NEXT keys in the players' own spin
    Phase.MARCH: "move; OK/NEXT: menu",
}
"""What a press that does nothing is told where the screen has a line for it (a menu's footer says its buttons)."""


def physical_moves(game: State) -> list[Move]:
    """The moves a hand makes on the board now, one per distinct result: trooper steps, crossings,
    cannon moves (escorted ones once per cannon box, escort boxes and escort landing boxes, in a
    canonical order), ``blew`` and, at a turn choice, a gate put in or taken out of its slot."""
    if game.is_over() or game.is_chance():
        return []
    legal = game.legal_moves()
    if game.budget is None:
        return [m for m in legal if isinstance(m, GateMove)]
    assert isinstance(legal, MoveList)
    out: list[Move] = [m for m in legal.simple if isinstance(m, Step | CannonMove | Blew)]
    for block in legal.blocks:
        pairs = [(a, b) for i, a in enumerate(block.sources) for b in block.sources[i + 1:]]
        for dst in block.empties:
            left = [x for x in block.empties if x != dst]
            for s1, s2 in pairs:
                for k, d1 in enumerate(left):
                    out += [CannonMove(block.src, dst, ((s1, d1), (s2, d2))) for d2 in left[k + 1:]]
    return out


def non_physical_moves(game: State) -> list[Move]:
    """What a march allows that no sensor sees: ``end`` and TNT (cases are not sensed), then ``blew``."""
    return [m for m in game.legal_moves().simple if m is END or isinstance(m, Tnt)] + \
        [m for m in game.legal_moves().simple if isinstance(m, Blew)]


class PhysicalView:
    """What the referee judges against: the engine's occupancy, and per physical move only what the
    hands change (see the module docstring). Implements the part of ``GameState`` the referee uses."""

    def __init__(self, game: State, moves: list[Move], occupancy: dict[str, tuple[str, int]] | None = None) -> None:
        self.game = game
        self.moves = moves
        self.occ = dict(game.occupancy()) if occupancy is None else occupancy

    def occupancy(self) -> dict[str, tuple[str, int]]:
        return self.occ

    def kinds(self) -> dict[str, str]:
        """The cannons, as the engine has them: a fix-up list names them."""
        return self.game.kinds()

    def legal_moves(self) -> list[Move]:
        return self.moves

    def is_chance(self) -> bool:
        return self.game.is_chance()

    def is_over(self) -> bool:
        return self.game.is_over()

    def clone(self) -> PhysicalView:
        return PhysicalView(self.game, self.moves, dict(self.occ))

    def apply(self, move: Move) -> None:
        owner = (self.game.players[self.game.to_move], 1)
        box = "box:"
        if isinstance(move, Step):
            del self.occ[box + BOX_NAMES[move.src]]
            self.occ[box + BOX_NAMES[move.dst]] = owner
        elif isinstance(move, CannonMove):
            for src, _ in ((move.src, move.dst), *move.escorts):
                del self.occ[box + BOX_NAMES[src]]
            for _, dst in ((move.src, move.dst), *move.escorts):
                self.occ[box + BOX_NAMES[dst]] = owner
        elif isinstance(move, Blew):
            self.occ.pop(f"bridge:{SITES[move.site]}", None)
            self.occ.pop(box + BOX_NAMES[self.game.crossed], None)
        elif isinstance(move, GateMove):
            gate = f"gate:{GATES[move.gate]}"
            if move.close:
                self.occ[gate] = (self.game.players[GATE_OWNER[move.gate]], 1)
            else:
                self.occ.pop(gate, None)


PLAY_PHASES = [Phase.SPIN, Phase.MENU, Phase.MARCH, Phase.CHOOSE]
# where the position leads: the first transition of a trigger whose condition holds
_ONWARD = (("OVER", "game_over"), ("SPIN", "spin_due"), ("MENU", "menu_due"), ("MARCH", None))


def _onward(trigger: str, source: list[Phase]) -> list[dict[str, Any]]:
    return [{"trigger": trigger, "source": source, "dest": Phase[dest], **({"conditions": cond} if cond else {})}
            for dest, cond in _ONWARD]


TRANSITIONS: list[dict[str, Any]] = [
    *_onward("board_ready", [Phase.SETUP, Phase.FIXUP]),
    *_onward("committed", [*PLAY_PHASES, Phase.FIXUP, Phase.UNDO]),
    *_onward("cancel", [Phase.CHOOSE, Phase.UNDO, Phase.ENTER]),
    {"trigger": "enter_spin", "source": Phase.SPIN, "dest": Phase.ENTER},
    {"trigger": "ask_undo", "source": [Phase.MENU, Phase.MARCH, Phase.FIXUP], "dest": Phase.UNDO},
    {"trigger": "misplaced", "source": PLAY_PHASES, "dest": Phase.FIXUP},
    {"trigger": "choose", "source": [Phase.MENU, Phase.MARCH, Phase.FIXUP], "dest": Phase.CHOOSE},
]


class CannonballFlow(SensedFlow[State]):
    """Consumes events from the loop; owns the engine state, the journal and what the screen says."""

    STATE = State
    FAR_PLAY = True
    state: Phase  # set by the transitions machine
    # triggers the machine adds to the model (declared for the type checker)
    enter_spin: Callable[[], bool]

    def __init__(self, context: FlowContext) -> None:
        super().__init__(context)
        timing = context.profile.timing
        self.by_hand = context.profile.chance.by_hand  # the players spin their own: SPIN asks for the number
        self.entry = ChanceEntry(sides=12, count=1)
        self.board = SensedBoard(self, self.loop, self._view, settle_s=timing.settle_s, grace_s=timing.grace_s,
                                 log=self._log, journal=self.journal,
                                 previous=lambda: self.ledger.steps[-1][0] if self.ledger.steps else None)
        self.referee = self.board.referee
        self.candidates: tuple[Move, ...] = ()
        self.selected = 0
        self.notice = ""
        self.last_step = self.ledger.steps[-1][1] if self.ledger.steps else ""
        # frames still to show, the spinner turning after a spin was journaled (True: a spin's last, its number)
        self.spinner: list[tuple[Screen, bool]] = []
        self.start_machine(Phase, TRANSITIONS, Phase.SETUP)
        self.redraw()

    # -- conditions and phase entry ----------------------------------------------------------------------

    def spin_due(self) -> bool:
        return self.game.is_chance()

    def menu_due(self) -> bool:
        return self.game.budget is None

    def on_enter_MENU(self) -> None:  # named by transitions after the Enum member
        self.candidates = tuple(self.game.legal_moves())
        self.selected = 0

    def on_exit_CHOOSE(self) -> None:
        self.candidates = ()

    def on_exit_FIXUP(self) -> None:
        self.referee.clear_fixups()
        self.notice = ""  # what it said was about the board, which is right now

    def on_exit_SETUP(self) -> None:
        self.referee.clear_fixups()

    # -- what the Flow protocol reads --------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """The result is up: the table may stop its loop (``Table.finished``) -- a last spin that ended the
        game has turned to its number first."""
        return self.state is Phase.OVER and not self.spinner

    @property
    def fixups(self) -> tuple[str, ...]:
        return self.referee.fixups

    def board_matches(self) -> bool:
        return self.referee.board_matches()

    def _view(self) -> GameState:
        return cast(GameState, PhysicalView(self.game, physical_moves(self.game)))

    def start(self) -> None:
        """Judge the board as it stands (a resumed game may already be set up)."""
        self.board.judge(settled=True)
        self.redraw()

    # -- events -------------------------------------------------------------------------------------------

    def timer(self, name: str) -> None:
        if name == "spinner":
            self._spinner_frame()

    def press(self, button: str) -> None:
        phase = self.state
        self.notice = ""
        if phase in (Phase.SPIN, Phase.MENU, Phase.MARCH) and self.far_turn() and button != "BACK":
            self.notice = f"{NAMES[self.game.players[self.game.to_move]]} plays at the far table"
            self.redraw()
        elif phase is Phase.SPIN and button == "SPIN" and self.spinner:
            self.redraw()  # the dial still turns: the last spin's number is not up yet, nor the next to spin
        elif phase is Phase.SPIN and button == "SPIN" and not self.by_hand:
            self._spin()
        elif phase is Phase.SPIN and button in ("SPIN", "NEXT", "PREV"):  # the players' own spinner
            self.entry = ChanceEntry(sides=12, count=1)
            self.enter_spin()
        elif phase is Phase.ENTER:
            self._entry_button(button)
        elif phase is Phase.MARCH and button in ("OK", "NEXT", "PREV"):
            if button == "OK" and not self.board_matches():
                self.board.judge(settled=True, pressed_ok=True)
            else:
                self._offer(tuple(non_physical_moves(self.game) + list(self.game.legal_moves().simple)),
                            manual=True)
        elif button == "BACK" and phase in (Phase.MENU, Phase.MARCH, Phase.FIXUP) and self.ledger.steps:
            if self.far_step_stands():
                self.notice = "that step stands: the far table has it"
                self.redraw()
            else:
                self.ask_undo()
        elif phase is Phase.UNDO and button in ("OK", "BACK"):
            if button == "OK":
                self._undo()
            else:
                self.cancel()
                self.board.judge(settled=True)  # the step stands: a board put back must now be put right
        elif phase in (Phase.SETUP, Phase.FIXUP) and button == "OK":
            self.board.ok_on_fixup()  # a sensor named as stuck or dead is ignored
        elif phase in (Phase.MENU, Phase.CHOOSE) and button != "SPIN":
            self._menu_button(button)
        else:  # a button that does nothing here: the screen says which one does
            self.notice = WRONG_BUTTON.get(phase, self.notice)
            self.redraw()

    def _menu_button(self, button: str) -> None:
        if button in ("NEXT", "PREV") and self.candidates:
            self.selected = (self.selected + (1 if button == "NEXT" else -1)) % len(self.candidates)
            self.redraw()
        elif button == "OK" and self.candidates:
            self.commit(self.candidates[self.selected])
        elif button == "BACK" and self.state is Phase.CHOOSE:
            self.cancel()

    # -- the board (asked by the sensed-board loop) ----------------------------------------------------------

    def board_stage(self) -> Stage | None:
        """A gate in its slot at a turn choice, a step in a march; not judged at "Take back?", while a spin is
        keyed in, or at the end."""
        if self.state in (Phase.OVER, Phase.UNDO, Phase.ENTER):
            return None
        return self.stage()

    def moves_allowed(self) -> bool:
        if self.far_turn():
            return False  # the far table moves its seat's pieces; this board follows
        return self.state in (Phase.MENU, Phase.MARCH, Phase.CHOOSE) or (
            self.state is Phase.FIXUP and not self.referee.restoring and self.game.current_player is not None)

    def board_right(self) -> None:
        if self.state in (Phase.SETUP, Phase.FIXUP):
            self.board_ready()

    def offer(self, candidates: tuple[Move, ...], unseen: bool) -> None:
        self._offer(candidates[:40])

    def takeback_offered(self) -> bool:
        """The pieces were put back as they stood before the last step: offer to take it back."""
        if self.state not in (Phase.MENU, Phase.MARCH, Phase.FIXUP) or self.far_step_stands():
            return False
        self.ask_undo()
        return True

    def _offer(self, candidates: tuple[Move, ...], manual: bool = False) -> None:
        """Ask which move: the board's candidates, or (``manual``) the march menu, ``end`` first."""
        if not candidates:
            return
        self.referee.asking(candidates, manual)
        if self.state is not Phase.CHOOSE:
            self.choose()
        self.candidates = tuple(dict.fromkeys(candidates))
        self.selected = 0
        self.redraw()

    # -- actions ------------------------------------------------------------------------------------------

    def _spin(self) -> None:
        if self.board.refuse_unless_right("Fix the board before spinning"):
            self.commit(self.dice.roll(self.game))

    def _entry_button(self, button: str) -> None:
        """The players' own spin keyed in: journaled as entered, shown without the dial."""
        values = self.key_in(button, "Fix the board before spinning")
        if values is not None:
            (number,) = values
            self.commit(next(m for m, _ in self.game.chance_outcomes() if isinstance(m, Spin) and m.number == number),
                        entered=True)

    def commit(self, move: Move, entered: bool = False) -> None:
        """Journal first (fsynced), then make it the position; the pieces then follow the checklist.
        ``entered``: a spin the players keyed in from their own spinner (no dial turns on the screen)."""
        player = self.game.players[self.game.to_move]  # who spins or moves, as the screen names them
        said = spin_said(self.game, move) if isinstance(move, Spin) else ""
        # a spin is signed "chance", as every game's chance outcome is
        if not self.saved(self.ledger.record(move, "chance" if self.game.is_chance() else player, entered=entered)):
            return
        self.last_step = str(move)
        self.board.new_position()
        self.notice = said
        if isinstance(move, Spin) and not entered:
            frames = spinner_frames(NAMES[player], move.number, said.partition(": ")[2])
            turning = bool(self.spinner)  # a far table's spin while this one's dial still turns: after it
            self.spinner += [(frame, n == len(frames) - 1) for n, frame in enumerate(frames)]
            if not turning:  # once the last spin's number has had its time
                self.loop.set_timer("spinner", self.display.held_s)
        self.referee.clear_fixups()
        self.committed()
        self.board.follow()

    def _undo(self) -> None:
        """Back to the position before the last step (journaled as ``undo``); the pieces follow the list."""
        failed = self.ledger.take_back(self.game.players[self.game.to_move])
        if failed is not None:
            self.notice = failed
            self.cancel()
            return
        self.taken_back()

    def taken_back(self) -> None:
        """Here or at the far table: the step before is the last one shown, and the pieces follow the list."""
        self.last_step = self.ledger.steps[-1][1] if self.ledger.steps else ""
        super().taken_back()

    def apply_far(self, move: Move, player: str, entered: bool) -> None:
        """A far seat's spin turns the dial here too; its turn choice or march step, the board follows."""
        self.commit(move, entered=entered)

    # -- screens ------------------------------------------------------------------------------------------

    def redraw(self) -> None:
        if not self.spinner:  # the spinner's last frame shows the position's screen
            self.display.show(self.screen())

    def _spinner_frame(self) -> None:
        """The dial's next frame; a spin's last (its number) is held for a message's time, before the position
        or another spin's dial takes its place."""
        frame, last = self.spinner.pop(0)
        self.display.show(frame, hold=last)
        if self.spinner:
            self.loop.set_timer("spinner", self.display.min_s if last else SPINNER_S)
        else:
            self.redraw()

    def screen(self) -> Screen:
        g = self.game
        notice = (self.notice,) if self.notice else ()
        if self.state is Phase.SETUP:
            state = self.fixups or (("Board OK",) if self.board_matches() else ("Reading the board...",))
            return Screen("Set up the board", (*notice, *state), footer="Cannon Ball")
        if self.state is Phase.FIXUP:  # a checklist after a move (removals, a menu move), or a misplaced piece
            taken = self.notice.startswith("Taken back")  # the list puts back the step undone, not the one shown
            title = "Take back:" if taken else \
                f"After {self.last_step}:" if self.referee.restoring and self.last_step else "Fix the board"
            return Screen(title, (*notice, *self.fixups), footer="then play on")
        if self.state is Phase.ENTER:
            who = NAMES[g.players[g.to_move]]
            return Screen(f"{who}: your spin", (self.entry.prompt, "NEXT/PREV change"), footer="OK take, BACK cancel",
                          headline=str(self.entry.values[0]))
        if self.state is Phase.UNDO:
            return Screen("Take back?", (f"Undo {self.last_step}", "and put the pieces", "back as listed"),
                          footer="OK yes, BACK no")
        if self.state in (Phase.SPIN, Phase.MENU, Phase.MARCH) and self.far_turn():  # nothing to press here for it
            return replace(position_screen(g, self.notice or "at the far table", self.last_step),
                           footer="far table plays")
        if self.state in (Phase.MENU, Phase.CHOOSE):
            who = NAMES[g.players[g.to_move]]
            if self.state is Phase.CHOOSE:  # the board could be read more than one way, or the menu was asked for
                title = "Which move?"  # the steps left follow (the menu's n/N counter takes the title's room)
            else:
                title = f"{who}: {g.budget} left" if g.budget is not None else f"{who}: your turn"
            return Screen(title, tuple(menu_label(m) for m in self.candidates), selected=self.selected,
                          footer="NEXT/PREV, OK" + (", BACK" if self.state is Phase.CHOOSE else ""))
        return position_screen(g, self.notice, self.last_step)


def spinner_frames(who: str, number: int, result: str = "") -> list[Screen]:
    """The Fort Commander turning on the OLED: the dial's numbers sliding under the pointer and stopping
    on ``number`` (shown only after the number was journaled); the last frame says what the number decided
    (``result``: "Gray marches first", "odd: the storm fails") where the pointer was, since the players' next
    step may come before the position's screen does."""
    frames = []
    for k in range(SPINNER_FRAMES, -1, -1):
        at = (number - 1 - k) % 12
        dial = " ".join(f"{(at + d) % 12 + 1:>2}" if d else f"[{at + 1}]" for d in range(-2, 3))
        lines = ("       v", dial) if k or not result else (dial, result)
        frames.append(Screen(f"{who} spins..." if k else f"{who} spun {number}", lines,
                             footer="the Fort Commander", headline=str(at + 1)))
    return frames


def create(context: FlowContext) -> CannonballFlow:
    """The registry's flow factory."""
    return CannonballFlow(context)


def menu_label(move: Move) -> str:
    """A move as one menu line of 21 characters: an escorted cannon hop loses its spaces
    (``C j13-j7 +k13-k7 +l13-l7`` -> ``Cj13-j7+k13-k7+l13-l7``), every other move is its notation."""
    text = str(move)
    return text.replace(" +", "+").replace("C ", "C", 1) if text.startswith("C ") else text
