"""Hannipe! bots: the evaluation's choices (bet by hand and payout, tip timing), the generic bots playing
legal whole games through the registry, and the heuristic beating random players at a four-seat table.

Full win rates and timings: ``python -m bench.strength --game hannipe --players 4``.
"""

from __future__ import annotations

import random
from collections import Counter

from test_hannipe_rules import play

from engines.bots import HeuristicBot, MCTSBot, RandomBot, play_game
from engines.bots.match import Bot
from engines.hannipe import State, new_game
from engines.hannipe.heuristic import evaluate
from engines.registry import get_game

DEAL = ("programme 8", "shuffle pepite,vertige,grisette,cocotte",
        "deal p2 cocotte:2", "deal p1 vertige:2", "deal p2 cocotte:c", "deal p1 vertige:1",
        "deal p2 grisette:0", "deal p1 grisette:2", "deal p2 pepite:0", "deal p1 vertige:c")
"""Programme 8 (grisette 1, vertige 2, pepite 0, cocotte 0), two seats: p2 holds cocotte's best cards."""


def choices(state: State, tries: int = 12) -> Counter[str]:
    return Counter(str(HeuristicBot(random.Random(i)).choose(state)) for i in range(tries))


def test_registry_hooks_are_this_evaluation() -> None:
    info = get_game("hannipe")
    assert info.hidden and info.chance and info.evaluation() is evaluate
    assert info.locations() == frozenset(info.load().LOCATIONS)


def test_bet_follows_the_hand_and_the_payout() -> None:
    s = play(new_game(players=2, cards="deal"), *DEAL)
    assert choices(s) == Counter({"bet p2 cocotte": 12})
    values = {}
    for horse in ("cocotte", "vertige", "grisette", "pepite"):
        after = play(s.clone(), f"bet p2 {horse}")
        values[horse] = evaluate(after, "p2")
    assert max(values, key=lambda h: values[h]) == "cocotte"


def test_tips_hold_back_a_rival_when_the_turned_card_is_high() -> None:
    s = play(new_game(players=2, cards="deal"), *DEAL, "bet p2 cocotte", "bet p1 vertige", "turn",
             "tip p2 cocotte 2", "tip p1 vertige 1", "turn")
    assert s.turned[-1] == "vertige"  # value 2: a 0 card costs its horse two places, a 2 card does nothing
    picked = choices(s)
    assert set(picked) <= {"tip p2 grisette 0", "tip p2 pepite 0"}


def test_tips_push_the_backed_horse_when_the_turned_card_is_low() -> None:
    deal = ("programme 8", "shuffle pepite,vertige,grisette,cocotte",
            "deal p2 cocotte:2", "deal p1 vertige:2", "deal p2 cocotte:2", "deal p1 vertige:1",
            "deal p2 cocotte:1", "deal p1 grisette:2", "deal p2 grisette:1", "deal p1 vertige:c")
    s = play(new_game(players=2, cards="deal"), *deal, "bet p2 cocotte", "bet p1 vertige", "turn")
    assert s.turned == ("pepite",)  # value 0: a cocotte card gains its full value now
    picked = choices(s)
    # cocotte 1 leads as well as cocotte 2 would (a horse alone in front cannot gain) and keeps the 2
    assert picked == Counter({"tip p2 cocotte 1": 12})
    after = play(s.clone(), "tip p2 cocotte 1")
    assert after.order[0] == ("cocotte",)


def test_a_won_game_outranks_everything() -> None:
    s = play(new_game(players=2, cards="deal"), *DEAL)
    assert evaluate(s, "p2") < 100.0
    rng = random.Random(0)
    g = new_game(players=2, cards="deal")
    record = play_game(g, {"p1": RandomBot(rng), "p2": RandomBot(rng)}, random.Random(1))
    end = record.state
    assert isinstance(end, State)
    for seat in end.players:
        assert evaluate(end, seat) == (100.0 * end.returns()[seat] if seat in end.winners else -100.0)


def _four_seats(seed: int, candidate: Bot) -> tuple[dict[str, Bot], str]:
    seat = f"p{seed % 4 + 1}"
    bots: dict[str, Bot] = {f"p{i}": RandomBot(random.Random(seed * 10 + i)) for i in range(1, 5)}
    bots[seat] = candidate
    return bots, seat


def test_heuristic_beats_three_random_players_far_above_a_fair_share() -> None:
    wins = 0
    games = 40
    for seed in range(games):
        bots, seat = _four_seats(seed, HeuristicBot(random.Random(seed)))
        end = play_game(new_game(players=4, cards="deal"), bots, random.Random(seed)).state
        wins += end.returns()[seat] > 0
    assert wins / games >= 0.5  # a fair share is about 0.25


def test_mcts_plays_whole_games_and_replays_with_the_same_seeds() -> None:
    def run() -> list[str]:
        bots, _ = _four_seats(1, MCTSBot(random.Random(2), 8))
        record = play_game(new_game(players=4, cards="deal"), bots, random.Random(3))
        assert record.state.is_over()
        return [str(m) for m in record.moves]

    assert run() == run()


def test_bots_never_peek_at_hidden_cards() -> None:
    """Two positions that differ only in what p2 cannot see get the same choice from the same seed."""
    s = play(new_game(players=2, cards="deal"), *DEAL, "bet p2 cocotte", "bet p1 vertige")
    data = s.to_json()
    data["bets"]["p1"] = "pepite"
    data["shuffle"] = ["pepite", "cocotte", "grisette", "vertige"]  # the same first card, then others
    data["hands"]["p1"] = ["grisette:2", "grisette:c", "pepite:1", "pepite:2"]
    other = State.from_json(data)
    s, other = play(s, "turn"), play(other, "turn")
    for seed in range(4):
        assert HeuristicBot(random.Random(seed)).choose(s) == HeuristicBot(random.Random(seed)).choose(other)
        assert MCTSBot(random.Random(seed), 16).choose(s) == MCTSBot(random.Random(seed), 16).choose(other)
