"""Pure screens for Hannipe!: the race, the secret entries, the finish with its payouts, the coins table.

Pure functions of the engine state (and the entry in progress), so ``boardkeeper replay`` and the
golden-image tests see exactly what the table showed. Lines keep to the OLED's 21 characters: horses are
written by their first three letters where a line lists several ("Noi", "Rou"), by name where it has room.
Seats are shown by the names of the profile's ``[seats]`` (``names``, seat -> name; a seat not in it is
shown as itself, as ``replay`` shows every seat).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from controller.screen import Screen
from controller.table_state import TableState
from engines.hannipe import HORSES, NAMES, State
from engines.hannipe.data import CRAVACHE, PAYOUT, Card

SHORT = {h: NAMES[h][:3] for h in HORSES}
KIND = {2: "fav", 1: "out", 0: "toc"}
"""The programme value as the race card prints it: favori, outsider, tocard."""
WIDTH = 21  # characters in a line or title of the 128-pixel OLED
SEATS: Mapping[str, str] = MappingProxyType({})
"""No names: every seat shown as itself."""


def fit(text: str, shorter: str) -> str:
    """``text`` if it fits a line, else the ``shorter`` way of saying it (long seat names)."""
    return text if len(text) <= WIDTH else shorter




def face_text(face: str) -> str:
    return "cravache" if face == CRAVACHE else face


def hand_text(hand: Sequence[Card]) -> str:
    """``N2 Nc R0``: a hand in six cards' room; the horses' initials are all different."""
    return " ".join(f"{NAMES[h][0]}{f}" for h, f in hand)


def programme_lines(g: State) -> tuple[str, str]:
    """The programme by value: ``2:Noi 1:Rou Gri Ver`` then ``0:Pep Coc`` (favoris and outsiders fit one
    line in every programme)."""
    groups = {v: [SHORT[h] for h, value in g.values.items() if value == v] for v in (2, 1, 0)}
    first = " ".join(f"{v}:{' '.join(groups[v])}" for v in (2, 1) if groups[v])
    return first, f"0:{' '.join(groups[0])}" if groups[0] else ""


def order_line(g: State) -> str:
    """The running order, front first, lines split by ``|`` (the mat shows it; the screen confirms)."""
    text = "|".join(" ".join(SHORT[h] for h in line) for line in g.order)
    return text if len(text) <= WIDTH else "|".join(" ".join(NAMES[h][0] for h in line) for line in g.order)


def position_screen(g: State, notice: str = "", *, names: Mapping[str, str] = SEATS) -> Screen:
    """Between decisions: the race, its programme, the running order and whose turn it is."""
    if g.is_over():
        return over_screen(g, names)
    if g.programme is None:
        return Screen(f"Race {g.race}", (notice or "programme to draw", *coins_lines(g, names)), footer="Hannipe!")
    first, second = programme_lines(g)
    rnd = f"round {g.round}/{len(g.values)}" if g.round else "bets"
    lines = (first, second, order_line(g), notice or _whose(g, names))
    return Screen(f"Race {g.race}: {rnd}", tuple(x for x in lines if x),
                  footer=f"prog {g.programme}, leader {names.get(g.leader, g.leader)}")


def _whose(g: State, names: Mapping[str, str]) -> str:
    who = names.get(g.current_player or "", g.current_player or "")
    return {"bet": f"{who} to bet", "turn": f"{who} turns a card", "tip": f"{who} to tip"}.get(g.step, "")


def coins_lines(g: State, names: Mapping[str, str] = SEATS) -> tuple[str, ...]:
    """Seats and coins, three to a line (``p1 3  p2 0  p3 1``), two with longer names."""
    cells = [f"{names.get(p, p)} {g.coins[p]}" for p in g.players]
    per_row = 3 if 3 * max(map(len, cells)) + 4 <= WIDTH else 2
    return tuple("  ".join(cells[i:i + per_row]) for i in range(0, len(cells), per_row))


def coins_screen(g: State, names: Mapping[str, str] = SEATS) -> Screen:
    """Between races: everybody's coins, and the goal."""
    return Screen(f"Coins after race {g.race - 1}", coins_lines(g, names), footer="first to 6: OK")


def finish_screen(g: State, names: Mapping[str, str] = SEATS) -> Screen:
    """The finish: the winning horse(s), then every bet revealed with what it paid, two to a line (the
    horse by its initial where the names are long: ``Alice N+3 Bruno R 0``)."""
    result = g.last_race
    assert result is not None
    horses = [NAMES[h] for h in result.winners] if len(result.winners) == 1 else [SHORT[h] for h in result.winners]
    verb = "wins" if len(result.winners) == 1 else "win"
    paid = {seat: f"+{n}" if n else " 0" for seat, n in result.paid.items()}
    who = {seat: names.get(seat, seat) for seat in result.bets}
    cells, sep = [f"{who[seat]} {SHORT[horse]} {paid[seat]}" for seat, horse in result.bets.items()], "  "
    if 2 * max(map(len, cells)) + len(sep) > WIDTH:
        cells, sep = [f"{who[seat]} {NAMES[horse][0]}{paid[seat]}" for seat, horse in result.bets.items()], " "
    lines = tuple(sep.join(cells[i:i + 2]) for i in range(0, len(cells), 2))
    return Screen(f"R{result.race}: {' '.join(horses)} {verb}", lines, footer="bets paid: OK")


