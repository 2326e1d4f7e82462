"""From sensed occupancy to a move: the pure core of every flow (DESIGN.md, "From sensors to moves").

Reed switches sense only "something is here". So the engine projects, for the position before the move
and after each legal move, which locations should read occupied, and the sensed board is compared with
those projections. What the sensors cannot tell apart (a piece taken off a stack onto another stack, a
piece sent back from under the mover) is narrowed by which locations were touched during the move, and
what remains is offered as a choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from engines.base import GameState, Kinds, Move

Occupancy = Mapping[str, tuple[str, int]]


class Kind(Enum):
    IDLE = "idle"  # the board shows the position before the move
    MOVE = "move"  # exactly one legal move fits
    CHOOSE = "choose"  # several legal moves fit: the players pick one
    PENDING = "pending"  # nothing fits yet, but the players may be mid-move
    FIXUP = "fixup"  # nothing fits: put the board back as listed


@dataclass(frozen=True)
class Match:
    kind: Kind
    move: Move | None = None
    candidates: tuple[Move, ...] = ()
    fixups: tuple[str, ...] = ()


def occupied(occupancy: Occupancy) -> frozenset[str]:
    return frozenset(loc for loc, (_, n) in occupancy.items() if n > 0)


def label(location: str) -> str:
    """How a location is named to players: its kind left off (``pos:17`` -> ``17``, ``lane:noiro:3`` ->
    ``noiro:3``), so a name stays unique where one kind of place has rows in several lanes."""
    return location.partition(":")[2]


@dataclass(frozen=True)
class Projection:
    """What each legal move would leave on the board, computed once per position."""

    before: Occupancy
    before_set: frozenset[str]
    kinds: Mapping[str, str]  # the piece of a kind of its own at a location (``engines.base.Kinds``)
    after: tuple[tuple[Move, frozenset[str], frozenset[str]], ...]  # move, occupied after, locations changed
    claims: dict[Move, frozenset[str]]  # per move: locations it leaves occupied by a different owner than before

    def placing_proves(self, move: Move, location: str) -> bool:
        """Whether a piece put down on ``location`` is evidence of ``move``: only where the move brings a
        new owner. Putting a piece back on a square of one's own (a bumped piece, a stray lift) says nothing,
        because a real move onto one's own stack never changes that square's sensor."""
        return location in self.claims.get(move, frozenset())

    @classmethod
    def of(cls, state: GameState, moves: Sequence[Move]) -> Projection:
        before = state.occupancy()
        rows = []
        claims = {}
        for move in moves:
            after_state = state.clone()
            after_state.apply(move)
            after = after_state.occupancy()
            changed = frozenset(loc for loc in set(before) | set(after) if before.get(loc) != after.get(loc))
            rows.append((move, occupied(after), changed))
            claims[move] = frozenset(loc for loc, (owner, _) in after.items()
                                     if loc not in before or before[loc][0] != owner)
        return cls(before, occupied(before), kinds_of(state), tuple(rows), claims)


def move_match(projection: Projection, sensed: frozenset[str], touched: Iterable[str] = (), *,
               settled: bool = False, ok: bool = False, ignored: frozenset[str] = frozenset()) -> Match:
    """Judge the sensed board against the projection.

    ``touched`` are the locations whose sensors changed during this move. ``settled`` says the board has
    been quiet for the settle time, ``ok`` that the players pressed OK: only then is an ambiguity offered
    or a fix-up listed (a board mid-move is not a mistake yet). A board that looks unchanged yields a
    move only on OK: a piece moved from a stack onto a stack changes no sensor, and silence must never
    become a move by itself. ``ignored`` sensors (declared broken by the players) take no part.
    """
    touched_set = frozenset(touched) - ignored
    sensed = sensed - ignored
    before_set = projection.before_set - ignored
    fits = [(m, changed) for m, after, changed in projection.after if after - ignored == sensed]
    # touches order the candidates (the likeliest first) but never decide alone: a straightened neighbour
    # must not turn one move into another
    candidates = tuple([m for m, changed in fits if touched_set <= changed] +
                       [m for m, changed in fits if not touched_set <= changed])
    if sensed == before_set:
        if not ok or not candidates:
            return Match(Kind.IDLE)
        return Match(Kind.CHOOSE, candidates=candidates)  # nothing changed: always ask, BACK = no move
    if len(candidates) == 1:
        return Match(Kind.MOVE, candidates[0], candidates)
    if not (settled or ok):
        return Match(Kind.PENDING, candidates=candidates)
    if candidates:
        return Match(Kind.CHOOSE, candidates=candidates)
    return Match(Kind.FIXUP, fixups=fixup_list(projection.before, sensed, ignored, projection.kinds))


def kinds_of(state: GameState) -> Mapping[str, str]:
    """The pieces of a kind of their own in ``state`` (none, for a game whose pieces are all alike)."""
    return state.kinds() if isinstance(state, Kinds) else {}


def fixup_list(expected: Occupancy, sensed: frozenset[str], ignored: frozenset[str] = frozenset(),
               kinds: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Exact instructions to get from the sensed board back to ``expected``, a lift and a put paired
    together where a piece was simply put in the wrong place. Pieces to put are grouped by owner (a side's
    pieces together, as its player holds them), each group in reading order; a piece of a kind of its own
    (``kinds``: a cannon) is named so."""
    kinds = kinds or {}
    extra = sorted(sensed - occupied(expected) - ignored, key=_order)
    missing = sorted(occupied(expected) - sensed - ignored, key=_order)
    first: dict[str, int] = {}  # each owner's first place: its group comes where its pieces start
    for loc in missing:
        first.setdefault(expected[loc][0], len(first))
    missing.sort(key=lambda loc: first[expected[loc][0]])  # stable: reading order within a group
    out: list[str] = []
    for i in range(max(len(extra), len(missing))):
        if i < len(extra):
            out.append(f"lift {label(extra[i])}")
        if i < len(missing):
            owner, n = expected[missing[i]]
            piece = f"{owner} {kinds[missing[i]]}" if missing[i] in kinds else owner
            out.append(f"put {n} {piece} on {label(missing[i])}")
    return tuple(out)


def _order(location: str) -> tuple[str, int, str]:
    """Places of one kind in reading order, a grid's by row, then column: ``12`` before ``20``, ``d2``
    before ``d17``, ``a2`` before ``d2`` (never as text, which puts ``d17`` before ``d2``)."""
    head, _, tail = location.rpartition(":")
    column = tail.rstrip("0123456789")
    row = tail[len(column):]
    return (head, int(row), column) if row else (location, -1, "")
