"""``boardkeeper export JOURNAL``: a game as a reader follows it, for sharing.

The journal is JSON Lines for the table; people want a move list. The head names the game, when it started
and who the bots were, and explains the notation (the game's registry entry: ``notation``); then one move a
line, signed by its seat, with the players' notes (a sensor ignored) and their own keyed-in rolls marked where
they were made; then the table's last screen, which says how the game was won, and the result.
The web page's games page offers the same text.
"""

from __future__ import annotations

from pathlib import Path

from controller.journal import read, replay
from controller.table import outcome, position_screen
from engines.registry import get_game


def move_list(path: Path) -> str:
    """The game at ``path`` as text: a header, the notation's key, one move a line (notes where the players
    told the table something), and the result."""
    contents = read(path)
    header = contents.header
    info = get_game(header["game"])
    seats = header.get("seats") or {}
    lines = [f"{info.title} -- {path.name}", f"started {header.get('started', '?')}"]
    if seats:
        lines.append("bots: " + ", ".join(f"{seat} {kind}" for seat, kind in seats.items()))
    if info.notation:
        lines += ["", "notation:", *(f"  {key}" for key in info.notation)]
    lines.append("")
    notes: dict[int, list[str]] = {}
    for after, text in contents.notes:
        notes.setdefault(after, []).append(text)
    lines += [f"       note: {text}" for text in notes.get(0, [])]
    for n, entry in enumerate(contents.entries, start=1):
        lines.append(f"{entry.seq:5d}  {entry.player:<8} {entry.move}")
        if entry.entered:
            lines.append("       keyed in: the players' own dice or spinner, not the table's")
        lines += [f"       note: {text}" for text in notes.get(n, [])]
    final = replay(contents, path)[-1]
    if contents.finished:  # what the table showed at the end says how it was won (a gate fallen, the ranking)
        shown = position_screen(final).text().splitlines()
        lines += ["", "the table's last screen:", *(f"       {row}" for row in shown)]
    lines += ["", f"result: {outcome(final)}" if contents.finished else "result: not finished yet"]
    return "\n".join(lines) + "\n"
