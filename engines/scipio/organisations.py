"""Every legal organisation of an army, as a sequence that is never built in full.

34 tokens in six formations of at least one each can be split C(33, 5) = 237,336 ways: listing them
as objects would cost a quarter of a second and tens of megabytes each time a menu or a bot asks for
the legal moves. The sequence unranks an index into a split instead, so ``len``, indexing, random
choice and membership are all cheap, and iteration yields them in a fixed order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise
from math import comb
from typing import overload

from engines.scipio.moves import Order, org
from engines.scipio.rules import FORMATIONS, TOKENS

_PARTS = len(FORMATIONS)


def _split(cuts: tuple[int, ...]) -> tuple[int, ...]:
    """Cut points 1..TOKENS-1 (ascending) -> counts per formation."""
    edges = (0, *cuts, TOKENS)
    return tuple(b - a for a, b in pairwise(edges))


class Organisations(Sequence[Order]):
    """All ``org <army> ...`` moves, in lexicographic order of their cut points."""

    def __init__(self, army: str) -> None:
        self.army = army

    def __len__(self) -> int:
        return comb(TOKENS - 1, _PARTS - 1)

    @overload
    def __getitem__(self, index: int) -> Order: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Order]: ...

    def __getitem__(self, index: int | slice) -> Order | Sequence[Order]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        return org(self.army, _split(_unrank(index, TOKENS - 1, _PARTS - 1)))

    def __iter__(self) -> Iterator[Order]:
        for cuts in combinations(range(1, TOKENS), _PARTS - 1):
            yield org(self.army, _split(cuts))

    def __contains__(self, move: object) -> bool:
        return (isinstance(move, Order) and move.kind == "org" and move.army == self.army
                and len(move.nums) == _PARTS and all(n >= 1 for n in move.nums) and sum(move.nums) == TOKENS)


def _unrank(index: int, n: int, k: int) -> tuple[int, ...]:
    """The ``index``-th k-subset of 1..n in lexicographic order."""
    out: list[int] = []
    x = 1
    for slot in range(k, 0, -1):
        while True:
            with_x = comb(n - x, slot - 1)  # subsets whose next element is x
            if index < with_x:
                out.append(x)
                x += 1
                break
            index -= with_x
            x += 1
    return tuple(out)
