"""Every rule of shared/rules/cannonball.md, with the source text's own scenarios, one test or more each."""

from __future__ import annotations

import pytest

from engines.base import IllegalMoveError
from engines.cannonball import LOCATIONS, State, new_game
from engines.cannonball.board import (
    BOX_NAMES,
    FORT_OF,
    GATE_PAIRS,
    GATE_SECTION,
    HOME,
    NEIGHBOURS,
    SECTION_OF,
    SECTIONS,
    SITE_ENDS,
    STARS,
    box,
    mirror,
)
from engines.cannonball.positions import position

B, G = "blue", "gray"


def pos(blue: tuple[str, ...] = (), gray: tuple[str, ...] = (), **kw: object) -> State:
    """A position with one trooper guarding each fort, so no turn end finds a fort deserted."""
    return position(("a1", *blue), ("l19", *gray), **kw)  # type: ignore[arg-type]


def play(s: State, *texts: str) -> State:
    for text in texts:
        s.apply(s.parse_move(text))
    return s


def legal(s: State) -> set[str]:
    return {str(m) for m in s.legal_moves()}


def pieces(s: State, side: str) -> set[str]:
    return {name for name, (owner, kind) in s.to_json()["boxes"].items() if owner == side}


# -- the battlefield --------------------------------------------------------------------------------------


def test_board_has_216_boxes_16_sections_and_226_locations() -> None:
    assert len(BOX_NAMES) == 216 and "c10" not in BOX_NAMES and len(SECTIONS) == 16
    assert len(LOCATIONS) == len(set(LOCATIONS)) == 226
    assert {"box:c4", "bridge:b", "gate:east"} <= set(LOCATIONS)
    assert [SECTIONS[s] for s in GATE_SECTION] == ["D1", "A3", "A6", "D4"]


def test_board_is_point_symmetric() -> None:
    assert mirror(box("a1")) == box("l19") and mirror(box("b9")) == box("k11")
    for i in range(216):
        j = mirror(i)
        assert FORT_OF[j] == (-1 if FORT_OF[i] < 0 else 1 - FORT_OF[i])
        assert (SECTION_OF[i] < 0) == (SECTION_OF[j] < 0)
        assert {mirror(n) for n in NEIGHBOURS[i]} == set(NEIGHBOURS[j])
        assert (i in HOME[0]) == (j in HOME[1])
    assert {mirror(b) for b in STARS[0]} == set(STARS[1])
    assert [{(mirror(a), mirror(b)) for a, b in pairs} for pairs in GATE_PAIRS[:2]] == \
        [set(pairs) for pairs in GATE_PAIRS[2:]]
    assert {frozenset(map(mirror, ends)) for ends in SITE_ENDS} == {frozenset(ends) for ends in SITE_ENDS}


def test_setup_forts_full_gates_open_bridges_up() -> None:
    s = new_game()
    data = s.to_json()
    assert len(pieces(s, B)) == len(pieces(s, G)) == 35
    assert data["boxes"]["d2"] == [B, "cannon"] and data["boxes"]["k15"] == [G, "cannon"]
    assert "c4" not in data["boxes"] and "j16" not in data["boxes"] and data["boxes"]["c3"] == [B, "trooper"]
    assert set(data["gates"].values()) == {"open"} and set(data["bridges"].values()) == {"up"}
    assert data["tnt"] == {B: 5, G: 5} and data["mines"] == {} and data["budget"] is None
    assert data["winner"] is None and data["drawn"] is False and data["turn"] == 0
    occ = s.occupancy()
    assert len(occ) == 70 + 6 and occ["bridge:g"] == (B, 1) and occ["bridge:b"] == (G, 1)
    assert "gate:east" not in occ and occ["box:d2"] == (B, 1)


def test_occupancy_shows_closed_gates_and_standing_bridges_only() -> None:
    s = pos(gates={"east": "open"}, bridges={"d": "down"})
    occ = s.occupancy()
    assert occ["gate:north"] == (B, 1) and occ["gate:west"] == (G, 1) and "gate:east" not in occ
    assert "bridge:d" not in occ and occ["bridge:i"] == (B, 1)


# -- the spin-off and the turn ------------------------------------------------------------------------------


