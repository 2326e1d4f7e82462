"""Pure screens for Factional Hannibal: the Honor board, the conductor's questions, entries and messages.

Pure functions of the engine state (and of the entry in progress), so ``boardkeeper replay`` and the
golden-image tests see exactly what the table showed. Every line fits the 128x64 OLED: 21 characters,
a title and four lines over a footer, or five lines without one.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Final

from controller.journal import UNDO
from controller.screen import Screen
from controller.table_state import TableState
from engines.factional import FACTIONS, PROVINCES, State
from engines.factional.moves import SHARED
from engines.factional.table import FULL_GENERALS, HISPANIA, factions_of, partner

WIDTH = 21
LINES = 4  # under a title, over a footer
NAMES = {"rome-silver": "Rome Silver", "rome-copper": "Rome Copper", "carthage-silver": "Carth Silver",
         "carthage-copper": "Carth Copper"}
SHORT = {"rome-silver": "R.Silver", "rome-copper": "R.Copper", "carthage-silver": "C.Silver",
         "carthage-copper": "C.Copper", "rome": "R.joint", "carthage": "C.joint"}
"""Tray columns as the fix-up lines name them: a faction, or a side's "held jointly" cell."""
SIDE_NAMES = {"rome": "Rome", "carthage": "Carthage"}
EVENTS = {"reinforced": "Reinforcements done", "initiative": "Initiative", "play": "Play a card",
          "approve": "Approve activation", "veto": "Veto activation", "battle": "Battle",
          "control": "Province by hand", "roll": "Roll the die", "discard": "Discard a card", "end": "Game over"}
FIX_FOOTER = "+ put chit, - lift it"


def province_name(province: str) -> str:
    """``w-numidia`` -> ``W.Numidia``, ``latium`` -> ``Latium``."""
    if province[1:2] == "-":
        return f"{province[0].upper()}.{province[2:].capitalize()}"
    return province.capitalize()


def metal(faction: str) -> str:
    return faction.split("-")[1].capitalize()


def holder_name(holder: str | None) -> str:
    if holder is None:
        return "nobody"
    return NAMES.get(holder) or f"{SIDE_NAMES[holder]} jointly"


def joined(*parts: str) -> str:
    """A title of a few words: spaced if it fits, tight if not (a long province and a faction)."""
    spaced = " > ".join(parts)
    return spaced if len(spaced) <= WIDTH else ">".join(parts)


# -- the Honor board ---------------------------------------------------------------------------------------

def honor_lines(g: State) -> tuple[str, ...]:
    """One line per faction: dominant marked ``*``, its Honor, its cards left (``3c``)."""
    honor = g.honor()
    dominant = set(g.dominant.values())
    return tuple(f"{'*' if f in dominant else ' '}{NAMES[f]:<12}{honor[f]:>3}{g.cards[f]:>3}c" for f in FACTIONS)


def standings(g: State) -> str:
    """The Honor of the four factions in the tray's order, as the lines under it list them: the headline
    each player finds their own number in from across the table."""
    honor = g.honor()
    return " ".join(str(honor[f]) for f in FACTIONS)


def board_prompt(g: State) -> tuple[str, str]:
    """The title and the question of the Honor board: what the table waits for now. Under the big Honor
    the OLED has no row for the title, so the question carries the turn, in one row."""
    t = f"T{g.turn}"
    if g.phase == "reinforcements":
        return f"{t} reinforcements", f"{t} OK when reinforced"
    if g.phase == "initiative":
        return f"{t} initiative", f"{t} which side first?"
    if g.playing is None:
        return f"{t} card play over", f"{t} OK: who won?"
    side = SIDE_NAMES[g.playing]
    return f"{t} {side} to play", f"{t} {side[:5]}: who plays?"


def position_screen(g: State, notice: str = "") -> Screen:
    """The screen for a position: the ranking at the end, the partner's question during an activation,
    else the Honor board under the turn and phase, with the question (or ``notice``) at the bottom."""
    if g.is_over():
        return ranking_screen(g)
    if g.is_chance():
        return Screen("The die", ("rolling...",))
    if g.phase == "activation" and g.asking is not None:
        return activation_screen(g, notice)
    title, prompt = board_prompt(g)
    return Screen(title, (*honor_lines(g), notice or prompt), marked=LINES, headline=standings(g))


