"""The table's settings, changed from the web page (``/settings``): the seats' names, which seats the table's
bots play, and how long a searching bot may think.

They are kept in the state directory (``settings.json``, beside the journals) and read when a game is put on
the table: the names at once, the bots from the next new game on. A game in play keeps the bots it began with,
which its journal's header holds (a resume after a power cut seats them again), so nobody's seat changes hands
in the middle of a game. A file that cannot be read is said in the log and left aside: the profile and the
command line decide, as if there were none.

Every value is checked here, once, for the page and for the file alike: a name as the profile's ``[seats]``
checks it, a bot kind the game's table can seat, a think time in the profile's range.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engines.registry import GameInfo
from hw_config.profile import THINK_MS_RANGE, seat_name_problems

log = logging.getLogger("boardkeeper")

FILE = "settings.json"
PERSON = "person"  # who plays a seat no bot plays


def _empty() -> Mapping[str, str]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Settings:
    names: Mapping[str, str] = field(default_factory=_empty)  # seat -> the name the screens show
    bots: Mapping[str, str] = field(default_factory=_empty)  # seat -> bot kind; a seat not here: a person's
    think_ms: int | None = None  # a searching bot's time a decision (None: its fixed search)

    def json(self) -> dict[str, Any]:
        return {"names": dict(self.names), "bots": dict(self.bots), "think_ms": self.think_ms}


def check(data: object, info: GameInfo, seats: tuple[str, ...]) -> Settings:
    """Settings from JSON (the page's or the file's), every value checked; ``ValueError``: one line why."""
    if not isinstance(data, dict) or set(data) - {"names", "bots", "think_ms"}:
        raise ValueError('settings are {"names": {SEAT: NAME}, "bots": {SEAT: KIND}, "think_ms": MS or null}')
    names, bots, think = data.get("names", {}), data.get("bots", {}), data.get("think_ms")
    if not isinstance(names, dict) or not isinstance(bots, dict):
        raise ValueError('"names" and "bots" are each {SEAT: ...}')
    named = {seat: name.strip() if isinstance(name, str) else name for seat, name in names.items()
             if name not in ("", None)}
    problems = seat_name_problems(named, seats)
    if problems:
        raise ValueError(problems[0])
    kinds = {seat: kind for seat, kind in bots.items() if kind != PERSON}
    for seat, kind in kinds.items():
        if seat not in seats:
            raise ValueError(f"bots: {seat!r} is not a seat of {info.name} ({', '.join(seats)})")
        if not info.table_bots:
            raise ValueError(f"{info.name}'s table cannot seat a bot yet: every seat is a person's")
        if kind not in info.bots:
            raise ValueError(f"bots: {seat} = {kind!r}: {info.name}'s bots are {', '.join(info.bots)}")
    if len(kinds) == len(seats):
        raise ValueError("at least one seat must be a person's: the table plays with people")
    low, high = THINK_MS_RANGE
    if think is not None and (isinstance(think, bool) or not isinstance(think, int) or not low <= think <= high):
        raise ValueError(f"think_ms: a whole number of milliseconds from {low} to {high}, or null")
    return Settings(MappingProxyType(named), MappingProxyType(kinds), think)


def load(folder: Path, info: GameInfo, seats: tuple[str, ...]) -> Settings | None:
    """The settings saved in ``folder`` for this game, if any and sound; a broken file is said, not used."""
    path = folder / FILE
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        log.warning("%s cannot be read (%s): the profile's settings are used", path, e)
        return None
    mine = saved.get(info.name) if isinstance(saved, dict) else None
    if mine is None:
        return None
    try:
        return check(mine, info, seats)
    except ValueError as e:
        log.warning("%s: %s's settings are not used: %s", path, info.name, e)
        return None


def save(folder: Path, game: str, settings: Settings) -> None:
    """Keep ``settings`` for ``game`` beside the other games' (written whole, then renamed: a power cut leaves
    the old file or the new one, never half of one). ``OSError`` if the card cannot take it."""
    path = folder / FILE
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        saved = {}
    saved = saved if isinstance(saved, dict) else {}
    saved[game] = settings.json()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        json.dump(saved, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
