"""Factional Hannibal rules (shared/rules/factional.md) through the public API: every worked example, each
"Exact bookkeeping" rule on its own, the Honor arithmetic, illegal events and their messages, and a
whole nine-turn game played from a script. The helpers at the top are shared by the other
``test_factional_*`` modules."""

from __future__ import annotations

from itertools import zip_longest

import pytest

from engines.base import IllegalMoveError, InvalidMoveError
from engines.factional import FACTIONS, PROVINCES, Play, State, new_game, parse

RS, RC, CS, CC = FACTIONS


def play(state: State, *events: str) -> State:
    """Apply events written in the notation (the die's outcome parses like any other event)."""
    for text in events:
        state.apply(state.parse_move(text))
    return state


def honor(state: State) -> tuple[int, ...]:
    """Honor as rome-silver / rome-copper / carthage-silver / carthage-copper, as the digest writes it."""
    totals = state.honor()
    return tuple(totals[f] for f in FACTIONS)


def plays(*factions: str) -> list[str]:
    return [f"play {f}" for f in factions]


def alternate(first: list[str], second: list[str]) -> list[str]:
    """Two sides' events taken in turn, the longer list's rest one after another."""
    return [e for pair in zip_longest(first, second) for e in pair if e is not None]


def in_cards(first: str = "rome") -> State:
    """Turn 1's card play, ``first`` side to play."""
    return play(new_game(), "reinforced", f"initiative {first}")


def legal(state: State) -> set[str]:
    """The listed legal events other than ``control`` and ``battle`` (always there until the end)."""
    return {str(m) for m in state.legal_moves() if str(m).split()[0] not in ("control", "battle")}


def finish_turn(state: State) -> State:
    """Play out the turn's remaining cards, each side's silver faction first while it has cards."""
    turn = state.turn
    while state.turn == turn and state.playing is not None:
        silver, copper = (f"{state.playing}-silver", f"{state.playing}-copper")
        play(state, f"play {silver if state.cards[silver] else copper}")
    return state


# -- the digest's worked examples, in one game -------------------------------------------------------------

def test_worked_examples_1_to_8() -> None:
    s = new_game()
    assert honor(s) == (8, 6, 3, 9)  # 1
    assert s.dominant == {"rome": RS, "carthage": CC}
    play(s, "control celtiberia carthage-copper")
    assert honor(s) == (8, 6, 2, 10)  # 2
    play(s, "battle carthage-silver/shared rome-copper 3")
    assert honor(s) == (8, 6, 3, 11)  # 3: 3 // 2 = 1 each
    play(s, "battle rome-silver carthage-copper/borrowed 2")
    assert honor(s) == (10, 6, 3, 9)  # 4
    play(s, "control syracuse carthage")
    assert honor(s) == (10, 4, 4, 10)  # 5: 2 HP held jointly, 1 + 1
    play(s, "reinforced")
    assert s.dominant == {"rome": RS, "carthage": CC}  # 6: 10 > 4 and 4 < 10
    play(s, "control latium rome-copper")
    assert honor(s) == (5, 9, 4, 10)  # 7
    assert s.dominant["rome"] == RS  # unchanged until the next reinforced
    play(s, "initiative rome")
    finish_turn(s)
    assert s.turn == 2 and s.dominant["rome"] == RS
    play(s, "reinforced")
    assert s.dominant == {"rome": RC, "carthage": CC}
    play(s, "end rome")  # 8
    assert honor(s) == (5, 9, 4, 10)
    assert s.ranking() == [RC, RS, CC, CS] and s.winner == "rome"


def test_worked_example_8_ranking_as_json() -> None:
    s = play(new_game(), "control celtiberia carthage-copper", "battle carthage-silver/shared rome-copper 3",
             "battle rome-silver carthage-copper/borrowed 2", "control syracuse carthage", "reinforced",
             "control latium rome-copper", "end rome")
    assert s.to_json()["ranking"] == ["rome-copper", "rome-silver", "carthage-copper", "carthage-silver"]


# -- province Honor ------------------------------------------------------------------------------------

