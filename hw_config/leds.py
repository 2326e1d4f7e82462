"""The ``[leds]`` section of a profile: the LED strip under the board, and which location each LED lies under.

The board's microcontroller drives a WS2812 strip (firmware_bridge/README.md); a builder lays it where it
fits, along a track or snaking across a grid, so the strip's order is rarely the matrix's. ``order`` names
the location above each LED in the strip's order from its data input (``""`` for an LED under none), or is
``"matrix"`` for a strip laid in the matrix's own order (LED ``i`` under row ``i // cols``, column
``i % cols``). A profile without the section has no LEDs. Checked here, apart from the rest of the profile,
so the loader hands the section over and gets each problem back by key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

KEYS = {"order"}
MATRIX = "matrix"


@dataclass(frozen=True)
class Leds:
    """Each location's LED, by its place on the strip."""

    at: Mapping[str, int]


def read_leds(table: Mapping[str, Any], bad: Callable[[str, str], None], quote: Callable[[object], str], *,
              mcu: bool, cells: Mapping[tuple[int, int], str], size: tuple[int, int] | None) -> Leds | None:
    """The section's LEDs, or None (no section, or a problem: each goes to ``bad(key, message)``). ``mcu``:
    the matrix is read by the board's microcontroller, which alone drives a strip; ``cells`` the layout's
    cells -> locations; ``size`` the matrix's (the firmware's strip has one LED per cell at most)."""
    if not table:
        return None
    if not mcu:
        bad("leds", "the LED strip is driven by the board's microcontroller: use backend \"bridge\" (a Pi's own "
                    "pins drive no LEDs)")
        return None
    order = table.get("order")
    if size is None:
        return None  # the matrix itself is wrong, and said so
    rows, cols = size
    if order == MATRIX:
        return Leds({loc: r * cols + c for (r, c), loc in cells.items()})
    if not isinstance(order, list) or not order:
        bad("leds.order", f"must be \"matrix\" or a list naming the location above each LED in the strip's order "
                          f"(\"\" for none), got {quote(order)}")
        return None
    if len(order) > rows * cols:
        bad("leds.order", f"{len(order)} LEDs: the firmware drives one per matrix cell, {rows * cols} at most")
        return None
    known = set(cells.values())
    at: dict[str, int] = {}
    for i, loc in enumerate(order):
        if loc == "":
            continue
        if not isinstance(loc, str) or loc not in known:
            bad(f"leds.order[{i}]", f"{quote(loc)} is not a location of the layout")
        elif loc in at:
            bad(f"leds.order[{i}]", f"{loc!r} already has LED {at[loc]}: one LED a location")
        else:
            at[loc] = i
    return Leds(at)
