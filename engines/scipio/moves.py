"""Scipio decisions and their notation (one line per decision, so a journal reads as a game record).

=============================================  =====================================================
``org rome 6,5,6,5,6,6``                        an army's organisation: tokens per formation in the
                                                order yellow.0 yellow.1 purple.0 purple.1 green.0 green.1
``tiles Y2 P1 G3``                              strike order tiles per field: a shuffle (chance) or
                                                the Renowned General's choice
``place rome Y7 P2 G4``                         an army's three cards of a phase, per field
``remove carthage yellow 3,1``                  damage taken from a field's formations .0 and .1
``draw carthage`` / ``pass``                    take the New Orders draw or decline any optional step
``card redeployment``                           the New Orders card drawn (chance): ``redeployment``,
                                                ``relief``, ``opportune``, ``deserter``, ``general``
``redeploy yellow.1>purple.0``                  one token one step (Redeployment, Opportune Move)
``relief yellow.0,green.1``                     Relief in Place: swap two formations' contents
``deserter purple.1``                           the opponent's choice of the deserting formation
=============================================  =====================================================

Fields in ``tiles`` and ``place`` may be written in any order; ``str()`` always writes Y, P, G.
"""

from __future__ import annotations

import re
from typing import Final

from engines.base import InvalidMoveError, Move, move_dataclass
from engines.scipio.rules import ARMIES, FIELD_LETTERS, FIELDS, FORMATIONS, NEW_ORDERS

LETTER_FIELDS: Final = {letter: field for field, letter in FIELD_LETTERS.items()}


@move_dataclass
class Order(Move):
    """Every Scipio decision and chance outcome. ``nums`` holds counts, cards, tiles or formation
    indices depending on ``kind``; ``name`` is a field (``remove``) or a New Orders card (``card``)."""

    kind: str
    army: str = ""
    name: str = ""
    nums: tuple[int, ...] = ()

    def __str__(self) -> str:
        k, n = self.kind, self.nums
        if k == "org":
            return f"org {self.army} {','.join(map(str, n))}"
        if k == "tiles":
            return "tiles " + " ".join(f"{FIELD_LETTERS[f]}{v}" for f, v in zip(FIELDS, n, strict=True))
        if k == "place":
            return f"place {self.army} " + " ".join(f"{FIELD_LETTERS[f]}{v}" for f, v in zip(FIELDS, n, strict=True))
        if k == "remove":
            return f"remove {self.army} {self.name} {n[0]},{n[1]}"
        if k == "draw":
            return f"draw {self.army}"
        if k == "card":
            return f"card {self.name}"
        if k == "redeploy":
            return f"redeploy {FORMATIONS[n[0]]}>{FORMATIONS[n[1]]}"
        if k == "relief":
            return f"relief {FORMATIONS[n[0]]},{FORMATIONS[n[1]]}"
        if k == "deserter":
            return f"deserter {FORMATIONS[n[0]]}"
        return "pass"


PASS: Final = Order("pass")


def org(army: str, counts: tuple[int, ...]) -> Order:
    return Order("org", army, nums=tuple(counts))


def tiles(order: tuple[int, int, int]) -> Order:
    return Order("tiles", nums=order)


def place(army: str, cards: tuple[int, int, int]) -> Order:
    return Order("place", army, nums=cards)


def remove(army: str, field: str, split: tuple[int, int]) -> Order:
    return Order("remove", army, field, split)


def draw(army: str) -> Order:
    return Order("draw", army)


def card(name: str) -> Order:
    return Order("card", name=name)


def redeploy(src: int, dst: int) -> Order:
    return Order("redeploy", nums=(src, dst))


def relief(a: int, b: int) -> Order:
    return Order("relief", nums=(min(a, b), max(a, b)))


def deserter(formation: int) -> Order:
    return Order("deserter", nums=(formation,))


_INT = r"(\d{1,3})"


def parse(text: str) -> Order:
    """Read any decision in the notation above; ``InvalidMoveError`` says what is wrong."""
    words = text.strip().split()
    if not words:
        raise InvalidMoveError("empty move")
    kind, rest = words[0], words[1:]
    try:
        if kind == "pass" and not rest:
            return PASS
        if kind == "org" and len(rest) == 2:
            counts = tuple(int(x) for x in rest[1].split(","))
            if len(counts) != len(FORMATIONS):
                raise InvalidMoveError(f"{text!r}: an organisation gives {len(FORMATIONS)} counts")
            return org(_army(rest[0]), counts)
        if kind == "tiles" and len(rest) == 3:
            return tiles(_per_field(rest))
        if kind == "place" and len(rest) == 4:
            return place(_army(rest[0]), _per_field(rest[1:]))
        if kind == "remove" and len(rest) == 3 and rest[1] in FIELDS:
            m = re.fullmatch(f"{_INT},{_INT}", rest[2])
            if m:
                return remove(_army(rest[0]), rest[1], (int(m[1]), int(m[2])))
        if kind == "draw" and len(rest) == 1:
            return draw(_army(rest[0]))
        if kind == "card" and len(rest) == 1 and rest[0] in NEW_ORDERS:
            return card(rest[0])
        if kind == "redeploy" and len(rest) == 1 and rest[0].count(">") == 1:
            a, b = rest[0].split(">")
            return redeploy(_formation(a), _formation(b))
        if kind == "relief" and len(rest) == 1 and rest[0].count(",") == 1:
            a, b = rest[0].split(",")
            return relief(_formation(a), _formation(b))
        if kind == "deserter" and len(rest) == 1:
            return deserter(_formation(rest[0]))
    except ValueError as e:
        raise InvalidMoveError(f"{text!r}: {e}") from None
    raise InvalidMoveError(f"{text!r} is not a Scipio move (e.g. 'place rome Y7 P2 G4', 'remove carthage "
                           f"yellow 3,1', 'draw rome', 'pass')")


def _army(word: str) -> str:
    if word not in ARMIES:
        raise InvalidMoveError(f"no army {word!r} (rome or carthage)")
    return word


def _formation(word: str) -> int:
    if word not in FORMATIONS:
        raise InvalidMoveError(f"no formation {word!r} ({', '.join(FORMATIONS)})")
    return FORMATIONS.index(word)


def _per_field(words: list[str]) -> tuple[int, int, int]:
    values: dict[str, int] = {}
    for w in words:
        m = re.fullmatch(r"([YPG])(\d)", w)
        if not m or LETTER_FIELDS[m[1]] in values:
            raise InvalidMoveError(f"expected one of each Y<n> P<n> G<n>, got {' '.join(words)!r}")
        values[LETTER_FIELDS[m[1]]] = int(m[2])
    return values["yellow"], values["purple"], values["green"]
