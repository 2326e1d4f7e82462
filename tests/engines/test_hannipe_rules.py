"""Hannipe! rules (shared/rules/hannipe.md) through the public API: options, the order of a race, the
special cases, payouts, game end, both card modes, notation and errors, occupancy, determinization."""

from __future__ import annotations

import random
from math import factorial

import pytest

from engines.base import IllegalMoveError, InvalidMoveError
from engines.hannipe import HORSES, LOCATIONS, PROGRAMMES, State, new_game, parse

TIE_RACE = ("turn", "grisette 2", "vertige 0", "turn", "vertige 1", "grisette 1", "turn", "pepite 0", "grisette 0",
            "turn", "vertige 0", "grisette 0")
"""Programme 8 shuffled vertige, pepite, cocotte, grisette, two seats: pepite and cocotte end sharing the
front line, having never moved (checked by hand against "Places" in test_a_tie_for_first_pays_every_backer)."""


def play(state: State, *moves: str) -> State:
    """Apply moves in the notation; ``"turn"`` as is, ``"noiro 2"`` as a tip by the seat to play."""
    for text in moves:
        if text != "turn" and text.split()[0] in HORSES:
            text = f"tip {state.current_player} {text}"
        state.apply(state.parse_move(text))
    return state


def race(programme: int, shuffle: str, bets: tuple[str, ...] = (), *, players: int = 4,
         state: State | None = None) -> State:
    """A ``cards="table"`` race drawn and shuffled, with ``bets`` placed in betting order."""
    s = state or new_game(players=players)
    play(s, f"programme {programme}", f"shuffle {shuffle}")
    for horse in bets:
        play(s, f"bet {s.current_player} {horse}")
    return s


def legal(state: State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def order(state: State) -> str:
    return "".join(f"[{','.join(line)}]" for line in state.order)


# -- options and a new game ---------------------------------------------------------------------------------

def test_new_game_defaults_and_empty_race_fields() -> None:
    s = new_game()
    data = s.to_json()
    assert {k: data[k] for k in ("game", "players", "cards", "coins", "race", "leader", "to_move", "winners",
                                 "programme", "values", "order", "round", "turned", "bets", "last_race")} == {
        "game": "hannipe", "players": ["p1", "p2", "p3", "p4"], "cards": "table",
        "coins": {"p1": 0, "p2": 0, "p3": 0, "p4": 0}, "race": 1, "leader": "p1", "to_move": None, "winners": [],
        "programme": None, "values": {}, "order": [], "round": 0, "turned": [],
        "bets": {"p1": None, "p2": None, "p3": None, "p4": None}, "last_race": None}
    assert s.is_chance() and s.current_player is None and not s.is_over()


@pytest.mark.parametrize("players", [2, 7])
def test_players_option_names_the_seats(players: int) -> None:
    assert new_game(players=players, cards="deal").players == tuple(f"p{i}" for i in range(1, players + 1))


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 8}, {"players": "4"}, {"players": True},
                                     {"cards": "hand"}, {"cards": None}])
def test_bad_options_raise_value_errors(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(options))):
        new_game(**options)  # type: ignore[arg-type]


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        new_game(4)  # type: ignore[misc]


# -- chance events -------------------------------------------------------------------------------------------

def test_programme_is_one_of_eight_and_puts_every_starter_on_one_line() -> None:
    s = new_game()
    outcomes = s.chance_outcomes()
    assert [str(m) for m, _ in outcomes] == [f"programme {n}" for n in range(1, 9)]
    assert all(p == pytest.approx(1 / 8) for _, p in outcomes)
    play(s, "programme 5")
    assert s.to_json()["values"] == {"roujo": 1, "grisette": 2, "vertige": 0, "pepite": 2, "cocotte": 0}
    assert order(s) == "[roujo,grisette,vertige,pepite,cocotte]"


