"""Walks of the mover's troopers this march, through the pieces actually on the board.

A walk only crosses empty boxes of the mover's side of things: never a section an enemy holds (entering
one is an attack, planned on its own), never the enemy fort, and it never starts in a contested section
(its pieces may not leave). Steps cost 1 and crossings 2, as in the rules.
"""

from __future__ import annotations

import heapq
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from engines.base import Move
from engines.cannonball.board import (
    BOXES,
    CLOSED,
    FORT_OF,
    GATE_LINKS,
    NEIGHBOURS,
    NSEC,
    SECTION_OF,
    SITE_OF_END,
    boxes_holding,
    far_end,
)
from engines.cannonball.march import contested
from engines.cannonball.moves import CROSSES, step

if TYPE_CHECKING:
    from engines.cannonball.state import State


def _open_boxes(s: State) -> bytes:
    """Per box, 1 where a walk may cross it: empty, not in the enemy fort nor in a section the enemy holds.
    The empty boxes and the ground open to the mover are two masks of a byte per box, and-ed as integers in
    C: walks ask for it in every position bots plan."""
    enemy = 1 - s.to_move
    theirs = NSEC * enemy
    troops, cannons = s.troops, s.cannons
    held = sum(1 << k for k in range(NSEC) if troops[theirs + k] or cannons[theirs + k])
    empty = int.from_bytes(bytes(s.board).translate(_EMPTY))
    return (empty & _ground(enemy, held)).to_bytes(BOXES)


_EMPTY: Final = bytes([1] + [0] * 255)
"""A ``bytes.translate`` table: 1 for an empty box, 0 for any piece."""


@lru_cache(maxsize=1024)
def _ground(enemy: int, held: int) -> int:
    """The boxes in neither ``enemy``'s fort nor a section whose bit is set in ``held``, as a mask with a
    byte per box (``int.from_bytes`` order). Kept for the last thousand such pairs: a game meets a few
    hundred, and each is 216 bytes."""
    return int.from_bytes(bytes(int(fort != enemy and (sec < 0 or not held >> sec & 1))
                                for fort, sec in zip(FORT_OF, SECTION_OF, strict=True)))


def _links(s: State) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per box, the boxes one move away and the move's cost (a crossing 2), through the gates not closed."""
    return _adjacency(sum(1 << g for g, state in enumerate(s.gates) if state == CLOSED), s.bridges)


