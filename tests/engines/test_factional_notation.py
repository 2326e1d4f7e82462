"""Factional Hannibal notation, JSON, the Honor tray and the menu helper: round trips, malformed text,
strict loading of hand-edited or torn states, and building an event field by field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_factional_rules import CC, CS, RC, RS, in_cards, play

from engines.base import IllegalMoveError, InvalidMoveError
from engines.factional import (
    FACTIONS,
    HOLDERS,
    LISTED_PCS,
    LOCATIONS,
    PROVINCES,
    Battle,
    Control,
    Die,
    Play,
    State,
    location,
    new_game,
    parse,
)
from engines.hannibal import parse as hannibal_parse
from engines.registry import get_game

# -- notation ------------------------------------------------------------------------------------------

EVENTS = ["reinforced", "initiative rome", "initiative carthage", "play rome-copper", "play carthage-silver activate",
          "approve", "veto", "control latium carthage-copper", "control syracuse rome", "control massilia none",
          "battle rome-silver carthage-copper 3", "battle rome-silver/shared carthage-copper/borrowed 0",
          "battle none carthage-silver/borrowed 12", "battle carthage-copper/shared none 987654321",
          "battle none rome-copper 1", "discard rome-copper", "roll", "die 1", "die 6", "end rome", "end carthage"]


@pytest.mark.parametrize("text", EVENTS)
def test_notation_round_trips(text: str) -> None:
    move = parse(text)
    assert str(move) == text and parse(str(move)) == move and hash(parse(text)) == hash(move)
    assert repr(move) == f"{type(move).__name__}({text!r})"


def test_notation_reads_any_case_and_spacing_and_writes_one_form() -> None:
    assert parse("  PLAY Rome-Copper   Activate ") == Play("rome-copper", activate=True)
    assert str(parse("Battle ROME-SILVER/Shared None 007")) == "battle rome-silver/shared none 7"
    assert parse("control latium none") == Control("latium", None)


def test_moves_are_values() -> None:
    assert Battle(RS, CC, 3, shared=True) == parse("battle rome-silver/shared carthage-copper 3")
    assert Battle(RS, CC, 3) != Battle(RS, CC, 4) and Play(RS) != Play(RS, activate=True)
    assert len({parse(t) for t in EVENTS + EVENTS}) == len(EVENTS)
    with pytest.raises(AttributeError):
        Die(3).value = 4  # type: ignore[misc]


MALFORMED = [
    ("", "empty event"), ("   ", "empty event"), ("play", "not a Factional Hannibal event"),
    ("play rome-gold", "no faction 'rome-gold'"), ("play rome-copper now", "only 'activate'"),
    ("control gallia rome", "no province 'gallia'"), ("control latium", "not a Factional Hannibal event"),
    ("control latium spain", "no holder 'spain'"), ("battle rome-silver carthage-copper", "not a Factional"),
    ("battle rome-silver/borrowed carthage-copper 1", "only the winner may be /shared"),
    ("battle rome-silver carthage-copper/shared 1", "only the winner may be /shared"),
    ("battle none/shared carthage-copper 1", "a leaderless force cannot be shared"),
    ("battle rome-silver none/borrowed 1", "a leaderless force cannot be borrowed"),
    ("battle rome-silver carthage-copper -1", "PCs: expected a whole number >= 0"),
    ("battle rome-silver carthage-copper 2.5", "PCs: expected a whole number"),
    ("battle rome-silver carthage-copper \uff13", "PCs: expected a whole number"),  # a full-width digit
    ("battle rome-silver carthage-copper " + "9" * 5000, "too long a number"),
    ("battle rome carthage-copper 1", "no faction 'rome'"),
    ("die 0", "a die shows 1 to 6"), ("die 7", "a die shows 1 to 6"), ("die x", "a die: expected"),
    ("end spain", "no side 'spain'"), ("end", "not a Factional"), ("reinforced now", "not a Factional"),
    ("initiative rome-silver", "no side"), ("discard rome", "no faction"), ("approve rome", "not a Factional"),
    ("12-17", "not a Factional Hannibal event"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_text_is_an_invalid_move_error(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        parse(text)
    with pytest.raises(InvalidMoveError):
        new_game().parse_move(text)


def test_moves_built_in_code_are_checked_like_parsed_ones() -> None:
    for build in (lambda: Battle(RS, CC, -1), lambda: Battle(None, CC, 1, shared=True), lambda: Control("x", None),
                  lambda: Play("rome"), lambda: Die(True), lambda: Battle(RS, CC, True)):
        with pytest.raises(InvalidMoveError):
            build()
    with pytest.raises(IllegalMoveError):
        new_game().apply(Battle(RS, RC, 1))
    with pytest.raises(IllegalMoveError, match="not a Factional Hannibal event"):
        new_game().apply(hannibal_parse("R3,5"))


# -- JSON ----------------------------------------------------------------------------------------------

START = {
    "game": "factional", "turn": 1, "phase": "reinforcements",
    "control": {"cisalpinia": None, "etruria": RS, "samnium": RS, "latium": RS, "apulia": RC, "lucania": RC,
                "campania": RS, "sicilia": RC, "syracuse": RC, "sardinia": RC, "idubeda": None, "orospeda": CS,
                "celtiberia": CS, "baetica": CS, "w-numidia": CC, "e-numidia": CC, "carthaginia": CC,
                "carthage": CC, "transalpina": None, "massilia": None},
    "ledger": {RS: 0, RC: 0, CS: 0, CC: 0}, "honor": {RS: 8, RC: 6, CS: 3, CC: 9},
    "dominant": {"rome": RS, "carthage": CC}, "cards": {RS: 0, RC: 0, CS: 0, CC: 0}, "to_move": None,
    "winner": None, "ranking": [], "playing": None, "asking": None, "rolling": False,
}


def test_the_start_position_as_json() -> None:
    assert new_game().to_json() == START
    assert json.loads(json.dumps(START)) == START


def _positions() -> list[State]:
    return [new_game(), in_cards(), play(in_cards(), "play rome-silver activate"), play(in_cards(), "roll"),
            play(in_cards(), "control syracuse carthage", "battle none rome-copper/borrowed 40", "end carthage"),
            play(new_game(), "control latium none", "roll")]


@pytest.mark.parametrize("index", range(6))
def test_json_round_trip_is_exact(index: int) -> None:
    s = _positions()[index]
    data = json.loads(json.dumps(s.to_json()))
    t = State.from_json(data)
    assert t == s and t.to_json() == s.to_json() and t.key() == s.key()
    assert [str(m) for m in t.legal_moves()] == [str(m) for m in s.legal_moves()]


def _edited(path: str, value: Any, state: State | None = None) -> dict[str, Any]:
    data = json.loads(json.dumps((state or new_game()).to_json()))
    *outer, last = path.split(".")
    target = data
    for key in outer:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return data


BAD = [
    ("game", "hannibal", "game: expected 'factional'"),
    ("turn", 10, "turn: expected a whole number 1..9"),
    ("turn", "1", "turn: expected a whole number"),
    ("turn", True, "turn: expected a whole number"),
    ("phase", "dice", "phase: expected one of"),
    ("control.latium", "spain", "control.latium: expected one of"),
    ("control.latium", KeyError, "control: missing latium"),
    ("control.gallia", "rome", "control: unknown gallia"),
    ("ledger.rome-silver", 1.5, "ledger.rome-silver: expected a whole number"),
    ("ledger", [], "ledger: expected an object"),
    ("dominant.rome", CC, "dominant.rome: expected one of rome-silver, rome-copper"),
    ("cards.rome-copper", 2, "cards: none are held during the reinforcement phase"),
    ("cards.rome-copper", 6, "cards.rome-copper: expected a whole number 0..5"),
    ("honor.rome-silver", 9, "honor: recorded"),
    ("to_move", RS, "to_move: recorded"),
    ("ranking", [RS, RC, CS, CC], "ranking: recorded"),
    ("winner", "rome", "winner: set exactly when the phase is 'over'"),
    ("winner", "gaul", "winner: expected one of rome, carthage or null"),
    ("playing", "rome", "playing: no side plays in the reinforcements phase"),
    ("asking", RS, "asking: set exactly in the activation phase"),
    ("rolling", 0, "rolling: expected true or false"),
    ("extra", 1, "state: unknown extra"),
    ("rolling", KeyError, "state: missing rolling"),
]


@pytest.mark.parametrize(("path", "value", "message"), BAD, ids=[f"{b[0]}={b[1]!r}" for b in BAD])
def test_bad_json_is_a_value_error_naming_the_key(path: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        State.from_json(_edited(path, value))


def test_inconsistent_phases_are_rejected() -> None:
    cards = in_cards()
    with pytest.raises(ValueError, match="playing: a side must play"):
        State.from_json(_edited("playing", None, cards) | {"to_move": None})
    with pytest.raises(ValueError, match="cards: rome is to play but has no card left"):
        State.from_json(_edited("cards", {RS: 0, RC: 0, CS: 4, CC: 4}, cards))
    with pytest.raises(ValueError, match="cards: more than the 4 dealt on turn 1"):
        State.from_json(_edited("cards.rome-copper", 5, cards))
    activation = play(in_cards(), "play rome-silver activate")
    with pytest.raises(ValueError, match="playing: must be the side of the faction asking"):
        State.from_json(_edited("playing", "carthage", activation))
    over = play(new_game(), "end rome")
    with pytest.raises(ValueError, match="rolling: no die is due once the game is over"):
        State.from_json(_edited("rolling", True, over))
    with pytest.raises(ValueError, match="state: expected an object"):
        State.from_json([])  # type: ignore[arg-type]


def test_clone_is_independent_and_equal() -> None:
    s = in_cards()
    t = s.clone()
    assert t == s and t is not s
    play(t, "play rome-silver", "control latium none", "battle rome-copper carthage-silver 2")
    assert s.cards[RS] == 4 and s.control["latium"] == RS and s.ledger[RC] == 0 and t != s
    assert s != "a state" and s.__eq__(3) is NotImplemented


# -- the Honor tray ------------------------------------------------------------------------------------

def test_locations_are_the_120_tray_cells() -> None:
    assert len(LOCATIONS) == len(set(LOCATIONS)) == 120 == len(PROVINCES) * len(HOLDERS)
    assert location("latium", "rome") == "tray:latium:rome" and "tray:massilia:carthage-copper" in LOCATIONS
    assert get_game("factional").locations() == frozenset(LOCATIONS)


def test_occupancy_shows_each_held_chit_in_its_holders_cell() -> None:
    s = new_game()
    occupancy = s.occupancy()
    assert len(occupancy) == 16 and occupancy["tray:latium:rome-silver"] == (RS, 1)
    assert not any(k.startswith(("tray:cisalpinia:", "tray:massilia:")) for k in occupancy)
    play(s, "control syracuse rome", "control latium none", "control massilia carthage-silver")
    occupancy = s.occupancy()
    assert occupancy["tray:syracuse:rome"] == ("rome", 1) and "tray:syracuse:rome-copper" not in occupancy
    assert not any(k.startswith("tray:latium:") for k in occupancy)
    assert occupancy["tray:massilia:carthage-silver"] == (CS, 1) and set(occupancy) <= set(LOCATIONS)


# -- the menu: legal events as a lazy sequence, built field by field -----------------------------------

def test_the_listing_is_a_lazy_sequence_whose_membership_agrees_with_iteration() -> None:
    events = in_cards().legal_moves()
    listed = list(events)
    assert len(listed) == len(events) and len(set(listed)) == len(listed)
    assert events[-1] == listed[-1] and events[3:6] == listed[3:6] and events[-len(events)] == listed[0]
    with pytest.raises(IndexError):
        events[len(events)]
    assert all(m in events for m in listed)
    assert parse(f"battle rome-silver carthage-copper {LISTED_PCS}") in events
    assert parse(f"battle rome-silver carthage-copper {LISTED_PCS + 1}") not in events
    assert parse("battle rome-silver rome-copper 1") not in events and parse("veto") not in events
    assert "play rome-silver" not in events


def test_i8_battles_beyond_the_listing_are_legal() -> None:
    s = new_game()
    play(s, f"battle rome-silver carthage-copper {LISTED_PCS + 88}")
    assert s.ledger[RS] == LISTED_PCS + 88
    assert s.next_field(["battle", "rome-silver", "carthage-copper", str(LISTED_PCS + 88)]).complete


def test_next_field_builds_a_battle_word_by_word() -> None:
    s = new_game()
    first = s.next_field([])
    assert first.words == ("reinforced", "roll", "end", "control", "battle") and not first.complete
    winners = s.next_field(["battle"]).words
    assert set(winners) == {"none", *FACTIONS, *(f"{f}/shared" for f in FACTIONS)}
    assert s.next_field(["battle", "rome-silver/shared"]).words == (
        "none", CS, CC, f"{CS}/borrowed", f"{CC}/borrowed")
    assert "none" not in s.next_field(["battle", "none"]).words
    count = s.next_field(["battle", "rome-silver", "none"])
    assert count.number and not count.words and not count.complete
    done = s.next_field(["battle", "rome-silver", "none", "5"])
    assert done.complete and not done.number and not done.words
    assert s.next_field(["battle", "rome-silver", "rome-copper"]) == s.next_field(["nonsense"])
    assert not s.next_field(["battle", "rome-silver", "none", "x"]).complete


def test_next_field_for_control_play_and_the_die() -> None:
    s = in_cards()
    assert s.next_field(["control"]).words == tuple(PROVINCES)
    assert s.next_field(["control", "latium"]).words == (*HOLDERS, "none")
    assert s.next_field(["play"]).words == (RS, RC)
    after = s.next_field(["play", RS])
    assert after.complete and after.words == ("activate",)
    assert s.next_field(["discard"]).words == FACTIONS
    play(s, "roll")
    assert s.next_field([]).words == ("die",) and s.next_field(["die"]).words == tuple("123456")
    assert play(s, "die 2", "end rome").next_field([]).words == ()
