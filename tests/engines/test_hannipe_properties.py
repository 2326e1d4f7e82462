"""Hannipe! properties over random whole games in both card modes and every table size, checked move by
move against what the rules page says each move may change."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalMoveError, sample_chance
from engines.hannipe import PROGRAMMES, State, new_game

MAX_MOVES = 5_000


def check_game(seed: int, players: int, cards: str, *, json_every: int = 1) -> State:
    rng = random.Random(seed)
    s = new_game(players=players, cards=cards)
    turns = tips = 0
    for count in range(MAX_MOVES):
        if s.is_over():
            break
        if count % json_every == 0:
            data = json.loads(json.dumps(s.to_json()))
            assert State.from_json(data) == s
        before = s.clone()
        if s.is_chance():
            outcomes = s.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0) and all(p > 0 for _, p in outcomes)
            move = sample_chance(s, rng)
        else:
            legal = s.legal_moves()
            assert legal and all(s.parse_move(str(m)) == m for m in legal)
            move = rng.choice(legal)
        s.apply(move)
        kind = str(move).split()[0]
        turns += kind == "turn"
        tips += kind == "tip"
        if s.race != before.race or s.is_over():  # the race just paid out
            n = len(before.values)
            assert turns == n and tips == n * players  # as many rounds as starters, one tip each per round
            assert s.last_race is not None and s.last_race.race == before.race
            assert {p: s.coins[p] - before.coins[p] for p in s.players} == dict(s.last_race.paid)
            assert s.last_race.winners and set(s.last_race.winners) <= set(before.values)
            turns = tips = 0
        else:
            assert s.coins == before.coins  # coins only grow by payouts
        assert s.occupancy() == {f"lane:{h}:{row}": (h, 1) for row, line in enumerate(s.order, 1) for h in line}
        if s.hands is not None and s.step in ("turn", "tip"):
            n = len(s.values)
            for seat in s.players:
                assert len(s.hand(seat)) == n - sum(1 for p, _, _ in s.played if p == seat)
    assert s.is_over(), f"no winner after {MAX_MOVES} moves"
    top = max(s.coins.values())
    assert top >= 6 and s.winners == tuple(p for p in s.players if s.coins[p] == top)
    assert sum(s.returns().values()) == pytest.approx(1.0)
    assert s.last_race is not None and s.last_race.winners == s.order[0]  # the finished race stays on show
    assert State.from_json(s.to_json()) == s
    return s


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.sampled_from(["table", "deal"]))
def test_random_games_keep_the_rules(seed: int, players: int, cards: str) -> None:
    check_game(seed, players, cards, json_every=7)


@pytest.mark.parametrize("cards", ["table", "deal"])
def test_seeded_games_end_and_shared_wins_happen(cards: str) -> None:
    shared = 0
    for seed in range(40):
        s = check_game(seed, 2 + seed % 6, cards, json_every=50)
        shared += len(s.winners) > 1
    assert shared  # ties for the most coins do occur in play


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 7))
def test_determinized_copies_offer_the_same_decisions(seed: int, players: int) -> None:
    rng = random.Random(seed)
    s = new_game(players=players, cards="deal")
    for _ in range(rng.randrange(30, 200)):
        if s.is_over():
            break
        if not s.is_chance():
            seat = s.current_player
            assert seat is not None
            d = s.determinize(seat, rng)
            assert d.legal_moves() == s.legal_moves() and d.hand(seat) == s.hand(seat)
            assert State.from_json(d.to_json()) == d  # a consistent position, not just a copy
        s.apply(sample_chance(s, rng) if s.is_chance() else rng.choice(s.legal_moves()))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.data())
def test_stale_moves_are_illegal(programme: int, data: st.DataObject) -> None:
    s = new_game(players=3)
    s.apply(s.parse_move(f"programme {programme}"))
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(3 + len(PROGRAMMES[programme]) * 4):
        move = sample_chance(s, rng) if s.is_chance() else rng.choice(s.legal_moves())
        s.apply(move)
        if move not in s.legal_moves():
            with pytest.raises(IllegalMoveError):
                s.apply(move)