@pytest.mark.parametrize("programme", [1, 4, 7])
def test_shuffle_outcomes_are_every_order_of_the_starters(programme: int) -> None:
    s = play(new_game(), f"programme {programme}")
    outcomes = s.chance_outcomes()
    n = len(PROGRAMMES[programme])
    assert len(outcomes) == len({str(m) for m, _ in outcomes}) == factorial(n)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(IllegalMoveError, match="starters"):
        s.parse_move("shuffle noiro,roujo,grisette")


def test_deal_goes_round_from_the_seat_after_the_leader_with_odds_by_remaining_copies() -> None:
    s = play(new_game(players=3, cards="deal"), "programme 7", "shuffle noiro,roujo,pepite,cocotte")
    outcomes = dict((str(m), p) for m, p in s.chance_outcomes())
    assert len(outcomes) == 4 * 4  # four starters, four faces
    assert outcomes["deal p2 noiro:0"] == pytest.approx(2 / 28) and outcomes["deal p2 noiro:c"] == pytest.approx(1 / 28)
    play(s, "deal p2 noiro:c")
    outcomes = dict((str(m), p) for m, p in s.chance_outcomes())
    assert "deal p3 noiro:c" not in outcomes  # the only cravache of noiro is dealt
    assert outcomes["deal p3 roujo:2"] == pytest.approx(2 / 27)
    with pytest.raises(IllegalMoveError, match="p3's turn"):
        s.parse_move("deal p2 roujo:2")
    with pytest.raises(IllegalMoveError, match="no noiro:c card left"):
        s.parse_move("deal p3 noiro:c")
    rng = random.Random(1)
    while s.is_chance():
        s.apply(rng.choices([m for m, _ in s.chance_outcomes()], [p for _, p in s.chance_outcomes()])[0])
    assert [len(s.hand(p)) for p in s.players] == [4, 4, 4]
    assert s.step == "bet" and s.current_player == "p2"


def test_seven_players_with_six_starters_are_dealt_all_42_cards() -> None:
    s = play(new_game(players=7, cards="deal"), "programme 1", "shuffle noiro,roujo,grisette,vertige,pepite,cocotte")
    rng = random.Random(2)
    dealt_to = []
    while s.is_chance():
        move = rng.choices([m for m, _ in s.chance_outcomes()], [p for _, p in s.chance_outcomes()])[0]
        dealt_to.append(move.seat)  # type: ignore[attr-defined]
        s.apply(move)
    assert dealt_to[:8] == ["p2", "p3", "p4", "p5", "p6", "p7", "p1", "p2"]
    assert all(len(s.hand(p)) == 6 for p in s.players)
    assert sum(s.undealt().values()) == 0
    assert [str(m) for m in s.legal_moves()] == [f"bet p2 {h}" for h in HORSES]


def test_table_mode_has_no_deal_and_no_hands() -> None:
    s = play(new_game(players=2), "programme 8", "shuffle vertige,pepite,cocotte,grisette")
    assert s.step == "bet" and s.current_player == "p2"
    assert s.to_json()["hands"] is None
    with pytest.raises(ValueError, match="table"):
        s.hand("p1")


# -- bets ------------------------------------------------------------------------------------------------

def test_bets_go_from_the_seat_after_the_leader_to_the_leader_once_each() -> None:
    s = race(1, "noiro,roujo,grisette,vertige,pepite,cocotte")
    assert legal(s) == {f"bet p2 {h}" for h in HORSES}
    for seat, horse in (("p2", "roujo"), ("p3", "roujo"), ("p4", "cocotte")):
        play(s, f"bet {seat} {horse}")
    with pytest.raises(IllegalMoveError, match="p1's turn"):
        s.parse_move("bet p2 noiro")
    play(s, "bet p1 pepite")
    assert s.to_json()["bets"] == {"p1": "pepite", "p2": "roujo", "p3": "roujo", "p4": "cocotte"}
    assert legal(s) == {"turn"} and s.current_player == "p1"
    with pytest.raises(IllegalMoveError, match="not a bet now"):
        s.parse_move("bet p1 noiro")


def test_a_bet_on_a_non_starter_is_illegal() -> None:
    s = race(8, "grisette,vertige,pepite,cocotte", players=2)
    with pytest.raises(IllegalMoveError, match="noiro is not running"):
        s.parse_move("bet p2 noiro")