def test_spin_off_higher_spinner_marches_his_number() -> None:
    s = new_game()
    assert s.is_chance() and s.current_player is None
    assert legal(s) == {f"spin blue {n}" for n in range(1, 13)}
    play(s, "spin blue 4")
    assert legal(s) == {f"spin gray {n}" for n in range(1, 13)}
    play(s, "spin gray 9")
    assert s.current_player == G and s.budget == 9 and s.turn == 0 and "march" not in legal(s)


def test_spin_off_tie_spins_again() -> None:
    s = play(new_game(), "spin blue 6", "spin gray 6")
    assert s.is_chance() and legal(s) == {f"spin blue {n}" for n in range(1, 13)}
    play(s, "spin blue 8", "spin gray 2")
    assert s.current_player == B and s.budget == 8


def test_turn_choices_march_spin_and_budget() -> None:
    s = pos(gates={"east": "open"})
    assert legal(s) == {"march", "close east", "open north"}
    play(s, "march")
    assert s.is_chance() and s.budget is None and len(s.chance_outcomes()) == 12
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1)
    play(s, "spin 2")
    assert s.budget == 2 and s.current_player == B
    play(s, "a1-a2", "a2-a3")
    assert legal(s) == {"end"}
    play(s, "end")
    assert s.current_player == G and s.turn == 1 and s.budget is None


def test_a_gate_move_is_the_whole_turn() -> None:
    s = play(pos(gates={"east": "open"}), "close east")
    assert s.to_json()["gates"]["east"] == "closed" and s.current_player == G and s.turn == 1


def test_end_is_legal_at_any_budget_and_unused_moves_are_lost() -> None:
    s = play(pos(budget=12), "end")
    assert s.current_player == G and s.budget is None


# -- steps, walls, gates, bridges --------------------------------------------------------------------------


def test_trooper_steps_to_eight_neighbours_but_not_through_walls() -> None:
    s = pos(("e5", "c4"), budget=3)
    assert {m for m in legal(s) if m.startswith("e5-")} == {f"e5-{b}" for b in
                                                         ("d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6")}
    assert "c4-d4" not in legal(s) and "c4-d5" not in legal(s)  # the fort wall
    with pytest.raises(IllegalMoveError):
        play(s, "c4-d4")


def test_gates_are_crossed_orthogonally_and_only_while_not_closed() -> None:
    s = pos(("i2",), budget=3, gates={"east": "open"})
    assert "i2-j2" in legal(s) and "i2-j1" not in legal(s) and "i2-j3" not in legal(s)
    with pytest.raises(IllegalMoveError):
        play(s, "i2-j3")
    assert "i2-j2" not in legal(pos(("i2",), budget=3))


def test_pieces_never_enter_occupied_boxes() -> None:
    s = pos(("e5", "e6"), ("e4",), budget=3)
    assert "e5-e6" not in legal(s) and "e5-e4" not in legal(s)


def test_crossing_costs_two_and_needs_a_standing_bridge_and_an_empty_far_box() -> None:
    s = pos(("d9",), budget=1)
    assert "d9=d11" not in legal(s)
    s = pos(("d9",), budget=2)
    play(s, "d9=d11")
    assert s.budget == 0 and s.at("d11") == (B, "trooper")
    assert "d9=d11" not in legal(pos(("d9",), budget=5, bridges={"d": "down"}))
    assert "d9=d11" not in legal(pos(("d9",), ("d11",), budget=5))
    assert "c9=c11" not in legal(pos(("c9",), budget=5))


def test_blew_right_after_a_crossing_ends_the_march() -> None:
    s = pos(("d9", "e9"), ("f19",), budget=6, mines={"d": (G, "d11")}, tnt=(5, 4))
    play(s, "d9=d11")
    assert "blew d" in legal(s)
    play(s, "blew d")
    assert s.at("d11") is None and s.to_json()["bridges"]["d"] == "down" and s.to_json()["mines"] == {}
    assert s.current_player == G and legal(s) != {"shoot d odd", "shoot d even"}  # nothing owed any more
    s = play(pos(("d9", "e9"), budget=6), "d9=d11", "e9-e8")
    assert "blew d" not in legal(s)


