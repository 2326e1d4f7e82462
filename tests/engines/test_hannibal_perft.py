"""Perft-style counts: legal single steps and distinct whole-turn outcomes for fixed positions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import DATA_DIR

from engines.bots.plans import turn_plans
from engines.hannibal import State

CASES: list[dict[str, Any]] = json.loads(
    (DATA_DIR / "hannibal_perft.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft(case: dict[str, Any]) -> None:
    s = State.from_json(case["state"])
    assert len(s.legal_moves()) == case["steps"]
    assert len(turn_plans(s)) == case["turn_positions"]


def test_perft_file_covers_the_interesting_kinds() -> None:
    kinds = {c["name"].split()[0] for c in CASES}
    assert {"start", "waiting", "doubles", "midgame", "endgame"} <= kinds