# -- rounds: turned cards and tips -----------------------------------------------------------------------

def test_worked_example_on_the_table() -> None:
    """The digest's first worked examples with programme 1 (vertige is an outsider, value 1)."""
    s = race(1, "vertige,noiro,roujo,grisette,pepite,cocotte", ("noiro",) * 4)
    play(s, "turn")
    assert s.to_json()["turned"] == ["vertige"] and s.round == 1
    assert order(s) == "[vertige][noiro,roujo,grisette,pepite,cocotte]"
    play(s, "roujo 2")
    assert order(s) == "[vertige][roujo][noiro,grisette,pepite,cocotte]"
    play(s, "noiro 2")
    assert order(s) == "[vertige][roujo][noiro][grisette,pepite,cocotte]"
    play(s, "vertige 0")
    assert order(s) == "[roujo][vertige][noiro][grisette,pepite,cocotte]"


def test_tips_go_round_from_the_seat_after_the_leader_and_end_with_the_leader() -> None:
    s = race(7, "noiro,roujo,pepite,cocotte", ("noiro",) * 4)
    seats = []
    while s.race == 1:
        seats.append(s.current_player)
        play(s, "turn" if s.step == "turn" else legal_tip(s))
    assert seats == ["p1", "p2", "p3", "p4", "p1"] * 4  # the leader turns, then p2, p3, p4 and the leader tip


def test_turned_favori_cannot_lose_by_its_own_tips_in_its_own_round() -> None:
    s = race(1, "noiro,roujo,grisette,vertige,pepite,cocotte", ("noiro",) * 4)
    play(s, "turn")  # noiro is the favori: gains 2, but alone in front after the first
    assert order(s) == "[noiro][roujo,grisette,vertige,pepite,cocotte]"
    play(s, "noiro 0")  # -2 ignored
    play(s, "noiro 1")  # -1 ignored
    assert order(s) == "[noiro][roujo,grisette,vertige,pepite,cocotte]"
    play(s, "roujo 0")  # another horse this round is not protected: -2, the second step at the back
    assert order(s) == "[noiro][grisette,vertige,pepite,cocotte][roujo]"
    play(s, "noiro 2")  # 2 - 2 = 0
    play(s, "turn")  # round 2: roujo (outsider) turned, value 1
    play(s, "noiro 0")  # noiro's protection is over: -1
    assert order(s) == "[roujo][noiro][grisette,vertige,pepite,cocotte]"


def test_an_outsider_turned_has_no_protection() -> None:
    s = race(1, "roujo,noiro,grisette,vertige,pepite,cocotte", ("noiro",) * 4)
    play(s, "turn", "roujo 0")
    assert order(s) == "[noiro,grisette,vertige,pepite,cocotte][roujo]"


def test_turned_favori_still_gains_from_a_last_round_cravache() -> None:
    s = race(8, "grisette,pepite,cocotte,vertige", ("vertige", "vertige"), players=2)
    play(s, "turn", "vertige 0", "vertige 0")  # the second loss: vertige is alone at the back
    assert order(s) == "[grisette][pepite,cocotte][vertige]"
    play(s, "turn", "pepite 1", "cocotte 0", "turn", "pepite 0", "cocotte 0")
    assert order(s) == "[grisette][pepite][cocotte][vertige]"
    play(s, "turn")  # vertige, the favori: +2
    assert order(s) == "[grisette][vertige][pepite][cocotte]"
    play(s, "vertige c")  # 3 - 2 = +1
    assert order(s) == "[vertige][grisette][pepite][cocotte]"
    assert s.last_race is None
    play(s, "vertige 1")  # -1 ignored
    assert s.last_race is not None and s.last_race.winners == ("vertige",)
    assert s.coins == {"p1": 1, "p2": 1}


