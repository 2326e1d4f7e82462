"""Scripted people at the simulated Cannon Ball table: they spin, pick from the menu and move magnets.

Closed loop, as people are: each time their hands are free they look at the screen (the flow's phase,
its menu and checklist) and do one thing. Decisions come from the bots. A hand moves the pieces of one
move as people do: lift what leaves, then put down what arrives (an escorted cannon last, after its two
troopers), a trooper entering an enemy's fort box takes the enemy off first. A gate is closed by putting
it in its slot, opened by taking it out. After a removal or the end of a march, the board is put in line
with the position, one magnet at a time, while the checklist is on the screen.

With ``mistakes`` > 0 a share of the trooper steps goes wrong first, as at the other tables: the trooper
put on a wrong box (the checklist guides it back, then the step is made again), another piece lifted and
put back, a piece held in the air past the grace period, or OK pressed before moving (the march menu
opens, BACK closes it). Every slip is chosen so that no legal move looks like it on the board: the
table must catch each one and the game goes on exactly as without them.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from engines.base import Move
from engines.cannonball import BOX_NAMES, GATES, State
from engines.cannonball.board import FORT_OF, NEIGHBOURS, SECTION_OF
from engines.cannonball.moves import Blew, CannonMove, GateMove, Step
from sim_hardware.hands import ScriptedPeople

LOOK_S = 0.3  # reading the screen before the next press
HAND_S = 0.25  # a magnet lifted or put down
SLIPS = ("wrong box", "lift and put back", "slow hand", "needless OK")


def same_on_the_board(a: Move, b: Move) -> bool:
    """Two moves a hand makes alike: equal, or escorted cannon moves that differ only in the order of the
    escorts or which escort took which landing box (the table asks only what the board can show)."""
    if a == b:
        return True
    if isinstance(a, CannonMove) and isinstance(b, CannonMove) and a.escorts and b.escorts:
        return (a.src, a.dst) == (b.src, b.dst) and {s for s, _ in a.escorts} == {s for s, _ in b.escorts} \
            and {d for _, d in a.escorts} == {d for _, d in b.escorts}
    return False


class ScriptedCannonballTable(ScriptedPeople):
    """Both sides; ``flow`` is the controller's CannonballFlow, read as its screen would be."""

    def _own_state(self) -> None:
        self.slips: Counter[str] = Counter()  # mistakes made, by kind
        self._decided: dict[int, Move] = {}
        self._done: set[int] = set()  # journal lines whose move the hands already made
        self._confirmed: set[int] = set()  # ... and confirmed with OK when the table saw nothing
        self._slipped: set[int] = set()  # journal lines whose move went wrong once (one slip a move)
        self._menu_slip = -1  # the line at which OK opened the march menu by mistake

    def _look(self, game: State, phase: str, now: float) -> None:
        flow = self.flow
        if self.patient and (flow.spinner or flow.display.held_s):  # the dial turns, or its number is up
            return
        if phase in ("setup", "fixup"):
            if not self._ignore_named_sensor(flow.notice):
                self._tidy(game)
            return
        player = game.players[game.to_move]
        if player not in self.bots:  # a person's turn (at the terminal): their spin keyed in is theirs too
            return
        if phase == "enter":  # the spin keyed in by hand: these players let the table spin
            self._press("BACK", LOOK_S)
            return
        if phase == "undo":  # nobody here asked for a takeback
            self._press("BACK", LOOK_S)
            return
        if phase == "spin":
            self._press("SPIN", LOOK_S)
            return
        move = self._decision(game, player)
        if phase == "menu":
            if isinstance(move, GateMove):
                self._gate(move)
            else:
                self._pick(move)
        elif phase == "choose":
            if flow.seq == self._menu_slip:  # opened by mistake: not the menu, the board
                self._menu_slip = -1
                self._press("BACK", LOOK_S)
            elif any(same_on_the_board(move, c) for c in flow.candidates):
                self._pick(move)
            else:
                self._press("BACK", LOOK_S)
        elif phase == "march":
            self._march(move)

    def _decision(self, game: State, player: str) -> Move:
        seq = self.flow.seq
        if seq not in self._decided:
            self._decided[seq] = self.bots[player].choose(game)
        return self._decided[seq]

    # -- the hands ------------------------------------------------------------------------------------------

    def _march(self, move: Move) -> None:
        seq = self.flow.seq
        if not isinstance(move, Step | CannonMove | Blew):
            self._press("OK", LOOK_S)  # end, TNT: from the menu OK opens
            return
        if seq in self._done:
            if seq not in self._confirmed:  # made, but the table has not taken it: say so with OK
                self._confirmed.add(seq)
                self._press("OK", self.profile.timing.settle_s + LOOK_S)
            return
        game: State = self.flow.game
        if self.mistakes and type(move) is Step and seq not in self._slipped and self.rng.random() < self.mistakes \
                and self._slip(game, move):
            return
        self._done.add(seq)
        if isinstance(move, Step):
            self._lift(BOX_NAMES[move.src])
            if game.board[move.dst]:
                self._lift(BOX_NAMES[move.dst])  # an enemy in a fort box: taken off, then the step lands
            self._place(BOX_NAMES[move.dst])
        elif isinstance(move, CannonMove):
            for src in (move.src, *(s for s, _ in move.escorts)):
                self._lift(BOX_NAMES[src])
            for dst in (*(d for _, d in move.escorts), move.dst):
                self._place(BOX_NAMES[dst])

    def _slip(self, game: State, step: Step) -> bool:
        """Get ``step`` wrong once, one of ``SLIPS`` (see the module docstring); ``False`` if the chosen
        slip cannot be made here (the step is then made right). A slip that leaves the move unmade waits
        past the grace period, so the table's checklist is up before the hands look again."""
        kind = self.rng.choice(SLIPS)
        src, dst = BOX_NAMES[step.src], BOX_NAMES[step.dst]
        if kind == "wrong box":
            wrong = self._wrong_box(game, step)
            if wrong is None:
                return False
            self._lift(src)
            self._place(wrong)
            self._act(self.profile.timing.grace_s + 1.0, lambda: None, "wait for the checklist")
        elif kind == "lift and put back":
            others = [b for b, code in enumerate(game.board) if code and (code - 1) >> 1 == game.to_move
                      and SECTION_OF[b] >= 0 and b != step.src]  # a fort's lifted piece can look like a capture
            if not others:
                return False
            other = BOX_NAMES[self.rng.choice(others)]
            self._lift(other)
            self._place(other)
            return self._slipped_once(kind, False)
        elif kind == "slow hand":
            if game.board[step.dst]:
                return False  # a capture in a fort: the enemy piece comes off first, no slow hand
            self._act(self.profile.timing.grace_s + 1.0, partial(self.board.lift, self.cells[f"box:{src}"]),
                      "lift and hold")
            self._place(dst)
            self._done.add(self.flow.seq)
        else:
            self._menu_slip = self.flow.seq
            self._press("OK", LOOK_S)
        return self._slipped_once(kind, True)

    def _slipped_once(self, kind: str, waiting: bool) -> bool:
        """Count the slip and mark its line, so the move is made right next time (one slip a move);
        ``waiting``: the move is still to be made (or finished) by the actions queued, so do nothing more."""
        self._slipped.add(self.flow.seq)
        self.mistakes_made += 1
        self.slips[kind] += 1
        return waiting

    def _wrong_box(self, game: State, step: Step) -> str | None:
        """An empty box near the step's landing that no legal move from its box reaches, outside the forts
        (so the board after the slip matches nothing the referee could accept)."""
        legal = {m.dst for m in game.legal_moves().simple if isinstance(m, Step) and m.src == step.src}
        near = sorted({b for n in NEIGHBOURS[step.dst] for b in (n, *NEIGHBOURS[n])})
        options = [b for b in near if not game.board[b] and b not in legal and b != step.src and FORT_OF[b] < 0]
        return BOX_NAMES[self.rng.choice(options)] if options else None

    def _gate(self, move: GateMove) -> None:
        seq = self.flow.seq
        if seq in self._done:
            return
        self._done.add(seq)
        cell = self.cells[f"gate:{GATES[move.gate]}"]
        self._act(HAND_S, (lambda: self.board.place(cell)) if move.close else (lambda: self.board.lift(cell)))

    def _pick(self, move: Move) -> None:
        candidates = list(self.flow.candidates)
        target = next(i for i, c in enumerate(candidates) if same_on_the_board(move, c))
        if self.flow.selected == target:
            self._press("OK", LOOK_S)
        else:
            forward = (target - self.flow.selected) % len(candidates)
            self._press("NEXT" if forward <= len(candidates) - forward else "PREV", 0.05)

    def _lift(self, box: str) -> None:
        cell = self.cells[f"box:{box}"]
        self._act(HAND_S, lambda: self.board.lift(cell))

    def _place(self, box: str) -> None:
        cell = self.cells[f"box:{box}"]
        self._act(HAND_S, lambda: self.board.place(cell))

    def _tidy(self, game: State) -> None:
        """Put one magnet right, as the checklist says (the engine's occupancy is what it lists)."""
        want = game.occupancy()
        for loc, cell in self.cells.items():
            have = self.board.count(cell)
            if have and loc not in want:
                self._act(0.1, partial(self.board.lift, cell))
                return
            if not have and loc in want:
                self._act(0.1, partial(self.board.place, cell))
                return
