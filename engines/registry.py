"""The list of games with their static facts: everything the table needs to host a game, by name.

A game is a plugin (DESIGN.md): its entry names its engine, flow, position screen, scripted players,
bots' hooks, seats and profiles as ``"module:attr"`` strings, loaded only when used. The CLI, the
composition root, the terminal driver and the generic tests iterate over this list; none of them names
a game. Listing the games must not pay for importing any rules module, PIL or the flows.
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
    the board to print and glue over the reeds, ``draw(path)`` writing SVG or PNG by the suffix.
    ``zero_sum`` promises ``evaluate(state, a) == -evaluate(state, b)`` exactly for the two players, so
    search evaluates a leaf once instead of once per player. ``table_bots`` says the flow can seat a bot at
    the real table (``FlowContext.bots``): the table decides that seat's decisions and the players move its
    pieces as told, so ``play GAME --seat NAME=BOT`` is refused for a game whose flow cannot.
    ``search_iterations`` is what the MCTS bot of a demo or ``play --sim`` searches a decision when the
    caller names no count: fixed, so a seed replays, and sized so a decision stays within issue 16's
    40 ms p95 on CI where one iteration costs far more than in the dice races. ``player_option`` is
    the ``new_game`` keyword that sets the number of seats, for games between ``min_players`` and
    ``max_players``; ``demo_options`` and ``table_options`` are ``new_game`` options of a bot demo and of
    a real table.
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
        zero_sum=True,
        table_bots=True,
        flow="controller.flows.hannibal:create",
        screen="controller.flows.hannibal_screens:position_screen",
        scripted="sim_hardware.players:ScriptedTable",
        profiles=("hannibal", "hannibal-sim", "hannibal-bridge", "hannibal-bridge-sim"),
        printable="controller.printable.hannibal:draw",
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
        buttons=("OK", "NEXT", "PREV", "BACK", *(f"tap:{army}:{side}.{i}" for army in ("rome", "carthage")
                                                 for side in ("yellow", "purple", "green") for i in (0, 1))),
        evaluator="engines.scipio.heuristic:evaluate",
        candidates="engines.scipio.heuristic:candidates",
        successors="engines.scipio.heuristic:successors",
        flow="controller.flows.scipio:create",
        screen="controller.flows.scipio_screens:position_screen",
        scripted="sim_hardware.scipio_players:ScriptedScipioTable",
        profiles=("scipio", "scipio-sim"),
    )
)


register(
    GameInfo(
        name="factional",
        title="Factional Hannibal",
        players=("rome-silver", "rome-copper", "carthage-silver", "carthage-copper"),
        min_players=4,
        max_players=4,
        chance=True,
        hidden=False,
        sensing=("matrix", "buttons"),
        module="engines.factional",
        # the Honor tray is the matrix; one button per faction names who plays or who won a battle
        buttons=("OK", "NEXT", "PREV", "BACK", *(f"faction:{f}" for f in ("rome-silver", "rome-copper",
                                                                         "carthage-silver", "carthage-copper"))),
        bots=(),  # no bot plays it: the table only keeps the ledger of a game played on the HRC map
        flow="controller.flows.factional:create",
        screen="controller.flows.factional_screens:position_screen",
        scripted="sim_hardware.factional_players:ScriptedFactionalTable",
        profiles=("factional", "factional-sim"),
    )
)


register(
    GameInfo(
        name="hannipe",
        title="Hannipe!",
        players=tuple(f"p{i}" for i in range(1, 8)),  # seats of the largest table; a game has the first N
        min_players=2,
        max_players=7,
        chance=True,
        hidden=True,
        sensing=("matrix", "buttons"),
        module="engines.hannipe",
        # one button per horse names the horse of a bet or a tip card at one press
        buttons=("OK", "NEXT", "PREV", "BACK", *(f"horse:{h}" for h in ("noiro", "roujo", "grisette", "vertige",
                                                                        "pepite", "cocotte"))),
        evaluator="engines.hannipe.heuristic:evaluate",
        flow="controller.flows.hannipe:create",
        screen="controller.flows.hannipe_screens:position_screen",
        scripted="sim_hardware.hannipe_players:ScriptedHannipeTable",
        profiles=("hannipe", "hannipe-sim"),
        player_option="players",
        demo_options={"cards": "deal"},  # bots are dealt their tip cards by the table
        table_options={"cards": "table"},  # people hold the physical cards; the table counts what is unplayed
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
        zero_sum=True,
        candidates="engines.cannonball.heuristic:candidates",
        flow="controller.flows.cannonball:create",
        screen="controller.flows.cannonball_screens:position_screen",
        scripted="sim_hardware.cannonball_players:ScriptedCannonballTable",
        profiles=("cannonball", "cannonball-sim"),
        printable="controller.printable.cannonball:draw",
        demo_options={"turn_limit": 300},  # a bot game ends: the share decided within 300 turns is high
        # each iteration that reaches a march plans it (about 4 ms); against the heuristic bot over the same
        # 600 seeded games, 10 iterations won 354, 12 won 356 and 32 won 357 (issue 16's note)
        search_iterations=10,
    )
)
