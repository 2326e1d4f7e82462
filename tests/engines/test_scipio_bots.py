"""Scipio's bot hooks made fast (issue 16) must judge exactly as before: the placement evaluation against the
straightforward one it replaced, and the removals the bots weigh against every legal split."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import permutations

import pytest

from engines.base import sample_chance
from engines.bots.plans import turn_plans
from engines.scipio import State, new_game
from engines.scipio.heuristic import SAMPLES, _after, _value, candidates, evaluate
from engines.scipio.rules import ARMIES, FIELDS, damage_plan, field_formations, other


def _expected_reference(state: State, army: str) -> float:
    """The placement evaluation as first written: every sampled reply through ``damage_plan``."""
    troops = {a: list(state.troops[a] or ()) for a in ARMIES}
    enemy, mine = other(army), state.placed[army]
    assert mine is not None
    options = list(permutations(sorted(state.hands[enemy]), 3))
    picked = options[::max(1, len(options) // SAMPLES)]
    field_troops = {f: {a: sum(troops[a][k] for k in field_formations(f)) for a in ARMIES} for f in FIELDS}
    total = 0.0
    for cards in picked:
        per_field = {f: {army: mine[f], enemy: c} for f, c in zip(FIELDS, cards, strict=True)}
        total += _value(_after(troops, damage_plan(per_field, field_troops, state.tiles)), army)
    return total / len(picked)


def _positions(games: int) -> Iterator[State]:
    """Every decision of random games."""
    for seed in range(games):
        rng = random.Random(seed)
        s = new_game()
        while not s.is_over():
            if s.current_player is None:
                s.apply(sample_chance(s, rng))
                continue
            yield s
            moves = s.legal_moves()
            s.apply(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("seed", range(3))
def test_placement_evaluation_is_exactly_the_reference(seed: int) -> None:
    checked = 0
    for s in _positions(8):
        if s.step != "place" or s.current_player != "rome":
            continue
        moves = list(s.legal_moves())
        for move in random.Random(seed).sample(moves, min(12, len(moves))):
            after = s.clone()
            after.apply(move)
            assert evaluate(after, "rome") == _expected_reference(after, "rome"), str(move)
            checked += 1
    assert checked > 100


def test_bots_weigh_every_removal_the_evaluation_ranks_top() -> None:
    """Dropped splits are strictly worse for the remover; ties (a decided game included) all stay."""
    dropped = 0
    for s in _positions(40):
        if s.step != "remove":
            continue
        army = s.current_player
        assert army is not None
        values = {}
        for move in s.legal_moves():
            after = s.clone()
            after.apply(move)
            values[move] = evaluate(after, army)
        top = max(values.values())
        kept = set(candidates(s))
        assert {m for m, v in values.items() if v == top} <= kept
        dropped += len(values) - len(kept)
    assert dropped > 0


def _reference_plans(state: State) -> list[tuple[list[str], dict[str, object], tuple[object, ...]]]:
    """``turn_plans`` as first written, every step a clone with the move applied: (moves, position, key)."""
    player = state.current_player
    ends: dict[object, tuple[list[str], State]] = {}
    seen: set[object] = set()
    frontier: list[tuple[list[str], State]] = [([], state)]
    while frontier:
        seq, s = frontier.pop()
        for move in candidates(s):
            t = s.clone()
            t.apply(move)
            key = t.key()
            if t.current_player != player:
                ends.setdefault(key, ([*seq, str(move)], t))
            elif key not in seen:
                seen.add(key)
                frontier.append(([*seq, str(move)], t))
    return [(seq, end.to_json(), end.key()) for seq, end in ends.values()]


def test_successors_are_the_positions_apply_leaves() -> None:
    """The fast successors (derived keys included) against clone and apply, at every decision of random games."""
    checked = 0
    for s in _positions(30):
        moves = candidates(s)
        fast = s.successors(moves)
        assert [m for m, _ in fast] == list(moves)
        for move, t in fast:
            ref = s.clone()
            ref.apply(move)
            assert (t.key(), t.to_json(), t.current_player) == (ref.key(), ref.to_json(), ref.current_player), str(move)
            checked += 1
    assert checked > 5000


def test_turn_plans_are_those_of_clone_and_apply() -> None:
    """Whole turns through the ``successors`` hook: the same plans, in the same order, as step by step."""
    checked = 0
    for i, s in enumerate(_positions(12)):
        if i % 3:
            continue
        plans = [([str(m) for m in seq], end.to_json(), end.key()) for seq, end in turn_plans(s)]
        assert plans == _reference_plans(s)
        checked += len(plans)
    assert checked > 2000