def test_start_honor_is_the_provinces_held() -> None:
    s = new_game()
    assert sum(hp for hp, start in PROVINCES.values() if start) == sum(honor(s))
    assert s.ledger == {f: 0 for f in FACTIONS}


@pytest.mark.parametrize(("province", "side", "each"), [("syracuse", "rome", 1), ("latium", "carthage", 2),
                                                        ("carthage", "rome", 2), ("massilia", "carthage", 0)])
def test_jointly_held_provinces_give_each_partner_half_rounded_down(province: str, side: str, each: int) -> None:
    s = new_game()
    before = s.honor()
    previous = s.control[province]
    play(s, f"control {province} {side}")
    hp = PROVINCES[province][0]
    for f in FACTIONS:
        change = (each if f.startswith(side) else 0) - (hp if f == previous else 0)
        assert s.honor()[f] == before[f] + change


def test_control_none_takes_the_honor_away_and_control_awards_it() -> None:
    s = play(new_game(), "control latium none")
    assert honor(s) == (3, 6, 3, 9) and s.control["latium"] is None
    play(s, "control latium carthage-silver")
    assert honor(s) == (3, 6, 8, 9)


def test_control_to_the_same_holder_is_legal_and_changes_nothing() -> None:
    s = new_game()
    before = s.to_json()
    play(s, "control latium rome-silver")
    assert s.to_json() == before


# -- the battle ledger ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("event", "gains"), [
    ("battle rome-copper carthage-silver 4", (0, 4, 0, 0)),
    ("battle rome-copper/shared carthage-silver 5", (2, 2, 0, 0)),  # 5 // 2 each
    ("battle rome-copper/shared carthage-silver 1", (0, 0, 0, 0)),
    ("battle rome-copper carthage-silver/borrowed 4", (0, 4, -4, 0)),
    ("battle rome-copper/shared carthage-silver/borrowed 4", (2, 2, -4, 0)),
    ("battle none carthage-silver 4", (0, 0, 0, 0)),  # I-2: a leaderless winner gains nobody Honor
    ("battle none carthage-silver/borrowed 4", (0, 0, -4, 0)),
    ("battle carthage-copper none 3", (0, 0, 0, 3)),
    ("battle carthage-copper/shared none 3", (0, 0, 1, 1)),
    ("battle carthage-copper rome-silver 0", (0, 0, 0, 0)),
])
def test_battle_ledger(event: str, gains: tuple[int, ...]) -> None:
    s = new_game()
    before = honor(s)
    play(s, event)
    assert honor(s) == tuple(b + g for b, g in zip(before, gains, strict=True))
    assert tuple(s.ledger[f] for f in FACTIONS) == gains


def test_ledger_may_go_negative_and_any_number_of_pcs_counts() -> None:
    s = play(new_game(), "battle rome-silver carthage-silver/borrowed 1000")
    assert s.ledger[CS] == -1000 and s.honor()[CS] == 3 - 1000 and s.ledger[RS] == 1000


# -- dominance -----------------------------------------------------------------------------------------

def test_reinforced_recomputes_dominance_on_turn_1() -> None:
    s = play(new_game(), "control latium rome-copper", "control carthage carthage-silver")
    assert s.dominant == {"rome": RS, "carthage": CC}  # only at reinforced
    play(s, "reinforced")
    assert s.dominant == {"rome": RC, "carthage": CS}


def test_equal_honor_keeps_dominance() -> None:
    s = play(new_game(), "battle rome-copper carthage-silver 2")  # rome 8 / 8
    assert honor(s)[:2] == (8, 8)
    play(s, "battle carthage-silver rome-copper 6")  # carthage 9 / 9
    assert honor(s)[2:] == (9, 9)
    play(s, "reinforced")
    assert s.dominant == {"rome": RS, "carthage": CC}