# -- attacks -----------------------------------------------------------------------------------------------


def test_four_attack_three_and_the_fourth_must_leave() -> None:
    s = pos(("d6", "e6", "f6", "g9"), ("d8", "e8", "f8"), budget=6)
    play(s, "d6-d7", "e6-e7", "f6-f7")
    assert pieces(s, G) >= {"d8", "e8", "f8"}  # three against three is not enough
    play(s, "g9-f9")
    assert pieces(s, G) == {"l19"}  # the attack succeeds the moment it is strong enough
    play(s, "f9-g9", "end")
    assert pieces(s, B) == {"a1", "d7", "e7", "f7", "g9"}


def test_a_fourth_that_does_not_leave_is_lost_to_the_limit() -> None:
    s = play(pos(("d6", "e6", "f6", "g9"), ("d8", "e8", "f8"), budget=6), "d6-d7", "e6-e7", "f6-f7", "g9-f9",
             "end")
    assert pieces(s, B) == {"a1", "d7", "e7", "f7"}


def test_cannon_and_two_escorts_beat_three() -> None:
    s = pos(("C e5", "d5", "f5"), ("d8", "e8", "f8"), budget=1)
    play(s, "C e5-e7 +d5-d7 +f5-f9")
    assert pieces(s, G) == {"l19"} and s.budget == 0
    play(s, "end")
    assert pieces(s, B) == {"a1", "e7", "d7", "f9"}


def test_cannon_and_two_do_not_beat_three_with_a_cannon_and_are_lost() -> None:
    s = play(pos(("C e5", "d5", "f5"), ("d8", "e8", "C f8", "e9"), budget=3), "C e5-e7 +d5-d7 +f5-f9")
    assert pieces(s, G) >= {"d8", "e8", "f8", "e9"}
    assert "d7-d6" not in legal(s) and "d7-c7" not in legal(s)  # no leaving a contested section
    with pytest.raises(IllegalMoveError):
        play(s, "d7-d6")
    play(s, "end")
    assert pieces(s, B) == {"a1"} and pieces(s, G) >= {"d8", "e8", "f8", "e9"}


def test_cannon_and_one_more_beat_a_cannon_and_troopers() -> None:
    s = pos(("C e5", "d5", "f5", "g8"), ("d8", "C e8"), budget=3)
    play(s, "C e5-e7 +d5-d7 +f5-f9")  # k=1, a=2 against t=1, c=1: enough
    assert pieces(s, G) == {"l19"}


def test_lone_cannon_is_captured_by_one_trooper() -> None:
    s = play(pos(("d6",), ("C e8",), budget=2), "d6-d7")
    assert s.at("e8") == (B, "cannon")
    play(s, "end")
    assert s.at("e8") == (B, "cannon")


def test_a_cannon_alone_does_not_capture_a_cannon() -> None:
    s = pos(("C b6",), ("C a8",), budget=3, gates={"north": "open"})
    play(s, "C b6-b7")
    assert s.at("a8") == (G, "cannon")
    play(s, "end")
    assert s.at("b7") is None and s.at("a8") == (G, "cannon")


def test_failed_attack_costs_exactly_the_entrants() -> None:
    s = play(pos(("d6", "e6", "f5"), ("d8", "e8", "f8"), budget=5), "d6-d7", "e6-e7", "f5-f6")
    play(s, "end")
    assert pieces(s, B) == {"a1", "f6"}


def test_one_more_trooper_beats_troopers() -> None:
    s = play(pos(("d6", "e6"), ("e8",), budget=2), "d6-d7")
    assert s.at("e8") == (G, "trooper")
    play(s, "e6-e7")
    assert s.at("e8") is None


# -- cannons ------------------------------------------------------------------------------------------------


def test_cannon_moves_section_to_section_only_with_escort_or_passed() -> None:
    s = pos(("C e5", "d5"), budget=3)
    assert not [m for m in legal(s) if m.startswith("C")]  # one trooper: neither escorted nor passed
    s = pos(("C e5", "d5", "f5", "e7", "f7"), budget=3)
    cannon = [m for m in legal(s) if m.startswith("C e5-")]
    assert "C e5-e8" in cannon  # passed: two troopers here and two in B3
    assert "C e5-e4" not in cannon and "C e5-h5" not in cannon  # C2 holds no troopers: escorts only
    assert "C e5-h5 +d5-g5 +f5-g6" in cannon and "C e5-h5 +f5-g6 +d5-g5" in cannon
    assert "C e5-e6" not in cannon  # a cannon outside a fort never moves within its section
    assert not [m for m in cannon if "e7" in m or "f7" in m]  # every box entered must be empty


