"""The Cannon Ball bots' hooks: the evaluation and the march planner play to win.

Each position is small and built for one behaviour of the issue (storm, close a gate, attack, blow a
bridge an enemy column comes over but never one's own attack route, keep the fort guarded, advance); a
few whole games check that the bots only play legal moves, replay identically and beat the random bot.
The 50-seed figures come from ``python -m bench.cannonball --strength``.
"""

from __future__ import annotations

import random

from engines.base import sample_chance
from engines.bots import HeuristicBot, MCTSBot, RandomBot, play_game
from engines.cannonball import State, new_game
from engines.cannonball.board import HOME, SECTION_OF, box
from engines.cannonball.features import bridge_defences, measure
from engines.cannonball.heuristic import candidates, evaluate
from engines.cannonball.moves import END, Blew
from engines.cannonball.positions import position
from engines.registry import get_game

FORT_B = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3")
FORT_G = ("l19", "k19", "j19", "l18", "k18", "j18", "l17", "k17")


def turn(s: State, spin: int = 6, seed: int = 0) -> list[str]:
    """The heuristic bot's whole turn (a march spins ``spin``)."""
    bot = HeuristicBot(random.Random(seed))
    side = s.to_move
    played = []
    while not s.is_over() and s.to_move == side and not (s.is_chance() and s.pending is not None
                                                          and str(s.pending) != "march"):
        if s.is_chance():
            s.apply(s.parse_move(f"spin {spin}"))
            continue
        move = bot.choose(s)
        played.append(str(move))
        s.apply(move)
    return played


def test_registry_names_the_hooks() -> None:
    info = get_game("cannonball")
    assert info.evaluation() is evaluate and info.candidate_moves() is candidates
    assert len(info.locations()) == 226 and "gate:south" in info.locations()


def test_evaluation_is_zero_sum_and_scores_wins() -> None:
    s = position((*FORT_B, "C e5", "d5"), (*FORT_G, "k12"))
    assert evaluate(s, "blue") == -evaluate(s, "gray")
    won = position((*FORT_B, "C k12", "j12", "l12", "k11"), FORT_G)
    won.apply(won.parse_move("storm south odd"))
    assert evaluate(won, "blue") > 300  # an even chance of winning right away
    won.apply(won.parse_move("spin 1"))
    assert evaluate(won, "blue") == 1000 and evaluate(won, "gray") == -1000


def test_storms_when_it_can() -> None:
    assert turn(position((*FORT_B, "C k12", "j12", "l12", "k11"), FORT_G))[0].startswith("storm south")


def test_closes_a_gate_under_threat() -> None:
    s = position(FORT_B, (*FORT_G, "C k5", "j5", "l5", "k7"), gates={"east": "open"})
    assert turn(s) == ["close east"]
    calm = position(FORT_B, (*FORT_G, "C k15"), gates={"east": "open"})
    assert turn(calm)[0] == "march"


def test_attacks_when_the_attack_succeeds() -> None:
    s = position((*FORT_B, "C e5", "d5", "f5"), (*FORT_G, "d8", "e8", "f8"), budget=3)
    played = turn(s)
    assert played[0].startswith("C e5-") and not {"d8", "e8", "f8"} & set(s.to_json()["boxes"])


def test_completes_a_trooper_attack_with_enough_entrants() -> None:
    s = position((*FORT_B, "d6", "e6", "f6", "g9"), (*FORT_G, "e8"), budget=4)
    turn(s)
    boxes = s.to_json()["boxes"]
    assert "e8" not in boxes and sum(1 for b in ("d6", "e6", "f6", "g9") if b in boxes) <= 2


def test_blows_the_bridge_an_enemy_column_is_crossing() -> None:
    s = position((*FORT_B, "b9", "a8"), (*FORT_G, "C b12", "a12", "c12", "a11"), budget=6)
    played = turn(s)
    assert played[0] == "tnt b9" and s.to_json()["mines"] == {"b": {"owner": "blue", "end": "b9"}}
    assert {"b9", "a8"}.isdisjoint(s.to_json()["boxes"]) and len(s.to_json()["boxes"]) == 8 + 2 + 12
    s.apply(s.parse_move("march"))
    s.apply(s.parse_move("spin 1"))
    s.apply(s.parse_move("end"))
    assert turn(s)[0] in {"shoot b odd", "shoot b even"}


