"""What the evaluation measures in a position, per side: how close each side's best winning formation
is to an enemy gate, how likely it wins on its next march, and which of its pieces an enemy could wipe
out on the next turn.

A *formation* is what the rules let win at an enemy gate section: five troopers, or a cannon and three
troopers (an open gate falls at the end of the march; a closed one to TNT with five, or to a storm).
Its *need* is the moves still to spend, with the distances of ``distances.py`` (pieces in the way
ignored). A cannon cannot move alone outside a fort, but its two escorts ride with it for free: so a
cannon formation costs the cannon's section moves, the walks of the two troopers nearest to where it
picks them up, and the walk of one more trooper to the target. Needs are what both sides race on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from engines.cannonball.board import (
    CLOSED,
    DESTROYED,
    ENEMY_GATES,
    GATE_SECTION,
    HOME,
    NEIGHBOURS,
    NSEC,
    OPEN,
    OWN_GATES,
    SECTION_BOXES,
    SECTION_OF,
    SITE_ENDS,
    SITE_OF_END,
    boxes_holding,
    far_end,
    section_neighbours,
)
from engines.cannonball.distances import FAR, REOPEN, cannon_map, section_map, trooper_map

if TYPE_CHECKING:
    from engines.cannonball.state import State


def _ring(sec: int) -> tuple[int, ...]:
    """Boxes outside ``sec`` from which one trooper move (a step or a crossing) enters it."""
    inside = set(SECTION_BOXES[sec])
    out = {n for b in inside for n in NEIGHBOURS[b] if n not in inside}
    out |= {far_end(SITE_OF_END[b], b) for b in inside if SITE_OF_END[b] >= 0}
    return tuple(sorted(out))


RING: Final = tuple(_ring(s) for s in range(NSEC))


def reach(n: int) -> float:
    """The chance that one spin gives at least ``n`` moves."""
    return 1.0 if n <= 1 else max(0.0, (13 - n) / 12)


@dataclass(frozen=True)
class Side:
    """One side's pieces and the measures the evaluation combines (shared between positions that measure
    alike, so never changed)."""

    troopers: tuple[int, ...]
    cannons: tuple[int, ...]
    need: tuple[int, ...]  # per enemy gate (in ENEMY_GATES order): moves to a winning formation there
    tnt_need: tuple[int, ...]  # per enemy gate: moves to five troopers there and TNT under the closed gate
    storm_ready: bool  # a cannon and three troopers stand in a closed enemy gate section
    progress: int  # summed distances of every trooper to its nearer enemy gate section
    home: int  # troopers in the fort and its gate sections


def _meeting(side: int, cannon: int, target: int, bridges: int, gates_ok: int) -> int:
    """The section where a cannon picks up its escorts: its own, or for a cannon in its fort the gate
    section it leaves by (the one nearer the target)."""
    sec = SECTION_OF[cannon]
    if sec >= 0:
        return sec
    secs = section_map(target, bridges)
    gate = min(OWN_GATES[side], key=lambda g: (secs[GATE_SECTION[g]] + (0 if gates_ok >> g & 1 else REOPEN), g))
    return GATE_SECTION[gate]


def passable(s: State, side: int) -> int:
    """Bit mask of ``side``'s gates a piece may pass now (open or destroyed)."""
    return sum(1 << g for g in OWN_GATES[side] if s.gates[g] != CLOSED)


def measure(s: State, side: int) -> Side:
    """``side``'s measures in ``s``, worked out from what they depend on alone: its own pieces, the gates,
    bridges and its TNT, and the defence of the enemy gate sections. Why: the evaluation measures both
    sides of every position a bot judges, and the side not moving is the same in most of them (a march
    planner judges dozens of marches of the other side a plan)."""
    other = NSEC * (1 - side)
    defence = tuple((s.troops[other + t], s.cannons[other + t] > 0) for t in _TARGETS[side])
    return _measure(side, bytes(s.board).translate(_OWN[side]), s.bridges, bytes(s.gates), passable(s, side),
                    s.tnt[side], defence)


_TARGETS: Final = tuple(tuple(GATE_SECTION[g] for g in ENEMY_GATES[side]) for side in (0, 1))
_OWN: Final = tuple(bytes(c if (c - 1) >> 1 == side else 0 for c in range(256)) for side in (0, 1))
"""Per side, a ``bytes.translate`` table keeping that side's piece codes on a board and blanking the rest."""


