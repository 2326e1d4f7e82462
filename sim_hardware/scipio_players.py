"""Scripted people at the simulated Scipio table: they press buttons and keep the tokens on the board.

Closed loop, as people are: each time they are free they look at the screen (the flow's phase and what
it shows) and do one thing -- press one button, or put the tokens right -- then look again. Decisions
come from the bots; secret ones are entered behind the "look away" screen or on the army's pad. With
``mistakes`` > 0 they also knock a formation's tokens off the table (the reed opens: the table must stop
and say so) and tap the wrong formation button before correcting it with BACK.
"""

from __future__ import annotations

from functools import partial

from engines.scipio import FORMATIONS, Order, State, location
from engines.scipio.rules import field_formations
from sim_hardware.hands import ScriptedPeople

LOOK_S = 0.4  # reading the screen before the next press


class ScriptedScipioTable(ScriptedPeople):
    """Both armies; registered on the event loop as a source that acts and never emits events.

    ``flow`` is the controller's ScipioFlow, read as a screen would be: phase, entry values and cursor,
    damage counts, menu candidates and selection (this package never imports the controller).
    """

    def _own_state(self) -> None:
        self._decided: dict[tuple[int, str], Order] = {}
        self._slipped: set[tuple[int, str]] = set()
        self.knocked = 0  # formations knocked over by accident (the table must stop for each)

    # -- one look at the table ------------------------------------------------------------------------

    def _look(self, game: State, phase: str, now: float) -> None:
        if self._tidy(game):
            return
        if phase in ("board", "reveal", "follow"):  # follow: the far army's tokens are set (``_tidy``)
            self._press("OK", LOOK_S)
            return
        player = game.current_player
        if phase == "mismatch" or player is None or player not in self.bots:
            return
        if self.mistakes and (self.flow.seq, "knock") not in self._slipped and self.board_set(game):
            self._slipped.add((self.flow.seq, "knock"))
            if self.rng.random() < self.mistakes / 2 and self._knock_over():
                return
        move = self._decision(game, player)
        if phase == "entry":
            self._entry(game, move)
        elif phase == "damage":
            self._damage(game, move)
        elif phase == "menu":
            self._menu(move)

    def _decision(self, game: State, player: str) -> Order:
        key = (self.flow.seq, game.step)
        if key not in self._decided:
            move = self.bots[player].choose(game)
            assert isinstance(move, Order)
            self._decided[key] = move
        return self._decided[key]

    def _entry(self, game: State, move: Order) -> None:
        flow = self.flow
        army = move.army
        if flow.pads and game.step == "place":
            wanted = list(move.nums)
            have = list(flow.values)
            if have != wanted[:len(have)]:
                self._press("BACK", LOOK_S)
            elif len(have) < 3:
                self._press(f"card:{army}:{wanted[len(have)]}", LOOK_S)
            else:
                self._press("OK", LOOK_S)
            return
        if not flow.hidden_open:
            self._press("OK", LOOK_S)  # the other army looks away
            return
        i = flow.cursor
        have, want = flow.values[i], move.nums[i]
        if have == want:
            self._press("OK", LOOK_S)
        elif game.step == "org":
            self._press("NEXT" if want > have else "PREV", LOOK_S)
        else:
            self._press("NEXT", LOOK_S)

    def _damage(self, game: State, move: Order) -> None:
        flow = self.flow
        counts = list(flow.counts)
        want = list(move.nums)
        pair = field_formations(move.name)
        key = (flow.seq, "slip")
        if counts == [0, 0] and key not in self._slipped and self.mistakes and self.rng.random() < self.mistakes:
            self._slipped.add(key)  # taps the other formation first, then corrects it
            wrong = 1 if want[0] else 0
            if counts[wrong] + 1 < game.formation(move.army, pair[wrong]):
                self.mistakes_made += 1
                self._press(f"tap:{location(move.army, pair[wrong])}", LOOK_S)
                return
        self._slipped.add(key)
        over = [k for k in (0, 1) if counts[k] > want[k]]
        under = [k for k in (0, 1) if counts[k] < want[k]]
        if over:
            self._press("BACK", LOOK_S)
        elif under:
            self._press(f"tap:{location(move.army, pair[under[0]])}", LOOK_S)
        else:
            self._press("OK", LOOK_S)

    def _menu(self, move: Order) -> None:
        flow = self.flow
        target = list(flow.candidates).index(move)
        if flow.selected == target:
            self._press("OK", LOOK_S)
        else:
            forward = (target - flow.selected) % len(flow.candidates)
            self._press("NEXT" if forward <= len(flow.candidates) - forward else "PREV", LOOK_S)

    # -- the tokens ----------------------------------------------------------------------------------------

    def _wanted(self, game: State) -> dict[str, int]:
        """Tokens each formation should hold now: the engine's, less those counted off in a damage step."""
        want = {location(a, i): game.formation(a, i) for a in ("rome", "carthage") for i in range(len(FORMATIONS))}
        if self.flow.phase.value == "damage":
            field, army, _, _ = game.plan[0]
            for k, i in enumerate(field_formations(field)):
                want[location(army, i)] -= self.flow.counts[k]
        return want

    def _tidy(self, game: State) -> bool:
        """Make the table match (what players do after every change); True if something was moved."""
        if not self.board_set(game) and self.flow.phase.value != "board":
            return False
        for loc, n in self._wanted(game).items():
            cell = self.cells[loc]
            have = self.board.count(cell)
            if have != n:
                self._act(0.3, partial(self._set, cell, have, n))
                return True
        return False

    def _set(self, cell: tuple[int, int], have: int, n: int) -> None:
        if have > n:
            self.board.lift(cell, have - n)
        else:
            self.board.place(cell, n - have)

    def board_set(self, game: State) -> bool:
        """The tokens are on the table (after the organisations and the first set-up)."""
        return game.troops["carthage"] is not None and (game.step != "tiles" or game.round > 1)

    def _knock_over(self) -> bool:
        """An elbow sweeps a formation's tokens off the table for a moment."""
        a = self.rng.choice(("rome", "carthage"))
        cell = self.cells[location(a, self.rng.randrange(len(FORMATIONS)))]
        n = self.board.count(cell)
        if n:
            self.knocked += 1
            self.mistakes_made += 1
            self._act(1.0, lambda: self.board.lift(cell, n))
        return bool(n)
