"""Pure screens for Hannibal: a position between moves, as the table and ``boardkeeper replay`` show it."""

from __future__ import annotations

from controller.screen import Screen
from engines.hannibal import State

NAMES = {"yellow": "Yellow", "blue": "Blue"}


def position_screen(g: State, notice: str = "", last: str = "") -> Screen:
    """The screen for a position between moves: whose roll, whose step with which dice, or who won, and
    the last step applied (so a move the table got wrong is seen, and taken back with BACK).
    Pure, so ``boardkeeper replay`` shows a journal exactly as the table showed it."""
    who = NAMES[g.to_move]
    score = (f"Home Y{g.home('yellow')} B{g.home('blue')}", f"Wait Y{g.waiting('yellow')} B{g.waiting('blue')}")
    notice = notice or (f"Done: {last}" if last else "")
    lines = (notice,) if notice else ()
    if g.is_over():
        winner = g.winner or ""
        return Screen(f"{NAMES.get(winner, winner)} wins!", score, footer="Game over")
    if g.is_chance():
        return Screen(f"{who}: press ROLL", (*score, *lines), footer="NEXT: own dice")
    hint = "Enter a piece" if g.waiting(g.to_move) else "Move a piece"
    return Screen(f"{who} to move", (hint, *score, notice or "OK if no change"), dice=g.dice,
                  footer="NEXT list BACK undo")
