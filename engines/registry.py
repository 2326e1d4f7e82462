"""The list of games with their static facts, so menus, the CLI and generic tests iterate over them.

Engines are imported lazily: listing the games must not pay for importing every rules module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from engines.base import GameState

Evaluator = Callable[[Any, str], float]
"""``evaluate(state, player)``: higher is better for ``player``; zero-sum games return opposite values."""


@dataclass(frozen=True)
class GameInfo:
    """Static facts about one game.

    ``sensing`` names what the table must sense for this game ("matrix" for piece positions,
    "buttons" for decision-only play); ``buttons`` are the ones its flow needs; ``hidden`` says whether
    bots must determinize; ``evaluator`` and ``candidates`` name the bots' hooks ("module:function"):
    the position evaluation, and a reduction of the legal moves where there are too many to search.
    """

    name: str
    title: str
    players: tuple[str, ...]
    min_players: int
    max_players: int
    chance: bool
    hidden: bool
    sensing: tuple[str, ...]
    module: str
    buttons: tuple[str, ...] = ()
    evaluator: str | None = None
    candidates: str | None = None

    def locations(self) -> frozenset[str]:
        """Every location name ``occupancy()`` can report: what a board layout must map to cells."""
        names: frozenset[str] = frozenset(self.load().LOCATIONS)
        return names

    def evaluation(self) -> Evaluator | None:
        """The game's position evaluation for the heuristic and MCTS bots, if it has one."""
        if self.evaluator is None:
            return None
        module, _, name = self.evaluator.partition(":")
        fn: Evaluator = getattr(importlib.import_module(module), name)
        return fn

    def candidate_moves(self) -> Callable[[Any], Sequence[Any]] | None:
        """The game's reduction of the legal moves for bots to search, if it needs one (``None``: all)."""
        if self.candidates is None:
            return None
        module, _, name = self.candidates.partition(":")
        fn: Callable[[Any], Sequence[Any]] = getattr(importlib.import_module(module), name)
        return fn

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)

    def new_game(self, **options: Any) -> GameState:
        factory: Callable[..., GameState] = self.load().new_game
        return factory(**options)


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    if info.name in _GAMES:
        raise ValueError(f"game {info.name!r} registered twice")
    _GAMES[info.name] = info


def games() -> list[GameInfo]:
    return list(_GAMES.values())


def get_game(name: str) -> GameInfo:
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"unknown game {name!r} (known: {known})") from None


register(
    GameInfo(
        name="hannibal",
        title="Hannibal (1974)",
        players=("yellow", "blue"),
        min_players=2,
        max_players=2,
        chance=True,
        hidden=False,
        sensing=("matrix", "buttons"),
        module="engines.hannibal",
        buttons=("ROLL", "OK", "NEXT", "PREV", "BACK"),
        evaluator="engines.hannibal.heuristic:evaluate",
    )
)


register(
    GameInfo(
        name="scipio",
        title="Scipio: Sworn Enemy of Hannibal",
        players=("rome", "carthage"),
        min_players=2,
        max_players=2,
        chance=True,
        hidden=True,
        sensing=("matrix", "buttons"),
        module="engines.scipio",
        # the formation buttons take tokens off; card pads ("card:rome:7") are optional
        buttons=("OK", "NEXT", "PREV", "BACK", *(f"tap:{army}:{field}.{i}" for army in ("rome", "carthage")
                                                 for field in ("yellow", "purple", "green") for i in (0, 1))),
        evaluator="engines.scipio.heuristic:evaluate",
        candidates="engines.scipio.heuristic:candidates",
    )
)


register(
    GameInfo(
        name="cannonball",
        title="Cannon Ball (1968)",
        players=("blue", "gray"),
        min_players=2,
        max_players=2,
        chance=True,
        hidden=False,
        sensing=("matrix", "buttons"),
        module="engines.cannonball",
        buttons=("SPIN", "OK", "NEXT", "PREV", "BACK"),
        evaluator="engines.cannonball.heuristic:evaluate",
        candidates="engines.cannonball.heuristic:candidates",
    )
)
