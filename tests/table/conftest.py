"""Fixtures the table's end-to-end tests share."""

from __future__ import annotations

from pathlib import Path

import pytest
from hannibal_harness import Harness


@pytest.fixture
def table(tmp_path: Path) -> Harness:
    """A new Hannibal game on the simulated table (the game most table tests drive); a module about another
    game defines its own ``table``."""
    return Harness(tmp_path / "game.jsonl")
