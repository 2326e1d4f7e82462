"""Pure screens for Scipio: what the OLED says for a position, a reveal, a damage step, a hidden entry.

Pure functions of the engine state (and the entry in progress), so ``boardkeeper replay`` and the
golden-image tests see exactly what the table showed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from controller.screen import Screen
from controller.table_state import TableState
from engines.scipio import ARMIES, FIELDS, FORMATIONS, State
from engines.scipio.rules import other

NAMES = {"rome": "Rome", "carthage": "Carthage"}
SHORT = {f: f"{f[0].upper()}{f[-1]}" for f in FORMATIONS}  # "yellow.0" -> "Y0"
CARD_NAMES = {"redeployment": "Redeployment", "relief": "Relief in Place", "opportune": "Opportune Move",
              "deserter": "Deserter", "general": "Renowned General"}


def troops_line(g: State, army: str) -> str:
    """``R 6 5|6 5|6 6`` -- an army's formations, field by field."""
    pairs = [f"{g.formation(army, 2 * i)} {g.formation(army, 2 * i + 1)}" for i in range(len(FIELDS))]
    return f"{army[0].upper()} " + "|".join(pairs)


def tiles_line(g: State) -> str:
    return "Tiles " + " ".join(f"{f[0].upper()}{g.tiles[f]}" for f in FIELDS) if g.tiles else "Tiles -"


def position_screen(g: State, notice: str = "") -> Screen:
    """Between decisions: whose turn at what (the army is the headline), the troops and the tiles."""
    if g.is_over():
        return over_screen(g)
    lines = (*((notice,) if notice else ()), troops_line(g, "rome"), troops_line(g, "carthage"), tiles_line(g))
    return Screen(f"R{g.round} phase {g.phase}", (g.describe(), *lines), footer="Scipio",
                  headline=NAMES.get(g.current_player or "", ""))


def far_screen(g: State, notice: str = "") -> Screen:
    """A far table's army decides or draws: what this table waits for (``notice``: the link, when not plain)."""
    who = NAMES[g.current_player or g.roller() or "rome"]
    what = {"org": "its organisation", "place": "its cards", "remove": "its losses", "tiles": "the tiles",
            "card": "a New Orders card"}.get(g.step, "its choice")
    return Screen(f"{who} at far table", (f"waiting for {what}", *((notice,) if notice else ())),
                  footer="far table plays", headline=who)


def follow_screen(g: State, who: str, move: str, changed: Sequence[tuple[str, int, int]]) -> Screen:
    """A far army's move changed formations: the tokens to set here (``changed``: location, before, now)."""
    rows = tuple(f"{loc.split(':')[0][0].upper()} {SHORT[loc.split(':')[1]]}: {a} -> {b}" for loc, a, b in changed)
    return Screen(f"Far: {who}", (move, *rows[:3]), footer="set tokens, OK", headline=who)


def over_screen(g: State) -> Screen:
    """The result and why, the last thing the table shows. Damage that could not be taken is shown with
    the cards that dealt it: this screen is also the reveal of a phase that ends the game, since the table
    stops when the game is over and nobody could press OK on a reveal then. Every line fits the panel's 21
    columns."""
    title = f"{NAMES[g.winner or 'rome']} wins!"
    if g.plan:
        field, army, amount, _ = g.plan[0]
        cards = {a: p for a in ARMIES if (p := g.pending_placement(a)) is not None}
        return Screen(title, (*card_rows(g, cards), f"{NAMES[army]} can't take {amount}"),
                      footer=f"in {field}: game over")
    loser = NAMES[other(g.winner or "rome")]
    return Screen(title, (f"{loser} has an", "empty formation", troops_line(g, "rome"), troops_line(g, "carthage")),
                  footer="Game over")


def card_rows(g: State, placed: Mapping[str, Mapping[str, int]]) -> tuple[str, ...]:
    """``Y tile 2: R7 v C3`` per field: both armies' cards face up, with the field's strike order tile."""
    return tuple(f"{f[0].upper()} tile {g.tiles[f]}: R{placed['rome'][f]} v C{placed['carthage'][f]}" for f in FIELDS)


def reveal_screen(g: State, placed: Mapping[str, Mapping[str, int]], at: tuple[int, int]) -> Screen:
    """Both armies' cards of the phase, face up, and the damage to come. ``at`` is the round and phase the
    cards were played in: without damage the engine has already gone on to the next phase or round."""
    damage = " ".join(f"{f[0].upper()}:{a[0].upper()}-{n}{'!' if sb else ''}" for f, a, n, sb in g.plan)
    return Screen(f"Reveal R{at[0]} phase {at[1]}", (*card_rows(g, placed), damage or "no damage"),
                  footer="OK: resolve")