@lru_cache(maxsize=4096)
def _measure(side: int, board: bytes, bridges: int, gates: bytes, gates_ok: int, tnt: int,
             defence: tuple[tuple[int, bool], ...]) -> Side:
    """``measure`` from its arguments alone (``board`` holds ``side``'s pieces only; ``gates_ok`` is
    ``passable`` of ``gates``)."""
    t_code, c_code = 1 + 2 * side, 2 + 2 * side
    troopers = boxes_holding(board, t_code)
    cannons = boxes_holding(board, c_code)
    need, tnt_need, storm_ready = [], [], False
    nearest: list[int] | None = None
    pairs: dict[int, tuple[int, int]] = {}  # meeting section -> the two troopers nearest it
    for g, (defenders, guarded) in zip(ENEMY_GATES[side], defence, strict=True):
        target = GATE_SECTION[g]
        tmap = trooper_map(side, target, bridges, gates_ok)
        dists = [tmap[b] for b in troopers]
        nearest = dists if nearest is None else list(map(min, nearest, dists))
        ordered = sorted(dists)
        five = FAR * 3 if len(ordered) < 5 or guarded else sum(ordered[:5]) + defenders
        best = five
        cmap = cannon_map(side, target, bridges, gates_ok)
        extra = max(0, defenders + 1 - 3) if guarded else 0
        for c in cannons:
            if len(troopers) < 3 + extra:
                continue
            if cmap[c] == 0:
                walk = sum(ordered[:3 + extra])
                best = min(best, walk)
                storm_ready = storm_ready or (walk == 0 and gates[g] == CLOSED)
                continue
            sec = _meeting(side, c, target, bridges, gates_ok)
            meet = trooper_map(side, sec, bridges, gates_ok)
            if sec not in pairs:
                near = sorted(range(len(troopers)), key=lambda i: meet[troopers[i]])[:2]  # stable: as nsmallest
                pairs[sec] = (near[0], near[1])
            rest = ordered[:3 + extra]
            for i in pairs[sec]:
                if dists[i] in rest:
                    rest.remove(dists[i])
            escorts = sum(meet[troopers[i]] for i in pairs[sec])
            best = min(best, cmap[c] + escorts + sum(rest[:1 + extra]))
        need.append(best)
        tnt_need.append(five + 3 if tnt and gates[g] == CLOSED else FAR * 3)
    home_boxes = HOME[side]
    return Side(tuple(troopers), tuple(cannons), tuple(need), tuple(tnt_need), storm_ready, sum(nearest or ()),
                sum(1 for b in troopers if b in home_boxes))


def win_chance(s: State, side: int, m: Side) -> float:
    """Chance that ``side`` wins with its next turn (a march reaching a formation, or a storm)."""
    best = 0.5 if m.storm_ready else 0.0
    for i, g in enumerate(ENEMY_GATES[side]):
        if s.gates[g] == OPEN:
            best = max(best, reach(m.need[i]))
        elif s.gates[g] != DESTROYED:
            best = max(best, reach(m.tnt_need[i]))
    return best


def exposure(s: State, side: int) -> float:
    """Pieces (in trooper units, a cannon 4) of ``side`` that the enemy can wipe out with one attack:
    sections within reach of an escorted enemy cannon, or of more enemy troopers than defend them, and
    lone cannons next to any enemy trooper."""
    board = s.board
    other = 1 - side
    mine, theirs = NSEC * side, NSEC * other
    enemy_t = 1 + 2 * other
    escort_reach = [False] * NSEC
    for sec in range(NSEC):
        if s.cannons[theirs + sec] and s.troops[theirs + sec] >= 2 and not (s.troops[mine + sec] or
                                                                            s.cannons[mine + sec]):
            for t in section_neighbours(sec, s.bridges):
                escort_reach[t] = True
    total = 0.0
    for sec in range(NSEC):
        t, c = s.troops[mine + sec], s.cannons[mine + sec]
        if not (t or c) or s.troops[theirs + sec] or s.cannons[theirs + sec]:
            continue
        attackers = sum(1 for b in RING[sec] if board[b] == enemy_t)
        if c and t == 0:
            lost = attackers >= 1 or escort_reach[sec]
        elif c:
            lost = escort_reach[sec] and t <= 1
        else:
            lost = escort_reach[sec] or attackers >= t + 1
        if lost:
            total += t + 4 * c
    return total


