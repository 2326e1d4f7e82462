"""Properties over random play and random positions, and a differential test against an independent
reference implementation of the rules page (tests/hannibal_reference.py)."""

from __future__ import annotations

import json
import random

import hannibal_reference as ref
from hannibal_helpers import positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import sample_chance
from engines.bots.plans import turn_plans
from engines.hannibal import PLAYERS, State, new_game, parse

MAX_MOVES = 50_000


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_legal_steps_and_their_results_agree_with_the_reference(data: dict[str, object]) -> None:
    s = State.from_json(data)
    assert {str(m) for m in s.legal_moves()} == ref.legal_steps(data)
    for m in s.legal_moves():
        t = s.clone()
        t.apply(m)
        assert t.to_json() == ref.apply_step(data, str(m)), str(m)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_whole_turn_outcomes_agree_with_the_reference(data: dict[str, object]) -> None:
    s = State.from_json(data)
    if not s.legal_moves():
        return
    mine = {json.dumps(end.to_json(), sort_keys=True) for _, end in turn_plans(s)}
    assert mine == ref.turn_outcomes(data)


@settings(max_examples=400, deadline=None)
@given(positions())
def test_json_round_trip_of_any_position(data: dict[str, object]) -> None:
    s = State.from_json(data)
    assert State.from_json(s.to_json()) == s
    assert State.from_json(json.loads(json.dumps(s.to_json()))).to_json() == s.to_json()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(PLAYERS))
def test_random_play_keeps_invariants_and_ends(seed: int, first: str) -> None:
    rng = random.Random(seed)
    s = new_game(first=first)
    for _ in range(MAX_MOVES):
        if s.is_over():
            break
        for p in PLAYERS:
            on_board = sum(n for owner, n in s.occupancy().values() if owner == p)
            assert on_board + s.waiting(p) + s.home(p) == 12
        assert State.from_json(s.to_json()) == s
        if s.is_chance():
            move = sample_chance(s, rng)
        else:
            legal = s.legal_moves()
            assert legal, "a decision node always has a legal step (else the turn would have ended)"
            for m in legal:
                assert parse(str(m)) == m and s.parse_move(str(m)) == m
            move = rng.choice(legal)
        s.apply(move)
    assert s.is_over() and s.winner in PLAYERS and s.home(s.winner) == 12


def test_replaying_the_move_list_reproduces_the_game() -> None:
    rng = random.Random(7)
    s = new_game()
    log = []
    while not s.is_over():
        m = sample_chance(s, rng) if s.is_chance() else rng.choice(s.legal_moves())
        log.append(str(m))
        s.apply(m)
    replay = new_game()
    for text in log:
        replay.apply(replay.parse_move(text))
    assert replay == s and replay.to_json() == s.to_json()
