"""The list of games with their static facts: everything the table needs to host a game, by name.

A game is a plugin (DESIGN.md): its entry names its engine, flow, position screen, scripted players,
bots' hooks, seats and profiles as ``"module:attr"`` strings, loaded only when used. The CLI, the
composition root, the terminal driver and the generic tests iterate over this list; none of them names
a game. Listing the games must not pay for importing any rules module, PIL or the flows.

Games are found through the ``boardkeeper.games`` entry points of every installed distribution (this one
declares its five in ``pyproject.toml``; a game in a package of its own declares its own), each naming a
``GameInfo``. An entry is validated when it is registered, so a broken plugin is refused with a message
naming the game and the field instead of failing at the first decision of a bot that cannot play it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from engines.base import GameState

Evaluator = Callable[[Any, str], float]
"""``evaluate(state, player)``: higher is better for ``player``; zero-sum games return opposite values."""

BOT_KINDS = ("random", "heuristic", "mcts")


def load_ref(ref: str) -> Any:
    """Resolve a ``"module:attr"`` reference; the module is imported only now."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class GameInfo:
    """Static facts about one game.

    ``sensing`` names what the table must sense ("matrix" for piece positions, "buttons" for
    decision-only play); ``buttons`` are the ones its flow needs; ``hidden`` says whether bots must
    determinize; ``evaluator`` and ``candidates`` name the bots' hooks: the position evaluation, and a
    reduction of the legal moves where there are too many to search; ``successors`` optionally names a
    faster way to reach the positions after those moves, ``(state) -> [(move, position after it)]``, the
    same positions in the same order as cloning and applying each candidate (whole-turn planning makes
    hundreds of thousands a game, and a game can skip what its own candidates need not check). ``bots``
    lists the bot kinds that can take a seat (empty: people only). ``flow``, ``screen`` and ``scripted``
    name the table's side: the flow factory ``create(context)``, the pure position screen
    ``(state) -> Screen`` that ``replay`` and the terminal show, and the scripted people of the simulated
    table. ``profiles`` are the shipped
    board profiles (``<game>`` is the real board, ``<game>-sim`` the simulated one); ``printable`` draws
    the board to print and glue over the reeds, ``draw(path, paper)`` writing SVG, PNG or a PDF tiled on
    ``paper`` ("a4" or "letter") by the suffix.
    ``zero_sum`` promises ``evaluate(state, a) == -evaluate(state, b)`` exactly for the two players, so
    search evaluates a leaf once instead of once per player. ``table_bots`` says the flow can seat a bot at
    the real table (``FlowContext.bots``): the table decides that seat's decisions and the players move its
    pieces as told, so ``play GAME --seat NAME=BOT`` is refused for a game whose flow cannot.
    ``search_iterations`` is what the MCTS bot of a demo or ``play --sim`` searches a decision when the
    caller names no count: fixed, so a seed replays, and sized so a decision stays within issue 16's
    40 ms p95 on CI where one iteration costs far more than in the dice races. ``player_option`` is
    the ``new_game`` keyword that sets the number of seats, for games between ``min_players`` and
    ``max_players``; ``demo_options`` and ``table_options`` are ``new_game`` options of a bot demo and of
    a real table, and ``remote_options`` what a game shared with a far table takes over either (Hannipe!'s
    cards dealt by the tables: two homes hold no one deck of physical cards).
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
    successors: str | None = None
    bots: tuple[str, ...] = BOT_KINDS
    flow: str | None = None
    screen: str | None = None
    scripted: str | None = None
    profiles: tuple[str, ...] = ()
    printable: str | None = None
    zero_sum: bool = False
    table_bots: bool = False
    search_iterations: int = 32
    player_option: str | None = None
    demo_options: Mapping[str, Any] = field(default_factory=dict)
    table_options: Mapping[str, Any] = field(default_factory=dict)
    remote_options: Mapping[str, Any] = field(default_factory=dict)
    chance_screen: str | None = None
    board_view: str | None = None
    seat_screen: str | None = None
    notation: tuple[str, ...] = ()  # a key to the move notation, a line each: the head of an exported game
    test_seeds: tuple[int, ...] = (1,)
    short: bool = False
    listed: int = 100

    def problems(self) -> list[str]:
        """What is wrong with this entry, one message per problem (empty: it may be registered).

        ``board_view`` names ``(table_state) -> list[str]``: the board drawn as text lines for the terminal
        (the engine's pieces, the sensors that disagree), from the table state every view reads.
        ``seat_screen`` names ``(state, seat, names) -> Screen | None``: what only that seat may see (its hand,
        its bet, its organisation), for its own view (a phone), in a game that hides information.
        ``chance_screen`` names ``(screen, outcomes) -> bool``: the screen shows no chance outcome that
        ``outcomes`` (the notation of each one journaled, oldest first) does not justify -- the dice, the
        spinner, the die a frame may show, which ``bench.powercut`` checks against the fsynced journal.
        ``test_seeds`` are the demo seeds the generic tests play; ``short`` says a whole game may take only a
        few screens and journal lines (the generic tests then ask for no minimum count of either);
        ``listed`` orders ``boardkeeper games`` (entry points come in no promised order), and the first
        game listed is what ``run_demo`` plays when it is named none."""
        out: list[str] = []
        if not self.name.isidentifier() or self.name != self.name.lower():
            out.append(f"name {self.name!r}: a lower-case identifier")
        if not self.players or len(set(self.players)) != len(self.players):
            out.append("players: at least one seat, each named once")
        if not 1 <= self.min_players <= self.max_players <= len(self.players):
            out.append(f"min_players {self.min_players}, max_players {self.max_players}: "
                       f"1 <= min <= max <= {len(self.players)} seats")
        if self.min_players != self.max_players and self.player_option is None:
            out.append("player_option: needed for a game with a range of players")
        unknown = [k for k in self.bots if k not in BOT_KINDS]
        if unknown:
            out.append(f"bots: unknown kinds {', '.join(unknown)} (kinds: {', '.join(BOT_KINDS)})")
        if any(k != "random" for k in self.bots) and self.evaluator is None:
            out.append("evaluator: heuristic and mcts bots need the game's evaluation")
        if self.table_bots and not self.bots:
            out.append("table_bots: no bot kind can take a seat")
        if self.search_iterations < 1:
            out.append("search_iterations: at least 1")
        if self.flow is not None and (self.screen is None or not self.profiles):
            out.append("flow: a game on the table needs its position screen and its profiles")
        if not self.test_seeds:
            out.append("test_seeds: at least one seed for the generic tests")
        for key in ("evaluator", "candidates", "successors", "flow", "screen", "scripted", "printable",
                    "chance_screen", "board_view", "seat_screen"):
            ref = getattr(self, key)
            if ref is not None and (ref.count(":") != 1 or not all(ref.partition(":")[::2])):
                out.append(f"{key} {ref!r}: a 'module:attr' reference")
        return out

    def locations(self) -> frozenset[str]:
        """Every location name ``occupancy()`` can report: what a board layout must map to cells."""
        names: frozenset[str] = frozenset(self.load().LOCATIONS)
        return names

    def evaluation(self) -> Evaluator | None:
        """The game's position evaluation for the heuristic and MCTS bots, if it has one."""
        if self.evaluator is None:
            return None
        fn: Evaluator = load_ref(self.evaluator)
        return fn

    def candidate_moves(self) -> Callable[[Any], Sequence[Any]] | None:
        """The game's reduction of the legal moves for bots to search, if it needs one (``None``: all)."""
        if self.candidates is None:
            return None
        fn: Callable[[Any], Sequence[Any]] = load_ref(self.candidates)
        return fn

    def successor_positions(self) -> Callable[[Any], Sequence[tuple[Any, Any]]] | None:
        """The game's fast ``(move, position after it)`` for the bots' candidates, if it has one."""
        if self.successors is None:
            return None
        fn: Callable[[Any], Sequence[tuple[Any, Any]]] = load_ref(self.successors)
        return fn

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)

    def new_game(self, **options: Any) -> GameState:
        factory: Callable[..., GameState] = self.load().new_game
        return factory(**options)

    def seats(self, count: int | None = None) -> tuple[str, ...]:
        """The seats of a game of ``count`` players (all of ``players`` for a fixed-size game)."""
        if count is None:
            count = self.max_players if self.player_option is None else min(4, self.max_players)
        if not self.min_players <= count <= self.max_players:
            allowed = f"{self.min_players}" if self.min_players == self.max_players else \
                f"{self.min_players} to {self.max_players}"
            raise ValueError(f"{self.name} is for {allowed} players, not {count}")
        return self.players[:count]

    def options(self, *, sim: bool, players: int | None = None) -> dict[str, Any]:
        """``new_game`` options for a table: a bot demo / terminal game (``sim``) or a real board."""
        out = dict(self.demo_options if sim else self.table_options)
        if players is not None:
            if self.player_option is None:
                if players != len(self.players):
                    raise ValueError(f"{self.name} is for {len(self.players)} players, not {players}")
            else:
                self.seats(players)
                out[self.player_option] = players
        return out