COLUMN: Final = 2
"""Enemy troopers that make a column worth a TNT case: one alone is no threat to a gate."""
APPROACH: Final = 3
"""Moves from the far bank's section within which an enemy trooper counts as coming over the bridge:
about half a spin, so it could cross on its next march."""


def crossing_column(s: State, side: int, site: int, end: int) -> int:
    """The enemy troopers a TNT of ``side`` on the ``end`` of bridge ``site`` would stop: those within
    ``APPROACH`` moves of the far end's section that lose ground towards ``side``'s gate sections without
    that bridge (the bridge is on their way to ``side``'s fort)."""
    return _crossings_in(s, side)[_END[site, end]]


def _crossings_in(s: State, side: int) -> tuple[int, ...]:
    """``_crossings`` of ``s``: the enemy's pieces, the bridges and the enemy's gates taken from it."""
    other = 1 - side
    return _crossings(side, bytes(s.board).translate(_OWN[other]), s.bridges, passable(s, other))


_END: Final = {(site, end): i for i, (site, end) in enumerate((site, end) for site, ends in enumerate(SITE_ENDS)
                                                               for end in ends)}
"""Each bridge end's place in ``_crossings``."""


@lru_cache(maxsize=2048)
def _crossings(side: int, board: bytes, bridges: int, enemy_ok: int) -> tuple[int, ...]:
    """``crossing_column`` of every bridge end (``_END`` order) from what it depends on alone: the enemy's
    pieces (``board`` holds only those), the bridges and the enemy's gates. Why all ends at once, and kept:
    a march planner asks it of every bridge end in every position it plans, and the mover's walks leave the
    enemy's pieces where they stand."""
    other = 1 - side
    troopers = boxes_holding(board, 1 + 2 * other)
    targets = [GATE_SECTION[g] for g in OWN_GATES[side]]
    maps = [trooper_map(other, t, bridges, enemy_ok) for t in targets]
    now = [min(m[b] for m in maps) for b in troopers]
    out = []
    for site, ends in enumerate(SITE_ENDS):
        down = bridges & ~(1 << site)
        without = [trooper_map(other, t, down, enemy_ok) for t in targets]
        later = [min(m[b] for m in without) for b in troopers]
        for end in ends:
            close = trooper_map(other, SECTION_OF[far_end(site, end)], bridges, enemy_ok)
            out.append(sum(1 for b, a, w in zip(troopers, now, later, strict=True) if close[b] <= APPROACH and w > a))
    return tuple(out)


def bridge_defences(s: State, side: int) -> list[int]:
    """Bridge ends where a TNT of ``side`` would defend its fort: the end's section holds no enemy piece,
    a ``crossing_column`` of at least ``COLUMN`` troopers comes over from the far side, and the bridge is
    not ``side``'s own attack route: blowing it sets the enemy's best formation back by more moves than
    ``side``'s, and sets ``side``'s back at all only while the enemy's is the nearer to its goal.

    Why a detector rather than the evaluation alone: a TNT pays off only if the layers stood at the
    bridge *before* the enemy arrived, which a march towards the enemy gates never leaves them doing, so
    the planner must be told where walking troopers in to lay one is worth judging at all."""
    other = 1 - side
    if not s.tnt[side] or s.laid:
        return []
    best: tuple[int, int] | None = None  # the best formations' needs, ``side``'s and the enemy's
    out = []
    crossing = _crossings_in(s, side)
    for site, ends in enumerate(SITE_ENDS):
        if not s.bridges >> site & 1 or site in s.mines:
            continue
        for end in ends:
            near = SECTION_OF[end]
            if s.troops[NSEC * other + near] or s.cannons[NSEC * other + near] or s.board[end] not in (0, 1 + 2 * side):
                continue
            if crossing[_END[site, end]] < COLUMN:  # crossing_column(s, side, site, end)
                continue
            if best is None:
                best = min(measure(s, side).need), min(measure(s, other).need)
            blown = s.clone()
            blown.blow(site)
            own_loss = min(measure(blown, side).need) - best[0]
            enemy_loss = min(measure(blown, other).need) - best[1]
            if enemy_loss > own_loss and (own_loss <= 0 or best[0] > best[1]):
                out.append(end)
    return out