def test_escorted_cannon_costs_one_and_escorts_enter_in_the_order_written() -> None:
    s = play(pos(("C e5", "d5", "f5", "d6"), budget=3), "C e5-h5 +d5-g5 +f5-i5")
    assert s.budget == 2 and s.to_json()["march"]["entered"] == {"h5": 0, "g5": 1, "i5": 2}


def test_cannon_crosses_a_standing_bridge_as_a_section_move() -> None:
    s = pos(("C e8", "d8", "f8"), budget=1)
    assert "C e8-e12 +d8-d12 +f8-f12" in legal(s)
    s = pos(("C e8", "d8", "f8"), budget=1, bridges={"d": "down", "f": "down"})
    assert not [m for m in legal(s) if m.startswith("C e8-e12")]


def test_cannon_in_a_fort_steps_box_to_box_and_out_through_an_open_gate() -> None:
    s = pos(("C h2",), budget=3, gates={"east": "open"})
    assert {m for m in legal(s) if m.startswith("C")} >= {"C h2-i2", "C h2-g1", "C h2-i3"}
    play(s, "C h2-i2", "C i2-j2")
    assert s.at("j2") == (B, "cannon")
    assert "C j2-i2" in legal(s)


def test_at_most_one_cannon_per_section_the_later_is_removed() -> None:
    s = pos(("C e5", "d5", "f5", "C h5", "g4", "i4"), budget=3)
    play(s, "C e5-g6 +d5-h6 +f5-i6", "end")
    # C2 ends with two cannons and four troopers: the cannon that entered goes, and the last trooper in
    assert s.at("g6") is None and s.at("h5") == (B, "cannon")
    assert pieces(s, B) == {"a1", "h5", "g4", "i4", "h6"}


# -- limits -------------------------------------------------------------------------------------------------


def test_moving_through_a_full_section_is_free() -> None:
    s = play(pos(("d4", "e4", "f4", "c7"), budget=5), "c7-d6", "d6-e7", "end")
    assert pieces(s, B) == {"a1", "d4", "e4", "f4", "e7"}


def test_limit_removes_the_last_to_enter_first() -> None:
    s = play(pos(("d4", "e4", "g5", "g6"), budget=3), "g6-f6", "g5-f5", "end")
    assert pieces(s, B) == {"a1", "d4", "e4", "f6"}


def test_five_may_stay_in_a_gate_section() -> None:
    s = play(pos(("j1", "k1", "l1", "j2", "k4"), budget=3, gates={"east": "closed"}), "k4-k3", "end")
    assert len(pieces(s, B)) == 6


# -- TNT ----------------------------------------------------------------------------------------------------


def test_tnt_on_a_bridge_needs_two_troopers_one_on_the_end() -> None:
    assert "tnt d9" in legal(pos(("d9", "f7"), budget=3))
    assert "tnt d9" not in legal(pos(("d9",), budget=3))
    assert "tnt d9" not in legal(pos(("d9", "C f7"), budget=3))
    assert "tnt d9" not in legal(pos(("d9", "f7"), budget=3, tnt=(0, 5)))
    assert "tnt d9" not in legal(pos(("d9", "f7"), budget=3, mines={"d": (G, "d11")}, tnt=(5, 4)))


def test_troopers_left_in_the_tnt_section_are_lost_then_the_shot_is_owed() -> None:
    s = pos(("d9", "f9", "e8", "C f7"), budget=4)
    assert "tnt f9" in legal(s)
    play(s, "tnt d9")
    assert "tnt f9" not in legal(s)  # one bridge TNT a march
    play(s, "d9-c9", "end")
    assert pieces(s, B) == {"a1", "c9", "f7"} and s.to_json()["tnt"][B] == 4  # I-7: e8 lost, the cannon stays
    assert s.to_json()["mines"] == {"d": {"owner": B, "end": "d9"}}
    play(s, "march", "spin 1", "end")
    assert legal(s) == {"shoot d odd", "shoot d even"}


