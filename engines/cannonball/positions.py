"""Building positions from just the pieces that matter, through the strict JSON reader.

Tests, the bench and set-up tools describe a position as box lists (``"c4"`` a trooper, ``"C c4"`` a
cannon) instead of a 216-box dictionary; going through ``State.from_json`` means a built position is
always one the engine would accept from a journal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engines.cannonball.board import GATES, SITES
from engines.cannonball.state import State


def position(
    blue: Iterable[str] = (),
    gray: Iterable[str] = (),
    *,
    to_move: str = "blue",
    budget: int | None = None,
    gates: Mapping[str, str] | None = None,
    bridges: Mapping[str, str] | None = None,
    tnt: tuple[int, int] = (5, 5),
    mines: Mapping[str, tuple[str, str]] | None = None,
    phase: str | None = None,
    pending: str | None = None,
    turn: int = 0,
    turn_limit: int | None = None,
) -> State:
    """A state with the given pieces; gates default to closed, bridges to up, the phase to a march when
    ``budget`` is given and to a turn choice otherwise."""
    boxes: dict[str, list[str]] = {}
    for side, pieces in (("blue", blue), ("gray", gray)):
        for text in pieces:
            name = text.split()[-1]
            if name in boxes:
                raise ValueError(f"two pieces on {name}")
            boxes[name] = [side, "cannon" if text.startswith("C") else "trooper"]
    data: dict[str, object] = {
        "game": "cannonball",
        "to_move": to_move,
        "budget": budget,
        "boxes": boxes,
        "gates": {g: "closed" for g in GATES} | dict(gates or {}),
        "bridges": {b: "up" for b in SITES} | dict(bridges or {}),
        "tnt": {"blue": tnt[0], "gray": tnt[1]},
        "mines": {site: {"owner": owner, "end": end} for site, (owner, end) in (mines or {}).items()},
        "winner": None,
        "drawn": False,
        "turn": turn,
        "turn_limit": turn_limit,
    }
    if phase is not None:
        data["phase"] = phase
    if pending is not None:
        data["pending"] = pending
    return State.from_json(data)