@lru_cache(maxsize=64)
def _adjacency(closed: int, bridges: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``_links`` of the gates whose bit is set in ``closed`` shut and the bridges of ``bridges`` standing:
    a board has a few such states a game, and walks read them thousands of times."""
    out = []
    for b in range(BOXES):
        links = [(n, 1) for n in NEIGHBOURS[b]]
        links += [(n, 1) for g, n in GATE_LINKS[b] if not closed >> g & 1]
        site = SITE_OF_END[b]
        if site >= 0 and bridges >> site & 1:
            links.append((far_end(site, b), 2))
        out.append(tuple(links))
    return tuple(out)


def reachable(s: State, src: int, budget: int) -> dict[int, tuple[int, int]]:
    """Boxes the trooper on ``src`` can walk to within ``budget``: box -> (cost, previous box)."""
    return _reach(_open_boxes(s), _links(s), src, budget)


class Walks:
    """``reachable`` of many troopers, position after position of one march plan, each trooper's walks
    taken over from the last position where nothing they depend on changed.

    Why: a planner asks for the walks of every free trooper after each step of its plan, and a step
    changes a few boxes. A trooper's search reads the open boxes next to the boxes it reaches; when
    none of those changed, the links are the same and the budget is no larger, the search would find the
    same boxes at the same costs from the same previous boxes, up to the budget, so they are kept. (Only
    the order of the boxes may differ, which nothing here reads.)"""

    def __init__(self) -> None:
        self._open = b""
        self._links: tuple[tuple[tuple[int, int], ...], ...] | None = None
        self._budget = 0
        self._found: dict[int, dict[int, tuple[int, int]]] = {}

    def reachable_from(self, s: State, sources: list[int], budget: int) -> list[dict[int, tuple[int, int]]]:
        """``reachable(s, src, budget)`` of each trooper of ``sources``."""
        open_boxes, links = _open_boxes(s), _links(s)
        known = self._found if links is self._links and budget <= self._budget else {}
        near: set[int] = set()  # the boxes next to a box that opened or closed since
        if known:
            changed = boxes_holding((int.from_bytes(open_boxes) ^ int.from_bytes(self._open)).to_bytes(BOXES), 1)
            near = {n for c in changed for n, _ in links[c]}
        found = []
        for src in sources:
            kept = {b: v for b, v in known[src].items() if v[0] <= budget} if src in known else None
            found.append(kept if kept is not None and near.isdisjoint(kept) else _reach(open_boxes, links, src, budget))
        self._open, self._links, self._budget = open_boxes, links, budget
        self._found = dict(zip(sources, found, strict=True))
        return found


def _reach(open_boxes: bytes, links: tuple[tuple[tuple[int, int], ...], ...], src: int,
           budget: int) -> dict[int, tuple[int, int]]:
    """Why buckets rather than a heap: costs are 1 or 2 and budgets at most 12, and bots ask this for every
    free trooper of every position they plan. Each bucket is taken in box order once no cheaper box can
    reach it, which is the order a heap of (cost, box) pops, so the same previous boxes are kept."""
    best = {src: (0, -1)}
    dist = [_FAR] * BOXES
    dist[src] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(src)
    for d, boxes in enumerate(buckets):
        if len(boxes) > 1:
            boxes.sort()
        for b in boxes:
            if d > dist[b]:
                continue
            for n, c in links[b]:
                e = d + c
                if e <= budget and e < dist[n] and open_boxes[n]:
                    dist[n] = e
                    best[n] = (e, b)
                    buckets[e].append(n)
    return best


_FAR: Final = 99


def walk(prev: dict[int, tuple[int, int]], dst: int) -> list[Move]:
    """The moves of the walk that ``reachable`` found to ``dst``."""
    boxes = [dst]
    while prev[boxes[-1]][1] >= 0:
        boxes.append(prev[boxes[-1]][1])
    boxes.reverse()
    return [CROSSES.get((a, b)) or step(a, b) for a, b in pairwise(boxes)]


def free_troopers(s: State) -> list[int]:
    """The mover's troopers that may leave where they stand."""
    code = 1 + 2 * s.to_move
    busy = contested(s)
    return [b for b in boxes_holding(bytes(s.board), code) if SECTION_OF[b] < 0 or not busy[SECTION_OF[b]]]


def nearest_walk(s: State, targets: set[int], budget: int) -> list[Move] | None:
    """The cheapest walk of a free trooper from outside onto an empty box of ``targets`` (one section,
    where an attack is under way), or ``None`` if none fits in ``budget``. Searched backwards from the
    targets, since links are symmetric. (A heap, unlike ``_reach``: among walks of equal cost the one
    found first is taken, and the order the targets start in decides it.)"""
    sec = SECTION_OF[next(iter(targets))]
    free = {b for b in free_troopers(s) if SECTION_OF[b] != sec}
    open_boxes, links = _open_boxes(s), _links(s)
    towards: dict[int, int] = {}  # box -> the next box of the walk
    cost = {b: 0 for b in targets if not s.board[b]}
    heap = [(0, b) for b in cost]
    while heap:
        d, b = heapq.heappop(heap)
        if d > cost[b]:
            continue
        for n, c in links[b]:
            if d + c > budget or n in targets:
                continue
            if n in free:
                moves: list[Move] = []
                at, here = n, b
                while True:
                    moves.append(CROSSES.get((at, here)) or step(at, here))
                    if here in targets:
                        return moves
                    at, here = here, towards[here]
            if open_boxes[n] and d + c < cost.get(n, _FAR):
                cost[n] = d + c
                towards[n] = b
                heapq.heappush(heap, (d + c, n))
    return None
