"""Scripted people at the simulated Hannipe! table: they press buttons and move the pawns on the track mat.

Closed loop, as people are: each time they are free they look at the table (the flow's phase and what it
shows) and do one thing -- press one button, or move one pawn -- then look again. Decisions come from the
bots: bets on the horse buttons behind the look-away screen, tips with a horse button and NEXT to the
value. With ``mistakes`` > 0 they sometimes put a pawn one row off, and the table must guide it back.
"""

from __future__ import annotations

from functools import partial

from engines.hannipe import HORSES, Action, State
from sim_hardware.hands import ScriptedPeople

LOOK_S = 0.4  # reading the screen before the next press
PAWN_S = 0.5  # moving one pawn


class ScriptedHannipeTable(ScriptedPeople):
    """Every seat; registered on the event loop as a source that acts and never emits events.

    ``flow`` is the controller's HannipeFlow, read as a screen would be: phase, the bet or tip being
    chosen and the pawn moves listed (this package never imports the controller).
    """

    def _own_state(self) -> None:
        self._decided: dict[int, Action] = {}

    def _look(self, game: State, phase: str, now: float) -> None:
        flow = self.flow
        if phase == "mat":
            if not self._ignore_named_sensor(flow.screen().text()):  # as the screen names it
                self._tidy(game)
            return
        if phase in ("finish", "coins") or (phase == "turn" and game.leader in self.bots):
            self._press("OK", LOOK_S)  # a bot leader turns the card; anyone reads on after the finish
            return
        player = game.current_player
        if player is None or player not in self.bots:
            return
        if phase == "look":
            self._press("OK", LOOK_S)  # the others look away
            return
        move = self._decision(game, player)
        if phase == "bet":
            want = game.starters.index(move.horse)
            self._press("OK" if flow.selected == want else f"horse:{move.horse}", LOOK_S)
        elif phase == "tip":
            self._tip(move)

    def _decision(self, game: State, player: str) -> Action:
        """One bot decision per journal position, so a second look does not ask again."""
        seq = self.flow.seq
        if seq not in self._decided:
            move = self.bots[player].choose(game)
            assert isinstance(move, Action)
            self._decided[seq] = move
        return self._decided[seq]

    def _tip(self, move: Action) -> None:
        flow = self.flow
        if flow.horse != move.horse:
            if flow.choosing_face:
                self._press("BACK", LOOK_S)
            else:
                self._press(f"horse:{move.horse}", LOOK_S)
        elif not flow.choosing_face:
            self._press("OK", LOOK_S)
        elif flow.face != move.face:
            self._press("NEXT", LOOK_S)
        else:
            self._press("OK", LOOK_S)

    # -- the pawns -----------------------------------------------------------------------------------------

    def _tidy(self, game: State) -> None:
        """One lane put right: the pawns where none belongs lifted, the horse's pawn put on its row. Now
        and then (``mistakes``) the pawn goes one row off first, and the table's list guides it back."""
        want = {h: loc for loc, (h, _) in game.occupancy().items()}
        for h in HORSES:
            lane = [loc for loc, cell in self.cells.items() if loc.startswith(f"lane:{h}:") and self.board.count(cell)]
            target = want.get(h)
            if lane == ([target] if target else []):
                continue
            for loc in lane:
                if loc != target:
                    self._act(PAWN_S, partial(self.board.lift, self.cells[loc], 1))
            if target is not None and target not in lane:
                self._act(PAWN_S, partial(self.board.place, self.cells[self._slip(target)], 1))
            return

    def _slip(self, target: str) -> str:
        """Where the pawn is put: its row, or with ``mistakes`` sometimes the row behind it."""
        row = int(target.rsplit(":", 1)[1])
        if self.mistakes and row < len(HORSES) and self.rng.random() < self.mistakes / 4:
            self.mistakes_made += 1
            return f"{target.rsplit(':', 1)[0]}:{row + 1}"
        return target