def test_dominance_changes_at_no_other_time() -> None:
    s = in_cards()
    play(s, "control latium rome-copper", "battle carthage-silver rome-silver 20", "roll", "die 2",
         "discard rome-silver")
    assert s.dominant == {"rome": RS, "carthage": CC}
    finish_turn(s)
    assert s.turn == 2 and s.phase == "reinforcements" and s.dominant == {"rome": RS, "carthage": CC}
    play(s, "reinforced")
    assert s.dominant == {"rome": RC, "carthage": CS}


# -- cards, initiative, card play ----------------------------------------------------------------------

def test_no_cards_until_reinforced_then_4_on_turns_1_to_6_and_5_on_7_to_9() -> None:
    s = new_game()
    assert s.cards == {f: 0 for f in FACTIONS} and s.phase == "reinforcements"
    dealt = []
    for turn in range(1, 10):
        assert s.turn == turn and all(n == 0 for n in s.cards.values())
        play(s, "reinforced")
        dealt.append(s.cards[RS])
        assert len(set(s.cards.values())) == 1 and s.phase == "initiative"
        play(s, "initiative carthage")
        finish_turn(s)
    assert dealt == [4] * 6 + [5] * 3


def test_initiative_once_per_turn_and_only_in_its_phase() -> None:
    s = new_game()
    with pytest.raises(IllegalMoveError, match="initiative is entered once a turn"):
        s.parse_move("initiative rome")
    play(s, "reinforced")
    assert legal(s) >= {"initiative rome", "initiative carthage"}
    with pytest.raises(IllegalMoveError, match="reinforcements are over"):
        s.parse_move("reinforced")
    play(s, "initiative carthage")
    assert s.phase == "cards" and s.playing == "carthage" and s.current_player == CC
    with pytest.raises(IllegalMoveError, match="once a turn"):
        s.parse_move("initiative rome")


def test_sides_alternate_from_the_initiative_and_to_move_is_the_dominant_faction() -> None:
    s = in_cards("carthage")
    assert s.to_json()["to_move"] == CC
    assert legal(s) >= {"play carthage-silver", "play carthage-copper", "play carthage-copper activate"}
    assert not any(e.startswith("play rome") for e in legal(s))
    play(s, "play carthage-silver")
    assert s.playing == "rome" and s.to_json()["to_move"] == RS and s.cards[CS] == 3
    play(s, "play rome-copper")
    assert s.playing == "carthage" and s.cards[RC] == 3


def test_a_faction_without_cards_cannot_play_and_its_partner_plays_for_the_side() -> None:
    s = in_cards()
    for _ in range(4):
        play(s, "play rome-silver", "play carthage-silver")
    assert s.cards[RS] == 0 and s.playing == "rome"
    with pytest.raises(IllegalMoveError, match="rome-silver has no card left"):
        s.parse_move("play rome-silver")
    assert {e for e in legal(s) if e.startswith("play")} == {"play rome-copper", "play rome-copper activate"}


def test_when_one_side_is_out_the_other_plays_its_cards_one_after_another() -> None:
    s = play(in_cards(), "discard carthage-silver", "discard carthage-silver", "discard carthage-copper")
    # Rome 8 cards, Carthage 5: R C R C R C R C R C, then Rome alone three times
    sides = []
    while s.turn == 1:
        sides.append(s.playing)
        finish_one = f"{s.playing}-silver" if s.cards[f"{s.playing}-silver"] else f"{s.playing}-copper"
        play(s, f"play {finish_one}")
    assert sides == ["rome", "carthage"] * 5 + ["rome"] * 3
    assert s.turn == 2 and s.phase == "reinforcements" and s.playing is None


def test_the_turn_ends_when_all_four_have_no_cards_and_turn_9_stays_in_cards() -> None:
    s = new_game()
    for _ in range(8):
        play(s, "reinforced", "initiative rome")
        finish_turn(s)
    assert s.turn == 9 and s.phase == "reinforcements"
    play(s, "reinforced", "initiative rome")
    finish_turn(s)
    assert s.turn == 9 and s.phase == "cards" and s.playing is None and s.current_player is None
    assert s.is_table_decision() and s.to_json()["to_move"] is None
    assert legal(s) == {"roll", "end rome", "end carthage"}
    kinds = {str(m).split()[0] for m in s.legal_moves()}
    assert kinds == {"roll", "end", "control", "battle"}  # discard too, but nobody has a card
    for text in ("reinforced", "play rome-silver", "discard rome-copper", "initiative rome"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)
    play(s, "control latium carthage", "battle rome-silver carthage-copper 2", "roll", "die 6")
    assert s.phase == "cards" and s.turn == 9
    play(s, "end carthage")
    assert s.is_over()


