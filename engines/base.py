"""The contract every game engine keeps, so that flows, menus, bots and tests can stay game-agnostic.

Modelled on OpenSpiel's ``State`` (chance nodes, legal actions, returns) and python-chess's ``Board``
(a readable move notation that round-trips). Every decision a player or the dice make is a ``Move``
with a notation, whether it moves a piece or not, so one menu and one journal format serve all games.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar, dataclass_transform, runtime_checkable

JsonDict = dict[str, Any]


class InvalidMoveError(ValueError):
    """The text is not a move in this game's notation at all (a typo, a position off the board)."""


class IllegalMoveError(ValueError):
    """The move is well-formed but the rules do not allow it in this position."""


class Move:
    """Base of every game's moves: an immutable value, and ``str(move)`` is its notation.

    The notation is what journals record and ``parse_move`` reads back, so ``__str__`` is an exact contract.
    Immutable because the engines share one move object among every position that offers it (and bots keep
    them as dictionary keys). A subclass is a ``@move_dataclass``, compared and hashed by its fields, or, for
    the moves bots build millions of, a hand-written class with ``__slots__`` that sets them once with
    ``object.__setattr__`` and interns its objects or caches its hash.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: moves are shared values")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: moves are shared values")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


_M = TypeVar("_M", bound=Move)


@dataclass_transform(frozen_default=True)
def move_dataclass(cls: type[_M]) -> type[_M]:
    """Make a ``Move`` subclass a frozen dataclass with slots, equal and hashed by its fields; ``repr``
    stays ``Move``'s, which shows the notation. One decorator so that no game's moves differ in these."""
    return dataclass(frozen=True, slots=True, repr=False)(cls)


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
class Kinds(Protocol):
    """A game whose pieces differ in kind where the sensors cannot tell them apart (Cannon Ball's cannons among
    its troopers): ``kinds()`` names the kind at each location holding a piece of a kind of its own, so the
    table's fix-up list says which piece goes there ("put 1 blue cannon on d2"); it may also name a place
    without a piece whose state differs from an empty one's (a destroyed gate is not an open one), for the
    views: a fix-up list only ever names the kinds of places that take a piece."""

    def kinds(self) -> dict[str, str]: ...


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


@runtime_checkable
class Simultaneous(Protocol):
    """A game whose seats decide at once and in secret, though the engine asks them one after the other (Scipio's
    organisations and cards): ``simultaneous()`` names those seats, in the engine's order, while such a decision
    is due and none of them has made it yet (else an empty tuple). A seat's choices there never depend on an
    earlier seat's, which stays face down until the last is in; so a table that plays a later seat may let it
    decide before the earlier ones have (remote play seals each choice until all are in)."""

    def simultaneous(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class FaceDown:
    """A card the position needs from a deck shuffled face down: position ``position`` of deck ``deck`` of the
    shuffle named ``shuffle``, seen by ``seat`` alone (a dealt card) or by everyone (``None``: a card turned)."""

    shuffle: str
    deck: str
    position: int
    seat: str | None


@dataclass(frozen=True)
class Shown:
    """What the decks of shuffle ``shuffle`` showed once its cards are all out (Hannipe!: at the race's reveal):
    the cards turned for all, by deck in turn order, and the cards each seat played of those dealt to it."""

    shuffle: str
    turned: dict[str, tuple[str, ...]]
    played: dict[str, tuple[str, ...]]


@runtime_checkable
class Hidden(Protocol):
    """A game with secrets that two tables can share without telling each other (Hannipe!'s deal, horse-card
    order and bets): each table's state holds only its own seats' secrets, ``announce(move)`` is a move as every
    seat may hear it (said before it is applied), and ``public()`` is the state as a spectator knows it, which
    both tables of one game agree on after every line.

    Its chance the tables draw together, face down (``controller.remote.deck``): ``decks()`` names the shuffle in
    use and each of its decks' cards, from the chance event that shuffles (then ``face_down()`` is None) until
    ``shown()`` says what the decks showed; ``face_down()`` is the card the next step needs, and ``turn_up(card)``
    the move that card makes. A secret decision (a bet) is announced hidden (``hides(move)``) and sealed;
    ``opens(move)`` names the secret decision a move reveals (``reveal p2 roujo`` opens ``bet p2 roujo``)."""

    def announce(self, move: Move) -> Move: ...

    def public(self) -> Self: ...

    def decks(self) -> tuple[str, dict[str, tuple[str, ...]]] | None: ...

    def face_down(self) -> FaceDown | None: ...

    def turn_up(self, card: str) -> Move: ...

    def opens(self, move: Move) -> Move | None: ...

    def hides(self, move: Move) -> bool: ...

    def shown(self) -> Shown | None: ...


def acting_seat(state: GameState) -> str | None:
    """The seat whose turn it is to act: to decide, or to roll in a game whose seat rolls (``Rolled``); None
    for chance no seat draws, a decision of the table's own, or the end."""
    if state.is_over():
        return None
    if state.is_chance():
        return state.roller() if isinstance(state, Rolled) else None
    return state.current_player


def sample_chance(state: GameState, rng: random.Random) -> Move:
    """Draw one chance outcome with the engine's probabilities (the caller journals it, then applies it)."""
    outcomes = state.chance_outcomes()
    moves = [m for m, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(moves, weights=weights)[0]


# -- reading a state's JSON -----------------------------------------------------------------------------
# Every game's ``from_json`` reads its fields with these: journals can be hand-edited or torn, so each value
# is checked as it is read and the ``ValueError`` names its key (``"troops.rome.yellow.0"``).


def read_choice(value: object, allowed: Collection[str], key: str) -> str:
    """One of the names ``allowed`` (a player, a step, a field...)."""
    if value not in allowed:
        raise ValueError(f"{key}: expected one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def read_maybe(value: object, allowed: Collection[str], key: str) -> str | None:
    """``read_choice`` where JSON null stands for nobody (no winner yet, no drawer)."""
    if value is None:
        return None
    if value not in allowed:
        raise ValueError(f"{key}: expected one of {', '.join(allowed)} or null, got {value!r}")
    return str(value)


def read_int(value: object, key: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number within ``low..high`` (either end open when ``None``); JSON's true and false, which
    Python counts as 1 and 0, are not numbers here."""
    if (isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low)
            or (high is not None and value > high)):
        raise ValueError(f"{key}: expected a whole number{_span(low, high)}, got {value!r}")
    return value


def _span(low: int | None, high: int | None) -> str:
    """``read_int``'s bounds in words: `` 1..9``, `` at least 0``, `` at most 5``, or none."""
    if low is None:
        return "" if high is None else f" at most {high}"
    return f" at least {low}" if high is None else f" {low}..{high}"


def read_bool(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{key}: expected true or false, got {value!r}")
    return value


def read_list(value: object, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{key}: expected a list, got {value!r}")
    return value


def read_object(value: object, key: str, names: Collection[str]) -> dict[str, Any]:
    """A JSON object with exactly the keys ``names``, its values in that order."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{key}: expected an object with keys {', '.join(names)}, got {value!r}")
    missing = [n for n in names if n not in value]
    unknown = [str(n) for n in value if n not in names]
    problems = [f"{what} {', '.join(found)}" for what, found in (("missing", missing), ("unknown", unknown)) if found]
    if problems:
        raise ValueError(f"{key}: {'; '.join(problems)}")
    return {n: value[n] for n in names}
