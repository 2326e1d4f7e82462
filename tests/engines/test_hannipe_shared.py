"""Hannipe! shared by two tables (G-10): each table's state knows its own seats' secrets only, and yet both
tables and a whole-knowledge game agree on every public fact, move by move, over whole random games.

The test is the dealer: it keeps the true horse-card order and the true cards, tells each table what its
seats may know, and has each seat decide from its own table's state only.
"""

from __future__ import annotations

import json
import random

import pytest

from engines.base import Hidden, IllegalMoveError, sample_chance
from engines.hannipe import State, new_game
from engines.hannipe.moves import Action

TABLES = ({"p1", "p2"}, {"p3"})


def _table_of(seat: str) -> int:
    return next(i for i, seats in enumerate(TABLES) if seat in seats)


def _public(state: State) -> str:
    return json.dumps(state.public().to_json(), sort_keys=True)


def _round_trip(state: State) -> None:
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state


def play_shared(seed: int) -> tuple[State, State, State]:
    """One whole game: ``full`` knows everything (as at one table); ``tables`` each know their own seats'."""
    rng = random.Random(seed)
    full = new_game(players=3, cards="deal")
    tables = [new_game(players=3, cards="deal") for _ in TABLES]
    for _ in range(5_000):
        if full.is_over():
            break
        if full.is_chance():
            move = sample_chance(full, rng)
        elif full.step == "turn":
            [move] = full.legal_moves()  # the leader turns the card the shuffle put next: nobody chooses it
        else:
            seat = full.current_player
            assert seat is not None
            own = tables[_table_of(seat)]
            move = rng.choice(own.legal_moves())  # a seat decides from what its own table knows
        said = full.announce(move)
        assert isinstance(move, Action) and isinstance(said, Action)
        owner = _table_of(move.seat) if move.seat else None
        for i, table in enumerate(tables):
            table.apply(move if i == owner and move.kind in ("deal", "bet") else said)
        full.apply(move)
        while tables[0].step == "reveal":  # the full game paid at the last tip; the shared ones reveal first
            seat = tables[0].current_player
            assert seat is not None
            [opened] = tables[_table_of(seat)].legal_moves()
            for table in tables:
                table.apply(opened)
        assert _public(tables[0]) == _public(tables[1]) == _public(full)
        for table in tables:
            _round_trip(table)
            _round_trip(table.public())
    assert all(t.is_over() for t in tables)
    return full, tables[0], tables[1]


@pytest.mark.parametrize("seed", range(12))
def test_two_tables_and_one_whole_game_agree_on_every_public_fact(seed: int) -> None:
    full, a, b = play_shared(seed)
    assert a.coins == b.coins == full.coins and a.winners == b.winners == full.winners
    assert a.last_race == b.last_race == full.last_race


def test_a_table_never_holds_a_far_seats_card_or_bet() -> None:
    rng = random.Random(5)
    full = new_game(players=3, cards="deal")
    a = new_game(players=3, cards="deal")
    while full.step != "turn":
        move = sample_chance(full, rng) if full.is_chance() else rng.choice(full.legal_moves())
        said = full.announce(move)
        assert isinstance(move, Action)
        a.apply(move if move.seat in TABLES[0] and move.kind in ("deal", "bet") else said)
        full.apply(move)
    data = a.to_json()
    assert data["hands"]["p3"] == ["?"] * 5 and all("?" not in c for c in data["hands"]["p1"])
    assert data["bets"]["p3"] == "?" and data["bets"]["p1"] == full.bets["p1"]
    assert data["shuffle"] == ["?"] * len(full.values) and data["sealed"] == ["p1", "p2", "p3"]
    public = a.public().to_json()
    assert public["bets"] == {"p1": "?", "p2": "?", "p3": "?"} and public["hands"]["p1"] == ["?"] * 5
    assert isinstance(a, Hidden)


def test_what_a_table_cannot_know_it_is_told_and_what_it_knows_it_checks() -> None:
    s = new_game(players=3, cards="deal")
    s.apply(s.parse_move("programme 7"))  # noiro, roujo, pepite, cocotte
    known = s.clone()
    known.apply(known.parse_move("shuffle noiro,roujo,pepite,cocotte"))
    with pytest.raises(IllegalMoveError, match="hidden only once the horse cards are"):
        known.parse_move("deal p2 ?")  # a table that knows the order deals every card it knows
    s.apply(s.parse_move("shuffle ?"))
    for seat in ["p2", "p3", "p1"] * 4:
        s.apply(s.parse_move("deal p2 noiro:c" if seat == "p2" and "noiro:c" not in s.to_json()["hands"]["p2"]
                             else f"deal {seat} ?"))
    s.apply(s.parse_move("bet p2 roujo"))
    s.apply(s.parse_move("bet p3 ?"))
    s.apply(s.parse_move("bet p1 ?"))
    with pytest.raises(IllegalMoveError, match=r"say which horse \(turn HORSE\)"):
        s.parse_move("turn")
    with pytest.raises(IllegalMoveError, match="not running"):
        s.parse_move("turn vertige")
    s.apply(s.parse_move("turn pepite"))
    s.apply(s.parse_move("tip p2 noiro c"))
    with pytest.raises(IllegalMoveError, match="holds no noiro:c"):
        State.from_json(s.to_json()).parse_move("tip p3 noiro c")  # the one cravache of noiro is played
    s.apply(s.parse_move("tip p3 cocotte 2"))  # an unknown card of p3's: it may be this one
    assert s.to_json()["hands"]["p3"] == ["?"] * 3
    s.apply(s.parse_move("tip p1 roujo 0"))
    with pytest.raises(IllegalMoveError, match="pepite is not a horse card still face down"):
        s.parse_move("turn pepite")