def test_shot_that_matches_blows_the_bridge_and_kills_both_sides_at_that_end() -> None:
    s = pos(("e7", "C f8", "f11"), ("d8", "e9", "d12"), mines={"d": (B, "d9")}, tnt=(4, 5))
    play(s, "shoot d odd")
    assert s.is_chance() and s.to_json()["pending"] == "shoot d odd"
    play(s, "spin 7")
    assert s.to_json()["bridges"]["d"] == "down" and s.to_json()["mines"] == {}
    assert pieces(s, B) == {"a1", "f11"} and pieces(s, G) == {"l19", "d12"}
    assert s.current_player == G


def test_shot_that_misses_loses_the_tnt() -> None:
    s = play(pos(("e7",), ("d8",), mines={"d": (B, "d9")}, tnt=(4, 5)), "shoot d odd", "spin 4")
    assert s.to_json()["bridges"]["d"] == "up" and s.to_json()["mines"] == {} and s.to_json()["tnt"][B] == 4
    assert pieces(s, G) == {"l19", "d8"}


def test_gate_tnt_wins_when_two_leave() -> None:
    five = ("j13", "k13", "l12", "j12", "j11")
    s = pos(five, budget=3)
    play(s, "tnt gate south", "j12-i12", "j11-i11", "end")
    assert s.winner == B and s.is_over() and s.to_json()["gates"]["south"] == "destroyed"
    assert len(s.legal_moves()) == 0 and s.current_player is None


def test_gate_tnt_is_spent_for_nothing_when_only_one_leaves() -> None:
    s = play(pos(("j13", "k13", "l12", "j12", "j11"), budget=3), "tnt gate south", "j12-i12", "end")
    assert s.winner is None and s.to_json()["tnt"][B] == 4 and s.to_json()["gates"]["south"] == "closed"


def test_gate_tnt_needs_five_a_closed_gate_and_a_trooper_at_the_gate() -> None:
    assert "tnt gate south" not in legal(pos(("j13", "k13", "l12", "j12"), budget=3))
    assert "tnt gate south" not in legal(pos(("j12", "k12", "l12", "j11", "k11"), budget=3))
    assert "tnt gate south" not in legal(pos(("j13", "k13", "l12", "j12", "j11"), budget=3,
                                             gates={"south": "open"}))


# -- odd/even actions ---------------------------------------------------------------------------------------


def test_storm_with_a_cannon_and_three_wins_on_a_match() -> None:
    s = pos(("C k12", "j12", "l12", "k11"))
    assert {"storm south odd", "storm south even"} <= legal(s)
    play(s, "storm south even", "spin 8")
    assert s.winner == B and s.to_json()["gates"]["south"] == "destroyed"


def test_storm_that_misses_ends_the_turn() -> None:
    s = play(pos(("C k12", "j12", "l12", "k11")), "storm south even", "spin 3")
    assert s.winner is None and s.current_player == G and s.turn == 1
    assert "storm south odd" not in legal(pos(("C k12", "j12", "l12")))


def test_rebuild_needs_three_at_one_end() -> None:
    s = pos(("d7", "e7", "f7"), bridges={"f": "down"})
    assert {"rebuild f odd", "rebuild f even"} <= legal(s)
    play(s, "rebuild f odd", "spin 9")
    assert s.to_json()["bridges"]["f"] == "up"
    assert "rebuild f odd" not in legal(pos(("d7", "e7"), bridges={"f": "down"}))


# -- forts --------------------------------------------------------------------------------------------------


def test_inside_a_fort_troopers_take_enemy_pieces_by_stepping_on_them() -> None:
    s = pos(("j18",), ("k18", "C j17"), budget=3, to_move=B)
    play(s, "j18-k18", "k18-j17")
    assert pieces(s, G) == {"l19"}


def test_entering_a_fort_through_a_gate_needs_an_empty_box() -> None:
    s = pos(("j1",), ("i1",), budget=3, gates={"east": "open"})
    assert "j1-i1" not in legal(s)


