"""How many moves pieces need to reach a gate section, ignoring the pieces in the way.

The evaluation asks these for every piece of every position it judges, so the maps are computed once
per (side, target gate, standing bridges, passable own gates) and cached: 64 bridge states times 4
gate states times 4 targets bounds them at a few thousand small tuples.
"""

from __future__ import annotations

import heapq
from functools import cache
from typing import Final

from engines.cannonball.board import (
    BOXES,
    FORT_BOXES,
    GATE_LINKS,
    GATE_OWNER,
    GATE_PAIRS,
    GATE_SECTION,
    NEIGHBOURS,
    NSEC,
    OWN_GATES,
    SECTION_BOXES,
    SECTION_OF,
    SITE_OF_END,
    far_end,
    section_neighbours,
)

FAR: Final = 60
"""Stands for "cannot get there": large enough to lose every comparison, small enough to add up."""
REOPEN: Final = 6
"""Moves a closed own gate is worth: opening it takes a turn, about one spin."""


@cache
def trooper_map(side: int, target: int, bridges: int, passable: int) -> tuple[int, ...]:
    """Moves a trooper of ``side`` needs from each box into the section ``target``: steps cost 1,
    crossings 2; it never enters the enemy fort, and leaves its own by a gate, which costs ``REOPEN`` more
    unless its bit is set in ``passable`` (open or destroyed)."""
    dist = [FAR] * BOXES
    heap = [(0, b) for b in SECTION_BOXES[target]]
    for b in SECTION_BOXES[target]:
        dist[b] = 0
    while heap:
        d, b = heapq.heappop(heap)
        if d > dist[b]:
            continue
        links = [(n, 1) for n in NEIGHBOURS[b]]
        links += [(n, 1 if passable >> g & 1 else 1 + REOPEN) for g, n in GATE_LINKS[b] if GATE_OWNER[g] == side]
        site = SITE_OF_END[b]
        if site >= 0 and bridges >> site & 1:
            links.append((far_end(site, b), 2))
        for n, cost in links:
            if d + cost < dist[n]:
                dist[n] = d + cost
                heapq.heappush(heap, (d + cost, n))
    return tuple(dist)


@cache
def section_map(target: int, bridges: int) -> tuple[int, ...]:
    """Section moves a cannon needs from each section to ``target``."""
    dist = [FAR] * NSEC
    dist[target] = 0
    frontier = [target]
    while frontier:
        nxt = []
        for s in frontier:
            for t in section_neighbours(s, bridges):
                if dist[t] == FAR:
                    dist[t] = dist[s] + 1
                    nxt.append(t)
        frontier = nxt
    return tuple(dist)


@cache
def cannon_map(side: int, target: int, bridges: int, passable: int) -> tuple[int, ...]:
    """Moves a cannon of ``side`` needs from each box to the section ``target``: one per section outside
    the forts, box steps inside its fort up to a gate, one for the gate step (and ``REOPEN`` if closed)."""
    secs = section_map(target, bridges)
    dist = [FAR if SECTION_OF[b] < 0 else secs[SECTION_OF[b]] for b in range(BOXES)]
    fort = set(FORT_BOXES[side])
    for g in OWN_GATES[side]:
        exit_cost = 1 + secs[GATE_SECTION[g]] + (0 if passable >> g & 1 else REOPEN)
        inner = [a for a, _ in GATE_PAIRS[g]]
        seen = dict.fromkeys(inner, exit_cost)
        frontier = inner
        while frontier:
            nxt = []
            for b in frontier:
                for n in NEIGHBOURS[b]:
                    if n in fort and n not in seen:
                        seen[n] = seen[b] + 1
                        nxt.append(n)
            frontier = nxt
        for b, d in seen.items():
            dist[b] = min(dist[b], d)
    return tuple(dist)
