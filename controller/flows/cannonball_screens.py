"""Pure screens for Cannon Ball: a position between moves, as the table and ``boardkeeper replay`` show it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from controller.screen import Screen
from controller.table_state import TableState
from engines.cannonball import BOX_NAMES, GATES, SITES, State
from engines.cannonball.board import DESTROYED
from engines.cannonball.moves import REBUILD, SHOOT, STORM, Action, Spin
from engines.cannonball.state import SPIN_OFF_PHASE

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
        return Screen(f"{winner} wins!", (_why_won(g), tnt), footer="Game over", headline=winner)
    if g.is_chance():
        return Screen(f"{who}: press SPIN", (tnt, *laid, *lines), footer="the Fort Commander", headline=who)
    if g.budget is not None:  # the spinner's number, counting down as the march goes
        return Screen(f"{who} marches: {g.budget} left", (*lines, tnt, *laid),
                      footer="OK/NEXT: end" if g.budget == 0 else "move; OK/NEXT menu", headline=str(g.budget))
    return Screen(f"{who}: your turn", (*lines, tnt, *laid), footer="NEXT/PREV, OK", headline=who)


def _why_won(g: State) -> str:
    """What ended the game, read off the final position (so a replay says it too): a gate fallen (a march, TNT
    or a storm), else the loser's fort left empty."""
    fallen = [GATES[i] for i, state in enumerate(g.gates) if state == DESTROYED]
    if fallen:
        return f"{fallen[0]} gate fallen"
    loser = next(side for side in g.players if side != g.winner)
    return f"{NAMES[loser]}'s fort empty"


def spin_said(g: State, spin: Spin) -> str:
    """What a spin did, said as it is shown (``g``: the position it was spun in): the number, and what it
    decided -- the spin-off's first turn or a tie, an odd/even action's result."""
    who = NAMES[g.players[g.to_move]]
    said = f"{who} spun {spin.number}"
    if g.phase == SPIN_OFF_PHASE:
        if g.spinoff is None:
            return said
        if spin.number == g.spinoff:
            return f"{said}: a tie, spin again"
        first = NAMES[g.players[0 if g.spinoff > spin.number else 1]]
        return f"{said}: {first} marches first"
    action = g.pending
    if not isinstance(action, Action):
        return said
    hit = action.matches(spin.number)
    parity = "odd" if spin.number % 2 else "even"
    result = {SHOOT: ("the TNT blows", "the shot misses"), REBUILD: ("rebuilt", "not rebuilt"),
              STORM: ("the storm wins", "the storm fails")}[action.kind][0 if hit else 1]
    return f"{said}, {parity}: {result}"


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
    """The battlefield at the terminal as the rules draw it, Gray's fort at the top (row 19) and Blue's at the
    bottom: a row of boxes a line, two characters a box (``B`` a blue trooper, ``B*`` a blue cannon, ``G``
    gray, ``.`` empty, a blank where there is no box; a piece the reeds miss in lower case, ``!`` a piece where
    none should be); the river (row 10) with its bridges (``==`` standing, ``xx`` blown); then the bridges and
    the gates by name."""
    wrong = state.disagreeing
    boxes = set(BOX_NAMES)
    lines = ["    " + " ".join(f"{c} " for c in COLUMNS)]
    for row in range(19, 0, -1):
        cells = []
        for col in COLUMNS:
            name = f"{col}{row}"
            held = state.expected.get(f"box:{name}")
            char = " " if name not in boxes else held[0][0].upper() if held else "."
            if f"box:{name}" in wrong:
                char = char.lower() if held else "!"
            cells.append(char + ("*" if state.kinds.get(f"box:{name}") == "cannon" else " "))
            if name not in boxes and col in SITES and row == RIVER:
                cells[-1] = "==" if f"bridge:{col}" in state.expected else "xx"
        lines.append(f"{row:>3} " + " ".join(cells).rstrip())
    def mark(loc: str) -> str:
        return "!" if loc in wrong else ""

    bridges = " ".join(f"{s}{'+' if f'bridge:{s}' in state.expected else '-'}{mark(f'bridge:{s}')}" for s in SITES)
    gates = " ".join(f"{g}:{_gate(state, g)}{mark(f'gate:{g}')}" for g in GATES)
    return [*lines, f"bridges {bridges}   gates {gates}",
            "B/G a trooper, B*/G* a cannon; b/g: its reed reads empty; !: a piece where none should be, or a "
            "bridge or gate its reed reads otherwise"]


def _gate(state: TableState, gate: str) -> str:
    loc = f"gate:{gate}"
    return "closed" if loc in state.expected else "destroyed" if state.kinds.get(loc) == "destroyed" else "open"


COLUMNS = "abcdefghijkl"
RIVER = 10  # the row of the river, where the bridges stand