ENTRY_POINTS = "boardkeeper.games"

_GAMES: dict[str, GameInfo] = {}
_found = False


class PluginError(ValueError):
    """A registry entry that cannot be registered: it names the game (or entry point) and every problem."""


def register(info: GameInfo) -> None:
    """Add a game, once, if its entry is sound (``GameInfo.problems``)."""
    if not isinstance(info, GameInfo):
        raise PluginError(f"a game entry must be a GameInfo, not {type(info).__name__}")
    problems = info.problems()
    if problems:
        raise PluginError(f"game {info.name!r}: " + "; ".join(problems))
    if info.name in _GAMES:
        raise PluginError(f"game {info.name!r} registered twice")
    _GAMES[info.name] = info


def _discover() -> None:
    """Register every game an installed distribution declares, in the order its entry points are listed.
    Done once, at the first question, so importing the registry costs nothing."""
    global _found
    if _found:
        return
    _found = True
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINTS):
        if point.name in _GAMES:
            continue  # registered by hand already (a test's own game)
        info = point.load()
        if not isinstance(info, GameInfo) or info.name != point.name:
            raise PluginError(f"entry point {point.name} = {point.value}: not the GameInfo of {point.name!r}")
        register(info)


def game_names() -> list[str]:
    """Every game's name, read off the entry points without importing any entry (``--help`` lists them)."""
    if _found:
        return [info.name for info in games()]
    from importlib.metadata import entry_points

    return sorted({point.name for point in entry_points(group=ENTRY_POINTS)} | set(_GAMES))


def games() -> list[GameInfo]:
    _discover()
    return sorted(_GAMES.values(), key=lambda info: (info.listed, info.name))


def get_game(name: str) -> GameInfo:
    _discover()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"unknown game {name!r} (known: {known})") from None
