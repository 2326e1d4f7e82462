"""The board's reed matrix as the self-test view draws it (``/api/matrix``): which location each cell is, and
which cells are buttons. It is the profile's wiring, not the game's, so it is the same all through a game and
is sent once, not with every state."""

from __future__ import annotations

from typing import Any

from controller.move_match import label
from hw_config import Profile


def matrix_json(profile: Profile) -> dict[str, Any]:
    """``rows`` x ``cols`` cells; ``cells``: each location's ``[row, col, label]`` (the label as the screens
    name it); ``buttons``: each button in the matrix at ``[row, col]``, and ``pins`` the buttons wired to GPIO
    pins of their own."""
    return {
        "board": profile.name,
        "rows": len(profile.rows), "cols": len(profile.cols),
        "cells": {loc: [r, c, label(loc)] for (r, c), loc in sorted(profile.cells.items())},
        "buttons": {name: list(b.cell) for name, b in profile.buttons.items() if b.cell is not None},
        "pins": sorted(name for name, b in profile.buttons.items() if b.cell is None),
    }
