"""Cannon Ball notation (round trips, malformed text) and the strict JSON reader."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.base import IllegalMoveError, InvalidMoveError
from engines.cannonball import State, new_game, parse
from engines.cannonball.movelist import EscortBlock
from engines.cannonball.moves import CannonMove
from engines.cannonball.positions import position

B, G = "blue", "gray"


def _positions() -> list[State]:
    march = position(("a1", "C e5", "d5", "f5", "e7", "f7", "d9", "b9", "a8"), ("l19", "k12"), budget=5,
                     gates={"east": "open"})
    return [new_game(), march,
            position(("a1", "C k12", "j12", "l12", "k11"), ("l19",), bridges={"f": "down"}),
            position(("a1", "j13", "k13", "l12", "j12", "j11"), ("l19",), budget=3)]


@pytest.mark.parametrize("index", range(4))
def test_every_legal_move_round_trips(index: int) -> None:
    s = _positions()[index]
    moves = list(s.legal_moves())
    assert moves and len(moves) == len(s.legal_moves())
    for m in moves:
        assert parse(str(m)) == m and s.parse_move(str(m)) == m
        assert hash(parse(str(m))) == hash(m)


def test_notation_covers_every_kind_of_move() -> None:
    texts = ["spin blue 7", "spin gray 12", "spin 5", "march", "end", "c3-d4", "b9=b11", "k11=k9", "C d4-g6",
             "C d4-g6 +d5-g5 +e4-h6", "tnt b9", "tnt gate west", "open east", "close north", "shoot b odd",
             "rebuild d even", "storm west odd", "blew k"]
    for text in texts:
        assert str(parse(text)) == text
    assert parse("  C d4-g6  +d5-g5 +e4-h6 ") == parse("C d4-g6 +d5-g5 +e4-h6")
    assert parse("C d4-g6 +d5-g5 +e4-h6") != parse("C d4-g6 +e4-h6 +d5-g5")  # the escorts' order matters
    assert parse("b9=b11") != parse("b9-b11")


@pytest.mark.parametrize("text", ["", "jump", "c10-c11", "m3-m4", "a0-a1", "spin 13", "spin 0", "spin red 3",
                                  "d4-d4", "C d4-g6 +d5-g5", "C d4-g6 +d5-g5 +d5-h6", "d4-d5 +e4-e5 +f4-f5",
                                  "b9=b12", "c9=c11", "C b9=b11", "tnt c5", "tnt gate up", "open up",
                                  "shoot z odd", "storm b odd", "storm west maybe", "blew z", "rebuild west odd"])
def test_malformed_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse(text)
    with pytest.raises(ValueError):
        new_game().parse_move(text)


def test_well_formed_but_illegal_moves_are_illegal() -> None:
    s = new_game()
    for text in ("march", "c3-d4", "spin 4", "spin gray 4"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)
        with pytest.raises(IllegalMoveError):
            s.apply(parse(text))
    s = position(("a1", "e5"), ("l19",), budget=3)
    with pytest.raises(IllegalMoveError, match="blue marches with 3 moves left"):
        s.parse_move("e5-e7")


def test_escort_block_indexing_matches_iteration() -> None:
    block = EscortBlock(0, (10, 11, 12), (20, 21, 22, 23))
    listed = list(block)
    assert len(listed) == len(block) == 4 * 3 * 2 * 3 * 2 == len(set(listed))
    assert [block.at(i) for i in range(len(block))] == listed
    assert all(block.holds(m) for m in listed)
    assert not block.holds(CannonMove(0, 20, ((10, 21), (10, 22))))
    assert not block.holds(CannonMove(0, 20, ((10, 20), (11, 22))))
    s = _positions()[1]
    moves = s.legal_moves()
    assert [moves[i] for i in range(len(moves))] == list(moves) and moves[-1] == list(moves)[-1]
    assert moves[2:5] == list(moves)[2:5]


# -- JSON ---------------------------------------------------------------------------------------------------


def _states() -> list[State]:
    out = [new_game()]
    s = new_game()
    s.apply(parse("spin blue 3"))
    out.append(s.clone())
    s.apply(parse("spin gray 9"))
    out.append(s.clone())  # gray marching 9
    s = position(("a1", "d9", "f9", "e8", "C f7", "b9"), ("l19",), budget=6)
    for text in ("tnt d9", "d9-c8", "b9=b11"):
        s.apply(s.parse_move(text))
    out.append(s.clone())  # entered, TNT laid, just crossed
    s.apply(s.parse_move("end"))
    out.append(s.clone())
    out.append(position(("a1", "C k12", "j12", "l12", "k11"), ("l19",), phase="spin", pending="storm south odd"))
    out.append(position(("a1",), ("l19",), phase="spin", pending="march"))
    won = position(("a1", "C k12", "j12", "l12", "k11"), ("l19",))
    for text in ("storm south odd", "spin 3"):
        won.apply(won.parse_move(text))
    out.append(won)
    return out


@pytest.mark.parametrize("index", range(8))
def test_json_round_trips_exactly_in_every_phase(index: int) -> None:
    s = _states()[index]
    data = s.to_json()
    assert json.loads(json.dumps(data)) == data
    again = State.from_json(json.loads(json.dumps(data)))
    assert again == s and again.to_json() == data and list(again.legal_moves()) == list(s.legal_moves())


def test_json_has_the_digests_keys() -> None:
    data = _states()[3].to_json()
    assert {"game", "to_move", "budget", "boxes", "gates", "bridges", "tnt", "mines", "winner", "drawn",
            "turn"} <= set(data)
    assert data["game"] == "cannonball" and data["budget"] == 2 and data["boxes"]["f7"] == [B, "cannon"]
    assert data["mines"] == {"d": {"owner": B, "end": "d9"}} and data["tnt"] == {B: 4, G: 5}
    assert data["march"]["crossed"] == "b11" and data["march"]["bridge_tnt"] == "d9"


def test_digest_keys_alone_make_a_position() -> None:
    data = {k: v for k, v in _states()[3].to_json().items()
            if k in {"game", "to_move", "budget", "boxes", "gates", "bridges", "tnt", "mines", "winner", "drawn",
                     "turn"}}
    s = State.from_json(data)
    assert s.phase == "march" and s.budget == 2 and "blew b" not in {str(m) for m in s.legal_moves()}


def _broken(change: dict[str, Any]) -> dict[str, Any]:
    data = _states()[3].to_json()
    for key, value in change.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(("change", "message"), [
    ({"colour": 1}, "unknown"),
    ({"boxes": KeyError}, "missing"),
    ({"game": "hannibal"}, "game"),
    ({"to_move": "red"}, "to_move"),
    ({"boxes": {"c10": [B, "trooper"]}}, "boxes"),
    ({"boxes": {"c4": [B, "knight"]}}, "boxes.c4"),
    ({"boxes": {n: [B, "trooper"] for n in [f"{c}{r}" for c in "abcdefghijkl" for r in (1, 2, 3)]}}, "troopers"),
    ({"gates": {"east": "open"}}, "gates"),
    ({"gates": {"east": "ajar", "north": "open", "west": "open", "south": "open"}}, "gates.east"),
    ({"bridges": {s: "up" for s in "bdfgi"} | {"k": "gone"}}, "bridges.k"),
    ({"tnt": {B: 6, G: 5}}, "tnt.blue"),
    ({"tnt": {B: True, G: 5}}, "tnt.blue"),
    ({"mines": {"d": {"owner": B, "end": "d8"}}}, "mines.d.end"),
    ({"mines": {"d": {"owner": B, "end": "d9"}, "f": {"owner": B, "end": "f9"}}}, "two TNT"),
    ({"bridges": {s: "up" for s in "bfgik"} | {"d": "down"}}, "down"),
    ({"winner": B, "drawn": True}, "drawn"),
    ({"budget": 13}, "budget"),
    ({"budget": None}, "budget"),
    ({"phase": "turn"}, "budget"),
    ({"turn": -1}, "turn"),
    ({"turn_limit": 3, "turn": 3}, "turn_limit"),
    ({"pending": "march"}, "pending"),
    ({"spinoff": {"blue": 3}}, "spinoff"),
    ({"march": {"entered": {"l19": 0}, "next": 1, "tnt_laid": False, "bridge_tnt": None, "gate_tnt": [],
                "crossed": None}}, "march.entered"),
    ({"march": {"entered": {}, "next": 0, "tnt_laid": False, "bridge_tnt": None, "gate_tnt": ["east"],
                "crossed": None}}, "march.gate_tnt"),
])
def test_from_json_rejects_inconsistent_data(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        State.from_json(_broken(change))


def test_from_json_rejects_a_pending_action_that_could_not_be_chosen() -> None:
    with pytest.raises(ValueError, match="could not have been chosen"):
        position(("a1", "k12", "j12", "l12", "k11"), ("l19",), phase="spin", pending="storm south odd")
    with pytest.raises(ValueError, match="could not have been chosen"):  # a shot was owed
        position(("a1", "e7"), ("l19",), phase="spin", pending="march", mines={"d": ("blue", "d9")}, tnt=(4, 5))
    with pytest.raises(ValueError, match="pending"):
        position(("a1",), ("l19",), phase="spin")
    with pytest.raises(ValueError):
        State.from_json([])  # type: ignore[arg-type]
