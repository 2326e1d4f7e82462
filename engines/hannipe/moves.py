"""Hannipe! decisions and chance outcomes, and their notation (one line each, as the journal records them).

=========================================  =========================================================
``programme 3``                             the race's programme card (chance, 1..8)
``shuffle vertige,noiro,roujo,grisette``    the order the starters' horse cards will be turned (chance)
``deal p2 noiro:2``                         one tip card dealt to a seat (chance, ``cards="deal"`` only)
``bet p2 roujo``                            a seat's secret bet on the race winner
``turn``                                    the leader turns the next horse card
``tip p3 noiro 2`` / ``tip p1 vertige c``   a seat plays a tip card; faces ``0``, ``1``, ``2``, ``c``
=========================================  =========================================================

A game shared by two tables announces what one table may not know (G-10): ``shuffle ?`` (an order nobody
knows), ``deal p2 ?`` (a card only p2's table knows), ``bet p2 ?`` (a bet sealed until the race ends),
``turn vertige`` (the horse card the leader turned, once the order is unknown) and ``reveal p2 roujo`` (a sealed
bet opened after the race's last tip).

Reading ignores case and extra blanks; ``str()`` writes the canonical lowercase form above. Text that
names no such seat (``p1``..``p7``), horse, face or programme is malformed (``InvalidMoveError``);
whether a well-formed move is allowed now is the state's business (``IllegalMoveError``).
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engines.base import InvalidMoveError, Move, move_dataclass
from engines.hannipe.data import FACES, HORSES, PROGRAMMES, SEATS, SECRET, UNKNOWN, Card, card_text


@move_dataclass
class Action(Move):
    """Every Hannipe! move. Fields a kind does not use stay empty, so equality is by notation."""

    kind: str
    seat: str = ""
    horse: str = ""
    face: str = ""
    number: int = 0
    horses: tuple[str, ...] = ()

    @property
    def secret(self) -> bool:
        """An announcement that hides its outcome (``shuffle ?``, ``deal p2 ?``, ``bet p2 ?``)."""
        return self.horse == SECRET

    def __str__(self) -> str:
        k = self.kind
        if k == "programme":
            return f"programme {self.number}"
        if k == "shuffle":
            return "shuffle " + (SECRET if self.secret else ",".join(self.horses))
        if k == "deal":
            return f"deal {self.seat} {card_text((self.horse, self.face))}"
        if k in ("bet", "reveal"):
            return f"{k} {self.seat} {self.horse}"
        if k == "tip":
            return f"tip {self.seat} {self.horse} {self.face}"
        return f"turn {self.horse}" if self.horse else "turn"


TURN: Final = Action("turn")
SECRET_SHUFFLE: Final = Action("shuffle", horse=SECRET)

# The constructors below are cached: bots build the same few hundred moves millions of times.


@cache
def programme(number: int) -> Action:
    return Action("programme", number=number)


def shuffle(horses: tuple[str, ...]) -> Action:
    return Action("shuffle", horses=horses)


@cache
def deal(seat: str, card: Card) -> Action:
    return Action("deal", seat, card[0], card[1])


@cache
def bet(seat: str, horse: str) -> Action:
    return Action("bet", seat, horse)


@cache
def tip(seat: str, horse: str, face: str) -> Action:
    return Action("tip", seat, horse, face)


@cache
def turn(horse: str) -> Action:
    """The leader turned ``horse``: how a table that does not know the order records the turn."""
    return Action("turn", horse=horse)


@cache
def reveal(seat: str, horse: str) -> Action:
    return Action("reveal", seat, horse)


def parse(text: str) -> Action:
    """Read any move in the notation above; ``InvalidMoveError`` says what is wrong with the text."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidMoveError("empty move")
    kind, rest = words[0], words[1:]
    if kind == "turn" and not rest:
        return TURN
    if kind == "turn" and len(rest) == 1:
        return turn(_horse(rest[0]))
    if kind == "shuffle" and rest == [SECRET]:
        return SECRET_SHUFFLE
    if kind == "deal" and len(rest) == 2 and rest[1] == SECRET:
        return deal(_seat(rest[0]), UNKNOWN)
    if kind == "bet" and len(rest) == 2 and rest[1] == SECRET:
        return bet(_seat(rest[0]), SECRET)
    if kind == "reveal" and len(rest) == 2:
        return reveal(_seat(rest[0]), _horse(rest[1]))
    if kind == "programme" and len(rest) == 1:
        if not rest[0].isdigit() or int(rest[0]) not in PROGRAMMES:
            raise InvalidMoveError(f"{text!r}: no programme {rest[0]!r} (1..{len(PROGRAMMES)})")
        return programme(int(rest[0]))
    if kind == "shuffle" and len(rest) == 1:
        horses = tuple(_horse(h) for h in rest[0].split(","))
        if len(set(horses)) != len(horses):
            raise InvalidMoveError(f"{text!r}: a shuffle names each horse once")
        return shuffle(horses)
    if kind == "deal" and len(rest) == 2 and rest[1].count(":") == 1:
        horse, face = rest[1].split(":")
        return deal(_seat(rest[0]), (_horse(horse), _face(face)))
    if kind == "bet" and len(rest) == 2:
        return bet(_seat(rest[0]), _horse(rest[1]))
    if kind == "tip" and len(rest) == 3:
        return tip(_seat(rest[0]), _horse(rest[1]), _face(rest[2]))
    raise InvalidMoveError(f"{text!r} is not a Hannipe! move (e.g. 'bet p2 roujo', 'turn', 'tip p3 noiro 2', "
                           f"'tip p1 vertige c')")


def _seat(word: str) -> str:
    if word not in SEATS:
        raise InvalidMoveError(f"no seat {word!r} ({SEATS[0]}..{SEATS[-1]})")
    return word


def _horse(word: str) -> str:
    if word not in HORSES:
        raise InvalidMoveError(f"no horse {word!r} ({', '.join(HORSES)})")
    return word


def _face(word: str) -> str:
    if word not in FACES:
        raise InvalidMoveError(f"no tip card face {word!r} ({', '.join(FACES)})")
    return word