def test_cravache_is_worth_2_before_the_last_round_and_3_in_it() -> None:
    s = race(8, "pepite,cocotte,grisette,vertige", ("grisette", "grisette"), players=2)
    play(s, "turn", "cocotte c")  # pepite turned, value 0: cocotte gains 2
    assert order(s) == "[cocotte][grisette,vertige,pepite]"
    s = race(8, "grisette,vertige,pepite,cocotte", ("grisette", "grisette"), players=2)
    play(s, "turn", "grisette 0", "vertige 0", "turn", "grisette 0", "vertige 1", "turn", "grisette 1",
         "vertige 1")
    before = order(s)
    assert before == "[vertige][grisette][pepite,cocotte]"
    play(s, "turn", "pepite c")  # cocotte turned (0) in round 4 of 4: pepite gains 3, passing the whole field
    assert order(s) == "[pepite][vertige][grisette][cocotte]"


def test_a_tie_for_first_pays_every_backer() -> None:
    s = race(8, "vertige,pepite,cocotte,grisette", ("pepite", "cocotte"), players=2)
    play(s, *TIE_RACE[:3])
    assert order(s) == "[vertige][grisette,pepite,cocotte]"  # vertige (favori) gained 2, its own tip ignored
    play(s, *TIE_RACE[3:6])
    assert order(s) == "[vertige][grisette][pepite,cocotte]"  # front horse cannot gain; grisette left its line
    play(s, *TIE_RACE[6:10])
    assert order(s) == "[grisette][vertige][pepite,cocotte]"  # grisette passed vertige
    play(s, TIE_RACE[10])
    assert order(s) == "[grisette][pepite,cocotte][vertige]"  # vertige dropped behind a line of two
    play(s, TIE_RACE[11])
    last = s.to_json()["last_race"]
    assert last == {"race": 1, "winners": ["pepite", "cocotte"], "bets": {"p1": "cocotte", "p2": "pepite"},
                    "paid": {"p1": 3, "p2": 3}}
    assert s.coins == {"p1": 3, "p2": 3}


@pytest.mark.parametrize(("backed", "paid"), [("vertige", 1), ("grisette", 2), ("pepite", 3)])
def test_payout_by_the_value_of_the_horse_backed(backed: str, paid: int) -> None:
    """Programme 8: vertige favori, grisette outsider, pepite tocard; the backed horse is tipped to win."""
    s = race(8, "pepite,cocotte,grisette,vertige", (backed, "cocotte"), players=2)
    play(s, "turn", f"{backed} 2", "cocotte 0", "turn", f"{backed} 2", "cocotte 0")
    assert s.order[0] == (backed,)
    play(s, "turn", f"{backed} 1", "vertige 1", "turn", f"{backed} c", "vertige 0")
    assert s.last_race is not None and s.last_race.winners == (backed,)
    assert s.last_race.paid == {"p1": 0, "p2": paid} and s.coins == {"p1": 0, "p2": paid}


# -- end of a race and of the game -----------------------------------------------------------------------

def test_race_end_pays_out_clears_the_race_and_passes_the_lead() -> None:
    s = race(8, "vertige,pepite,cocotte,grisette", ("pepite", "cocotte"), players=2)
    play(s, *TIE_RACE)
    data = s.to_json()
    assert (data["race"], data["leader"], data["programme"], data["values"], data["order"], data["round"],
            data["turned"], data["bets"]) == (2, "p2", None, {}, [], 0, [], {"p1": None, "p2": None})
    assert s.is_chance() and s.occupancy() == {}
    race(8, "vertige,pepite,cocotte,grisette", state=s)
    assert s.current_player == "p1"  # the seat after the new leader bets first


def test_seven_players_rotate_the_lead_through_every_seat() -> None:
    s = new_game(players=7)
    leaders, first_bettors = [], []
    for _ in range(5):
        leaders.append(s.leader)
        race(7, "noiro,roujo,pepite,cocotte", state=s)
        first_bettors.append(s.current_player)
        while s.step == "bet":
            play(s, f"bet {s.current_player} noiro")
        while s.step in ("turn", "tip"):
            play(s, "turn" if s.step == "turn" else legal_tip(s))
        assert not s.is_over()  # noiro (favori) pays 1 a race: nobody reaches 6 in 5 races
    assert leaders == ["p1", "p2", "p3", "p4", "p5"] and first_bettors == ["p2", "p3", "p4", "p5", "p6"]
    assert s.race == 6 and s.leader == "p6"