def activation_screen(g: State, notice: str = "") -> Screen:
    """"Copper asks to activate Hannibal -- Silver: OK approve, BACK veto"."""
    asking = g.asking or FACTIONS[0]
    general = FULL_GENERALS[partner(asking)]
    lines = (f"{metal(asking)} asks to", f"activate {general}.", notice or f"{metal(partner(asking))} answers:",
             "OK approve", "BACK veto")
    return Screen(f"T{g.turn} activation asked", lines)


def ranking_screen(g: State) -> Screen:
    honor = g.honor()
    lines = tuple(f"{i} {NAMES[f]:<12}{honor[f]:>4}" for i, f in enumerate(g.ranking(), start=1))
    return Screen("First Among Equals", lines, footer=f"{SIDE_NAMES[g.winner or 'rome']} won the war")


# -- after reinforced --------------------------------------------------------------------------------------

DUTY_PHRASES: Final[dict[str, tuple[str, ...]]] = {
    "places 3 of the 5 regular reinforcement CUs; chooses and assigns its consul first":
        ("3 of the 5 CUs", "its consul first"),
    "places the other 2 CUs; chooses and assigns its consul second": ("the other 2 CUs", "its consul second"),
    "places the 1 CU in Africa": ("1 CU in Africa",),
    "places the 1 free CU": ("the 1 free CU",),
    "places the Spanish CUs": ("the Spanish CUs",),
    "decides the initiative and which Roman faction plays each card": ("the initiative", "names who plays"),
    "decides the initiative and which Carthaginian faction plays each card": ("the initiative", "names who plays"),
}
"""The engine's duties said in a few words each; a duty not listed is shown in full, wrapped."""
SPANISH = "places the Spanish CUs"


def duty_pages(before: Mapping[str, str], g: State) -> list[tuple[str, tuple[str, ...]]]:
    """After ``reinforced``: the dominance (``before`` it, to say what changed), then one page per faction
    with its duties; who places the Spanish CUs says why (more of Hispania held, or dominance on a tie)."""
    honor = g.honor()
    changed = [SIDE_NAMES[s] for s in ("rome", "carthage") if g.dominant[s] != before[s]]
    dominance = ["Dominant (Honor):", f"changed: {'both sides' if len(changed) == 2 else changed[0]}" if changed
                 else "no change"]
    for side in ("rome", "carthage"):
        top = g.dominant[side]
        dominance.append(f"{SIDE_NAMES[side][:5] + ':':<7}{metal(top)} {honor[top]} v {honor[partner(top)]}")
    duties: dict[str, list[str]] = {}
    for faction, duty in g.duties():
        lines = duties.setdefault(faction, [])
        lines += DUTY_PHRASES.get(duty) or textwrap.wrap(duty, WIDTH - 1)
        if duty == SPANISH:
            silver, copper = (sum(g.control[p] == f for p in HISPANIA) for f in factions_of("carthage"))
            lines += ["(Hispania tied:", "dominant places)"] if silver == copper else [
                "(more of Hispania:", f" {max(silver, copper)} v {min(silver, copper)})"]
    out = [(f"T{g.turn} dominance", tuple(dominance))]
    for faction, lines in duties.items():
        out += [(f"T{g.turn} {SHORT[faction]} duties", tuple(lines[i:i + LINES]))
                for i in range(0, len(lines), LINES)]
    return out


def duties_screen(page: tuple[str, tuple[str, ...]], at: int, count: int) -> Screen:
    title, lines = page
    return Screen(title, lines, footer=f"NEXT {at + 1}/{count}, OK deal")


def deal_screen(g: State) -> Screen:
    n = next(iter(g.cards.values()))
    return Screen(f"T{g.turn}: deal the cards", (f"Deal {n} cards to each", "faction.", "",
                                                 "then the initiative"), footer="OK when dealt")


# -- entering an event with the buttons --------------------------------------------------------------------

