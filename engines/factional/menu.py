"""The legal events as a sequence over shared tuples, and the field-by-field view a button menu needs.

A battle's PCs are any whole number, so the legal events are infinite: the sequence lists battles with
0 to ``LISTED_PCS`` PCs only (enough for bots, random play and a flat menu), while ``parse_move`` and
``apply`` accept any count. A table builds a battle word by word instead: ``next_field`` says which
words may follow what was entered, whether a number may, and whether the event is already complete.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from typing import Final, overload

from engines.base import Move
from engines.factional.moves import BORROWED, NONE, SHARED, Battle, battle_problem, parse
from engines.factional.table import FACTIONS

LISTED_PCS: Final = 12
NUMBER: Final = "#"
"""In a word template: a whole number >= 0 goes here."""


def _shapes() -> tuple[Battle, ...]:
    """Every battle that can ever be entered, with 0 PCs."""
    winners = [NONE, *FACTIONS, *(f + SHARED for f in FACTIONS)]
    losers = [NONE, *FACTIONS, *(f + BORROWED for f in FACTIONS)]
    out: list[Battle] = []
    for w in winners:
        for loser in losers:
            battle = parse(f"battle {w} {loser} 0")
            if isinstance(battle, Battle) and battle_problem(battle) is None:
                out.append(battle)
    return tuple(out)


BATTLE_SHAPES: Final = _shapes()
LISTED_BATTLES: Final = tuple(replace(shape, pcs=n) for shape in BATTLE_SHAPES for n in range(LISTED_PCS + 1))
"""Built once: menus and bots walk the listing often, and a battle is a dataclass to build."""
_LISTED_SET: Final = frozenset(LISTED_BATTLES)


@dataclass(frozen=True)
class Field:
    """What may follow the words entered so far."""

    words: tuple[str, ...]
    """the words that may come next, in menu order"""
    number: bool
    """a whole number >= 0 may come next (a battle's PCs): NEXT/PREV count it up and down"""
    complete: bool
    """the words entered already make a legal event: OK applies it"""


class Events(Sequence[Move]):
    """The legal events now: the ones the position allows, then (if any battle is) every battle shape
    with 0..``LISTED_PCS`` PCs. Membership agrees with iteration."""

    def __init__(self, fixed: Sequence[Move], battles: bool) -> None:
        self._fixed = tuple(fixed)
        self._battles = LISTED_BATTLES if battles else ()

    def __len__(self) -> int:
        return len(self._fixed) + len(self._battles)

    def __iter__(self) -> Iterator[Move]:
        return chain(self._fixed, self._battles)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        fixed = len(self._fixed)
        return self._fixed[index] if index < fixed else self._battles[index - fixed]

    def __contains__(self, move: object) -> bool:
        if isinstance(move, Battle):
            return bool(self._battles) and move in _LISTED_SET
        return move in self._fixed

    def next_field(self, prefix: Sequence[str]) -> Field:
        """The menu's next field after ``prefix`` (words of the notation; numbers as digits). A prefix no
        legal event starts with gets no words, no number and is not complete."""
        entered = [w.lower() for w in prefix]
        templates = [str(m).split() for m in self._fixed]
        templates += [[*str(s).split()[:-1], NUMBER] for s in (BATTLE_SHAPES if self._battles else ())]
        words: list[str] = []
        number = complete = False
        for t in templates:
            if len(t) < len(entered) or not all(_fits(e, w) for e, w in zip(entered, t, strict=False)):
                continue
            if len(t) == len(entered):
                complete = True
            elif t[len(entered)] == NUMBER:
                number = True
            elif t[len(entered)] not in words:
                words.append(t[len(entered)])
        return Field(tuple(words), number, complete)


def _fits(entered: str, template: str) -> bool:
    return entered.isascii() and entered.isdigit() if template == NUMBER else entered == template
