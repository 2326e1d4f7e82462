"""The designed battlefield of ``docs/rules/cannonball.md`` as precomputed tables.

Boxes are numbered 0..215 row by row from a1 (index ``yi * 12 + x``, ``yi`` skipping the river row 10),
so that move generation reads tuples instead of recomputing geometry. Every table is built once, at
import, from the digest's few facts (blocks, forts, gates, bridges), and the tests check its point
symmetry rather than trusting the typing of 216 names.
"""

from __future__ import annotations

from typing import Final

SIDES: Final = ("blue", "gray")
BLUE: Final = 0
GRAY: Final = 1
TROOPERS: Final = 32
TNT_CASES: Final = 5
PHASES: Final = ("spin-off", "turn", "spin", "march", "over")

COLUMNS: Final = "abcdefghijkl"
ROWS: Final = tuple(r for r in range(1, 20) if r != 10)
WIDTH: Final = len(COLUMNS)
BOXES: Final = WIDTH * len(ROWS)
RIVER_SOUTH: Final = 9
RIVER_NORTH: Final = 11

BOX_NAMES: Final = tuple(f"{COLUMNS[i % WIDTH]}{ROWS[i // WIDTH]}" for i in range(BOXES))
BOX_INDEX: Final = {name: i for i, name in enumerate(BOX_NAMES)}


def box(name: str) -> int:
    """The index of a box named like ``c4`` (``KeyError`` for a name off the board)."""
    return BOX_INDEX[name]