def step_title(g: State, words: Sequence[str], pending: str | None) -> str:
    """The question of the entry's next field; ``pending`` is a battle's faction whose partner's Full
    General may have fought (``/shared`` for a winner, ``/borrowed`` for a loser)."""
    n = len(words)
    if pending is not None:
        return f"{'Won' if n == 1 else 'Lost'} with {FULL_GENERALS[partner(pending)]}?"
    kind = words[0] if words else ""
    titles = {"battle": ("", "Battle: who won?", "Battle: who lost?", "Battle: PCs removed?"),
              "control": ("", "Which province?", f"{province_name(words[-1])}: held by?" if n == 2 else ""),
              "discard": ("", "Who discards?"), "end": ("", "Who won the war?"),
              "initiative": ("", "Which side first?"),
              "play": ("", "Who plays?", f"{NAMES.get(words[-1], '')} plays:" if n == 2 else "")}
    if kind in titles and n < len(titles[kind]):
        return titles[kind][n]
    return f"T{g.turn}: which event?"


def option_label(words: Sequence[str], option: str) -> str:
    """How a menu names a word of the notation (``""`` is "the event is complete as entered")."""
    kind = words[0] if words else ""
    if not words:
        return "Take back last" if option == UNDO else EVENTS.get(option, option)
    if option == "":
        return "play a card" if kind == "play" else "done"
    if option == "activate":
        return f"activate {FULL_GENERALS[partner(words[-1])]}"
    if option == "none":
        return "leaderless" if kind == "battle" else "nobody"
    if option in PROVINCES:
        return province_name(option)
    if option in SIDE_NAMES:
        return f"{SIDE_NAMES[option]} jointly" if kind == "control" else SIDE_NAMES[option]
    return NAMES.get(option, option)


def suffix_label(option: str) -> str:
    """The yes/no of a ``/shared`` or ``/borrowed`` question."""
    if "/" not in option:
        return "no: its own"
    return "yes: Honor shared" if option.endswith(SHARED) else "yes: it loses PCs"


def menu_screen(title: str, labels: Sequence[str], selected: int) -> Screen:
    first = max(0, min(selected - 2, len(labels) - LINES))  # keep the selection in view
    return Screen(title, tuple(labels[first:first + LINES]), selected=selected - first,
                  footer=f"{selected + 1}/{len(labels)} NEXT PREV OK")


def change_lines(before: State, after: State) -> tuple[str, ...]:
    """Every faction whose Honor the event changes: ``Rome Silver   8 > 11``."""
    b, a = before.honor(), after.honor()
    return tuple(f"{NAMES[f]:<12}{b[f]:>3} >{a[f]:>3}" for f in FACTIONS if a[f] != b[f])


def pcs_screen(before: State, after: State, pcs: int) -> Screen:
    """The battle's last field: the PCs, with the Honor change they make shown before OK enters it."""
    changes = change_lines(before, after) or ("no Honor changes",)
    return Screen("Battle: PCs removed?", (f"PCs: {pcs}", *changes), selected=0, footer="NEXT+ PREV- OK enter")


def confirm_screen(before: State, after: State, event: str) -> Screen:
    """An event entered by hand, its effect shown before OK: a province, a discard, the game's end."""
    words = event.split()
    kind = words[0]
    footer = "OK enter, BACK edit"
    if kind == "control":
        holder = None if words[2] == "none" else words[2]
        lines = change_lines(before, after) or ("no Honor changes",)
        return Screen(joined(province_name(words[1]), SHORT.get(holder or "", "nobody")), lines, footer=footer)
    if kind == "discard":
        f = words[1]
        return Screen("Discard a card?", (NAMES[f], f"cards left {before.cards[f]} > {after.cards[f]}"),
                      footer=footer)
    honor = after.honor()
    lines = tuple(f"{i} {NAMES[f]:<12}{honor[f]:>4}" for i, f in enumerate(after.ranking(), start=1))
    return Screen(f"{SIDE_NAMES[words[1]]} won the war?", lines, footer=footer)


# -- taking back -------------------------------------------------------------------------------------------

def event_line(event: str) -> str:
    """An event in one line of 21 characters (its notation rarely fits): ``R.Silver won, 3 PCs``."""
    kind, *rest = event.split()
    if kind == "control":
        return joined(province_name(rest[0]), SHORT.get(rest[1], "nobody"))
    if kind == "battle":
        winner, loser = (w.split("/")[0] for w in rest[:2])
        return f"{SHORT[winner]} won, {rest[2]} PCs" if winner != "none" else f"{SHORT[loser]} lost, {rest[2]} PCs"
    if kind == "play":
        return f"{metal(rest[0])} asks {FULL_GENERALS[partner(rest[0])]}" if rest[1:] else f"{NAMES[rest[0]]} plays"
    if kind == "discard":
        return f"{NAMES[rest[0]]} discards"
    if kind in ("initiative", "end"):
        return f"{EVENTS[kind]}: {SIDE_NAMES[rest[0]]}"
    return EVENTS.get(kind, event)


