"""Where the tests find the project and their own files, wherever in ``tests/`` a test module lives (the
folders are by layer: ``engines``, ``controller``, ``table``, ``bridge``, ``web``, ``system``)."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

TESTS_DIR = Path(__file__).resolve().parent
ROOT_DIR = TESTS_DIR.parent  # the checkout: profiles, the unit, the docs
GOLDEN_DIR = TESTS_DIR / "golden"  # reference frames and journals, looked at once and kept
DATA_DIR = TESTS_DIR / "data"


def check_golden(name: str, image: Image.Image) -> None:
    """``image`` is pixel for pixel the golden frame ``NAME.png`` (what a person looked at once and kept).
    ``UPDATE_GOLDEN=1`` writes it anew: look at the new PNG before committing it."""
    path = GOLDEN_DIR / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        image.save(path)
    assert path.exists(), f"missing golden {path}: run with UPDATE_GOLDEN=1 once and look at it"
    diff = ImageChops.difference(Image.open(path).convert("L"), image.convert("L"))
    assert diff.getbbox() is None, f"{name} differs from its golden PNG in {diff.getbbox()}"