def _xy(i: int) -> tuple[int, int]:
    """Column index and real row number (the river row 10 exists only as a gap)."""
    return i % WIDTH, ROWS[i // WIDTH]


def mirror(i: int) -> int:
    """The box that matches ``i`` under the board's point symmetry (the other side's view)."""
    return BOXES - 1 - i


def _block(i: int) -> str:
    return "ABCD"[i % WIDTH // 3] + str(i // WIDTH // 3 + 1)


BLOCK_OF: Final = tuple(_block(i) for i in range(BOXES))
FORT_BLOCKS: Final = (("A1", "B1", "C1", "A2"), ("D6", "C6", "B6", "D5"))
FORT_OF: Final = tuple(next((s for s in (BLUE, GRAY) if BLOCK_OF[i] in FORT_BLOCKS[s]), -1) for i in range(BOXES))
FORT_BOXES: Final = tuple(tuple(i for i in range(BOXES) if FORT_OF[i] == s) for s in (BLUE, GRAY))

SECTIONS: Final = tuple(b for b in sorted(set(BLOCK_OF), key=lambda n: (n[1], n[0]))
                        if b not in FORT_BLOCKS[BLUE] + FORT_BLOCKS[GRAY])
SECTION_INDEX: Final = {name: s for s, name in enumerate(SECTIONS)}
SECTION_OF: Final = tuple(SECTION_INDEX.get(BLOCK_OF[i], -1) for i in range(BOXES))
NSEC: Final = len(SECTIONS)
SECTION_BOXES: Final = tuple(tuple(i for i in range(BOXES) if SECTION_OF[i] == s) for s in range(len(SECTIONS)))

# -- gates ------------------------------------------------------------------------------------------------

GATES: Final = ("east", "north", "west", "south")
GATE_INDEX: Final = {name: g for g, name in enumerate(GATES)}
GATE_OWNER: Final = (BLUE, BLUE, GRAY, GRAY)
OPEN: Final = 0
CLOSED: Final = 1
DESTROYED: Final = 2
GATE_STATES: Final = ("open", "closed", "destroyed")
# (inside box, outside box) per gate: I-1, a gate is crossed only orthogonally between these pairs
GATE_PAIRS: Final = tuple(tuple((box(a), box(b)) for a, b in pairs) for pairs in (
    (("i1", "j1"), ("i2", "j2"), ("i3", "j3")),
    (("a6", "a7"), ("b6", "b7"), ("c6", "c7")),
    (("d19", "c19"), ("d18", "c18"), ("d17", "c17")),
    (("j14", "j13"), ("k14", "k13"), ("l14", "l13")),
))
GATE_SECTION: Final = tuple(SECTION_OF[pairs[0][1]] for pairs in GATE_PAIRS)
GATE_SECTION_OWNER: Final = {GATE_SECTION[g]: GATE_OWNER[g] for g in range(len(GATES))}
OWN_GATES: Final = tuple(tuple(g for g in range(len(GATES)) if GATE_OWNER[g] == s) for s in (BLUE, GRAY))
ENEMY_GATES: Final = (OWN_GATES[GRAY], OWN_GATES[BLUE])
GATE_OUTSIDE: Final = tuple(frozenset(out for _, out in pairs) for pairs in GATE_PAIRS)
# box -> ((gate, box on the other side), ...): the links that exist while that gate is not closed
GATE_LINKS: Final = tuple(tuple((g, b if i == a else a) for g, pairs in enumerate(GATE_PAIRS) for a, b in pairs
                                if i in (a, b)) for i in range(BOXES))

# -- bridges ----------------------------------------------------------------------------------------------

SITES: Final = ("b", "d", "f", "g", "i", "k")
SITE_INDEX: Final = {name: b for b, name in enumerate(SITES)}
SITE_ENDS: Final = tuple((box(f"{c}{RIVER_SOUTH}"), box(f"{c}{RIVER_NORTH}")) for c in SITES)
SITE_OWNER: Final = tuple(BLUE if c in "gik" else GRAY for c in SITES)  # I-2: the sites on the enemy fort's side
SITE_OF_END: Final = tuple(next((b for b, ends in enumerate(SITE_ENDS) if i in ends), -1) for i in range(BOXES))


def far_end(site: int, end: int) -> int:
    a, b = SITE_ENDS[site]
    return b if end == a else a


# -- special boxes ----------------------------------------------------------------------------------------

STARS: Final = (tuple(box(n) for n in ("d2", "g2", "b5")), tuple(box(n) for n in ("i18", "f18", "k15")))
FLAGS: Final = (box("c4"), box("j16"))

# -- adjacency --------------------------------------------------------------------------------------------


def _touch(i: int, j: int) -> bool:
    """Boxes touch without a gate: 8-neighbours on the same side of every fort wall (the river row
    has no boxes, so rows 9 and 11 are two apart and never neighbours)."""
    (x1, r1), (x2, r2) = _xy(i), _xy(j)
    return i != j and abs(x1 - x2) <= 1 and abs(r1 - r2) <= 1 and FORT_OF[i] == FORT_OF[j]


NEIGHBOURS: Final = tuple(tuple(j for j in range(BOXES) if _touch(i, j)) for i in range(BOXES))
# neighbours in the same section: the only boxes a piece of a contested section may step to
SECTION_NEIGHBOURS: Final = tuple(tuple(j for j in NEIGHBOURS[i] if SECTION_OF[j] == SECTION_OF[i] >= 0)
                                  for i in range(BOXES))


def _sections_touch(a: int, b: int) -> bool:
    """Blocks sharing a side; blocks across the river share none."""
    (x1, r1), (x2, r2) = _xy(SECTION_BOXES[a][0]), _xy(SECTION_BOXES[b][0])
    dx, dy = abs(x1 - x2) // 3, abs(r1 - r2)
    return (dx == 1 and dy == 0) or (dx == 0 and dy == 3)


SECTION_SIDES: Final = tuple(tuple(b for b in range(len(SECTIONS)) if _sections_touch(a, b))
                             for a in range(len(SECTIONS)))
# section -> ((site, other section), ...) for the bridges that would join it to the far bank
SECTION_BRIDGES: Final = tuple(tuple((b, SECTION_OF[far_end(b, e)]) for b, ends in enumerate(SITE_ENDS)
                                     for e in ends if SECTION_OF[e] == s) for s in range(len(SECTIONS)))


def section_neighbours(s: int, bridges_up: int) -> tuple[int, ...]:
    """Sections adjacent to ``s`` with the bridges whose bits are set in ``bridges_up`` standing."""
    extra = tuple(t for b, t in SECTION_BRIDGES[s] if bridges_up >> b & 1)
    return SECTION_SIDES[s] + tuple(dict.fromkeys(extra))


def trooper_limit(section: int) -> int:
    """I-8: five in any gate section (the gate attacks need five), three elsewhere."""
    return 5 if section in GATE_SECTION_OWNER else 3


HOME: Final = tuple(frozenset(FORT_BOXES[s]) | frozenset(i for g in OWN_GATES[s]
                                                          for i in SECTION_BOXES[GATE_SECTION[g]])
                    for s in (BLUE, GRAY))
"""The boxes whose troopers keep a fort from being deserted: the fort and its two gate sections."""


def boxes_holding(board: bytes, code: int) -> list[int]:
    """The boxes of ``board`` (as bytes) holding ``code``, in box order: a board is mostly empty, and a
    search for each piece runs in C where a scan of every box would run in Python."""
    out = []
    i = board.find(code)
    while i >= 0:
        out.append(i)
        i = board.find(code, i + 1)
    return out