# -- activation ----------------------------------------------------------------------------------------

def test_activation_takes_the_card_at_once_and_the_partner_answers() -> None:
    s = in_cards()
    play(s, "play rome-copper activate")
    assert s.phase == "activation" and s.cards[RC] == 3 and s.asking == RC
    assert s.current_player == RS and s.to_json()["to_move"] == RS
    assert legal(s) == {"approve", "veto", "roll", "end rome", "end carthage"} | {
        f"discard {f}" for f in FACTIONS}
    with pytest.raises(IllegalMoveError, match="no card is played in the activation phase"):
        s.parse_move("play carthage-silver")
    play(s, "approve")
    assert s.phase == "cards" and s.playing == "carthage" and s.asking is None and s.current_player == CC


def test_a_veto_discards_the_card_and_passes_the_play() -> None:
    s = in_cards("carthage")
    play(s, "play carthage-silver activate")
    assert s.current_player == CC
    play(s, "veto")
    assert s.phase == "cards" and s.playing == "rome" and s.cards[CS] == 3  # it still counts as played


def test_i7_a_veto_with_the_other_side_out_of_cards_lets_the_side_play_on() -> None:
    s = in_cards()
    for f in (CS, CS, CS, CS, CC, CC, CC, CC):
        play(s, f"discard {f}")
    play(s, "play rome-silver activate", "veto")
    assert s.playing == "rome" and s.phase == "cards"


def test_the_last_card_of_the_turn_may_be_an_activation() -> None:
    s = in_cards()
    for _ in range(7):
        play(s, "play rome-silver" if s.cards[RS] else "play rome-copper",
             "play carthage-silver" if s.cards[CS] else "play carthage-copper")
    play(s, "play rome-copper")
    play(s, "play carthage-copper activate")
    assert all(n == 0 for n in s.cards.values()) and s.phase == "activation" and s.turn == 1
    play(s, "approve")
    assert s.turn == 2 and s.phase == "reinforcements"


# -- discards ------------------------------------------------------------------------------------------

def test_discard_is_not_a_play() -> None:
    s = in_cards()
    play(s, "discard rome-silver")
    assert s.playing == "rome" and s.cards[RS] == 3
    play(s, "discard carthage-copper")
    assert s.playing == "rome" and s.cards[CC] == 3


def test_discard_of_the_sides_last_card_passes_the_play() -> None:
    s = in_cards()
    for f in (RS, RS, RS, RS, RC, RC, RC):
        play(s, f"discard {f}")
    assert s.playing == "rome"
    play(s, "discard rome-copper")
    assert s.playing == "carthage"


def test_discard_of_the_last_card_of_the_turn_ends_it() -> None:
    s = in_cards()
    for f in FACTIONS[2:] * 4 + (RS, RS, RS, RS, RC, RC, RC):
        play(s, f"discard {f}")
    assert s.turn == 1 and s.playing == "rome"
    play(s, "discard rome-copper")
    assert s.turn == 2 and s.phase == "reinforcements"


def test_discard_only_while_cards_are_held_and_by_a_faction_with_one() -> None:
    s = new_game()
    with pytest.raises(IllegalMoveError, match="no cards are held"):
        s.parse_move("discard rome-silver")
    play(s, "reinforced", "discard rome-silver")  # initiative phase
    assert s.cards[RS] == 3 and s.phase == "initiative"
    play(s, "initiative rome", "play rome-silver activate", "discard carthage-silver")  # activation
    assert s.cards[CS] == 3 and s.phase == "activation"
    for _ in range(2):
        play(s, "discard rome-silver")
    with pytest.raises(IllegalMoveError, match="rome-silver has no card left"):
        s.parse_move("discard rome-silver")