def test_walks_to_the_bridge_an_enemy_column_comes_over_lays_tnt_and_shoots_the_crossers() -> None:
    # a gray column on and next to d11, the way over bridge d towards blue's gates; blue's troopers stand
    # back from the bridge, so a TNT takes walking two of them in (one onto d9) and out again
    s = position((*FORT_B, "d7", "f6", "f4", "e4"), (*FORT_G, "d11", "e11", "e12"), budget=6,
                 gates={"north": "open", "east": "open"})
    assert bridge_defences(s, 0) == [box("d9")]
    played = turn(s)
    assert "tnt d9" in played and s.to_json()["mines"] == {"d": {"owner": "blue", "end": "d9"}}
    blue = [name for name, (owner, _) in s.to_json()["boxes"].items() if owner == "blue"]
    assert len(blue) == 8 + 4 and not [name for name in blue if SECTION_OF[box(name)] == SECTION_OF[box("d9")]]
    for text in ("march", "spin 3", "d11=d9", "end"):  # gray crosses onto the mined end anyway
        s.apply(s.parse_move(text))
    shot = turn(s)
    assert shot in (["shoot d odd"], ["shoot d even"])
    s.apply(s.parse_move("spin 1" if shot == ["shoot d odd"] else "spin 2"))
    assert s.at("d9") is None and s.to_json()["bridges"]["d"] == "down" and s.to_json()["mines"] == {}


def test_never_blows_its_own_attack_route() -> None:
    # blue's column and cannon go over bridge k to gray's south gate; a gray column stands across it,
    # yet blowing k would set blue's formation back as far as gray's: the bridge is blue's attack route
    s = position((*FORT_B, "k9", "l8", "j8", "i8", "h9", "C i7"), (*FORT_G, "k12", "l13", "j13"), budget=6,
                 gates={"north": "open", "east": "open", "south": "open"})
    assert "tnt k9" in {str(m) for m in s.legal_moves()} and bridge_defences(s, 0) == []
    assert not [m for m in turn(s) if m.startswith("tnt")]
    alone = position((*FORT_B, "d9", "e8", "e9", "C e7"), FORT_G, budget=6)  # no enemy anywhere near
    assert "tnt d9" in {str(m) for m in alone.legal_moves()} and bridge_defences(alone, 0) == []
    assert not [m for m in turn(alone) if m.startswith("tnt")]


def test_keeps_the_fort_guarded() -> None:
    s = position(("j1", "d7", "e7"), (*FORT_G, "C k15"), budget=8)
    turn(s, spin=8)
    assert any(box(name) in HOME[0] for name, (owner, _) in s.to_json()["boxes"].items() if owner == "blue")
    assert s.winner is None


def test_opening_march_advances_on_the_enemy_gates() -> None:
    s = new_game()
    s.apply(s.parse_move("spin blue 9"))
    s.apply(s.parse_move("spin gray 3"))
    before = measure(s, 0)
    played = turn(s)
    after = measure(s, 0)
    assert played[-1] == "end" and len(played) > 2
    assert sum(after.need) < sum(before.need) and after.progress < before.progress


def test_candidates_are_the_planned_move_and_end() -> None:
    s = position((*FORT_B, "C e5", "d5", "f5"), (*FORT_G, "d8", "e8", "f8"), budget=3)
    moves = candidates(s)
    assert moves[-1] == END and len(moves) == 2 and moves[0] in s.legal_moves()
    turn_start = position(FORT_B, FORT_G, gates={"east": "open"})
    assert list(candidates(turn_start)) == list(turn_start.legal_moves())


def test_bots_play_legal_moves_never_blew_and_replay_identically() -> None:
    def run() -> list[str]:
        s = new_game(turn_limit=40)
        bots = {"blue": HeuristicBot(random.Random(1)), "gray": MCTSBot(random.Random(2), 4)}
        record = play_game(s, bots, random.Random(3))  # apply() rejects any illegal move
        assert record.state.is_over()
        assert not [m for m in record.moves if isinstance(m, Blew)]
        return [str(m) for m in record.moves]

    assert run() == run()


def test_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(4):
        heuristic = "blue" if seed % 2 == 0 else "gray"
        bots = {p: HeuristicBot(random.Random(seed)) if p == heuristic else RandomBot(random.Random(seed + 9))
                for p in ("blue", "gray")}
        s = new_game(turn_limit=300)
        chance = random.Random(seed)
        while not s.is_over():
            player = s.current_player
            s.apply(sample_chance(s, chance) if player is None else bots[player].choose(s))
        wins += s.winner == heuristic
    assert wins == 4
