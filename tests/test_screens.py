"""Screens: golden PNGs of three screens as the simulated OLED showed them, and the renderer's rules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from table_harness import Harness

from controller.screen import Screen, render

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def _frame(t: Harness) -> Image.Image:
    image: Image.Image = t.hw.display_device.image.copy()
    return image


def _check(name: str, image: Image.Image) -> None:
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        image.save(path)
    assert path.exists(), f"missing golden {path}: run with UPDATE_GOLDEN=1 once and look at it"
    expected = Image.open(path).convert("1")
    diff = ImageChops.difference(expected.convert("L"), image.convert("L"))
    assert diff.getbbox() is None, f"{name} differs from its golden PNG in {diff.getbbox()}"


@pytest.fixture
def table(tmp_path: Path) -> Harness:
    return Harness(tmp_path / "game.jsonl")


def test_golden_roll_screen(table: Harness) -> None:
    _check("roll", _frame(table))


def test_golden_step_screen_with_dice(table: Harness) -> None:
    table.roll(3, 5)
    _check("step-3-5", _frame(table))


def test_golden_fixup_screen(table: Harness) -> None:
    table.roll(1, 2)
    table.move(12, 20)
    table.run(3.5)
    assert "lift 20" in table.text
    _check("fixup", _frame(table))


def test_renderer_is_deterministic_and_sized_by_device() -> None:
    screen = Screen("Title", ("one", "two"), dice=(6, 1), selected=1, footer="foot")
    a, b = render(screen), render(screen)
    assert a.tobytes() == b.tobytes() and a.size == (128, 64) and a.mode == "1"
    assert render(screen, 128, 32).size == (128, 32)


def test_a_message_stays_up_for_its_minimum_time(table: Harness) -> None:
    table.roll(1, 5)
    table.move(12, 17)  # commits, the next screen replaces the old at once (no hold)
    before = table.table.display.frames
    table.table.display.show(Screen("Message"), hold=True)
    table.table.display.show(Screen("Next"))
    assert table.text.startswith("Message")
    table.run(table.profile.timing.message_min_s + 0.1)
    assert table.text.startswith("Next") and table.table.display.frames == before + 2
