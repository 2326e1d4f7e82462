"""Hannipe! JSON: the digest's keys with their exact values, an exact round trip in every step, and a
strict ``from_json`` that names what is wrong with bad data (journals can be hand-edited or torn)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from test_hannipe_rules import TIE_RACE, play, race

from engines.base import sample_chance
from engines.hannipe import State, new_game

Data = dict[str, Any]


def mid_race_deal() -> State:
    """Three seats, engine-dealt cards, round 2 with one tip played."""
    s = play(new_game(players=3, cards="deal"), "programme 4", "shuffle noiro,grisette,vertige,pepite,cocotte")
    rng = random.Random(3)
    while s.is_chance():
        s.apply(sample_chance(s, rng))
    play(s, "bet p2 pepite", "bet p3 noiro", "bet p1 cocotte")
    for _ in range(6):  # round 1, then the second turn and p2's tip
        s.apply(rng.choice(s.legal_moves()))
    return s


def finished() -> State:
    s = race(8, "vertige,pepite,cocotte,grisette", ("pepite", "pepite"), players=2)
    play(s, *TIE_RACE)
    race(8, "vertige,pepite,cocotte,grisette", ("pepite", "vertige"), state=s)
    return play(s, *TIE_RACE)


def test_digest_keys_mid_race() -> None:
    s = mid_race_deal()
    data = s.to_json()
    assert data["round"] == 2 and data["turned"] == ["noiro", "grisette"] and data["to_move"] == "p3"
    assert data["values"] == {"noiro": 2, "grisette": 1, "vertige": 1, "pepite": 0, "cocotte": 0}
    assert data["bets"] == {"p1": "cocotte", "p2": "pepite", "p3": "noiro"}
    assert data["leader"] == "p1" and data["last_race"] is None and data["winners"] == []
    assert sum(map(len, data["order"])) == 5
    assert all(line == sorted(line, key=list(data["values"]).index) for line in data["order"])
    assert data["shuffle"] == ["noiro", "grisette", "vertige", "pepite", "cocotte"]
    assert [len(h) for h in data["hands"].values()] == [4, 3, 4]  # p2 has tipped in round 2
    assert data["played"][0][0] == "p2" and len(data["played"]) == 4


def test_digest_keys_at_game_end() -> None:
    data = finished().to_json()
    assert data["coins"] == {"p1": 6, "p2": 3} and data["winners"] == ["p1"] and data["to_move"] is None
    assert data["last_race"] == {"race": 2, "winners": ["pepite", "cocotte"], "bets": {"p1": "pepite", "p2": "vertige"},
                                 "paid": {"p1": 3, "p2": 0}}
    assert data["order"] == [["pepite", "cocotte"], ["grisette"], ["vertige"]] and data["round"] == 4


@pytest.mark.parametrize("cards", ["table", "deal"])
def test_round_trip_is_exact_in_every_step(cards: str) -> None:
    rng = random.Random(8)
    s = new_game(players=5, cards=cards)
    steps = set()
    while not s.is_over():
        data = s.to_json()
        assert json.loads(json.dumps(data)) == data
        back = State.from_json(json.loads(json.dumps(data)))
        assert back == s and back.to_json() == data and back.step == s.step
        assert back.current_player == s.current_player and back.legal_moves() == s.legal_moves()
        steps.add(s.step)
        s.apply(sample_chance(s, rng) if s.is_chance() else rng.choice(s.legal_moves()))
    assert State.from_json(s.to_json()) == s
    assert steps == {"programme", "shuffle", "bet", "turn", "tip"} | ({"deal"} if cards == "deal" else set())


def _set(key: str, value: object) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        target = data
        *path, last = key.split(".")
        for k in path:
            target = target[k]
        target[last] = value
    return edit


def _drop(key: str) -> Callable[[Data], None]:
    return lambda data: data.pop(key)


BAD_MID_RACE: list[tuple[str, Callable[[Data], None], str]] = [
    ("wrong game", _set("game", "scipio"), "game"),
    ("missing key", _drop("played"), "missing"),
    ("extra key", _set("step", "tip"), "unexpected"),
    ("one seat", _set("players", ["p1"]), "players"),
    ("renamed seat", _set("players", ["p1", "p2", "x"]), "players"),
    ("cards mode", _set("cards", "hand"), "cards"),
    ("negative coins", _set("coins.p1", -1), "coins.p1"),
    ("coins as bool", _set("coins.p1", True), "coins.p1"),
    ("coins before any payout", _set("coins.p1", 2), "no race is paid"),
    ("race zero", _set("race", 0), "race"),
    ("leader", _set("leader", "p2"), "leader"),
    ("to_move", _set("to_move", "p1"), "to_move"),
    ("programme", _set("programme", 9), "programme"),
    ("values", _set("values.noiro", 1), "values"),
    ("other programme", _set("programme", 1), "values"),
    ("order misses a horse", lambda d: d["order"].pop(), "order"),
    ("order line unsorted", lambda d: d.update(order=[[h for line in d["order"] for h in line][::-1]]),
     "sheet's order"),
    ("order empty line", lambda d: d["order"].append([]), "order"),
    ("round too high", _set("round", 6), "round"),
    ("turned", _set("turned", ["grisette", "noiro"]), "turned"),
    ("shuffle", _set("shuffle", ["noiro", "grisette", "vertige", "pepite", "roujo"]), "shuffle"),
    ("bet on a non-starter", _set("bets.p1", "roujo"), "bets.p1"),
    ("a bet missing", _set("bets.p2", None), "bets"),
    ("hands null when dealt", _set("hands", None), "hands"),
    ("hand card malformed", lambda d: d["hands"]["p1"].__setitem__(0, "noiro-2"), "hands.p1"),
    ("hand card of a non-starter", lambda d: d["hands"]["p1"].__setitem__(0, "roujo:2"), "hands.p1"),
    ("hand too big", lambda d: d["hands"]["p1"].append("noiro:0"), "hands"),
    ("played by the wrong seat", lambda d: d["played"][0].__setitem__(0, "p1"), "played"),
    ("played entry short", lambda d: d["played"].__setitem__(0, ["p2", "noiro"]), "played"),
    ("a tip missing", lambda d: d["played"].pop(), "every hand dealt"),
    ("last race before any", _set("last_race", {"race": 1, "winners": ["noiro"], "bets": {}, "paid": {}}),
     "last_race"),
    ("winners too early", _set("winners", ["p1"]), "winners"),
    ("not an object", lambda d: d.clear(), "game"),
]


@pytest.mark.parametrize(("name", "edit", "match"), BAD_MID_RACE, ids=[b[0] for b in BAD_MID_RACE])
def test_bad_data_mid_race_raises_value_error_naming_the_key(name: str, edit: Callable[[Data], None],
                                                            match: str) -> None:
    data = copy.deepcopy(mid_race_deal().to_json())
    State.from_json(data)
    edit(data)
    with pytest.raises(ValueError, match=match):
        State.from_json(data)


BAD_FINISHED: list[tuple[str, Callable[[Data], None], str]] = [
    ("winners wrong", _set("winners", ["p2"]), "winners"),
    ("winners missing", _set("winners", []), "winners"),
    ("last race number", _set("last_race.race", 1), "last_race.race"),
    ("paid a loser", _set("last_race.paid.p2", 3), "last_race"),
    ("last race bets differ", _set("last_race.bets.p2", "pepite"), "last_race"),
    ("last race winners unsorted", _set("last_race.winners", ["cocotte", "pepite"]), "last_race.winners"),
    ("to_move after the end", _set("to_move", "p1"), "to_move"),
    ("round disagrees with turned", _set("round", 3), "turned"),
    ("round and turned one back", lambda d: d.update(round=3, turned=d["turned"][:3]), "played"),
    ("coins below the payout", _set("coins.p1", 2), "coins"),
]


@pytest.mark.parametrize(("name", "edit", "match"), BAD_FINISHED, ids=[b[0] for b in BAD_FINISHED])
def test_bad_data_at_game_end_raises_value_error(name: str, edit: Callable[[Data], None], match: str) -> None:
    data = copy.deepcopy(finished().to_json())
    State.from_json(data)
    edit(data)
    with pytest.raises(ValueError, match=match):
        State.from_json(data)


def test_a_table_game_rejects_hands() -> None:
    data = race(8, "vertige,pepite,cocotte,grisette", players=2).to_json()
    data["hands"] = {"p1": [], "p2": []}
    with pytest.raises(ValueError, match="hands"):
        State.from_json(data)
    with pytest.raises(ValueError, match="JSON object"):
        State.from_json([])  # type: ignore[arg-type]
