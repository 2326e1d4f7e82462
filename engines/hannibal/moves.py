"""Hannibal moves and their notation.

Notation (positions absolute, 0..48): ``12-17`` piece move, ``S12-24`` stack move, ``E3`` / ``E45``
entry of a waiting piece onto that position, ``R3,5`` a roll (smaller die first). The die used is
implied: by the distance for a piece move or entry, by the stack size for a stack move.

Every possible move object is built once and shared, so generating legal moves allocates nothing and
membership tests hit the identity fast path.
"""

from __future__ import annotations

import re
from typing import Final

from engines.base import InvalidMoveError, Move, move_dataclass

POSITIONS: Final = 49
LAST: Final = POSITIONS - 1

PIECE: Final = "piece"
STACK: Final = "stack"
ENTRY: Final = "entry"


class Step(Move):
    """One step of a turn: a piece move, a stack move, or an entry (``src`` is -1 for entries).

    Steps are interned: ``Step(kind, src, dst)`` always returns the one shared object, so equality and
    hashing by identity are equality by value, at C speed.
    """

    __slots__ = ("dist", "dst", "kind", "src")

    kind: str
    src: int
    dst: int
    dist: int  # the die a piece move or entry uses (0 for a stack move: its size decides)

    _interned: dict[tuple[str, int, int], Step] = {}  # noqa: RUF012  # one table for the class

    def __new__(cls, kind: str, src: int, dst: int) -> Step:
        key = (kind, src, dst)
        step = cls._interned.get(key)
        if step is None:
            if kind not in (PIECE, STACK, ENTRY) or not (-1 <= src <= LAST and 0 <= dst <= LAST):
                raise ValueError(f"no such step: {key}")
            step = object.__new__(cls)
            object.__setattr__(step, "kind", kind)
            object.__setattr__(step, "src", src)
            object.__setattr__(step, "dst", dst)
            dist = 0 if kind == STACK else abs(dst - src) if kind == PIECE else min(dst, LAST - dst)
            object.__setattr__(step, "dist", dist)
            cls._interned[key] = step
        return step

    def __reduce__(self) -> tuple[type[Step], tuple[str, int, int]]:
        return (Step, (self.kind, self.src, self.dst))

    def __str__(self) -> str:
        if self.kind == ENTRY:
            return f"E{self.dst}"
        if self.kind == STACK:
            return f"S{self.src}-{self.dst}"
        return f"{self.src}-{self.dst}"


@move_dataclass
class Roll(Move):
    """A chance move: the two dice, given in either order and kept smaller first (``Roll(5, 3)`` is ``R3,5``)."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if self.low > self.high:
            low, high = self.high, self.low
            object.__setattr__(self, "low", low)
            object.__setattr__(self, "high", high)

    def __str__(self) -> str:
        return f"R{self.low},{self.high}"

    @property
    def is_double(self) -> bool:
        return self.low == self.high


PIECE_MOVES: Final = [[Step(PIECE, s, d) for d in range(POSITIONS)] for s in range(POSITIONS)]
STACK_MOVES: Final = [[Step(STACK, s, d) for d in range(POSITIONS)] for s in range(POSITIONS)]
ENTRIES: Final = [Step(ENTRY, -1, d) for d in range(POSITIONS)]
ROLLS: Final = {(a, b): Roll(a, b) for a in range(1, 7) for b in range(a, 7)}
ROLL_OUTCOMES: Final = [(r, (1 if r.is_double else 2) / 36) for r in ROLLS.values()]

_PATTERN = re.compile(
    r"""\s*(?:
        (?P<stack>[sS])?(?P<src>\d{1,2})\s*-\s*(?P<dst>\d{1,2})
      | [eE](?P<entry>\d{1,2})
      | [rR](?P<d1>\d)\s*,\s*(?P<d2>\d)
    )\s*""",
    re.VERBOSE,
)


def parse(text: str) -> Move:
    """Turn notation into the shared move object; ``InvalidMoveError`` names what is wrong."""
    m = _PATTERN.fullmatch(text)
    if m is None:
        raise InvalidMoveError(f"not Hannibal notation: {text!r} (expected 12-17, S12-24, E3 or R3,5)")
    if m["d1"] is not None:
        a, b = int(m["d1"]), int(m["d2"])
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise InvalidMoveError(f"dice run from 1 to 6: {text!r}")
        return ROLLS[(min(a, b), max(a, b))]
    if m["entry"] is not None:
        dst = int(m["entry"])
        _check_position(dst, text)
        return ENTRIES[dst]
    src, dst = int(m["src"]), int(m["dst"])
    _check_position(src, text)
    _check_position(dst, text)
    if src == dst:
        raise InvalidMoveError(f"a move must change position: {text!r}")
    return (STACK_MOVES if m["stack"] else PIECE_MOVES)[src][dst]


def _check_position(pos: int, text: str) -> None:
    if not 0 <= pos <= LAST:
        raise InvalidMoveError(f"positions run from 0 to {LAST}: {text!r}")
