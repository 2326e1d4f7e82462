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
    # a game may have seatless table decisions and rank its players instead of naming one winner
    table = getattr(module, "TABLE_DECISIONS", False)
    state: GameState = info.new_game()
    assert isinstance(state, GameState)
    # pieces may belong to a side holding a province jointly (Factional) or to horses (Hannipe's pawns)
    owners = set(info.players) | set(getattr(module, "OWNERS", ()))
    rng = random.Random(11)
    for _ in range(300):
        if state.is_over():
            assert state.current_player is None
            if table:
                assert sorted(state.ranking()) == sorted(info.players) and state.winner is not None
            else:
                shared = sum(r > 0 for r in state.returns().values()) > 1  # Hannipe: a tie for most coins
                assert state.winner in info.players or shared
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
            legal = state.legal_moves()
            assert state.current_player in info.players or (table and state.current_player is None and legal)
            assert all(state.parse_move(str(m)) == m for m in legal)
            move = rng.choice(legal)
        copy = state.clone()
        state.apply(move)
        assert copy != state or copy.to_json() == state.to_json()
        for loc, (owner, count) in state.occupancy().items():
            assert isinstance(loc, str) and owner in owners and count > 0
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


def test_what_generic_code_asks_of_an_engine_beyond_the_state_api_is_declared() -> None:
    """The journal and the table state read these through ``engines.base``'s protocols, never by probing."""
    from engines.base import Hidden, Kinds, Rolled, Scored, Simultaneous, TableDecisions
    from engines.registry import get_game

    states = {name: get_game(name).new_game(**get_game(name).options(sim=True))
              for name in ("hannibal", "factional", "hannipe", "cannonball", "scipio")}
    assert [n for n, s in states.items() if isinstance(s, Rolled)] == ["hannibal", "hannipe", "cannonball", "scipio"]
    assert [n for n, s in states.items() if isinstance(s, Simultaneous)] == ["scipio"]
    assert [n for n, s in states.items() if isinstance(s, Hidden)] == ["hannipe"]
    assert [n for n, s in states.items() if isinstance(s, Kinds)] == ["cannonball"]
    assert [n for n, s in states.items() if isinstance(s, TableDecisions)] == ["factional"]
    assert sorted(n for n, s in states.items() if isinstance(s, Scored)) == ["factional", "hannipe"]
    hannibal = states["hannibal"]
    assert isinstance(hannibal, Rolled) and hannibal.is_chance() and hannibal.roller() == hannibal.to_move
