"""The legal steps of a Hannibal turn as one integer: a bit per possible piece move.

Why an integer rather than a list of moves: most decisions only need to know how many steps there are,
whether a given one is among them, or one step picked by index (a random playout, a menu). The whole set
is computed -- every landing square of every distance at once, by two multiplications -- but a move
object is looked up only for the steps someone reads. This is python-chess's lazy legal-move generator
applied to a dice race.

Layout of the bits, for a player and the unused dice: one region of ``_REGION`` bits per *bucket*, the
buckets being each step distance (I-1) forward and then backward, smaller distance first. In region ``k``
bit ``_PAD + dst`` means "a piece can land on ``dst`` by bucket ``k``'s move". Each region is a copy of the
player's occupancy shifted by ``_PAD`` plus the signed distance: as the shifts stay within ``0.._SPAN``
and a copy is 49 bits wide, copies never overlap, so one multiplication by a constant with one bit per
region makes them all, without carries. Ascending bits are then the engine's move order: distance by
distance, forward before backward, by ascending landing square. Stack moves and entries, a few at most,
are kept apart as a tuple after the piece moves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, overload

from engines.base import Move
from engines.hannibal.moves import ENTRIES, LAST, PIECE_MOVES, POSITIONS, Step

CAMPS: Final = tuple(range(0, POSITIONS, 6))
CAMP_MASK: Final = sum(1 << c for c in CAMPS)
SIGN: Final = (1, -1)  # a player's direction up the track: + yellow, - blue
_PAD: Final = 12  # the largest distance: every copy's shift is _PAD +- distance, never negative
_SPAN: Final = 2 * _PAD
_REGION: Final = 80  # > _SPAN + POSITIONS: a copy shifted by up to _SPAN ends inside its own region


DICE: Final = ((), *((a,) for a in range(1, 7)), *((a, b) for a in range(1, 7) for b in range(a, 7)))
"""Every tuple of unused dice, smaller first."""


class Layout:
    """Everything that depends only on the player and the unused dice, built once at import, so that a
    step looks nothing up by the dice again.

    ``spread`` times the occupancy gives every bucket's landing squares; ``window`` times the free
    squares keeps those on the board and not blocked, and ``allowed`` then keeps backward buckets on camps.
    ``moves`` turns a bit back into its step and ``bit_of`` a step into its bit. ``dists`` are the step
    distances (I-1), ``stack_sizes`` the same as a bit mask, ``entries`` the entry squares of the dice (one
    die each, never the total: I-4) with their bits, and ``after`` the layout of the dice left once a
    step of each distance is made.
    """

    __slots__ = ("after", "allowed", "bit_of", "dice", "dists", "entries", "moves", "player", "spread",
                 "stack_sizes", "window")

    def __init__(self, player: int, dice: tuple[int, ...]) -> None:
        self.player = player
        self.dice = dice
        self.dists = tuple(sorted({*dice, sum(dice)})) if dice else ()
        self.stack_sizes = sum(1 << n for n in self.dists)
        self.after: dict[int, Layout] = {}
        sign = SIGN[player]
        squares = (d if sign > 0 else LAST - d for d in sorted(set(dice)))
        self.entries = tuple((1 << dst, ENTRIES[dst]) for dst in squares)
        self.spread = self.window = self.allowed = 0
        self.moves: list[Step | None] = [None] * (_REGION * 2 * len(self.dists))
        self.bit_of: dict[Move, int] = {}
        for k, shift in enumerate(s for n in self.dists for s in (sign * n, -sign * n)):
            base = _REGION * k
            self.spread |= 1 << (base + _PAD + shift)
            self.window |= 1 << (base + _PAD)
            self.allowed |= (((1 << POSITIONS) - 1) if k % 2 == 0 else CAMP_MASK) << (base + _PAD)
            for dst in range(POSITIONS):
                src = dst - shift
                if 0 <= src <= LAST:
                    bit = base + _PAD + dst
                    self.moves[bit] = step = PIECE_MOVES[src][dst]
                    self.bit_of[step] = bit

    def __reduce__(self) -> tuple[object, tuple[int, tuple[int, ...]]]:
        """Pickled and deep-copied as its name: a state carries the shared tables, not a copy of them."""
        return (layout, (self.player, self.dice))


def layout(player: int, dice: tuple[int, ...]) -> Layout:
    """The shared layout of a player (0 or 1) and unused dice."""
    return LAYOUTS[player][dice]


def _layouts() -> list[dict[tuple[int, ...], Layout]]:
    layouts = [{dice: Layout(p, dice) for dice in DICE} for p in range(2)]
    for by_dice in layouts:
        for dice, one in by_dice.items():
            if len(dice) == 2:
                a, b = dice
                one.after.update({a: by_dice[(b,)], b: by_dice[(a,)], a + b: by_dice[()]})
            elif dice:
                one.after[dice[0]] = by_dice[()]
    return layouts


LAYOUTS: Final = _layouts()


class LegalSteps(Sequence[Move]):
    """The legal steps of one position, in the engine's order; immutable, cheap to count and to test.

    Indexing finds the i-th set bit; iterating or slicing builds the moves one by one.
    """

    __slots__ = ("_bits", "_layout", "_tail")

    def __init__(self, bits: int, tail: tuple[Step, ...], layout: Layout) -> None:
        self._bits = bits
        self._tail = tail
        self._layout = layout

    def __len__(self) -> int:
        return self._bits.bit_count() + len(self._tail)

    def __bool__(self) -> bool:
        return bool(self._bits or self._tail)

    def __contains__(self, move: object) -> bool:
        try:
            bit = self._layout.bit_of.get(move)  # type: ignore[call-overload]  # any object may be asked
        except TypeError:  # unhashable: no move
            return False
        if bit is not None:
            return bool(self._bits >> bit & 1)
        return move in self._tail

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | Sequence[Move]:
        if index.__class__ is not int:  # a slice (or an int subclass): rare, so built in full
            return list(self)[index]
        bits = self._bits
        count = bits.bit_count()
        if not 0 <= index < count:
            return self._tail_item(index, count)
        # Why from the nearer end: each set bit passed costs two or four operations on a long integer.
        if index > count >> 1:
            for _ in range(count - 1 - index):
                bits ^= 1 << (bits.bit_length() - 1)
            step = self._layout.moves[bits.bit_length() - 1]
        else:
            for _ in range(index):
                bits &= bits - 1
            step = self._layout.moves[(bits & -bits).bit_length() - 1]
        assert step is not None  # a set bit always names a move: the window keeps squares on the board
        return step

    def _tail_item(self, index: int, count: int) -> Move:
        """A stack move or entry, or a negative index counted from the end."""
        total = count + len(self._tail)
        if index < 0:
            index += total
            if 0 <= index < count:
                return self[index]
        if not count <= index < total:
            raise IndexError(f"step {index} of {total} legal steps")
        return self._tail[index - count]

    def __iter__(self) -> Iterator[Move]:
        return iter(self.steps())

    def steps(self) -> list[Move]:
        """Every legal step as a new list (what iterating builds)."""
        out: list[Move] = []
        add = out.append
        bits = self._bits
        moves = self._layout.moves
        while bits:
            low = bits & -bits
            add(moves[low.bit_length() - 1])  # type: ignore[arg-type]  # a set bit always names a move
            bits ^= low
        out += self._tail
        return out

    def __eq__(self, other: object) -> bool:
        """Equal to a list or tuple of the same steps in the same order: ``legal_moves()`` was a list, and
        callers compare it with one."""
        if isinstance(other, LegalSteps | list | tuple):
            return self.steps() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which are unhashable

    def __repr__(self) -> str:
        return f"LegalSteps([{', '.join(map(str, self))}])"