def undo_screen(now: State, previous: State, event: str) -> Screen:
    """"Take back?": the last event, and the Honor it gives back, before OK takes it back."""
    return Screen("Take back?", (event_line(event), *change_lines(now, previous))[:LINES], footer="OK yes, BACK no")


def taken_back_screen(now: State, previous: State, event: str) -> Screen:
    """The message once it is taken back (and journaled): the event and the Honor given back."""
    return Screen("Taken back", (event_line(event), *change_lines(now, previous)))


# -- messages ----------------------------------------------------------------------------------------------

def control_screen(before: State, after: State, province: str) -> Screen:
    """A chit moved on the tray: the province, its new holder and the Honor change."""
    hp = PROVINCES[province][0]
    holder = after.control[province]
    lines = (f"now {holder_name(holder)}", *change_lines(before, after))
    return Screen(f"{province_name(province)} ({hp} HP)", lines[:LINES + 1])


def die_entry_screen(prompt: str) -> Screen:
    """The players roll their own die for the HRC map and key it in (``[chance] by_hand``)."""
    return Screen("Roll your die", (prompt, "NEXT/PREV change"), footer="OK take it")


def die_screen(value: int) -> Screen:
    return Screen("The die", (f"rolled {value}",), dice=(value,), footer="for the HRC map")


def message_screen(title: str, *lines: str) -> Screen:
    return Screen(title, lines)


# -- the tray ----------------------------------------------------------------------------------------------

STUCK_LINE: Final = "stuck? OK: ignore it"
"""Over the fix-up list when the sensor of its first line may be stuck or dead."""


def fix_line(instruction: str) -> str:
    """``put 1 rome-silver on latium:rome-silver`` -> ``+Latium R.Silver``; ``lift ...`` -> ``-Latium ...``;
    ``Carthaginia`` -> ``Carthagin.``."""
    verb, *rest = instruction.split()
    province, holder = rest[-1].split(":")[-2:]
    name = province_name(province)
    name = name if len(name) <= 10 else name[:9] + "."  # 20 characters in all, as the top lines allow
    return f"{'-' if verb == 'lift' else '+'}{name} {SHORT[holder]}"


def fixup_screen(title: str, reason: str, fixups: Sequence[str]) -> Screen:
    """The tray's fix-up list: the reason first (if any), then as many instructions as fit."""
    head = (reason,) if reason else ()
    room = LINES - len(head)
    lines = [fix_line(i) for i in fixups]
    if len(lines) > room:
        lines = [*lines[:room - 1], f"(+{len(lines) - room + 1} more)"]
    return Screen(title, (*head, *lines), footer=FIX_FOOTER)


def nobody_screen(province: str, holder: str | None) -> Screen:
    """A chit off the tray for the grace period: nobody holds the province now, or the chit goes back."""
    return Screen("Chit off the tray", (f"{province_name(province)} held by", "nobody now?", "OK: yes, nobody",
                                        f"or back on {SHORT.get(holder or '', 'tray')}"))


def chance_shown(screen: Screen, outcomes: Sequence[str]) -> bool:
    """The die shows no value but that of the last die journaled (``outcomes``: every chance outcome
    journaled, oldest first, ``die 4``): what ``bench.powercut`` holds every frame to."""
    faces = [d for d in screen.dice if d]
    return not faces or (bool(outcomes) and outcomes[-1] == f"die {faces[0]}")


def board_view(state: TableState) -> list[str]:
    """The Honor tray at the terminal: each province and who holds it, ``!`` where the tray's chit is not
    where the ledger says."""
    wrong = state.disagreeing
    lines = []
    for province in PROVINCES:
        held = [loc.rsplit(":", 1)[1] for loc in state.expected if loc.startswith(f"tray:{province}:")]
        off = any(loc.startswith(f"tray:{province}:") for loc in wrong)
        lines.append(f"{province_name(province):<12} {held[0] if held else '-':<16}{' !' if off else ''}")
    return lines
