"""The contract every game engine keeps, so that flows, menus, bots and tests can stay game-agnostic.

Modelled on OpenSpiel's ``State`` (chance nodes, legal actions, returns) and python-chess's ``Board``
(a readable move notation that round-trips). Every decision a player or the dice make is a ``Move``
with a notation, whether it moves a piece or not, so one menu and one journal format serve all games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self, runtime_checkable

JsonDict = dict[str, Any]


class InvalidMoveError(ValueError):
    """The text is not a move in this game's notation at all (a typo, a position off the board)."""


class IllegalMoveError(ValueError):
    """The move is well-formed but the rules do not allow it in this position."""


class Move:
    """Base of every game's moves: immutable, hashable, and ``str(move)`` is its notation.

    Subclasses define ``__slots__``, ``__eq__``/``__hash__`` by value and ``__str__``; the engine's
    ``parse_move`` is the inverse of ``__str__``.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


@runtime_checkable
class GameState(Protocol):
    """What a game's state offers; ``engines.<game>.State`` implements it.

    ``current_player`` is ``None`` both when the game is over and when a chance event (dice, spinner,
    shuffle, draw) is due: ``is_chance()`` tells the two apart. Engines never sample: the caller picks a
    chance outcome (from a seeded RNG, the system RNG, or physical dice typed in) and applies it like
    any other move, which is what makes journals replayable.
    """

    @property
    def game(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def current_player(self) -> str | None: ...

    @property
    def winner(self) -> str | None: ...

    def is_chance(self) -> bool: ...

    def chance_outcomes(self) -> list[tuple[Move, float]]: ...

    def legal_moves(self) -> Sequence[Move]:
        """Every legal decision now; a sequence rather than a list so that a game with a huge number of
        choices (Scipio's 237,336 organisations) can index them without building them all."""
        ...

    def apply(self, move: Move) -> None: ...

    def clone(self) -> Self: ...

    def parse_move(self, text: str) -> Move: ...

    def is_over(self) -> bool: ...

    def returns(self) -> dict[str, float]: ...

    def occupancy(self) -> dict[str, tuple[str, int]]: ...

    def key(self) -> tuple[object, ...]: ...

    def to_json(self) -> JsonDict: ...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self: ...


@runtime_checkable
class TableDecisions(Protocol):
    """A game whose table records events itself (Factional Hannibal's ledger): ``is_table_decision()`` says
    nobody's seat decides now, and the journal accepts lines signed ``"table"`` while the game goes on."""

    def is_table_decision(self) -> bool: ...


@runtime_checkable
class Rolled(Protocol):
    """A game whose chance is rolled by a seat (Hannibal's dice): ``roller()`` names the seat whose roll is
    due (None when no chance is), and the journal accepts its signature on the roll, as on ``"chance"``."""

    def roller(self) -> str | None: ...


@runtime_checkable
class Scored(Protocol):
    """A game that keeps scores (Hannipe's coins, Factional's Honor): what the table state shows."""

    def scores(self) -> dict[str, int]: ...


@runtime_checkable
class HiddenInformation(Protocol):
    """Games with hidden information (hands, deck order) also offer a determinization.

    ``determinize(player, rng)`` returns a copy in which everything ``player`` cannot see is resampled
    consistently with what they can see; bots search such copies instead of peeking.
    """

    def determinize(self, player: str, rng: random.Random) -> GameState: ...


def sample_chance(state: GameState, rng: random.Random) -> Move:
    """Draw one chance outcome with the engine's probabilities (the caller journals it, then applies it)."""
    outcomes = state.chance_outcomes()
    moves = [m for m, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(moves, weights=weights)[0]


def check_players(value: object, players: Sequence[str], key: str) -> str:
    """Validate a player name read from JSON, naming the key on error (journals may be corrupt)."""
    if value not in players:
        raise ValueError(f"{key}: expected one of {', '.join(players)}, got {value!r}")
    return str(value)
