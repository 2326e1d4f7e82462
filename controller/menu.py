"""The table's own game menu: several boards installed, one chosen on the OLED.

A table may have several profiles installed (``systemd/install.sh A.toml B.toml``: a Hannibal track and a
Factional tray share the Pi's buttons and OLED). The service then starts on a menu of them (NEXT, PREV,
OK), opened on the board whose game was left unfinished (offered for resume first), else on the last one
chosen, which the table remembers in its state directory. A game's end comes back to the menu when the
players hold BACK. This module finds the boards, remembers the choice and shows the menu; the command
line (``play --menu``) plays the chosen board's games.
"""

from __future__ import annotations

import logging
from pathlib import Path

from controller.events import ButtonEvent, Event, Press
from controller.screen import Screen
from controller.table import TableIO, profile_for, saved_game
from hw_config import ConfigError, Profile

log = logging.getLogger(__name__)

LAST = "menu-last"  # in the state directory: the file name of the profile chosen last
ROWS = 4  # menu lines under the title


def installed_boards(folder: Path) -> list[Profile]:
    """Every profile in ``folder`` that checks out, by file name (a layout installed beside its profile is no
    board); one that does not check out is left out, said in the log: the others must still be playable."""
    boards = []
    for path in sorted(folder.glob("*.toml")):
        if "[board]" not in path.read_text(errors="replace"):
            continue
        try:
            boards.append(profile_for(str(path)))
        except ConfigError as e:
            log.warning("left out of the menu: %s", e.problems[0])
    return boards


def saved_boards(boards: list[Profile], state: Path) -> set[int]:
    """The boards whose game is saved unfinished (damaged or not: the resume question says which)."""
    return {i for i, b in enumerate(boards)
            if saved_game(state / f"{b.game}.jsonl")[0] in ("unfinished", "damaged")}


def first_choice(boards: list[Profile], state: Path, saved: set[int]) -> int:
    """Where the menu opens: on a board whose game is ``saved`` unfinished (the last chosen of those first),
    else the last chosen, else the first."""
    last = chosen_last(state)
    order = sorted(range(len(boards)), key=lambda i: boards[i].path.name != last)
    return next((i for i in order if i in saved), order[0])


def remember(board: Profile, state: Path) -> None:
    try:
        choose_next(board.path.name, state)
    except OSError as e:  # a full or read-only card: the menu opens on the first board next time, nothing worse
        log.warning("cannot remember the board chosen: %s", e.strerror or e)


def choose_next(name: str, state: Path) -> None:
    """The board (its profile's file name) the menu opens on next, unless a game is saved unfinished (the OLED's
    choice, or the web page's settings); ``OSError`` if the card cannot take it."""
    (state / LAST).write_text(name + "\n")


def chosen_last(state: Path) -> str:
    """The file name of the board chosen last ("" for none)."""
    try:
        return (state / LAST).read_text().strip()
    except OSError:
        return ""


def menu_screen(boards: list[Profile], selected: int, saved: set[int]) -> Screen:
    top = min(max(0, selected - ROWS + 1), max(0, len(boards) - ROWS))
    lines = tuple(f"{'>' if i == selected else ' '} {boards[i].game}{' (saved)' if i in saved else ''}"
                  for i in range(top, min(top + ROWS, len(boards))))
    return Screen("Which board?", lines, footer=boards[selected].name[:21])


def choose_board(io: TableIO, boards: list[Profile], state: Path) -> Profile:
    """The menu on the OLED until OK: the board chosen, remembered for the next start."""
    saved = saved_boards(boards, state)
    selected = [first_choice(boards, state, saved)]
    chosen: list[Profile] = []

    def handle(event: Event) -> None:
        if not (isinstance(event, ButtonEvent) and event.kind is Press.PRESS):
            return
        if event.button in ("NEXT", "PREV"):
            selected[0] = (selected[0] + (1 if event.button == "NEXT" else -1)) % len(boards)
            io.display.show(menu_screen(boards, selected[0], saved))
        elif event.button == "OK":
            chosen.append(boards[selected[0]])

    io.loop.set_handler(handle)
    io.display.show(menu_screen(boards, selected[0], saved))
    io.loop.run(until=lambda: bool(chosen))
    log.info("board chosen: %s (%s)", chosen[0].name, chosen[0].path)
    remember(chosen[0], state)
    return chosen[0]
