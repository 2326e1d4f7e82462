"""The engine contract of DESIGN.md, checked generically over every registered game."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import GameState, IllegalMoveError, InvalidMoveError, sample_chance
from engines.registry import games, get_game

GAMES = [g.name for g in games()]


@pytest.mark.parametrize("name", GAMES)
def test_contract_over_random_play(name: str) -> None:
    info = get_game(name)
    module = info.load()
    state: GameState = info.new_game()
    assert isinstance(state, GameState)
    rng = random.Random(11)
    for _ in range(300):
        if state.is_over():
            assert state.current_player is None and state.winner in info.players
            break
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data  # JSON-serialisable as it is
        assert type(state).from_json(data) == state
        if state.is_chance():
            assert state.current_player is None
            outcomes = state.chance_outcomes()
            assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1.0)
            move = sample_chance(state, rng)
        else:
            assert state.current_player in info.players
            legal = state.legal_moves()
            assert all(state.parse_move(str(m)) == m for m in legal)
            move = rng.choice(legal)
        copy = state.clone()
        state.apply(move)
        assert copy != state or copy.to_json() == state.to_json()
        for loc, (owner, count) in state.occupancy().items():
            assert isinstance(loc, str) and owner in info.players and count > 0
    assert callable(module.new_game)


@pytest.mark.parametrize("name", GAMES)
def test_bad_text_and_stale_moves_raise_value_errors(name: str) -> None:
    state = get_game(name).new_game()
    with pytest.raises(InvalidMoveError):
        state.parse_move("@@ not a move @@")
    rng = random.Random(3)
    checked = 0
    while not state.is_over() and checked < 20:
        move = sample_chance(state, rng) if state.is_chance() else rng.choice(state.legal_moves())
        state.apply(move)
        if move not in state.legal_moves():
            with pytest.raises(IllegalMoveError):
                state.apply(move)
            with pytest.raises(IllegalMoveError):
                state.parse_move(str(move))
            checked += 1
    assert checked


def test_unknown_game_is_named() -> None:
    with pytest.raises(KeyError, match=r"known: .*hannibal"):
        get_game("chess")