def legal_tip(state: State) -> str:
    """The first card still available, as a tip in ``play``'s short form."""
    move = str(state.legal_moves()[0])
    return " ".join(move.split()[2:])


def test_game_ends_at_six_coins_with_a_shared_win() -> None:
    s = race(8, "vertige,pepite,cocotte,grisette", ("pepite", "pepite"), players=2)
    play(s, *TIE_RACE)
    race(8, "vertige,pepite,cocotte,grisette", ("pepite", "pepite"), state=s)
    play(s, *TIE_RACE)
    assert s.is_over() and s.current_player is None and s.legal_moves() == []
    assert s.coins == {"p1": 6, "p2": 6}
    assert s.winners == ("p1", "p2") and s.winner is None
    assert s.returns() == {"p1": 0.5, "p2": 0.5}
    data = s.to_json()
    # the finished race stays on show, the lead does not pass, the bets are revealed
    assert (data["race"], data["leader"], data["programme"], data["round"], data["winners"]) == (2, "p2", 8, 4,
                                                                                                ["p1", "p2"])
    assert data["bets"] == {"p1": "pepite", "p2": "pepite"} and data["last_race"]["race"] == 2
    assert set(s.occupancy()) == {"lane:pepite:1", "lane:cocotte:1", "lane:grisette:2", "lane:vertige:3"}
    with pytest.raises(IllegalMoveError, match="game is over"):
        s.parse_move("programme 1")


def test_game_ends_with_one_winner() -> None:
    s = race(8, "vertige,pepite,cocotte,grisette", ("pepite", "vertige"), players=2)
    play(s, *TIE_RACE)
    race(8, "vertige,pepite,cocotte,grisette", ("cocotte", "pepite"), state=s)
    play(s, *TIE_RACE)
    assert s.coins == {"p1": 3, "p2": 6}
    assert s.winners == ("p2",) and s.winner == "p2" and s.returns() == {"p1": 0.0, "p2": 1.0}


# -- illegal and malformed moves ---------------------------------------------------------------------------

def test_illegal_tips_name_the_reason() -> None:
    s = race(8, "grisette,vertige,pepite,cocotte", ("grisette", "grisette"), players=2)
    with pytest.raises(IllegalMoveError, match="not a tip now"):
        s.parse_move("tip p2 grisette 2")
    play(s, "turn")
    with pytest.raises(IllegalMoveError, match="noiro is not running"):
        s.parse_move("tip p2 noiro 2")
    with pytest.raises(IllegalMoveError, match="p2's turn, not p1's"):
        s.parse_move("tip p1 grisette 2")
    with pytest.raises(IllegalMoveError, match="p5 is not at this table"):
        s.parse_move("tip p5 grisette 2")
    play(s, "vertige c")
    with pytest.raises(IllegalMoveError, match="every vertige:c card of this race has been played"):
        s.parse_move("tip p1 vertige c")
    play(s, "vertige 2", "turn", "vertige 2")
    assert "tip p1 vertige 2" not in legal(s) and "tip p1 vertige 1" in legal(s)
    with pytest.raises(IllegalMoveError, match="every vertige:2"):
        s.apply(parse("tip p1 vertige 2"))


def test_deal_mode_tips_only_from_the_hand() -> None:
    s = play(new_game(players=2, cards="deal"), "programme 8", "shuffle grisette,vertige,pepite,cocotte",
             "deal p2 grisette:0", "deal p1 vertige:c", "deal p2 grisette:0", "deal p1 pepite:1",
             "deal p2 cocotte:2", "deal p1 pepite:1", "deal p2 cocotte:c", "deal p1 vertige:0",
             "bet p2 cocotte", "bet p1 pepite", "turn")
    assert s.hand("p2") == [("grisette", "0"), ("grisette", "0"), ("cocotte", "2"), ("cocotte", "c")]
    assert legal(s) == {"tip p2 grisette 0", "tip p2 cocotte 2", "tip p2 cocotte c"}
    with pytest.raises(IllegalMoveError, match="p2 holds no vertige:2 card"):
        s.parse_move("tip p2 vertige 2")
    play(s, "grisette 0")
    assert s.hand("p2") == [("grisette", "0"), ("cocotte", "2"), ("cocotte", "c")]


