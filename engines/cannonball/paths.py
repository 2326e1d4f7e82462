"""Walks of the mover's troopers this march, through the pieces actually on the board.

A walk only crosses empty boxes of the mover's side of things: never a section an enemy holds (entering
one is an attack, planned on its own), never the enemy fort, and it never starts in a contested section
(its pieces may not leave). Steps cost 1 and crossings 2, as in the rules.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from functools import cache
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
    far_end,
)
from engines.cannonball.march import contested
from engines.cannonball.moves import CROSSES, step

if TYPE_CHECKING:
    from engines.cannonball.state import State


def _links(s: State, b: int) -> Iterator[tuple[int, int]]:
    for n in NEIGHBOURS[b]:
        yield n, 1
    for g, n in GATE_LINKS[b]:
        if s.gates[g] != CLOSED:
            yield n, 1
    site = SITE_OF_END[b]
    if site >= 0 and s.bridges >> site & 1:
        yield far_end(site, b), 2


def _open_box(s: State, b: int) -> bool:
    """An empty box a walk may cross: not in the enemy fort nor in a section the enemy holds."""
    if s.board[b] or FORT_OF[b] == 1 - s.to_move:
        return False
    sec = SECTION_OF[b]
    theirs = NSEC * (1 - s.to_move) + sec
    return sec < 0 or not (s.troops[theirs] or s.cannons[theirs])


def reachable(s: State, src: int, budget: int) -> dict[int, tuple[int, int]]:
    """Boxes the trooper on ``src`` can walk to within ``budget``: box -> (cost, previous box).

    Why buckets rather than a heap: costs are 1 or 2 and budgets at most 12, and bots ask this for every
    free trooper of every position they plan. Each bucket is taken in box order once no cheaper box can
    reach it, which is the order a heap of (cost, box) pops, so the same previous boxes are kept."""
    board = s.board
    enemy = 1 - s.to_move
    theirs = NSEC * enemy
    troops, cannons = s.troops, s.cannons
    held = [bool(troops[theirs + k] or cannons[theirs + k]) for k in range(NSEC)]
    links = _adjacency(sum(1 << g for g, state in enumerate(s.gates) if state == CLOSED), s.bridges)
    best = {src: (0, -1)}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(src)
    for d, boxes in enumerate(buckets):
        for b in sorted(boxes):
            if d > best[b][0]:
                continue
            for n, c in links[b]:
                e = d + c
                if e > budget or board[n] or FORT_OF[n] == enemy:
                    continue
                sec = SECTION_OF[n]
                if (sec < 0 or not held[sec]) and e < best.get(n, _FAR)[0]:
                    best[n] = (e, b)
                    buckets[e].append(n)
    return best


_FAR: Final = (99, 0)


@cache
def _adjacency(closed: int, bridges: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per box, ``_links`` with the gates whose bit is set in ``closed`` shut and the bridges of ``bridges``
    standing: a board has a few such states a game, and walks read them thousands of times."""
    out = []
    for b in range(BOXES):
        links = [(n, 1) for n in NEIGHBOURS[b]]
        links += [(n, 1) for g, n in GATE_LINKS[b] if not closed >> g & 1]
        site = SITE_OF_END[b]
        if site >= 0 and bridges >> site & 1:
            links.append((far_end(site, b), 2))
        out.append(tuple(links))
    return tuple(out)


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
    return [b for b, c in enumerate(s.board) if c == code and (SECTION_OF[b] < 0 or not busy[SECTION_OF[b]])]


def nearest_walk(s: State, targets: set[int], budget: int) -> list[Move] | None:
    """The cheapest walk of a free trooper from outside onto an empty box of ``targets`` (one section,
    where an attack is under way), or ``None`` if none fits in ``budget``. Searched backwards from the
    targets, since links are symmetric."""
    sec = SECTION_OF[next(iter(targets))]
    free = {b for b in free_troopers(s) if SECTION_OF[b] != sec}
    towards: dict[int, int] = {}  # box -> the next box of the walk
    cost = {b: 0 for b in targets if not s.board[b]}
    heap = [(0, b) for b in cost]
    while heap:
        d, b = heapq.heappop(heap)
        if d > cost[b]:
            continue
        for n, c in _links(s, b):
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
            if _open_box(s, n) and d + c < cost.get(n, 99):
                cost[n] = d + c
                towards[n] = b
                heapq.heappush(heap, (d + c, n))
    return None