def test_i6_a_discard_during_activation_waits_for_the_answer() -> None:
    s = in_cards()
    for f in (RS, RS, RS, RS, RC, RC, RC):
        play(s, f"discard {f}")
    play(s, "play rome-copper activate", "discard carthage-copper")
    assert s.phase == "activation" and s.playing == "rome"
    play(s, "approve")
    assert s.playing == "carthage"


def test_i5_initiative_to_a_side_without_cards_passes_the_play() -> None:
    s = play(new_game(), "reinforced", *(f"discard {f}" for f in (RS, RC) * 4))
    play(s, "initiative rome")
    assert s.phase == "cards" and s.playing == "carthage"
    t = play(new_game(), "reinforced", *(f"discard {f}" for f in FACTIONS * 4), "initiative rome")
    assert t.turn == 2 and t.phase == "reinforcements"


# -- the die -------------------------------------------------------------------------------------------

def test_roll_makes_a_die_due_and_the_die_restores_phase_and_player() -> None:
    s = in_cards()
    play(s, "play rome-copper activate")
    before = s.to_json()
    play(s, "roll")
    assert s.is_chance() and s.current_player is None and s.to_json()["to_move"] is None
    assert s.phase == "activation" and s.to_json()["rolling"] is True
    assert [str(m) for m, _ in s.chance_outcomes()] == [f"die {n}" for n in range(1, 7)]
    assert [str(m) for m in s.legal_moves()] == [f"die {n}" for n in range(1, 7)]
    for text in ("approve", "control latium rome", "battle rome-silver carthage-copper 1", "roll", "end rome",
                 "discard rome-silver"):
        with pytest.raises(IllegalMoveError, match="a die is due"):
            s.parse_move(text)
    play(s, "die 3")
    assert s.to_json() == before and s.current_player == RS


def test_die_without_roll_is_illegal() -> None:
    with pytest.raises(IllegalMoveError, match="no die was asked for"):
        new_game().parse_move("die 4")


def test_roll_is_legal_in_every_phase() -> None:
    s = new_game()
    for setup in ([], ["reinforced"], ["initiative rome"], ["play rome-silver activate"]):
        play(s, *setup)
        play(s, "roll", "die 1")


# -- the end and the ranking ---------------------------------------------------------------------------

def test_end_freezes_everything_and_nothing_is_legal_after() -> None:
    s = play(in_cards(), "play rome-silver", "end carthage")
    assert s.is_over() and s.current_player is None and not s.is_chance() and not s.is_table_decision()
    assert s.turn == 1 and s.cards == {RS: 3, RC: 4, CS: 4, CC: 4} and list(s.legal_moves()) == []
    for text in ("end rome", "control latium none", "battle rome-silver carthage-silver 1", "roll",
                 "play carthage-silver", "discard rome-copper", "reinforced"):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            s.parse_move(text)
    assert s.winner == "carthage" and s.ranking() == [CC, CS, RS, RC]


def test_end_is_legal_in_every_phase_but_not_while_a_die_is_due() -> None:
    for setup in ([], ["reinforced"], ["reinforced", "initiative rome"],
                  ["reinforced", "initiative rome", "play rome-silver activate"]):
        assert play(new_game(), *setup, "end rome").is_over()
    s = play(new_game(), "roll")
    with pytest.raises(IllegalMoveError):
        s.parse_move("end rome")


def test_i3_equal_honor_ranks_the_dominant_faction_at_the_end_first() -> None:
    s = play(new_game(), "battle rome-copper carthage-silver 2", "battle carthage-silver rome-copper 6")
    assert honor(s) == (8, 8, 9, 9)
    play(s, "end carthage")
    assert s.ranking() == [CC, CS, RS, RC]
    u = play(new_game(), "control latium rome-copper", "reinforced", "battle rome-silver carthage-silver 10",
             "end rome")
    assert honor(u)[:2] == (13, 11) and u.ranking()[:2] == [RS, RC]  # more Honor beats dominance
    v = play(new_game(), "control latium rome-copper", "reinforced", "battle rome-silver carthage-silver 8",
             "end rome")
    assert honor(v)[:2] == (11, 11) and v.dominant["rome"] == RC
    assert v.ranking()[:2] == [RC, RS]  # the dominant of that moment


