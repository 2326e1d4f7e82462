"""Pure screens for Cannon Ball: a position between moves, as the table and ``boardkeeper replay`` show it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from controller.screen import Screen
from controller.table_state import TableState
from engines.cannonball import BOX_NAMES, GATES, SITES, State

NAMES = {"blue": "Blue", "gray": "Gray"}


def position_screen(g: State, notice: str = "", last: str = "") -> Screen:
    """Whose spin, whose turn choice or march with the moves left, or who won; TNT cases are not sensed,
    so they are always on screen, and so is the bridge end where a case lies until it is shot. Whose turn,
    or the moves left of the spin, is the headline. Pure, so a replayed journal looks as the table showed it."""
    who = NAMES[g.players[g.to_move]]
    tnt = f"TNT B{g.tnt[0]} G{g.tnt[1]}  turn {g.turn}"
    laid = tuple(f"TNT on {BOX_NAMES[end]}" for _, (_, end) in sorted(g.mines.items()))
    lines = tuple(x for x in (notice or (f"Done: {last}" if last else ""),) if x)
    if g.is_over():
        if g.drawn:
            return Screen("Draw", (f"turn limit {g.turn_limit}", tnt), footer="Game over")
        winner = NAMES.get(g.winner or "", g.winner or "")
        return Screen(f"{winner} wins!", (tnt,), footer="Game over", headline=winner)
    if g.is_chance():
        return Screen(f"{who}: press SPIN", (tnt, *laid, *lines), footer="the Fort Commander", headline=who)
    if g.budget is not None:  # the spinner's number, counting down as the march goes
        return Screen(f"{who} marches: {g.budget} left", (*lines, tnt, *laid), footer="move; OK/NEXT menu",
                      headline=str(g.budget))
    return Screen(f"{who}: your turn", (*lines, tnt, *laid), footer="NEXT/PREV, OK", headline=who)


def chance_shown(screen: Screen, outcomes: Sequence[str]) -> bool:
    """The spinner shows no number but that of the last spin journaled (``outcomes``: every chance outcome
    journaled, oldest first, ``spin 7``), and turns only after a spin was saved: what ``bench.powercut``
    holds every frame to."""
    text = " ".join((screen.title, *screen.lines))
    outcome = outcomes[-1] if outcomes else None
    if "spins..." in screen.title:
        return outcome is not None and outcome.startswith("spin")
    spun = re.search(r"\bspun (\d+)", text)
    return spun is None or (outcome is not None and outcome.startswith("spin")
                            and outcome.split()[-1] == spun.group(1))


def board_view(state: TableState) -> list[str]:
    """The battlefield at the terminal, a row of boxes a line, two characters a box (``B`` a blue trooper,
    ``B*`` a blue cannon, ``G`` gray, ``.`` empty, a blank where there is no box; a piece the reeds miss in
    lower case, ``!`` a piece where none should be); then the bridges and the gates."""
    wrong = state.disagreeing
    boxes = set(BOX_NAMES)
    lines = ["    " + " ".join(f"{c} " for c in COLUMNS)]
    for row in range(1, 20):
        cells = []
        for col in COLUMNS:
            name = f"{col}{row}"
            held = state.expected.get(f"box:{name}")
            char = " " if name not in boxes else held[0][0].upper() if held else "."
            if f"box:{name}" in wrong:
                char = char.lower() if held else "!"
            cells.append(char + ("*" if state.kinds.get(f"box:{name}") == "cannon" else " "))
        lines.append(f"{row:>3} " + " ".join(cells).rstrip())
    bridges = " ".join(f"{s}{'+' if f'bridge:{s}' in state.expected else '-'}" for s in SITES)
    gates = " ".join(f"{g}:{'closed' if f'gate:{g}' in state.expected else 'open'}" for g in GATES)
    return [*lines, f"bridges {bridges}   gates {gates}",
            "B/G a trooper, B*/G* a cannon; b/g: its reed reads empty; !: a piece where none should be"]


COLUMNS = "abcdefghijkl"