def over_screen(g: State, names: Mapping[str, str] = SEATS) -> Screen:
    """The game is over: the winner(s) and the coins (a tie too long for the title is counted there)."""
    verb = "wins!" if len(g.winners) == 1 else "win!"
    title = fit(f"{' '.join(names.get(p, p) for p in g.winners)} {verb}", f"{len(g.winners)} share the win!")
    return Screen(title, coins_lines(g, names), footer="Game over")


def handoff_screen(seat: str, what: str) -> Screen:
    """Before anything secret: the screen says whose it is (``seat`` by name), and everyone else looks away."""
    return Screen(f"{seat}: {what}", ("everyone but " + seat, "look away!", "", f"{seat}: OK when ready"),
                  footer="secret")


def tipped_title(who: str, horse: str, face: str) -> str:
    """The movement's title: ``p2 tipped Grisette c``, the horse shortened beside a long name."""
    return fit(f"{who} tipped {NAMES[horse]} {face}", f"{who} tipped {SHORT[horse]} {face}")


def bet_screen(g: State, seat: str, selected: int, names: Mapping[str, str] = SEATS) -> Screen:
    """A seat's secret bet: the starters with what a win would pay; the hand at the bottom (dealt cards).
    Private to the seat: the highlighted starter is the bet."""
    lines = tuple(f"{NAMES[h]:<8} {KIND[v]} pays {PAYOUT[v]}" for h, v in g.values.items())
    footer = hand_text(g.hand(seat)) if g.hands is not None else "horse/NEXT, OK bets"
    return Screen(f"{names.get(seat, seat)}: secret bet", lines, selected=selected, footer=footer, private=seat)


def tip_screen(g: State, seat: str, horse: str, face: str, choosing_face: bool, notice: str = "",
               names: Mapping[str, str] = SEATS) -> Screen:
    """A seat's tip: this round's turned horse (its value is subtracted; the headline), the hand if dealt,
    the card being chosen and what it will do to its horse. Private to the seat when it shows a dealt hand
    (a physical card is played in the open)."""
    turned = g.turned[-1]
    v = g.values[turned]
    effect = g.tip_places(horse, face)
    what = f"gains {effect}" if effect > 0 else f"loses {-effect}" if effect else "stays"
    pick = f"{NAMES[horse]} [{face_text(face)}]" if choosing_face else f"[{NAMES[horse]}] {face_text(face)}"
    lines = (f"turned {NAMES[turned]} ({v})", hand_text(g.hand(seat)) if g.hands is not None else "any unplayed card",
             pick, notice or f"{NAMES[horse]} {what}")
    footer = "NEXT/PREV, OK" if choosing_face else "horse/NEXT, OK, BACK"
    return Screen(f"{names.get(seat, seat)} tips, round {g.round}/{len(g.values)}", lines, footer=footer,
                  headline=NAMES[turned], private=seat if g.hands is not None else "")


def turn_screen(g: State, notice: str = "", names: Mapping[str, str] = SEATS) -> Screen:
    """The leader's turn: OK turns the next horse card."""
    first, second = programme_lines(g)
    leader = names.get(g.leader, g.leader)
    return Screen(f"Race {g.race}: card {g.round + 1}/{len(g.values)}",
                  (first, second, order_line(g) if g.round else "all on row 1", notice or f"{leader}: OK turns"),
                  footer=f"leader {leader}")


def stuck_line(location: str) -> str:
    """A mat reed named as maybe stuck or dead (``lane:noiro:3``), as one line over the pawn moves."""
    _, horse, row = location.split(":")
    return f"{NAMES[horse]} {row} stuck? OK"


def seat_screen(g: State, seat: str, names: Mapping[str, str] = SEATS) -> Screen:
    """What only ``seat`` may see, on its own view: its bet this race and its dealt hand."""
    bet = g.bets.get(seat)
    hand = (hand_text(g.hand(seat)),) if g.hands is not None else ()
    lines = (f"bet: {NAMES[bet]}" if bet else "no bet yet", *hand)
    return Screen(f"{names.get(seat, seat)}: your secrets", lines, footer=f"race {g.race}", private=seat)


def undo_screen(who: str, horse: str, face: str) -> Screen:
    """The pawns put back as they stood before the last tip: take the tip back, or put them where it says."""
    return Screen("Take back?", (fit(f"{who} {NAMES[horse]} {face}", f"{who} {SHORT[horse]} {face}"),
                                 "pawns put back", "OK = take it back", "BACK = no"))


def mat_screen(title: str, fixups: Sequence[str]) -> Screen:
    """After a movement: the pawn moves still to make; play waits until the mat shows the race."""
    return Screen(title, tuple(fixups[:4]), footer="play waits for pawns")


def chance_shown(screen: Screen, outcomes: Sequence[str]) -> bool:
    """The programme card shows no number but that of the last one journaled (``outcomes``: every chance
    outcome journaled, oldest first; the shuffle and deal follow the programme): what ``bench.powercut``
    holds every frame to."""
    shown = re.search(r"\bprog (\d+)", " ".join((screen.title, *screen.lines)))
    last = next((o for o in reversed(outcomes) if o.startswith("programme")), None)
    return shown is None or last == f"programme {shown.group(1)}"


def board_view(state: TableState) -> list[str]:
    """The track mat at the terminal: a lane a line, its horse's pawn on its row (``P``), ``!`` on a reed
    that disagrees with the race."""
    wrong = state.disagreeing
    lines = []
    for h in HORSES:
        cells = []
        for row in range(1, 7):
            loc = f"lane:{h}:{row}"
            cells.append("!" if loc in wrong else "P" if loc in state.expected else ".")
        lines.append(f"{NAMES[h]:<9}" + " ".join(cells))
    return lines
