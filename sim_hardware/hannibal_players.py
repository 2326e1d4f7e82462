"""Scripted people at the simulated table: they read the screen, lift and place magnets, press buttons.

They act as players do: a piece is lifted, there is a pause, it is placed; a sent piece is taken off
first; instructions on the screen are followed. With ``mistakes`` > 0 they also err (a wrong square,
a piece lifted and put back, a stray lift of another piece) and the flow must catch every one.

What they "see" is what the screen shows: the phase, the engine position the screen describes, the
candidates and fix-up instructions (``TableView``; the controller's flow is passed in at run time, this
package never imports it). Decisions come from the bots.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from engines.hannibal import State, Step
from engines.hannibal.moves import ENTRY, STACK
from sim_hardware.hands import ScriptedPeople

Cell = tuple[int, int]
READ_S = 0.5  # a screen up this long is read in passing, hands busy or not
REPRESS_S = 3.0  # ROLL pressed and still asked for (the press lost: "Board link lost" was up): press again


class TableMisreadError(AssertionError):
    """The table offered moves that do not include the one made: the flow misread the board."""


class TableView(Protocol):
    """What people read off the table's screen."""

    @property
    def phase(self) -> Any: ...  # an Enum whose ``value`` names the phase: "setup", "roll", "step", ...

    @property
    def game(self) -> State: ...

    @property
    def seq(self) -> int: ...  # moves so far (the screen changes with every one)

    @property
    def last_step(self) -> str: ...  # "Done: 12-17" on the screen: the step just applied

    @property
    def last_step_by(self) -> str | None: ...  # whose step that was

    candidates: tuple[Any, ...]
    selected: int
    fixups: tuple[str, ...]
    notice: str


