"""Factional Hannibal events and their notation (one line per event, so a journal reads as the game's log).

=============================================  =====================================================
``reinforced``                                  this turn's reinforcement phase is over
``initiative rome``                             the side that plays first this turn
``play rome-copper`` / ``... activate``         a card played, or played to activate the partner's
                                                Full General (answered by ``approve`` / ``veto``)
``control latium carthage-copper``              a province's new holder: a faction, a side (held
                                                jointly), or ``none``
``battle rome-silver/shared carthage-copper/borrowed 3``  winner, loser, PCs the loser removes;
                                                ``/shared`` the winner used its partner's Full General,
                                                ``/borrowed`` the loser had activated its partner's;
                                                ``none`` a leaderless force
``discard rome-copper``                         a card lost without being played (rule 21)
``roll`` / ``die 4``                            the die asked for / its outcome (chance)
``end rome``                                    the game is over, Rome's side won
=============================================  =====================================================

Names are read case-insensitively; ``str()`` always writes the lower-case form above. Moves check
their own words (an unknown province is ``InvalidMoveError`` wherever it comes from); whether an event
is legal now is the state's business.
"""

from __future__ import annotations

from typing import Final

from engines.base import InvalidMoveError, Move, move_dataclass
from engines.factional.table import FACTIONS, HOLDERS, PROVINCES, SIDES, side_of

NONE: Final = "none"
SHARED: Final = "/shared"
BORROWED: Final = "/borrowed"


def _check(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise InvalidMoveError(f"no {what} {value!r} ({', '.join(allowed)})")


@move_dataclass
class Reinforced(Move):
    def __str__(self) -> str:
        return "reinforced"


@move_dataclass
class Initiative(Move):
    side: str

    def __post_init__(self) -> None:
        _check(self.side, SIDES, "side")

    def __str__(self) -> str:
        return f"initiative {self.side}"


@move_dataclass
class Play(Move):
    faction: str
    activate: bool = False

    def __post_init__(self) -> None:
        _check(self.faction, FACTIONS, "faction")

    def __str__(self) -> str:
        return f"play {self.faction}" + (" activate" if self.activate else "")


@move_dataclass
class Answer(Move):
    """The partner's answer to an activation request."""

    approve: bool

    def __str__(self) -> str:
        return "approve" if self.approve else "veto"


@move_dataclass
class Control(Move):
    province: str
    holder: str | None

    def __post_init__(self) -> None:
        _check(self.province, tuple(PROVINCES), "province")
        if self.holder is not None:
            _check(self.holder, HOLDERS, "holder")

    def __str__(self) -> str:
        return f"control {self.province} {self.holder or NONE}"


@move_dataclass
class Battle(Move):
    """``None`` for a leaderless force; ``shared``/``borrowed`` only with a faction on that side."""

    winner: str | None
    loser: str | None
    pcs: int
    shared: bool = False
    borrowed: bool = False

    def __post_init__(self) -> None:
        for who, flag, what in ((self.winner, self.shared, "shared"), (self.loser, self.borrowed, "borrowed")):
            if who is not None:
                _check(who, FACTIONS, "faction")
            elif flag:
                raise InvalidMoveError(f"a leaderless force cannot be {what}")
        if isinstance(self.pcs, bool) or not isinstance(self.pcs, int) or self.pcs < 0:
            raise InvalidMoveError(f"PCs are a whole number >= 0, got {self.pcs!r}")

    def __str__(self) -> str:
        winner = (self.winner or NONE) + (SHARED if self.shared else "")
        loser = (self.loser or NONE) + (BORROWED if self.borrowed else "")
        return f"battle {winner} {loser} {self.pcs}"


@move_dataclass
class Discard(Move):
    faction: str

    def __post_init__(self) -> None:
        _check(self.faction, FACTIONS, "faction")

    def __str__(self) -> str:
        return f"discard {self.faction}"


@move_dataclass
class Roll(Move):
    def __str__(self) -> str:
        return "roll"


@move_dataclass
class Die(Move):
    value: int

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or not 1 <= self.value <= 6:
            raise InvalidMoveError(f"a die shows 1 to 6, got {self.value!r}")

    def __str__(self) -> str:
        return f"die {self.value}"


@move_dataclass
class End(Move):
    side: str

    def __post_init__(self) -> None:
        _check(self.side, SIDES, "side")

    def __str__(self) -> str:
        return f"end {self.side}"


def battle_problem(battle: Battle) -> str | None:
    """Why a battle can never be entered, whatever the position (``None``: it can be)."""
    if battle.winner is None and battle.loser is None:
        return "a battle needs a faction on at least one side"
    if battle.winner is not None and battle.loser is not None and side_of(battle.winner) == side_of(battle.loser):
        return f"{battle.winner} and {battle.loser} are partners: partners never fight each other"
    return None


REINFORCED: Final = Reinforced()
APPROVE: Final = Answer(approve=True)
VETO: Final = Answer(approve=False)
ROLL: Final = Roll()
DICE: Final = tuple(Die(v) for v in range(1, 7))

_EXAMPLES = "e.g. 'play rome-copper', 'control latium rome', 'battle rome-silver carthage-copper/borrowed 2'"


def parse(text: str) -> Move:
    """Read one event in the notation above; ``InvalidMoveError`` says what is wrong."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidMoveError("empty event")
    kind, rest = words[0], words[1:]
    arity = {"reinforced": 0, "approve": 0, "veto": 0, "roll": 0, "initiative": 1, "discard": 1, "die": 1,
             "end": 1, "control": 2, "battle": 3}
    if kind == "play" and len(rest) in (1, 2):
        if len(rest) == 2 and rest[1] != "activate":
            raise InvalidMoveError(f"{text!r}: only 'activate' may follow the faction")
        return Play(rest[0], activate=len(rest) == 2)
    if arity.get(kind) != len(rest):
        raise InvalidMoveError(f"{text!r} is not a Factional Hannibal event ({_EXAMPLES})")
    if kind == "reinforced":
        return REINFORCED
    if kind in ("approve", "veto"):
        return Answer(approve=kind == "approve")
    if kind == "roll":
        return ROLL
    if kind == "initiative":
        return Initiative(rest[0])
    if kind == "discard":
        return Discard(rest[0])
    if kind == "end":
        return End(rest[0])
    if kind == "die":
        return Die(_number(rest[0], "a die"))
    if kind == "control":
        return Control(rest[0], None if rest[1] == NONE else rest[1])
    winner, shared = _force(rest[0], SHARED)
    loser, borrowed = _force(rest[1], BORROWED)
    return Battle(winner, loser, _number(rest[2], "PCs"), shared=shared, borrowed=borrowed)


def _force(word: str, suffix: str) -> tuple[str | None, bool]:
    """A battle's winner or loser word: a faction, maybe with its suffix, or ``none``."""
    flagged = word.endswith(suffix)
    name = word.removesuffix(suffix)
    if "/" in name:
        raise InvalidMoveError(f"{word!r}: only the winner may be {SHARED} and only the loser {BORROWED}")
    return (None if name == NONE else name), flagged


def _number(word: str, what: str) -> int:
    if not word.isascii() or not word.isdigit():
        raise InvalidMoveError(f"{what}: expected a whole number >= 0, got {word!r}")
    try:
        return int(word)
    except ValueError:  # more digits than int() converts
        raise InvalidMoveError(f"{what}: {word[:20]}... is too long a number") from None