@pytest.mark.parametrize("text", ["", "@@", "tip p8 noiro 2", "tip p0 noiro 2", "tip p1 blacky 2", "tip p1 noiro 3",
                                  "tip p1 noiro", "programme 9", "programme x", "shuffle noiro,noiro",
                                  "shuffle noiro,", "deal p1 noiro", "deal p1 noiro:4", "bet p1", "turn now"])
def test_malformed_text_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        new_game().parse_move(text)
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)


def test_notation_round_trips_and_reads_any_case() -> None:
    s = race(1, "noiro,roujo,grisette,vertige,pepite,cocotte", ("noiro",) * 4)
    play(s, "turn")
    for move in s.legal_moves():
        assert s.parse_move(str(move)) == move
    assert str(s.parse_move("  TIP  p2 Noiro C ")) == "tip p2 noiro c"
    assert str(parse("Shuffle Vertige,Noiro")) == "shuffle vertige,noiro"
    assert str(parse("deal p3 cocotte:c")) == "deal p3 cocotte:c"


# -- the track mat ------------------------------------------------------------------------------------------

def test_occupancy_shows_each_starter_in_its_lane_at_its_line_row() -> None:
    assert len(LOCATIONS) == len(set(LOCATIONS)) == 36 and "lane:cocotte:6" in LOCATIONS
    s = race(1, "vertige,noiro,roujo,grisette,pepite,cocotte", ("noiro",) * 4)
    play(s, "turn", "roujo 2")
    assert s.occupancy() == {"lane:vertige:1": ("vertige", 1), "lane:roujo:2": ("roujo", 1),
                             **{f"lane:{h}:3": (h, 1) for h in ("noiro", "grisette", "pepite", "cocotte")}}
    assert set(s.occupancy()) <= set(LOCATIONS)


# -- hidden information ---------------------------------------------------------------------------------------

def test_determinize_redraws_only_what_the_player_cannot_see() -> None:
    s = play(new_game(players=3, cards="deal"), "programme 2", "shuffle cocotte,noiro,roujo,grisette,vertige,pepite")
    rng = random.Random(5)
    while s.is_chance():
        s.apply(rng.choices([m for m, _ in s.chance_outcomes()], [p for _, p in s.chance_outcomes()])[0])
    play(s, "bet p2 roujo", "bet p3 noiro", "bet p1 cocotte", "turn", f"tip p2 {' '.join(s.hand('p2')[0])}")
    seen = set()
    for seed in range(30):
        d = s.determinize("p3", random.Random(seed))
        assert d.hand("p3") == s.hand("p3") and d.bets["p3"] == "noiro"
        assert d.played == s.played and d.order == s.order and d.turned == s.turned == ("cocotte",)
        assert sorted(d.shuffle) == sorted(s.shuffle)
        assert [len(d.hand(p)) for p in s.players] == [len(s.hand(p)) for p in s.players]
        unseen = s.unplayed()
        for card in s.hand("p3") + d.hand("p1") + d.hand("p2"):
            unseen[card] -= 1
        assert min(unseen.values()) >= 0  # drawn from the cards p3 has not seen
        assert d.current_player == s.current_player and d.legal_moves() == s.legal_moves()
        seen.add((tuple(d.hand("p1")), d.bets["p1"], d.bets["p2"], d.shuffle))
    assert len(seen) == 30
    assert s.determinize("p3", random.Random(0)) != s


def test_determinize_at_a_table_game_keeps_the_cards_unknown() -> None:
    s = race(1, "vertige,noiro,roujo,grisette,pepite,cocotte", ("noiro", "roujo"))
    d = s.determinize("p4", random.Random(1))
    assert d.hands is None and d.bets["p4"] is None and d.bets["p2"] in PROGRAMMES[1]
