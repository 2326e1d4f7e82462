"""Scipio rules (shared/rules/scipio.md) through the public API: the rule book's examples, each
interpretation I-1..I-6, the New Orders cards, notation, JSON, hidden information and the bots."""

from __future__ import annotations

import json
import random
from itertools import permutations
from typing import Any

import pytest

from engines.base import IllegalMoveError, InvalidMoveError, Move
from engines.bots import HeuristicBot, MCTSBot, RandomBot, play_game
from engines.scipio import CARDS, FORMATIONS, State, damage_plan, new_game, parse

DEFAULT = "6,5,6,5,6,6"


def play(state: State, *moves: str) -> State:
    """Apply decisions and chance outcomes written in the notation (chance outcomes parse too)."""
    for text in moves:
        state.apply(state.parse_move(text))
    return state


def start(rome: str = DEFAULT, carthage: str = DEFAULT, tiles: str = "Y1 P2 G3") -> State:
    return play(new_game(), f"org rome {rome}", f"org carthage {carthage}", f"tiles {tiles}")


def legal(state: State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def troops(state: State, army: str) -> list[int]:
    return [state.formation(army, i) for i in range(len(FORMATIONS))]


def removals(field: str, army: str, amount: int) -> set[str]:
    return {f"remove {army} {field} {x},{amount - x}" for x in range(amount + 1)}


# -- damage_plan: the rule book's examples and the cancelling rule ---------------------------------------

EXAMPLE_1 = {
    "cards": {"yellow": {"rome": 6, "carthage": 3}, "green": {"rome": 4, "carthage": 5},
              "purple": {"rome": 2, "carthage": 2}},
    "troops": {"yellow": {"rome": 12, "carthage": 11}, "green": {"rome": 10, "carthage": 10},
               "purple": {"rome": 12, "carthage": 13}},
    "tiles": {"yellow": 2, "purple": 3, "green": 1},
}
EXAMPLE_2 = {
    "cards": {"purple": {"rome": 6, "carthage": 3}, "green": {"rome": 4, "carthage": 2},
              "yellow": {"rome": 2, "carthage": 5}},
    "troops": {"purple": {"rome": 8, "carthage": 9}, "green": {"rome": 10, "carthage": 7},
               "yellow": {"rome": 9, "carthage": 10}},
    "tiles": {"purple": 1, "yellow": 2, "green": 3},
}


def test_damage_plan_rule_book_example_1() -> None:
    assert damage_plan(**EXAMPLE_1) == [("yellow", "carthage", 4, True), ("green", "rome", 1, False)]


def test_damage_plan_rule_book_example_2() -> None:
    assert damage_plan(**EXAMPLE_2) == [("purple", "carthage", 3, True), ("green", "carthage", 4, True),
                                        ("yellow", "rome", 2, False)]


def test_damage_plan_one_break_each_cancels_both() -> None:
    cards = {"yellow": {"rome": 6, "carthage": 3}, "purple": {"rome": 2, "carthage": 5},
             "green": {"rome": 4, "carthage": 5}}
    troops = {"yellow": {"rome": 12, "carthage": 10}, "purple": {"rome": 12, "carthage": 10},
              "green": {"rome": 12, "carthage": 12}}
    # no kept break: plain tile order, and 1 or 2 damage even where a card doubled the other
    assert damage_plan(cards, troops, {"yellow": 3, "purple": 1, "green": 2}) == [
        ("purple", "rome", 1, False), ("green", "rome", 1, False), ("yellow", "carthage", 2, False)]


def test_damage_plan_equal_break_counts_never_keep_a_break() -> None:
    """Every placement pair: a kept break exists exactly when the counts differ (1-1 cancels; 2-2 and
    3-3 need more than three fields, so with cards 2-7 on three fields they cannot arise, I-1)."""
    tiles = {"yellow": 2, "purple": 3, "green": 1}
    troops = {f: {"rome": 10, "carthage": 10} for f in tiles}
    seen_counts = set()
    for rome in permutations(CARDS, 3):
        for carthage in permutations(CARDS, 3):
            cards = {f: {"rome": r, "carthage": c} for f, r, c in zip(("yellow", "purple", "green"), rome, carthage,
                                                                      strict=True)}
            counts = (sum(r >= 2 * c for r, c in zip(rome, carthage, strict=True)),
                      sum(c >= 2 * r for r, c in zip(rome, carthage, strict=True)))
            seen_counts.add(counts)
            plan = damage_plan(cards, troops, tiles)
            kept = [step for step in plan if step[3]]
            if counts[0] == counts[1]:
                assert not kept and [s[0] for s in plan] == [f for f in ("green", "yellow", "purple")
                                                             if cards[f]["rome"] != cards[f]["carthage"]]
            else:
                assert len(kept) == max(counts) and plan[:len(kept)] == kept
                assert all(step[2] == 3 for step in kept)  # equal troops: the defender holds
            assert all(step[2] == 1 for step in plan if not step[3])
    assert (1, 1) in seen_counts and max(a + b for a, b in seen_counts) == 3


# -- the rule book's examples in real games ---------------------------------------------------------------

def test_example_1_in_a_game() -> None:
    # rome: yellow 12, purple 12, green 10; carthage: yellow 11, purple 13, green 10
    s = start("6,6,6,6,5,5", "6,5,7,6,5,5", "Y2 P3 G1")
    play(s, "place rome Y6 P2 G4")
    assert s.current_player == "carthage" and s.step == "place"
    play(s, "place carthage Y3 P2 G5")
    # yellow first (Rome's lone break stands), though green has tile 1
    assert s.step == "remove" and s.current_player == "carthage"
    assert legal(s) == removals("yellow", "carthage", 4)
    play(s, "remove carthage yellow 2,2")
    assert s.current_player == "rome" and legal(s) == removals("green", "rome", 1)
    play(s, "remove rome green 1,0")
    # purple had equal cards: no removal; Carthage removed 4 > 1 and is offered the draw
    assert s.step == "offer" and s.current_player == "carthage"
    assert legal(s) == {"draw carthage", "pass"}
    with pytest.raises(IllegalMoveError):
        s.parse_move("draw rome")
    assert troops(s, "carthage") == [4, 3, 7, 6, 5, 5] and troops(s, "rome") == [6, 6, 6, 6, 4, 5]


def test_example_2_in_a_game() -> None:
    """Round 1 brings the troops to the example's (rome 9/8/10, carthage 10/9/7), round 2 plays it."""
    s = start("6,6,6,5,6,5", "7,6,6,6,5,4", "Y1 P2 G3")
    play(s, "place rome Y5 P6 G7", "place carthage Y2 P3 G4")
    play(s, "remove carthage yellow 2,1", "remove carthage purple 1,2", "remove carthage green 1,1", "pass")
    play(s, "place rome Y2 P3 G4", "place carthage Y5 P7 G6")
    play(s, "remove rome yellow 1,2", "remove rome purple 1,2", "remove rome green 0,1", "pass")
    assert s.is_chance() and s.round == 2
    play(s, "tiles Y2 P1 G3")
    assert troops(s, "rome") == [5, 4, 5, 3, 6, 4] and troops(s, "carthage") == [5, 5, 5, 4, 4, 3]
    play(s, "place rome Y2 P6 G4", "place carthage Y5 P3 G2")
    # Rome's two breaks (purple, green) are kept, Carthage's one (yellow) is cancelled
    assert s.current_player == "carthage" and legal(s) == removals("purple", "carthage", 3)
    play(s, "remove carthage purple 2,1")
    assert s.current_player == "carthage" and legal(s) == {
        "remove carthage green 2,2", "remove carthage green 3,1"}  # 4 and 3 tokens: neither may empty
    play(s, "remove carthage green 2,2")
    assert s.current_player == "rome" and legal(s) == removals("yellow", "rome", 2)
    play(s, "remove rome yellow 1,1")
    assert s.step == "offer" and s.current_player == "carthage"  # 7 removed against 2


# -- damage in play: I-4, equal removals ---------------------------------------------------------------

def test_a_removal_that_must_empty_a_formation_ends_the_game_before_later_fields() -> None:
    s = start("1,1,8,8,8,8", DEFAULT, "Y1 P2 G3")
    # yellow: rome takes 2 with 2 tokens in the field (k > a + b - 2); purple: carthage would take 2
    play(s, "place rome Y3 P7 G2", "place carthage Y4 P6 G3")
    assert s.is_over() and s.winner == "carthage" and s.current_player is None
    assert list(s.legal_moves()) == []
    assert s.total("carthage") == 34 and s.total("rome") == 34  # purple and green never resolved
    with pytest.raises(IllegalMoveError):
        s.parse_move("remove rome yellow 1,0")


def test_i4_boundary_the_last_safe_removal_and_the_first_fatal_one() -> None:
    s = start("2,2,8,8,7,7", DEFAULT, "Y1 P2 G3")
    play(s, "place rome Y3 P7 G2", "place carthage Y4 P6 G3")
    assert legal(s) == {"remove rome yellow 1,1"}  # k = 2 = a + b - 2: one way only
    play(s, "remove rome yellow 1,1", "remove carthage purple 1,1", "remove rome green 1,0", "pass")
    assert not s.is_over() and troops(s, "rome") == [1, 1, 8, 8, 6, 7]
    # purple first (Rome's kept break: carthage takes 4), then yellow: 2 > 2 - 2, Rome loses at once,
    # and green (carthage would take 1) is never resolved
    play(s, "place rome Y4 P5 G6", "place carthage Y7 P2 G5")
    assert s.current_player == "carthage"
    assert legal(s) == removals("purple", "carthage", 4) - {"remove carthage purple 0,4"}
    play(s, "remove carthage purple 2,2")
    assert s.is_over() and s.winner == "carthage" and troops(s, "carthage") == [6, 5, 3, 2, 6, 6]


def test_a_later_field_may_end_the_game_after_an_earlier_removal() -> None:
    s = start("8,8,8,8,1,1", DEFAULT, "Y1 P2 G3")
    play(s, "place rome Y3 P7 G2", "place carthage Y4 P6 G3")
    assert s.current_player == "rome" and legal(s) == removals("yellow", "rome", 1)
    play(s, "remove rome yellow 1,0", "remove carthage purple 1,1")  # green: 2 damage on 1 + 1 tokens
    assert s.winner == "carthage" and troops(s, "rome") == [7, 8, 8, 8, 1, 1]
    assert troops(s, "carthage") == [6, 5, 5, 4, 6, 6]


def test_no_draw_when_both_armies_removed_the_same() -> None:
    s = start()
    play(s, "place rome Y3 P5 G7", "place carthage Y4 P3 G7")  # yellow: rome 1, purple: carthage 1
    play(s, "remove rome yellow 1,0", "remove carthage purple 1,0")
    assert s.step == "place" and s.phase == 2 and s.current_player == "rome"
    for text in ("draw rome", "draw carthage", "pass"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)


def test_phase_1_cards_stay_shown_and_phase_2_uses_the_rest() -> None:
    s = start()
    play(s, "place rome Y3 P5 G7", "place carthage Y4 P3 G7", "remove rome yellow 1,0", "remove carthage purple 1,0")
    assert legal(s) == {f"place rome Y{a} P{b} G{c}" for a, b, c in permutations((2, 4, 6))}
    assert s.to_json()["shown"] == {"rome": {"yellow": 3, "purple": 5, "green": 7},
                                    "carthage": {"yellow": 4, "purple": 3, "green": 7}}
    with pytest.raises(IllegalMoveError):
        s.parse_move("place rome Y3 P6 G4")


def test_after_phase_2_the_tiles_are_reshuffled_and_hands_refilled() -> None:
    s = start()
    play(s, "place rome Y3 P5 G4", "place carthage Y4 P3 G5", "remove rome yellow 1,0",
         "remove carthage purple 1,0", "remove rome green 0,1", "pass")
    play(s, "place rome Y2 P6 G7", "place carthage Y2 P6 G7")  # all equal: no damage, no offer
    assert s.is_chance() and s.current_player is None and s.round == 2 and s.phase == 1
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 6 and sum(p for _, p in outcomes) == pytest.approx(1)
    play(s, "tiles Y3 P1 G2")
    assert len(s.legal_moves()) == 120


# -- New Orders ------------------------------------------------------------------------------------------

def rome_draws(rome: str = "6,6,1,9,6,6") -> State:
    """Rome takes 1 + 2 + 1 damage against none, and is offered the draw."""
    s = start(rome, DEFAULT, "Y1 P2 G3")
    play(s, "place rome Y2 P3 G4", "place carthage Y3 P4 G5")
    play(s, "remove rome yellow 1,0", "remove rome purple 0,2", "remove rome green 1,0")
    assert s.step == "offer" and legal(s) == {"draw rome", "pass"}
    return s


def test_the_draw_is_optional() -> None:
    s = play(rome_draws(), "pass")
    assert s.phase == 2 and s.step == "place"


def test_redeployment_one_token_twice_never_emptying() -> None:
    s = play(rome_draws(), "draw rome")
    assert s.is_chance() and s.current_player is None
    play(s, "card redeployment")
    assert troops(s, "rome") == [5, 6, 1, 7, 5, 6] and s.current_player == "rome"
    # purple.0 holds a single token: it may not step out, even if another would step in next
    for text in ("redeploy purple.0>purple.1", "redeploy purple.0>yellow.1"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)
    with pytest.raises(IllegalMoveError):
        s.parse_move("redeploy yellow.0>purple.0")  # not adjacent (I-2)
    play(s, "redeploy yellow.1>purple.0")  # across fields: adjacent in the line (I-2)
    assert "redeploy purple.0>purple.1" in legal(s)
    play(s, "redeploy purple.0>purple.1")  # the same token steps on
    assert troops(s, "rome") == [5, 5, 1, 8, 5, 6]
    assert s.step == "place" and s.phase == 2  # two steps used: the card is done
    assert s.total("rome") == 30


def test_redeployment_may_stop_after_one_step_or_none() -> None:
    s = play(rome_draws(), "draw rome", "card redeployment", "redeploy green.0>green.1", "pass")
    assert troops(s, "rome") == [5, 6, 1, 7, 4, 7] and s.step == "place"
    s = play(rome_draws(), "draw rome", "card redeployment", "pass")
    assert troops(s, "rome") == [5, 6, 1, 7, 5, 6] and s.step == "place"


def test_relief_in_place_swaps_two_formations() -> None:
    s = play(rome_draws(), "draw rome", "card relief")
    assert len(s.legal_moves()) == 15 + 1
    play(s, "relief green.1,purple.0")
    assert troops(s, "rome") == [5, 6, 6, 7, 5, 1] and s.step == "place"


def test_opportune_move_moves_first_then_may_draw() -> None:
    s = play(rome_draws(), "draw rome", "card opportune")
    assert "draw rome" not in legal(s) and "pass" in legal(s) and "redeploy yellow.1>purple.0" in legal(s)
    play(s, "redeploy yellow.1>purple.0")
    assert legal(s) == {"draw rome", "pass"}  # one step only, then the draw
    play(s, "draw rome")
    assert {str(m) for m, _ in s.chance_outcomes()} == {"card redeployment", "card relief", "card opportune",
                                                         "card deserter", "card general"}
    play(s, "card relief", "relief yellow.0,green.1")  # applied like a first draw
    assert troops(s, "rome") == [6, 5, 2, 7, 5, 5] and s.step == "place" and s.phase == 2


def test_opportune_move_declined_still_offers_the_draw() -> None:
    s = play(rome_draws(), "draw rome", "card opportune", "pass")
    assert legal(s) == {"draw rome", "pass"}
    play(s, "pass")
    assert troops(s, "rome") == [5, 6, 1, 7, 5, 6] and s.step == "place"


def test_deserter_the_opponent_takes_a_lone_token_and_wins() -> None:
    s = play(rome_draws(), "draw rome", "card deserter")
    assert s.current_player == "carthage"
    assert legal(s) == {f"deserter {f}" for f in FORMATIONS}  # mandatory: no pass
    play(s, "deserter purple.0")
    assert s.is_over() and s.winner == "carthage"


def test_deserter_otherwise_costs_one_token_and_reshuffles_all_ten_cards() -> None:
    s = play(rome_draws(), "draw rome", "card redeployment", "pass")  # a card in the discard pile
    # phase 2: carthage takes 3 in yellow (Rome's break), rome 2 + 2
    play(s, "place rome Y7 P6 G5", "place carthage Y2 P7 G6")
    play(s, "remove carthage yellow 1,2", "remove rome purple 0,2", "remove rome green 1,1", "draw rome")
    assert {str(m): p for m, p in s.chance_outcomes()}["card redeployment"] == pytest.approx(4 / 9)
    play(s, "card deserter", "deserter green.1")
    assert troops(s, "rome") == [5, 6, 1, 5, 4, 4] and not s.is_over()
    assert s.is_chance() and s.round == 2  # end of phase 2: the tiles next
    play(s, "tiles Y1 P2 G3", "place rome Y2 P3 G4", "place carthage Y3 P4 G5",
         "remove rome yellow 1,0", "remove rome purple 0,2", "remove rome green 1,1", "draw rome")
    odds = {str(m): p for m, p in s.chance_outcomes()}
    assert odds == pytest.approx({"card redeployment": 0.5, "card relief": 0.1, "card opportune": 0.2,
                                  "card deserter": 0.1, "card general": 0.1})


def test_renowned_general_in_phase_1_skips_phase_2_and_keeps_the_chosen_tiles() -> None:
    s = play(rome_draws(), "draw rome", "card general")
    assert s.current_player == "rome" and not s.is_chance() and len(legal(s)) == 6
    assert "tiles Y1 P2 G3" in legal(s)  # keeping the order is allowed
    play(s, "tiles Y3 P1 G2")
    assert s.round == 2 and s.phase == 1 and s.step == "place" and not s.is_chance()  # I-6: no reshuffle
    assert s.to_json()["tiles"] == {"yellow": 3, "purple": 1, "green": 2}
    assert len(s.legal_moves()) == 120  # all six cards back in hand
    # the chosen tiles decide the next order: purple (tile 1) before green (2) before yellow (3)
    play(s, "place rome Y2 P3 G4", "place carthage Y3 P4 G5")
    assert legal(s) == removals("purple", "rome", 2) - {"remove rome purple 2,0", "remove rome purple 1,1"}


def test_renowned_general_in_phase_2_ends_the_round_without_a_reshuffle() -> None:
    s = play(rome_draws(), "pass", "place rome Y7 P6 G5", "place carthage Y2 P7 G6",
             "remove carthage yellow 1,2", "remove rome purple 0,2", "remove rome green 1,1",
             "draw rome", "card general", "tiles Y2 P3 G1")
    assert s.round == 2 and s.phase == 1 and s.step == "place" and s.to_json()["tiles"]["green"] == 1


def test_an_empty_deck_offers_no_draw() -> None:
    """I-5. Play never empties the deck (the Deserter puts all ten back), so a saved position does."""
    s = start("6,6,1,9,6,6", DEFAULT)
    play(s, "place rome Y2 P3 G4")
    data = s.to_json()
    data["deck"] = {name: 0 for name in data["deck"]}
    data["discard"] = {"redeployment": 5, "relief": 1, "opportune": 2, "deserter": 0, "general": 1}
    empty = State.from_json(data)
    for state in (s, empty):
        play(state, "place carthage Y3 P4 G5", "remove rome yellow 1,0", "remove rome purple 0,2",
             "remove rome green 1,0")
    assert s.step == "offer"
    assert empty.step == "place" and empty.phase == 2
    with pytest.raises(IllegalMoveError):
        empty.parse_move("draw rome")


def test_an_empty_deck_after_opportune_move_offers_no_second_draw() -> None:
    s = play(rome_draws(), "draw rome", "card opportune")
    data = s.to_json()
    data["deck"] = {name: 0 for name in data["deck"]}
    data["discard"] = {"redeployment": 5, "relief": 1, "opportune": 2, "deserter": 0, "general": 1}
    empty = State.from_json(data)
    play(empty, "redeploy yellow.1>purple.0")
    assert empty.step == "place" and empty.phase == 2


# -- organisations ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("counts", ["0,6,7,7,7,7", "6,5,6,5,6,5", "6,5,6,5,6,7", "34,0,0,0,0,0", "-1,7,7,7,7,7"])
def test_organisation_must_be_six_formations_of_at_least_one_summing_to_34(counts: str) -> None:
    s = new_game()
    with pytest.raises(IllegalMoveError):
        s.parse_move(f"org rome {counts}")
    with pytest.raises(IllegalMoveError):
        s.apply(parse(f"org rome {counts}"))
    assert s.step == "org" and s.current_player == "rome"


def test_organisations_are_entered_rome_first_and_all_are_offered() -> None:
    s = new_game()
    assert s.current_player == "rome" and s.occupancy() == {}
    assert len(s.legal_moves()) == 237_336  # C(33, 5)
    assert parse("org rome 1,1,1,1,1,29") in s.legal_moves()
    with pytest.raises(IllegalMoveError):
        s.parse_move("org carthage 6,5,6,5,6,6")
    play(s, "org rome 1,1,1,1,1,29")
    assert s.current_player == "carthage"
    play(s, "org carthage 29,1,1,1,1,1")
    assert s.is_chance() and s.occupancy()["rome:green.1"] == ("rome", 29)
    assert s.occupancy()["carthage:yellow.0"] == ("carthage", 29) and len(s.occupancy()) == 12


# -- notation --------------------------------------------------------------------------------------------

CANONICAL = ["org rome 6,5,6,5,6,6", "org carthage 1,1,1,1,1,29", "tiles Y2 P1 G3", "place rome Y7 P2 G4",
             "place carthage Y2 P3 G5", "remove carthage yellow 3,1", "remove rome green 0,4", "draw carthage",
             "draw rome", "pass", "card redeployment", "card relief", "card opportune", "card deserter",
             "card general", "redeploy yellow.1>purple.0", "redeploy green.1>green.0",
             "relief yellow.0,green.1", "deserter purple.1"]


@pytest.mark.parametrize("text", CANONICAL)
def test_notation_round_trips(text: str) -> None:
    move = parse(text)
    assert isinstance(move, Move) and str(move) == text and parse(str(move)) == move
    assert hash(parse(text)) == hash(move)


def test_notation_accepts_fields_in_any_order_and_writes_them_y_p_g() -> None:
    assert str(parse("tiles G3 Y2 P1")) == "tiles Y2 P1 G3"
    assert str(parse("place rome G4 Y7 P2")) == "place rome Y7 P2 G4"
    assert parse("relief green.1,yellow.0") == parse("relief yellow.0,green.1")
    assert parse("  pass ") == parse("pass")


@pytest.mark.parametrize("text", ["", "   ", "org rome 6,5,6", "org rome 6,5,6,5,6,x", "org gaul 6,5,6,5,6,6",
                                  "place rome Y7 Y2 G4", "place rome Y7 P2", "place rome Y7 P2 B4",
                                  "remove carthage red 3,1", "remove carthage yellow 3", "draw", "draw gaul",
                                  "redeploy yellow.1-purple.0", "redeploy yellow.2>purple.0", "card joker",
                                  "deserter", "deserter pink.0", "pass now", "tiles Y1 P2", "tiles Y10 P2 G3",
                                  "relief yellow.0", "attack rome"])
def test_malformed_text_is_an_invalid_move(text: str) -> None:
    for state in (new_game(), start()):
        with pytest.raises(InvalidMoveError):
            state.parse_move(text)
    with pytest.raises(ValueError):
        parse(text)


def test_well_formed_but_illegal_moves() -> None:
    s = start()
    for text in ("place carthage Y2 P3 G4", "place rome Y7 P7 G4", "draw rome", "pass", "remove rome yellow 1,0",
                 "tiles Y1 P2 G3", "card general", "redeploy yellow.0>yellow.1", "org rome 6,5,6,5,6,6"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)
        with pytest.raises(IllegalMoveError):
            s.apply(parse(text))
    play(s, "place rome Y3 P5 G7")
    with pytest.raises(IllegalMoveError):
        s.parse_move("place rome Y2 P6 G7")  # placed already; carthage's turn
    play(s, "place carthage Y4 P3 G7")
    with pytest.raises(IllegalMoveError):
        s.parse_move("remove rome yellow 2,0")  # 1 damage due
    with pytest.raises(IllegalMoveError):
        s.parse_move("remove carthage purple 1,0")  # yellow (tile 1) first


def test_chance_outcomes_parse_only_at_their_chance_node() -> None:
    s = play(new_game(), "org rome 6,5,6,5,6,6", "org carthage 6,5,6,5,6,6")
    assert s.is_chance() and s.current_player is None and list(s.legal_moves()) == []
    with pytest.raises(IllegalMoveError):
        s.parse_move("card general")
    with pytest.raises(IllegalMoveError):
        s.parse_move("tiles Y1 P1 G3")
    assert s.parse_move("tiles G1 P3 Y2") == parse("tiles Y2 P3 G1")


# -- JSON ------------------------------------------------------------------------------------------------

def test_json_round_trip_is_exact_including_hidden_cards() -> None:
    s = play(rome_draws(), "draw rome", "card opportune")
    data = json.loads(json.dumps(s.to_json()))
    t = State.from_json(data)
    assert t == s and t.to_json() == s.to_json()
    assert {str(m) for m in t.legal_moves()} == legal(s)
    hidden = play(start(), "place rome Y7 P2 G4")
    back = State.from_json(hidden.to_json())
    assert back.pending_placement("rome") == {"yellow": 7, "purple": 2, "green": 4}
    play(back, "place carthage Y6 P3 G2")
    # green first (Rome's 4 doubles Carthage's 2): carthage takes 3
    assert back.current_player == "carthage" and legal(back) == removals("green", "carthage", 3)


def _removal_due() -> dict[str, Any]:
    data = play(start(), "place rome Y3 P5 G7", "place carthage Y4 P3 G7").to_json()
    assert State.from_json(data).step == "remove"
    return data


@pytest.mark.parametrize(("path", "value"), [
    (("game",), "hannibal"), (("step",), "battle"), (("round",), 0), (("phase",), 3), (("tiles", "yellow"), 2),
    (("troops", "rome", "yellow.0"), 0), (("troops", "carthage"), {"yellow.0": 6}), (("hands", "rome"), [2, 2, 6]),
    (("placed", "carthage", "green"), 8), (("placed", "carthage", "green"), 3), (("shown", "rome"), 5),
    (("shown", "rome"), {"yellow": 3}), (("plan",), [["red", "rome", 1, False]]),
    (("plan",), [["yellow", "rome", 5, False]]), (("plan",), []), (("removed", "rome"), -1),
    (("winner",), "carthage"), (("drawer",), "gaul"), (("deck", "deserter"), 2),
    (("discard", "redeployment"), 1), (("moves_left",), 3),
])
def test_from_json_rejects_corrupted_states(path: tuple[str, ...], value: object) -> None:
    data = _removal_due()
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(ValueError):
        State.from_json(data)


def test_from_json_rejects_a_pending_removal_that_must_empty_a_formation() -> None:
    data = _removal_due()
    data["troops"]["rome"].update({"yellow.0": 1, "yellow.1": 1})
    with pytest.raises(ValueError, match="plan"):
        State.from_json(data)  # the engine ends such a game at once: it never waits for this removal


def test_from_json_rejects_an_offer_nobody_may_take() -> None:
    s = rome_draws()
    data = s.to_json()
    assert State.from_json(data) == s
    data["removed"] = {"rome": 4, "carthage": 4}
    with pytest.raises(ValueError, match="removed"):
        State.from_json(data)
    with pytest.raises(ValueError):
        State.from_json([1, 2, 3])  # type: ignore[arg-type]


# -- hidden information ----------------------------------------------------------------------------------

def test_determinize_hides_romes_pending_cards_from_carthage() -> None:
    s = start()
    play(s, "place rome Y3 P5 G7", "place carthage Y4 P3 G7", "remove rome yellow 1,0", "remove carthage purple 1,0")
    play(s, "place rome Y6 P2 G4")
    before = s.to_json()
    seen = set()
    for seed in range(20):
        d = s.determinize("carthage", random.Random(seed))
        data = d.to_json()
        placed = data["placed"]["rome"]
        seen.add(tuple(placed.values()))
        assert sorted(placed.values()) == [2, 4, 6]  # phase 2: the three cards left after the shown ones
        for key in ("troops", "tiles", "shown", "round", "phase", "step", "deck", "removed"):
            assert data[key] == before[key], key
        assert data["hands"]["carthage"] == before["hands"]["carthage"]
        assert d.current_player == "carthage"
    assert len(seen) > 1 and s.to_json() == before  # resampled, and the real state untouched
    assert s.determinize("rome", random.Random(0)).to_json() == before  # nothing hidden from Rome


def test_determinize_in_phase_1_and_at_setup() -> None:
    s = play(start(), "place rome Y7 P2 G4")
    placements = set()
    for seed in range(10):
        data = s.determinize("carthage", random.Random(seed)).to_json()
        placed = list(data["placed"]["rome"].values())
        assert sorted(data["hands"]["rome"] + placed) == list(CARDS)  # a hand Rome could hold
        assert data["hands"]["carthage"] == list(CARDS) and data["troops"] == s.to_json()["troops"]
        placements.add(tuple(placed))
    assert len(placements) > 1
    setup = play(new_game(), "org rome 1,1,1,1,1,29")
    orgs = {tuple(setup.determinize("carthage", random.Random(seed)).to_json()["troops"]["rome"].values())
            for seed in range(5)}
    assert len(orgs) > 1 and all(sum(o) == 34 and min(o) >= 1 for o in orgs)
    assert setup.to_json()["troops"]["rome"]["green.1"] == 29


# -- bots ------------------------------------------------------------------------------------------------

def test_heuristic_beats_random_in_at_least_80_percent_of_20_games() -> None:
    wins = 0
    for seed in range(20):
        heuristic, rand = HeuristicBot(random.Random(seed)), RandomBot(random.Random(seed + 1000))
        seat = "rome" if seed % 2 == 0 else "carthage"
        bots = {seat: heuristic, "carthage" if seat == "rome" else "rome": rand}
        record = play_game(new_game(), bots, random.Random(seed))
        wins += record.state.winner == seat
    assert wins >= 16


def test_mcts_with_a_tiny_budget_plays_legal_whole_games_and_beats_random() -> None:
    """Fuller MCTS figures come from ``python -m bench.strength --game scipio``; 8 iterations keep this fast."""
    for seed in range(3):
        seat = "rome" if seed % 2 == 0 else "carthage"
        bots = {seat: MCTSBot(random.Random(seed), 8),
                "carthage" if seat == "rome" else "rome": RandomBot(random.Random(seed + 1000))}
        record = play_game(new_game(), bots, random.Random(seed))
        assert record.state.winner == seat
        replay = new_game()
        for move in record.moves:
            replay.apply(replay.parse_move(str(move)))
        assert replay == record.state
