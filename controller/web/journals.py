"""The games page's data: the journals in the table's journal folder, each as a replay to step through and a
readable move list.

A journal is the referee's record, secrets included (Hannipe's deal and bets, Scipio's organisations and
the state after each line): a game that hides information is therefore shown only once it has ended, when
the rules have revealed everything; until then it is listed, with why it cannot be opened. A game without
hidden information can be followed while it is played.

Only the folder's own ``*.jsonl`` files are served, by a name found in its listing: a request can never
name a path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from controller.journal import Contents, JournalError, read, replay
from controller.table import outcome, position_screen
from engines.registry import get_game

SECRET = "in play: its secrets stay hidden until it ends"


@dataclass(frozen=True)
class Listed:
    """One journal of the folder, as the games page lists it; ``closed`` says why it cannot be opened
    ("" if it can)."""

    name: str
    game: str
    title: str
    started: str
    moves: int
    finished: bool
    closed: str

    def json(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "title": self.title, "started": self.started,
                "moves": self.moves, "finished": self.finished, "closed": self.closed}


def listing(folder: Path) -> list[Listed]:
    """The folder's journals, the last written first; damaged ones are listed as such."""
    found = [p for p in folder.glob("*.jsonl") if p.is_file()]
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return [_listed(p, p.stat().st_mtime_ns, p.stat().st_size) for p in found]


def find(folder: Path, name: str) -> tuple[Path, Listed] | None:
    """The journal ``name`` if the folder lists it (never a path built from the request)."""
    for listed in listing(folder):
        if listed.name == name:
            return folder / listed.name, listed
    return None


def _closed(contents: Contents) -> str:
    return SECRET if get_game(contents.header["game"]).hidden and not contents.finished else ""


@lru_cache(maxsize=64)
def _listed(path: Path, mtime: int, size: int) -> Listed:
    """Cached by the file's time and size: a journal is read again only when it has grown."""
    try:
        contents = read(path)
    except JournalError as e:
        return Listed(path.name, "?", "damaged journal", "", 0, False, str(e).replace(str(path), path.name))
    header = contents.header
    return Listed(path.name, header["game"], get_game(header["game"]).title, str(header.get("started", "")),
                  len(contents.entries), contents.finished, _closed(contents))


@lru_cache(maxsize=8)
def _replayed(path: Path, mtime: int, size: int) -> dict[str, Any]:
    contents = read(path)
    states = replay(contents, path)
    led = [("", "", 0), *((e.player, e.move, e.seq) for e in contents.entries)]  # the line before each state
    steps = [{"seq": seq, "player": player, "move": move, "pieces": _pieces(state),
              "screen": position_screen(state).text()} for (player, move, seq), state in zip(led, states, strict=True)]
    header = contents.header
    return {"name": path.name, "game": header["game"], "title": get_game(header["game"]).title,
            "started": str(header.get("started", "")), "finished": contents.finished,
            "outcome": outcome(states[-1]), "steps": steps}


def replay_json(path: Path) -> dict[str, Any]:
    """Every position of the game at ``path``: the move that led to it, the pieces, the position's screen."""
    stat = path.stat()
    return _replayed(path, stat.st_mtime_ns, stat.st_size)


def _pieces(state: Any) -> dict[str, list[Any]]:
    return {loc: [owner, n] for loc, (owner, n) in state.occupancy().items() if n > 0}
