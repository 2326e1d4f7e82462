"""The legal moves of a position as a lazy sequence.

Escorted cannon moves multiply: a cannon, two of three troopers in either order and three distinct boxes
of a nine-box section give thousands of moves per target section. Building them all on every call would
make random playouts and menus crawl, so each family is kept as an ``EscortBlock`` (a product of
choices) that is indexed arithmetically and tested for membership by its rule, and only materialised by
whoever iterates.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import overload

from engines.base import Move
from engines.cannonball.moves import CannonMove


@dataclass(frozen=True)
class EscortBlock:
    """Every escorted move of the cannon on ``src`` into one section: the cannon to any of ``empties``,
    an ordered pair of ``sources`` after it, each to another of ``empties``."""

    src: int
    sources: tuple[int, ...]
    empties: tuple[int, ...]

    def __len__(self) -> int:
        n, m = len(self.empties), len(self.sources)
        return n * (n - 1) * (n - 2) * m * (m - 1)

    def at(self, i: int) -> CannonMove:
        n, m = len(self.empties), len(self.sources)
        per_dst = m * (m - 1) * (n - 1) * (n - 2)
        d, rest = divmod(i, per_dst)
        pair, rest = divmod(rest, (n - 1) * (n - 2))
        e1, e2 = divmod(rest, n - 2)
        a, b = divmod(pair, m - 1)
        b += b >= a  # the second source skips the first
        dst = self.empties[d]
        left = [x for x in self.empties if x != dst]
        first = left.pop(e1)
        return CannonMove(self.src, dst, ((self.sources[a], first), (self.sources[b], left[e2])))

    def __iter__(self) -> Iterator[CannonMove]:
        for dst in self.empties:
            left = [x for x in self.empties if x != dst]
            for s1, s2 in permutations(self.sources, 2):
                for d1, d2 in permutations(left, 2):
                    yield CannonMove(self.src, dst, ((s1, d1), (s2, d2)))

    def holds(self, move: CannonMove) -> bool:
        if move.src != self.src or len(move.escorts) != 2:
            return False
        (s1, d1), (s2, d2) = move.escorts
        return (s1 != s2 and s1 in self.sources and s2 in self.sources
                and len({move.dst, d1, d2}) == 3 and {move.dst, d1, d2} <= set(self.empties))


class MoveList(Sequence[Move]):
    """The simple moves (listed) followed by the escort blocks (indexed on demand)."""

    __slots__ = ("_blocks", "_len", "_set", "_simple")

    def __init__(self, simple: list[Move], blocks: list[EscortBlock] | None = None) -> None:
        self._simple = simple
        self._blocks = [b for b in blocks or () if len(b)]
        self._len = len(simple) + sum(len(b) for b in self._blocks)
        self._set: frozenset[Move] | None = None

    @property
    def simple(self) -> list[Move]:
        """Every move but the escorted cannon moves (what bots search before the escorts)."""
        return self._simple

    @property
    def blocks(self) -> list[EscortBlock]:
        return self._blocks

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> list[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | list[Move]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        if i < len(self._simple):
            return self._simple[i]
        i -= len(self._simple)
        for block in self._blocks:
            if i < len(block):
                return block.at(i)
            i -= len(block)
        raise AssertionError("unreachable: the index was checked against the length")

    def __iter__(self) -> Iterator[Move]:
        yield from self._simple
        for block in self._blocks:
            yield from block

    def __contains__(self, move: object) -> bool:
        if isinstance(move, CannonMove) and move.escorts:
            return any(b.holds(move) for b in self._blocks)
        if self._set is None:
            self._set = frozenset(self._simple)
        return move in self._set

    def __repr__(self) -> str:
        return f"MoveList({len(self._simple)} simple, {self._len - len(self._simple)} escorted)"
