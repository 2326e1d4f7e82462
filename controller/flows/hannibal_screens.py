"""Pure screens for Hannibal: a position between moves, as the table and ``boardkeeper replay`` show it."""

from __future__ import annotations

from collections.abc import Sequence

from controller.screen import Screen
from controller.table_state import TableState
from engines.hannibal import State

NAMES = {"yellow": "Yellow", "blue": "Blue"}
FOOTER = "NEXT menu, BACK undo"
"""The roll's and the step's: NEXT opens the own-dice entry or the list of moves, BACK takes a step back."""


def position_screen(g: State, notice: str = "", last: str = "") -> Screen:
    """The screen for a position between moves: whose roll, whose step with which dice, or who won, and
    the last step applied (so a move the table got wrong is seen, and taken back with BACK).
    Whose turn and the dice are the headline, read from across the table. The roll and the steps after it
    change as little as they can, so the display is sent little (issue 16): the dice still to roll are blank
    faces the roll fills in and a die played goes blank where it was, the rows keep their places and the
    footer stays.
    Pure, so ``boardkeeper replay`` shows a journal exactly as the table showed it."""
    who = NAMES[g.to_move]
    score = (f"Home Y{g.home('yellow')} B{g.home('blue')}", f"Wait Y{g.waiting('yellow')} B{g.waiting('blue')}")
    done = f"Done: {last}" if last else ""
    if g.is_over():
        winner = NAMES.get(g.winner or "", g.winner or "")
        return Screen(f"{winner} wins!", score, footer="Game over", headline=winner)
    # a notice (a takeback, a piece sent to wait, a question) may take two rows: it outranks the hint
    task = () if notice else ("Enter a piece" if g.waiting(g.to_move) else "Move a piece",)
    if g.is_chance():
        # the headline hides the title, so the first row says it, beside the step just done: that row
        # changes between roll and step anyway, the others stay (one page fewer a frame, issue 16)
        # the row that says "Move a piece" after the roll stays blank before it: the roll comes first
        now = notice or (f"{done} ROLL" if done else "press ROLL")
        return Screen(f"{who}: press ROLL", (now, *score, *("" for _ in task)), dice=(0, 0), footer=FOOTER,
                      headline=who)
    used = (0,) * (2 - len(g.dice))  # a die played is a blank face where it was: the other stays put
    return Screen(f"{who} to move", (notice or done or "OK if no change", *score, *task), dice=used + g.dice,
                  footer=FOOTER, headline=who)


def chance_shown(screen: Screen, outcomes: Sequence[str]) -> bool:
    """The screen shows no dice but those of the last roll journaled (``outcomes``: every chance outcome
    journaled, oldest first): what ``bench.powercut`` holds every frame to, so a roll is never shown before
    it is saved."""
    faces = sorted(d for d in screen.dice if d)
    if not faces:
        return True
    rolled = [int(n) for n in outcomes[-1][1:].split(",")] if outcomes else []
    return all(faces.count(d) <= rolled.count(d) for d in faces)


def board_view(state: TableState) -> list[str]:
    """The track at the terminal, seven positions a row: ``Y4`` four yellow pieces, ``.`` none; ``!`` after
    a position whose sensor disagrees with the game (a piece missing, or one where none should be)."""
    wrong = state.disagreeing
    rows = []
    for r in range(7):
        cells = []
        for pos in range(7 * r, 7 * r + 7):
            held = state.expected.get(f"pos:{pos}")
            piece = f"{held[0][0].upper()}{held[1]}" if held else "."
            cells.append(f"{pos:>2} {piece:<2}{'!' if f'pos:{pos}' in wrong else ' '}")
        rows.append(" ".join(cells))
    return rows
