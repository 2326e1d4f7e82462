"""Bots over the State protocol: legality, reproducibility, and strength ordering on Hannibal.

The full 200-game figures come from ``python -m bench.strength``; here smaller samples keep CI fast
while still failing if the ordering breaks.
"""

from __future__ import annotations

import random

import pytest
from hannibal_helpers import position

from engines.bots import HeuristicBot, MCTSBot, RandomBot, play_game, win_rate
from engines.bots.match import Bot
from engines.hannibal import new_game


def _seats(seed: int, a: Bot, b: Bot) -> dict[str, Bot]:
    return {"yellow": a, "blue": b} if seed % 2 == 0 else {"yellow": b, "blue": a}


def _candidate(seed: int) -> str:
    return "yellow" if seed % 2 == 0 else "blue"


def test_heuristic_beats_random_at_least_80_percent() -> None:
    rate = win_rate(lambda s: new_game(),
                    lambda s: _seats(s, HeuristicBot(random.Random(s)), RandomBot(random.Random(s + 1))),
                    _candidate, games=40)
    assert rate >= 0.8


def test_mcts_beats_random() -> None:
    rate = win_rate(lambda s: new_game(),
                    lambda s: _seats(s, MCTSBot(random.Random(s), 16), RandomBot(random.Random(s + 1))),
                    _candidate, games=6)
    assert rate >= 5 / 6


def test_bots_only_play_legal_moves_and_games_end() -> None:
    for bots in ({"yellow": RandomBot(random.Random(1)), "blue": HeuristicBot(random.Random(2))},
                 {"yellow": MCTSBot(random.Random(3), 8), "blue": RandomBot(random.Random(4))}):
        record = play_game(new_game(), bots, random.Random(5))  # apply() rejects any illegal move
        assert record.state.is_over()


def test_same_seeds_replay_the_same_game() -> None:
    def run() -> list[str]:
        bots = {"yellow": HeuristicBot(random.Random(1)), "blue": MCTSBot(random.Random(2), 8)}
        return [str(m) for m in play_game(new_game(), bots, random.Random(3)).moves]

    assert run() == run()


def test_heuristic_sends_a_lone_piece_rather_than_wander() -> None:
    # yellow can hit the lone blue piece on 23 with the 3; nothing else comes close in value
    s = position({20: (Y := "yellow", 1), 23: ("blue", 1), 40: ("blue", 1), 2: (Y, 1)}, dice=(3, 3))
    move = HeuristicBot(random.Random(0)).choose(s)
    s.apply(move)
    assert s.waiting("blue") == 1


def test_heuristic_plans_the_whole_turn() -> None:
    # worked case: 0-6 onto a stack of 3, then the stack of 4 moves with the 4; greedy per step misses it
    s = position({0: ("yellow", 1), 6: ("yellow", 3), 40: ("blue", 1), 47: ("blue", 1)}, dice=(4, 6))
    bot = HeuristicBot(random.Random(0))
    first = bot.choose(s)
    s.apply(first)
    second = bot.choose(s)
    assert (str(first), str(second)) == ("0-6", "S6-18")


def test_bots_refuse_to_move_at_a_chance_node() -> None:
    for bot in (HeuristicBot(random.Random(0)), MCTSBot(random.Random(0), 4)):
        with pytest.raises(ValueError, match="chance"):
            bot.choose(new_game())


def test_zero_sum_games_really_are_antisymmetric_and_search_the_same() -> None:
    """The registry's zero_sum flag lets MCTS evaluate a leaf once: it must be exactly true, and the search
    must choose as it does evaluating both players."""
    from engines.base import sample_chance
    from engines.registry import games

    flagged = [g for g in games() if g.zero_sum]
    assert flagged
    for info in flagged:
        evaluate = info.evaluation()
        assert evaluate is not None
        for seed in range(3):
            rng = random.Random(seed)
            s = info.new_game()
            a, b = s.players
            for _ in range(120):
                if s.is_over():
                    break
                assert evaluate(s, a) == -evaluate(s, b)
                s.apply(sample_chance(s, rng) if s.is_chance() else rng.choice(list(s.legal_moves())))
            if s.is_over() or s.is_chance():
                continue
            both = MCTSBot(random.Random(5), 16, evaluate=evaluate)  # given explicitly: evaluated for both sides
            once = MCTSBot(random.Random(5), 16)
            assert str(both.choose(s.clone())) == str(once.choose(s.clone()))
