"""The legal steps as a sequence (``engines.hannibal.legal``): built only when read, yet every way of
reading it -- counting, indexing from either end, slicing, iterating, asking for a move -- must agree
with the one list of moves in the engine's documented order, on any position. Random bots pick by
index, so that order is what makes a seed replay the same game."""

from __future__ import annotations

import copy
import pickle
import random
from itertools import chain

import hannibal_reference as ref
import pytest
from hannibal_helpers import position, positions
from hypothesis import HealthCheck, given, settings

from engines.base import IllegalMoveError, Move, sample_chance
from engines.hannibal import State, Step, new_game, parse
from engines.hannibal.moves import ENTRIES, PIECE_MOVES, ROLLS, STACK_MOVES

EVERY_STEP: tuple[Step, ...] = tuple(chain(chain.from_iterable(PIECE_MOVES), chain.from_iterable(STACK_MOVES),
                                           ENTRIES))
NOT_STEPS: tuple[object, ...] = (ROLLS[(3, 5)], "12-17", None, 17, ("piece", 12, 17), [12, 17], {"src": 12})


def documented_order(state: State, moves: set[str]) -> list[str]:
    """The order ``engines.hannibal.state`` promises, worked out from the moves alone: entries by die;
    piece moves distance by distance, forward before backward, by landing square; then stack moves by
    their camp, each to the camps 6 and 12 ahead, then 6 and 12 behind."""
    sign = 1 if state.to_move == "yellow" else -1
    dice = state.dice
    dists = sorted({*dice, sum(dice)})

    def key(text: str) -> tuple[int, ...]:
        m = parse(text)
        assert isinstance(m, Step)
        if m.kind == "entry":
            return (0, m.dist)
        if m.kind == "piece":
            way = (m.dst - m.src) * sign
            return (1, dists.index(abs(way)), 0 if way > 0 else 1, m.dst)
        return (2, m.src, (6, 12, -6, -12).index((m.dst - m.src) * sign))

    return sorted(moves, key=key)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_every_reading_of_the_legal_steps_agrees(data: dict[str, object]) -> None:
    s = State.from_json(data)
    legal = s.legal_moves()
    steps = list(legal)
    assert [str(m) for m in steps] == documented_order(s, ref.legal_steps(data))
    n = len(steps)
    assert len(legal) == n and bool(legal) == (n > 0)
    assert [legal[i] for i in range(n)] == steps
    assert [legal[-i] for i in range(1, n + 1)] == steps[::-1]
    assert legal[1:5] == steps[1:5] and legal[::-2] == steps[::-2]
    for outside in (n, n + 3, -n - 1):
        with pytest.raises(IndexError):
            legal[outside]
    assert [m for m in EVERY_STEP if m in legal] == [m for m in EVERY_STEP if m in steps]
    assert not any(other in legal for other in NOT_STEPS)
    assert legal.index(steps[-1]) == n - 1 if steps else True
    assert list(reversed(legal)) == steps[::-1]
    assert legal == steps and steps == legal and legal == tuple(steps) and legal == s.legal_moves()
    assert (legal != steps[:-1]) if steps else (legal == [])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_step_not_in_the_sequence_is_refused_and_changes_nothing(data: dict[str, object]) -> None:
    s = State.from_json(data)
    legal = set(s.legal_moves())
    rng = random.Random(str(data))
    for m in rng.sample(EVERY_STEP, 40):
        if m in legal:
            continue
        before = s.to_json()
        with pytest.raises(IllegalMoveError):
            s.apply(m)
        assert s.to_json() == before


def test_the_sequence_is_a_snapshot_of_its_position() -> None:
    """A sequence read before a step still names the steps of the position it came from."""
    s = position({12: ("yellow", 1), 30: ("blue", 1)}, dice=(3, 5))
    before = s.legal_moves()
    names = [str(m) for m in before]
    s.apply(before[0])
    assert [str(m) for m in before] == names
    assert [str(m) for m in s.legal_moves()] != names


def test_chance_and_finished_positions_are_plain_lists() -> None:
    s = new_game()
    assert s.legal_moves() == list(ROLLS.values()) and s.is_chance()
    rng = random.Random(2)
    while not s.is_over():
        s.apply(sample_chance(s, rng) if s.is_chance() else rng.choice(s.legal_moves()))
    assert s.legal_moves() == []


def test_a_move_read_from_the_sequence_is_the_shared_move_object() -> None:
    """Moves are interned, so a bot's move found by index is the very object the parser returns."""
    rng = random.Random(5)
    s = new_game()
    for _ in range(300):
        if s.is_over():
            break
        if s.is_chance():
            s.apply(sample_chance(s, rng))
            continue
        legal = s.legal_moves()
        move: Move = legal[rng.randrange(len(legal))]
        assert parse(str(move)) is move
        s.apply(move)


def test_a_copied_or_pickled_state_has_the_same_steps_and_shares_the_tables() -> None:
    """The per-dice tables are shared by every state: a deep copy or a pickle must neither copy them (a
    pickle grew 17-fold when it did) nor lose the steps."""
    s = position({12: ("yellow", 2), 30: ("blue", 1), 36: ("yellow", 1)}, dice=(2, 6))
    names = [str(m) for m in s.legal_moves()]
    plain = len(pickle.dumps(s.to_json()))
    for other in (copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert other == s and [str(m) for m in other.legal_moves()] == names
        other.apply(other.legal_moves()[0])
        assert other.to_json() != s.to_json() and [str(m) for m in s.legal_moves()] == names
    assert len(pickle.dumps(s)) < plain + 2000  # a copy of the tables adds over 7 KB