def test_a_cannon_never_captures_in_a_fort() -> None:
    assert "C h2-i2" not in legal(pos(("C h2",), ("i2",), budget=3))


# -- winning ------------------------------------------------------------------------------------------------


def test_open_gate_win_with_five_troopers() -> None:
    s = play(pos(("j11", "k11", "l11", "j12", "i12"), budget=2, gates={"south": "open"}), "i12-i11", "end")
    assert s.winner is None  # four
    s = play(pos(("j11", "k11", "l11", "j12", "i12"), budget=2, gates={"south": "open"}), "i12-j13", "end")
    assert s.winner == B


def test_open_gate_win_with_a_cannon_and_three() -> None:
    s = play(pos(("C h12", "g12", "i12", "j11"), budget=1, gates={"south": "open"}),
             "C h12-k12 +g12-j12 +i12-l12", "end")
    assert s.winner == B
    s = play(pos(("C h12", "g12", "i12", "j11"), budget=1), "C h12-k12 +g12-j12 +i12-l12", "end")
    assert s.winner is None


def test_deserted_fort_loses_the_opponent_checked_first() -> None:
    s = position(("a1", "i11", "i12"), ("k12",), budget=4)
    play(s, "i11-j11", "i12-j12")  # two against the lone defender of the south gate section: wiped out
    assert s.winner is None
    play(s, "end")
    assert s.winner == B
    s = position(("j1", "e5"), ("l19",), budget=3)
    play(s, "j1-k2", "k2-k3", "k3-k4", "end")  # blue's last trooper at home walked out
    assert s.winner == G


def test_turn_limit_ends_the_game_drawn() -> None:
    s = pos(turn=4, turn_limit=5)
    play(s, "march", "spin 1", "end")
    assert s.is_over() and s.drawn and s.winner is None and s.current_player is None
    assert len(s.legal_moves()) == 0 and s.returns() == {B: 0.5, G: 0.5}
    with pytest.raises(ValueError, match="turn_limit"):
        new_game(turn_limit=0)


# -- the engine's interpretations (package docstring) --------------------------------------------------------


def test_i9_a_captured_cannon_counts_as_the_earliest() -> None:
    s = play(pos(("C e5", "d5", "f5"), ("C e8",), budget=2), "C e5-e7 +d5-d7 +f5-f7")
    assert s.at("e8") == (B, "cannon") and s.at("e7") == (B, "cannon")
    play(s, "end")
    assert s.at("e8") == (B, "cannon") and s.at("e7") is None  # the cannon that entered goes


def test_i11_no_bridge_tnt_after_a_gate_tnt_in_the_same_march() -> None:
    five = ("j13", "k13", "l12", "j12", "j11", "k9", "l8")
    s = play(pos(five, budget=4), "tnt gate south")
    assert "tnt k9" not in legal(s)
    s = play(pos(five, budget=4), "tnt k9")
    assert "tnt gate south" in legal(s)


def test_i12_escorts_land_on_boxes_empty_before_the_move() -> None:
    s = pos(("C f5", "d5", "e5", "d7", "e7"), ("d8", "e8"), budget=2)
    assert "C f5-f7 +d5-d8 +e5-e9" not in legal(s)
    play(s, "C f5-f7 +d5-d9 +e5-e9")  # k=1, a=4 against two troopers
    assert pieces(s, G) == {"l19"}


def test_i13_among_pieces_that_did_not_enter_the_higher_box_goes_first() -> None:
    s = play(pos(("d4", "e4", "f4", "d5"), budget=1), "end")
    assert pieces(s, B) == {"a1", "d4", "e4", "f4"}


def test_i15_to_move_stays_with_the_winner() -> None:
    s = play(pos(("C k12", "j12", "l12", "k11")), "storm south odd", "spin 1")
    assert s.winner == B and s.to_json()["to_move"] == B


def test_i18_tnt_in_a_contested_section_and_a_storm_on_an_open_gate() -> None:
    assert "tnt d9" in legal(pos(("d9", "f7"), ("e8", "d8", "f8"), budget=2))
    assert "storm south odd" in legal(pos(("C k12", "j12", "l12", "k11"), gates={"south": "open"}))
