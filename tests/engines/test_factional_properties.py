"""Factional Hannibal over seeded random play: invariants that must hold after every event, whole games
through turn 9 to the ranking, and legality agreeing with the listing and with ``problem``."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import IllegalMoveError, Move, sample_chance
from engines.factional import (
    FACTIONS,
    LOCATIONS,
    PROVINCES,
    SIDES,
    Answer,
    Battle,
    Control,
    Discard,
    End,
    Initiative,
    Play,
    Reinforced,
    State,
    new_game,
    parse,
)
from engines.factional.menu import BATTLE_SHAPES

PROGRESS = (Reinforced, Initiative, Play, Answer)


def expected_honor(state: State) -> dict[str, int]:
    """Honor recomputed here from the rules, independently of the engine's arithmetic."""
    out = {}
    for f in FACTIONS:
        side = f.split("-")[0]
        alone = sum(hp for p, (hp, _) in PROVINCES.items() if state.control[p] == f)
        joint = sum(hp // 2 for p, (hp, _) in PROVINCES.items() if state.control[p] == side)
        out[f] = alone + joint + state.ledger[f]
    return out


def pick(state: State, rng: random.Random, ending: bool) -> Move:
    """Mostly the events that move the game on, sometimes any listed one (never ``end`` before turn 9's
    card play is over unless ``ending``)."""
    if state.is_chance():
        return sample_chance(state, rng)
    events = state.legal_moves()
    progress = [m for m in events if isinstance(m, PROGRESS)]
    if progress and rng.random() < 0.8:
        return rng.choice(progress)
    while True:
        move = events[rng.randrange(len(events))]
        if not isinstance(move, End) or ending:
            return move


def check_invariants(state: State) -> None:
    data = state.to_json()
    assert json.loads(json.dumps(data)) == data and State.from_json(data) == state
    assert state.honor() == expected_honor(state) == data["honor"]
    modes = [state.is_over(), state.is_chance(), state.is_table_decision(), state.current_player is not None]
    assert modes.count(True) == 1
    assert data["to_move"] == state.current_player
    assert bool(state.legal_moves()) != state.is_over()
    assert all(0 <= n <= (4 if state.turn <= 6 else 5) for n in state.cards.values())
    assert state.occupancy() == {f"tray:{p}:{h}": (h, 1) for p, h in state.control.items() if h}
    assert set(state.occupancy()) <= set(LOCATIONS)
    if state.phase == "cards" and state.playing is not None:
        assert state.current_player == state.dominant[state.playing]
        assert sum(state.cards[f] for f in FACTIONS if f.startswith(state.playing))
    if state.phase == "activation":
        assert state.asking is not None and state.current_player not in (None, state.asking)
        assert state.current_player.split("-")[0] == state.asking.split("-")[0]


def run_game(seed: int) -> tuple[State, list[Move]]:
    rng = random.Random(seed)
    state = new_game()
    log: list[Move] = []
    while not state.is_over():
        done = state.turn == 9 and state.phase == "cards" and state.playing is None
        before = state.clone()
        move = pick(state, rng, ending=done and rng.random() < 0.2)
        assert state.parse_move(str(move)) == move
        state.apply(move)
        log.append(move)
        check_invariants(state)
        assert state.turn in (before.turn, before.turn + 1)
        if not isinstance(move, Reinforced):
            assert state.dominant == before.dominant
        if isinstance(move, (Play, Discard)):
            assert sum(before.cards.values()) - sum(state.cards.values()) == 1
        if before.is_chance():
            assert state.key()[:-2] == before.key()[:-2] and not state.is_chance()
        assert len(log) < 5000
    return state, log


@pytest.mark.parametrize("seed", range(6))
def test_random_games_reach_turn_9_and_a_consistent_ranking(seed: int) -> None:
    state, log = run_game(seed)
    assert state.turn == 9 and state.winner in SIDES
    ranking = state.ranking()
    assert sorted(ranking) == sorted(FACTIONS)
    assert {f.split("-")[0] for f in ranking[:2]} == {state.winner}
    totals = state.honor()
    for a, b in (ranking[:2], ranking[2:]):
        assert totals[a] > totals[b] or (totals[a] == totals[b] and state.dominant[a.split("-")[0]] == a)
    turns = [m for m in log if isinstance(m, Reinforced)]
    plays = [m for m in log if isinstance(m, (Play, Discard))]
    assert len(turns) == 9 and len(plays) == 6 * 16 + 3 * 20  # every card dealt was played or discarded


@pytest.mark.parametrize("seed", range(4))
def test_legality_agrees_with_the_listing_and_with_problem(seed: int) -> None:
    rng = random.Random(100 + seed)
    candidates: list[Move] = [
        Reinforced(), parse("approve"), parse("veto"), parse("roll"), *(parse(f"die {n}") for n in range(1, 7)),
        *(Initiative(s) for s in SIDES), *(End(s) for s in SIDES), *(Discard(f) for f in FACTIONS),
        *(Play(f, a) for f in FACTIONS for a in (False, True)), *(Control(p, "rome") for p in PROVINCES),
        *(Battle(b.winner, b.loser, 3, b.shared, b.borrowed) for b in BATTLE_SHAPES),
        parse("battle rome-silver rome-copper 1"), parse("battle none none 1"),
    ]
    state = new_game()
    for _ in range(400):
        if state.is_over():
            break
        events = state.legal_moves()
        for move in candidates:
            allowed = state.problem(move) is None
            assert (move in events) == allowed, (str(move), state.describe())
            if not allowed:
                before = state.to_json()
                with pytest.raises(IllegalMoveError):
                    state.apply(move)
                assert state.to_json() == before
        state.apply(pick(state, rng, ending=rng.random() < 0.01))


def test_every_listed_event_applies_and_round_trips() -> None:
    rng = random.Random(7)
    state = new_game()
    for step in range(200):
        if state.is_over():
            break
        for move in state.legal_moves() if step % 5 == 0 else ():
            assert parse(str(move)) == move and state.problem(move) is None
            copy = state.clone()
            copy.apply(move)
            assert copy != state or isinstance(move, Control | Battle)  # those two may change nothing
        state.apply(pick(state, rng, ending=False))
    assert state.turn >= 3