class ScriptedTable(ScriptedPeople):
    """Both players; registered on the event loop as a source that acts and never emits events."""

    flow: TableView

    def _own_state(self) -> None:
        self.intended: Step | None = None
        self._acted_on: object = None
        self.awaiting_fixup = False  # a deliberate mistake is on the board: the flow must catch it
        self._mistake_seq = -1
        self._mistake_at = 0.0
        self.decisions: dict[int, str] = {}
        self.takebacks = 0  # steps the table applied that nobody made, taken back with BACK
        self._checked: set[int] = set()  # journal lines whose screen has been read
        self._unmade_seen = False  # a step nobody here made was shown: take it back when the hands are free
        self._up: tuple[int, float] | None = None  # the journal line whose screen is up, and since when
        self._turn_start = 0  # journal length when decided -> the move meant (last decision wins)
        self._rolled_at = 0.0
        self._name_it = False  # the table took a step nobody made this turn: name moves from the list, not OK

    # -- deciding what to do ------------------------------------------------------------------------------

    def poll(self, now: float) -> list[object]:
        self._glance(now, look=now >= self.busy_until and not self.actions)
        return super().poll(now)

    def _decide(self, now: float) -> None:
        flow = self.flow
        phase = flow.phase.value
        if self.awaiting_fixup and (flow.seq != self._mistake_seq or now - self._mistake_at > 10.0):
            self.awaiting_fixup = False  # the table moved on, or never saw it (a dead sensor): put it right
        if flow.game.to_move not in self.bots and phase not in ("setup", "fixup"):
            return  # a person plays this seat
        if phase in ("roll", "step") and self._unmade_seen:
            self.takebacks += 1  # "Done: 0-10"? Nobody made that: BACK, and OK to confirm (again if a step of
            self._unmade_seen = False  # ours was applied after it: that one goes first, then it shows again)
            self._acted_on = None
            self._name_it = True
            self._press("BACK", pause=0.3)
            self._press("OK", pause=0.5)
            return
        if phase in ("setup", "fixup"):
            self._follow_fixups(now)
        elif (phase == "roll" or (phase == "step" and self._acted_on != ("step", flow.seq))) \
                and not self.awaiting_fixup and not flow.fixups and not self._physical_counts_match(flow.game):
            self._tidy(flow.game)  # the checklist on the screen: sent pieces off, stacks whole
        elif phase == "roll":
            key = ("roll", flow.seq)
            # again if the table refused it for a board since put right, or nothing happened (a press lost)
            if self._acted_on != key or "before rolling" in flow.notice or now - self._rolled_at > REPRESS_S:
                self._acted_on, self._rolled_at = key, now
                self._turn_start = flow.seq + 1  # steps of this roll are decided from the next line on
                self._name_it = False  # a new turn: OK is trusted again
                self._press("ROLL", pause=0.3)
        elif phase == "step":
            self._step(now)
        elif phase == "choose":
            self._choose()
        elif phase in ("undo", "dice"):
            self._press("BACK", pause=0.3)

    def _glance(self, now: float, look: bool) -> None:
        """People read the screen while their hands are busy too: a step shown as just applied ("Done: 12-17")
        that nobody at the table made is noticed once it has been up READ_S (or at once when they ``look``,
        hands free), and taken back as soon as the hands are free, even if the table has asked something or
        applied another step since. A step flashed up for less goes unseen: the table must show it."""
        flow = self.flow
        if flow.phase.value not in ("roll", "step"):
            self._up = None
            return
        if flow.seq in self._checked:
            return
        if self._up is None or self._up[0] != flow.seq:
            self._up = (flow.seq, now)
        if not look and now - self._up[1] < READ_S:
            return
        self._checked.add(flow.seq)
        last = flow.last_step
        if not last or flow.last_step_by not in self.bots:
            return  # nothing shown, or a person's step: theirs to take back, not ours
        if last not in {move for at, move in self.decisions.items() if at >= self._turn_start}:
            self._unmade_seen = True

    def _step(self, now: float) -> None:
        game = self.flow.game
        key = ("step", self.flow.seq)
        if self._acted_on == key:
            if self._name_it:
                # the table took a step nobody made this turn (OK on a dead sensor under the piece makes it
                # guess): name the move from the list instead, as people do once the table has guessed wrong
                self._press("NEXT", pause=0.3)
            else:
                # the move is done but the flow saw nothing: it was hidden (onto a stack); say so with OK
                self._press("OK", pause=self.profile.timing.settle_s + 0.5)
            return
        if not self._physical_counts_match(game):
            return  # instructions will come; wait for them
        self._acted_on = key
        move = self.bots[game.to_move].choose(game)
        assert isinstance(move, Step)
        self.intended = move
        self.decisions[self.flow.seq] = str(move)
        if self.rng.random() < self.mistakes:
            self._mistake(game, move)
        else:
            self._perform(game, move)
        self._act(self.profile.timing.settle_s + 0.2, lambda: None, "wait for the table")

    def _choose(self) -> None:
        flow = self.flow
        if not flow.candidates:
            return
        if self.intended not in flow.candidates:
            if self._acted_on != ("step", flow.seq):  # asked before moving (OK pressed by mistake): "no"
                self._press("BACK", pause=0.3)
                return
            raise TableMisreadError(f"the table asks {', '.join(map(str, flow.candidates))} but {self.intended} "
                                    f"was made")
        target = self.intended
        if flow.candidates[flow.selected] == target:
            self._press("OK", pause=0.3)
            self._name_it = False
        else:
            self._press("NEXT", pause=0.15)

    def _follow_fixups(self, now: float) -> None:
        if not self.flow.fixups and self.flow.phase.value == "fixup":
            self._unseen_step()
            return
        if self._ignore_named_sensor(self.flow.notice) or not self._follow_list(self.flow.fixups, now):
            return
        self.look_again_at(now + 3.0)
        self.awaiting_fixup = False
        self._acted_on = None  # told to put the board back: the move is to be made again

    def _unseen_step(self) -> None:
        """A step shown for the board to follow that no sensor will see (a piece from a stack onto a stack: "then
        press OK"): make it by the engine's counts, then say so with OK."""
        game = self.flow.game
        if not self._physical_counts_match(game):
            self._tidy(game)
        elif self._acted_on != ("unseen", self.flow.seq):
            self._acted_on = ("unseen", self.flow.seq)
            self._press("OK", pause=self.profile.timing.settle_s + 0.5)

    def _fixup_cell(self, name: str) -> Cell:
        return self._cell(name)

    # -- physical actions ---------------------------------------------------------------------------------

    def _perform(self, game: State, step: Step, stray: bool = False, hold: float = 0.0) -> None:
        mover = game.to_move
        goal = 48 if mover == "yellow" else 0
        if step.kind == STACK and step.dst != goal and self.rng.random() < 0.5:
            self._stack_by_hand(game, step)
            return
        if step.kind != ENTRY:
            src_count = game.at(step.src)
            n = src_count[1] if step.kind == STACK and src_count else 1
            src = self._cell(step.src)
            self._act(hold or self.rng.uniform(0.2, 0.6), lambda: self.board.lift(src, n), "lift")
        else:
            n = 1
        if stray:
            self._stray(game, exclude={step.src, step.dst})
        landing = game.at(step.dst)
        if step.dst == goal:
            return  # home free: off the board
        dst = self._cell(step.dst)
        if landing is not None and landing[0] != mover:
            sent = landing[1]
            self._act(0.3, lambda: self.board.lift(dst, sent), "send off")
        self._act(0.2, lambda: self.board.place(dst, n), "place")

    def _stack_by_hand(self, game: State, step: Step) -> None:
        """A stack moved a piece at a time, as people often do: the table must wait for the last one."""
        at_src, landing = game.at(step.src), game.at(step.dst)
        n = at_src[1] if at_src else 1
        src, dst = self._cell(step.src), self._cell(step.dst)
        if landing is not None and landing[0] != game.to_move:
            sent = landing[1]
            self._act(0.3, lambda: self.board.lift(dst, sent), "send off")
        for _ in range(n):
            self._act(0.3, lambda: self.board.lift(src, 1), "lift one of the stack")
            self._act(self.rng.uniform(0.2, 0.8), lambda: self.board.place(dst, 1), "place it")

    def _mistake(self, game: State, step: Step) -> None:
        self.mistakes_made += 1
        kind = self.rng.choice(("wrong square", "lift and put back", "stray lift", "slow hand", "needless OK"))
        if kind == "slow hand":
            self._perform(game, step, hold=4.0)  # longer than the grace period, piece in the air
        elif kind == "needless OK":
            self._press("OK", pause=0.5)  # before moving: a hidden-move question must be answered "no"
            self._perform(game, step)
        elif kind == "lift and put back":
            self._stray(game, exclude=set())
            self._perform(game, step)
        elif kind == "stray lift" and step.kind != ENTRY:
            self._perform(game, step, stray=True)
        else:
            wrong = self._wrong_square(game, step)
            if wrong is None:
                self._perform(game, step)
                return
            src, bad = self._cell(max(step.src, 0)), self._cell(wrong)
            if step.kind != ENTRY:
                self._act(0.4, lambda: self.board.lift(src, 1), "lift")
            self._act(0.4, lambda: self.board.place(bad, 1), "place on the wrong square")
            self._acted_on = None  # the flow will say how to put it right; then think again
            self.awaiting_fixup = True
            self._mistake_seq = self.flow.seq
            self._mistake_at = self.now
            self.look_again_at(self.now + 10.0)

    def _wrong_square(self, game: State, step: Step) -> int | None:
        if step.kind == STACK:
            return None
        legal = {m.dst for m in game.legal_moves() if isinstance(m, Step)}
        for delta in (1, -1, 2, -2):
            pos = step.dst + delta
            if 0 < pos < 48 and game.at(pos) is None and pos != step.src and pos not in legal:
                return pos
        return None

    def _stray(self, game: State, exclude: set[int]) -> None:
        own = [pos for pos in range(49) if (at := game.at(pos)) is not None and at[0] == game.to_move
               and pos not in exclude]
        if not own:
            return
        pos = self.rng.choice(own)
        cell = self._cell(pos)
        self._act(0.4, lambda: self.board.lift(cell, 1), "stray lift")
        self._act(0.3, lambda: self.board.place(cell, 1), "put back")

    def _tidy(self, game: State) -> None:
        """Make every position hold exactly the engine's pieces, as players do after reading a checklist."""
        for pos in range(49):
            cell = self._cell(pos)
            want = at[1] if (at := game.at(pos)) else 0
            have = self.board.count(cell)
            if have != want:
                self._act(0.2, partial(self._set_count, cell, want), f"tidy {pos}")

    def _cell(self, pos: int | str) -> Cell:
        name = pos if isinstance(pos, str) and ":" in pos else f"pos:{pos}"
        return self.cells[name]

    def _physical_counts_match(self, game: State) -> bool:
        """The pieces on the table are exactly the engine's (what a careful player checks by eye)."""
        return all(self.board.count(self._cell(pos)) == (at[1] if (at := game.at(pos)) else 0) for pos in range(49))