def test_ranking_is_empty_until_the_end_and_returns_follow_the_places() -> None:
    s = new_game()
    assert s.ranking() == [] and s.to_json()["ranking"] == [] and set(s.returns().values()) == {0.0}
    play(s, "end rome")
    r = s.returns()
    assert [r[f] for f in s.ranking()] == pytest.approx([1, 1 / 3, -1 / 3, -1])
    assert sum(r.values()) == pytest.approx(0)


# -- illegal events are rejected with a message --------------------------------------------------------

def test_a_play_out_of_turn() -> None:
    s = in_cards("rome")
    with pytest.raises(IllegalMoveError, match="play carthage-silver: it is rome's play"):
        s.parse_move("play carthage-silver")
    with pytest.raises(IllegalMoveError, match="it is rome's play"):
        s.apply(Play(CC))
    with pytest.raises(IllegalMoveError, match="no card is played in the reinforcements phase"):
        new_game().parse_move("play rome-silver")


def test_a_veto_with_nothing_asked() -> None:
    for s in (new_game(), in_cards()):
        with pytest.raises(IllegalMoveError, match="veto: no activation was asked"):
            s.parse_move("veto")
        with pytest.raises(IllegalMoveError, match="no activation was asked"):
            s.parse_move("approve")


def test_a_battle_between_partners() -> None:
    s = new_game()
    for text in ("battle rome-silver rome-copper 3", "battle carthage-copper/shared carthage-silver/borrowed 1",
                 "battle rome-copper rome-copper 2"):
        with pytest.raises(IllegalMoveError, match="partners never fight each other"):
            s.parse_move(text)
    with pytest.raises(IllegalMoveError, match="needs a faction on at least one side"):
        s.parse_move("battle none none 2")
    assert s.to_json() == new_game().to_json()


def test_an_unknown_province() -> None:
    with pytest.raises(InvalidMoveError, match="no province 'gallia'"):
        new_game().parse_move("control gallia rome")
    with pytest.raises(InvalidMoveError, match="no holder 'spain'"):
        new_game().parse_move("control latium spain")


def test_an_illegal_event_changes_nothing() -> None:
    s = in_cards()
    before = s.to_json()
    for text in ("play carthage-copper", "veto", "reinforced", "die 3", "initiative carthage"):
        with pytest.raises(IllegalMoveError):
            s.apply(parse(text))
    assert s.to_json() == before


# -- reinforcement duties ------------------------------------------------------------------------------

def test_reinforcement_duties_follow_dominance_and_hispania() -> None:
    s = play(new_game(), "reinforced")
    duties = s.duties()
    assert (RS, "places 3 of the 5 regular reinforcement CUs; chooses and assigns its consul first") in duties
    assert (RC, "places the other 2 CUs; chooses and assigns its consul second") in duties
    assert (CC, "places the 1 CU in Africa") in duties and (CS, "places the 1 free CU") in duties
    assert (CS, "places the Spanish CUs") in duties  # 3 Spanish provinces to none
    play(s, "control orospeda carthage-copper", "control idubeda carthage-copper")
    assert (CC, "places the Spanish CUs") in s.duties()  # 2 to 2: the dominant one
    play(s, "control idubeda carthage")
    assert (CS, "places the Spanish CUs") in s.duties()  # 2 to 1: joint Idubeda counts for neither


# -- a whole nine-turn game ----------------------------------------------------------------------------

R8 = plays(RS, RC, RS, RC, RS, RC, RS, RC)
C8 = plays(CS, CC, CS, CC, CS, CC, CS, CC)
R10 = plays(RS, RC) * 5
C10 = plays(CS, CC) * 5