def damage_screen(g: State, counts: Sequence[int], notice: str = "") -> Screen:
    """One field's damage: who takes how much, and the tokens counted off so far per formation."""
    field, army, amount, shield = g.plan[0]
    i = FIELDS.index(field) * 2
    have = (g.formation(army, i), g.formation(army, i + 1))
    lines = (f"{NAMES[army]} takes {amount}", "shield break!" if shield else "no shield break",
             f"{SHORT[FORMATIONS[i]]}: {have[0]}-{counts[0]}  {SHORT[FORMATIONS[i + 1]]}: {have[1]}-{counts[1]}",
             notice or f"taken {sum(counts)} of {amount}")
    return Screen(f"{field.capitalize()}: damage", lines, footer="tap; BACK undo; OK")


def handoff_screen(army: str, what: str) -> Screen:
    return Screen(f"{NAMES[army]}: {what}", (f"{NAMES[other(army)]}, look away!", "", "OK when ready"),
                  footer="secret entry", headline=NAMES[army])


def organisation_screen(army: str, values: Sequence[int], cursor: int, notice: str = "") -> Screen:
    """The army's secret organisation, as entered so far: private to it at a terminal."""
    cells = [f"{SHORT[f]}{'>' if i == cursor else ' '}{values[i]}" for i, f in enumerate(FORMATIONS)]
    left = 34 - sum(values)
    count = f"left to place: {left}" if left >= 0 else f"{-left} too many: lower one"
    return Screen(f"{NAMES[army]}: organise", (" ".join(cells[:3]), " ".join(cells[3:]), notice or count),
                  footer="NEXT+ PREV- OK next", headline=NAMES[army], private=army)


def placement_screen(army: str, values: Sequence[int], cursor: int, notice: str = "") -> Screen:
    """The army's secret cards, as entered so far: private to it at a terminal."""
    cells = [f"{f[0].upper()}{'>' if i == cursor else ' '}{values[i]}" for i, f in enumerate(FIELDS)]
    return Screen(f"{NAMES[army]}: cards", ("  ".join(cells), notice or "NEXT/PREV change"),
                  footer="OK next, BACK back", headline=NAMES[army], private=army)


def seat_screen(g: State, army: str, names: Mapping[str, str] = NAMES) -> Screen:
    """What only ``army`` may see, on its own view: its organisation (once entered), its cards in hand, and
    the cards it placed this phase until they are revealed."""
    troops = g.troops[army]
    placed = g.placed[army]
    lines = ("org " + (" ".join(f"{SHORT[f]}:{n}" for f, n in zip(FORMATIONS, troops, strict=True))
                       if troops is not None else "not entered"),
             "hand " + (" ".join(str(c) for c in g.hands[army]) or "-"),
             *(("placed " + " ".join(f"{f[0].upper()}{n}" for f, n in placed.items()),) if placed else ()))
    return Screen(f"{names.get(army, army)}: your secrets", lines, footer=f"round {g.round}", private=army)


def pad_screen(army: str, entered: int, notice: str = "") -> Screen:
    """Cards pressed on the army's own pad: shown as stars only, the other army may see the screen."""
    marks = " ".join("*" if i < entered else "_" for i in range(3))
    return Screen(f"{NAMES[army]}: cards", ("press Y, P, G on", "your pad:  " + marks,
                                            notice or ("OK = done" if entered == 3 else "")),
                  footer="BACK undo", headline=NAMES[army])


def short_label(notation: str) -> str:
    """A New Orders choice as it fits one OLED line and stays distinct from its neighbours:
    ``redeploy yellow.1>purple.0`` -> ``move Y1>P0``, ``relief yellow.0,green.1`` -> ``swap Y0 G1``."""
    kind, _, rest = notation.partition(" ")
    if kind == "redeploy":
        src, _, dst = rest.partition(">")
        return f"move {SHORT.get(src, src)}>{SHORT.get(dst, dst)}"
    if kind == "relief":
        a, _, b = rest.partition(",")
        return f"swap {SHORT.get(a, a)} {SHORT.get(b, b)}"
    if kind == "deserter":
        return f"deserter {SHORT.get(rest, rest)}"
    return notation


def menu_screen(title: str, labels: Sequence[str], selected: int) -> Screen:
    first = max(0, min(selected - 2, len(labels) - 4))  # keep the selection in view
    shown = tuple(short_label(label) for label in labels[first:first + 4])
    return Screen(title, shown, selected=selected - first, footer=f"{selected + 1}/{len(labels)} NEXT PREV OK")


def board_view(state: TableState) -> list[str]:
    """The twelve formations at the terminal: each army's three fields, two formations each, with the tokens
    the game says stand there; ``!`` on a formation whose reed disagrees (empty or not)."""
    wrong = state.disagreeing
    lines = []
    for army in ("rome", "carthage"):
        cells = []
        for side in ("yellow", "purple", "green"):
            for i in (0, 1):
                loc = f"{army}:{side}.{i}"
                held = state.expected.get(loc)
                cells.append(f"{side[0].upper()}{i}:{held[1] if held else 0:<2}{'!' if loc in wrong else ' '}")
        lines.append(f"{army.capitalize():<9}" + " ".join(cells))
    return lines