SCRIPT: list[str] = [
    # turn 1: Carthage first; Hanno activates Hannibal with permission and wins with him
    "reinforced", "initiative carthage",
    "play carthage-silver", "play rome-silver", "control idubeda carthage-silver", "play carthage-copper activate",
    "approve", "battle carthage-copper/shared rome-copper 4", "play rome-copper", *alternate(C8[2:], R8[2:]),
    # turn 2: Rome first; a veto, then Messenger Intercepted costs Carthage a card
    "reinforced", "initiative rome", "play rome-copper activate", "veto", "play carthage-copper",
    "discard carthage-silver", "battle rome-silver carthage-silver 3", "control cisalpinia rome-copper",
    *alternate(plays(RS, RS, RS, RS, RC, RC, RC), plays(CS, CS, CS, CC, CC, CC)),
    # turn 3: two Roman cards lost before the initiative; Carthage plays its last two alone
    "reinforced", "discard rome-silver", "discard rome-silver", "initiative rome", "roll", "die 5",
    "control syracuse carthage",
    *alternate(plays(RS, RS, RC, RC, RC, RC), C8),
    # turn 4: a leaderless victory, a shared victory over a borrowed general, Rome falls
    "reinforced", "initiative carthage", "battle none rome-copper 2",
    "battle rome-copper/shared carthage-silver/borrowed 5", "control latium carthage-silver",
    *alternate(C8, R8),
    # turn 5: Rome retaken by a joint siege
    "reinforced", "initiative rome", "control latium rome", "battle rome-copper carthage-copper/borrowed 3",
    *alternate(R8, C8),
    # turn 6: rome-copper dominant
    "reinforced", "initiative rome", "control carthaginia carthage-silver", *alternate(R8, C8),
    # turns 7-9: five cards each
    "reinforced", "initiative carthage", "battle carthage-silver rome-silver 6", *alternate(C10, R10),
    "reinforced", "initiative carthage", "control etruria none", *alternate(C10, R10),
    "reinforced", "initiative rome", "battle rome-silver carthage-copper 3", *alternate(R10, C10),
    "end rome",
]

# after each turn's card play: Honor (RS / RC / CS / CC); dominance after the next reinforced
AFTER_TURN = {1: (8, 6, 6, 11), 2: (11, 7, 6, 11), 3: (11, 5, 7, 12), 4: (8, 7, 7, 12), 5: (10, 12, 2, 9),
              6: (10, 12, 4, 7), 7: (10, 12, 10, 7), 8: (9, 12, 10, 7)}
DOMINANT = {1: (RS, CC), 2: (RS, CC), 3: (RS, CC), 4: (RS, CC), 5: (RS, CC), 6: (RC, CC), 7: (RC, CC),
            8: (RC, CS), 9: (RC, CS)}


def test_a_whole_nine_turn_game_from_a_script() -> None:
    s = new_game()
    seen_turns = []
    for text in SCRIPT:
        turn = s.turn
        if text == "reinforced":
            seen_turns.append(turn)
            if turn > 1:
                assert honor(s) == AFTER_TURN[turn - 1], f"Honor after turn {turn - 1}"
        play(s, text)
        if text == "reinforced":
            assert (s.dominant["rome"], s.dominant["carthage"]) == DOMINANT[turn], f"dominance on turn {turn}"
        if text.startswith("initiative"):
            assert s.current_player == s.dominant[text.split()[1]]
    assert seen_turns == list(range(1, 10))
    assert s.is_over() and s.turn == 9 and s.winner == "rome"
    assert honor(s) == (12, 12, 10, 7)
    assert s.ranking() == [RC, RS, CS, CC]  # 12 / 12: rome-copper dominant at the end (I-3)
    assert s.to_json()["ranking"] == ["rome-copper", "rome-silver", "carthage-silver", "carthage-copper"]
    assert State.from_json(s.to_json()) == s


def test_the_script_replays_from_any_journaled_state() -> None:
    """A journal's states resume the game: rebuilding from JSON before every event changes nothing."""
    s = new_game()
    for text in SCRIPT:
        s = State.from_json(s.to_json())
        play(s, text)
    assert s.ranking() == [RC, RS, CS, CC]
