"""Hannipe! on the simulated table, end to end: the tests press the buttons and move the pawns (magnets on
the track mat's reeds) as people do, and read what people read: the screen and the journal on disk."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from support import check_golden

from controller import journal
from controller.cli import main
from controller.demo import run_demo
from controller.dice import Dice
from controller.flows.hannipe import HannipeFlow, Phase
from controller.flows.hannipe_screens import finish_screen, position_screen
from controller.journal import read
from controller.screen import Screen, layout, render
from controller.table import Table, build_table, profile_for
from engines.hannipe import HORSES, LOCATIONS, NAMES, State, location, new_game
from hw_config import Profile
from sim_hardware.backend import create

TICK = 0.005




class HannipeTable:
    def __init__(self, path: Path, *, seed: int = 0, options: dict[str, Any] | None = None) -> None:
        self.profile: Profile = profile_for("hannipe-sim")
        self.hw = create(self.profile, seed=seed)
        self.board = self.hw.board
        self.journal_path = path
        self.table: Table = build_table(self.profile, self.hw, path, Dice(random.Random(seed)), seed=seed,
                                        options=options or {"players": 3, "cards": "table"})
        self.table.flow.start()
        self.run(2.0)

    @property
    def flow(self) -> HannipeFlow:
        flow = self.table.flow
        assert isinstance(flow, HannipeFlow)
        return flow

    @property
    def game(self) -> State:
        return self.flow.game

    @property
    def phase(self) -> Phase:
        return self.flow.phase

    @property
    def text(self) -> str:
        current = self.table.display.current
        return current.text() if current else ""

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / TICK)):
            self.table.loop.tick()
            self.hw.clock.advance(TICK)

    def press(self, button: str, times: int = 1) -> None:
        pin = self.profile.buttons[button].pin
        assert pin is not None
        for _ in range(times):
            self.board.press_pin(pin)
            self.run(0.08)
            self.board.release_pin(pin)
            self.run(0.2)

    def place(self, loc: str) -> None:
        self.board.place(self.profile.locations[loc])
        self.run(0.1)

    def lift(self, loc: str) -> None:
        self.board.lift(self.profile.locations[loc])
        self.run(0.1)

    def follow_mat(self) -> None:
        """Do what the pawn list says until play goes on: lift the pawns where none belongs, then put
        each horse on its row."""
        want = set(self.game.occupancy())
        for loc in LOCATIONS:
            if self.board.count(self.profile.locations[loc]) and loc not in want:
                self.lift(loc)
        for loc in want:
            if not self.board.count(self.profile.locations[loc]):
                self.place(loc)
        self.run(2.0)
        assert self.phase is not Phase.MAT, self.text

    def bet_first_starter_all_round(self) -> None:
        for _ in self.game.players:
            assert self.phase is Phase.LOOK, self.text
            self.press("OK")  # the others look away
            self.press("OK")  # the first starter, as offered
            self.run(2.0)

    def moves(self) -> list[str]:
        return [entry.move for entry in read(self.journal_path).entries]  # the moves; notes are no moves


def test_a_wrong_pawn_is_guided_back_and_play_waits_for_the_mat(tmp_path: Path) -> None:
    t = HannipeTable(tmp_path / "g.jsonl")
    starters = t.game.starters
    assert t.game.programme == 7 and t.phase is Phase.MAT
    assert f"{NAMES[starters[0]]} to row 1" in t.text
    t.place(location(starters[0], 2))  # one row off
    for h in starters[1:]:
        t.place(location(h, 1))
    stray = next(h for h in HORSES if h not in starters)
    t.place(location(stray, 1))  # a pawn in a lane that does not run
    t.run(2.0)
    assert t.flow.screen().lines == (f"{NAMES[starters[0]]} to row 1", f"lift {NAMES[stray]} row 1")
    assert set(t.flow.fixups) == {f"lift {starters[0]}:2", f"lift {stray}:1",  # as the terminal's fix reads it
                                  f"put 1 {starters[0]} on {starters[0]}:1"}
    t.press("OK")
    assert t.phase is Phase.MAT and len(t.moves()) == 2  # no input taken: the programme and shuffle only
    t.lift(location(starters[0], 2))
    t.place(location(starters[0], 1))
    assert t.flow.screen().lines == (f"lift {NAMES[stray]} row 1",)
    t.lift(location(stray, 1))
    t.run(2.0)
    assert t.phase is Phase.LOOK and "p2: your bet" in t.text and "look away" in t.text
    t.lift(location(starters[1], 1))  # knocked over mid-game: play stops again
    assert t.phase is Phase.MAT and t.flow.screen().lines == (f"{NAMES[starters[1]]} to row 1",)
    t.place(location(starters[1], 1))
    assert t.phase is Phase.LOOK


def test_back_takes_a_tip_back_before_the_next_seat_plays(tmp_path: Path) -> None:
    t = HannipeTable(tmp_path / "g.jsonl")
    t.follow_mat()
    t.bet_first_starter_all_round()
    assert t.phase is Phase.TURN
    t.press("OK")  # the leader turns the first horse card
    t.run(2.0)
    t.follow_mat()
    assert t.phase is Phase.TIP and t.game.current_player == "p2"
    turned = t.game.turned[-1]
    other = next(h for h in t.game.starters if h != turned)
    t.press(f"horse:{other}")
    t.press("OK")  # now the value
    face = "2"
    while t.flow.face != face:
        t.press("NEXT")
    t.press("OK")
    t.run(2.0)
    assert t.moves()[-1] == f"tip p2 {other} 2"
    if t.phase is Phase.MAT:
        t.follow_mat()
    assert t.game.current_player == "p3"
    t.press("BACK")  # p3 has not played: p2's tip is taken back
    t.run(2.0)
    assert t.moves()[-1] == "undo" and t.game.current_player == "p2" and not t.game.played
    if t.phase is Phase.MAT:
        t.follow_mat()
    assert t.phase is Phase.TIP
    t.press("OK")
    t.press("BACK")  # from the value back to the horse: nothing taken back
    assert t.phase is Phase.TIP and not t.flow.choosing_face and t.moves()[-1] == "undo"
    assert journal.replay(journal.read(t.journal_path))[-1] == t.game


def _tip_that_moves(t: HannipeTable) -> tuple[str, str]:
    """Bet, turn the first card and tip a horse whose pawn then moves, with the mat followed: the horse and
    the location its pawn stood on before the tip."""
    t.follow_mat()
    t.bet_first_starter_all_round()
    t.press("OK")  # the leader turns the first horse card
    t.run(2.0)
    t.follow_mat()
    for horse, face in [(m.horse, m.face) for m in t.game.legal_moves()]:
        after = t.game.clone()
        after.apply(t.game.parse_move(f"tip p2 {horse} {face}"))
        was = next(loc for loc, (h, _) in t.game.occupancy().items() if h == horse)
        if next(loc for loc, (h, _) in after.occupancy().items() if h == horse) != was:
            break
    t.press(f"horse:{horse}")
    t.press("OK")  # now the value
    while t.flow.face != face:
        t.press("NEXT")
    t.press("OK")
    t.run(2.0)
    assert t.phase is Phase.MAT and t.moves()[-1] == f"tip p2 {horse} {face}"
    t.follow_mat()
    return horse, was


def test_pawns_put_back_before_the_tip_offer_to_take_it_back(tmp_path: Path) -> None:
    t = HannipeTable(tmp_path / "g.jsonl")
    horse, was = _tip_that_moves(t)
    now = next(loc for loc, (h, _) in t.game.occupancy().items() if h == horse)
    t.lift(now)
    assert t.phase is Phase.MAT and t.text.startswith("Pawn moved!")  # lifted only: not yet put back
    t.place(was)
    t.run(1.0)
    assert t.phase is Phase.UNDO and "Take back?" in t.text and "OK = take it back" in t.text
    t.press("OK")
    t.run(2.0)
    assert t.moves()[-1] == "undo" and t.game.current_player == "p2" and not t.game.played
    assert t.phase is Phase.TIP  # the mat already shows the race before the tip: nothing to follow


def test_no_at_the_takeback_offer_keeps_the_tip_and_lists_the_pawn(tmp_path: Path) -> None:
    t = HannipeTable(tmp_path / "g.jsonl")
    horse, was = _tip_that_moves(t)
    now = next(loc for loc, (h, _) in t.game.occupancy().items() if h == horse)
    t.lift(now)
    t.place(was)
    t.run(1.0)
    assert t.phase is Phase.UNDO
    t.press("BACK")
    assert t.phase is Phase.MAT and t.flow.fixups and t.moves()[-1].startswith("tip")
    t.follow_mat()
    assert t.game.current_player == "p3" and t.moves()[-1].startswith("tip")


def test_the_hand_is_shown_only_behind_the_look_away_screen(tmp_path: Path) -> None:
    t = HannipeTable(tmp_path / "g.jsonl", options={"players": 2, "cards": "deal"})
    t.follow_mat()
    hand = " ".join(f"{NAMES[h][0]}{f}" for h, f in t.game.hand("p2"))
    assert t.phase is Phase.LOOK and hand not in t.text
    t.press("OK")
    assert t.phase is Phase.BET and hand in t.text
    t.press("BACK")
    assert t.phase is Phase.LOOK and hand not in t.text


@pytest.mark.parametrize("players", [2, 7])
def test_cli_demo_plays_a_whole_game(tmp_path: Path, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    path, frames = tmp_path / "h.jsonl", tmp_path / "frames"
    assert main(["demo", "hannipe", "--seed", "2", "--players", str(players), "--journal", str(path),
                 "--frames", str(frames), "--quiet"]) == 0
    last = json.loads(path.read_text().splitlines()[-1])["state"]
    assert last["winners"] and len(last["players"]) == players and max(last["coins"].values()) >= 6
    contents = journal.read(path)
    assert contents.finished and journal.replay(contents, path)[-1].winners == tuple(last["winners"])
    assert len(list(frames.glob("*.png"))) > 50
    assert "winner" in capsys.readouterr().out


def test_demo_with_pawns_put_one_row_off_is_guided_back(tmp_path: Path) -> None:
    shown: list[Screen] = []
    result = run_demo(3, tmp_path / "m.jsonl", game="hannipe", mistakes=0.5, options={"players": 7, "cards": "deal"},
                      echo=shown.append)
    assert result.players.mistakes_made > 0
    assert any(line.endswith(" to row 1") for s in shown if s.footer == "play waits for pawns" for line in s.lines)
    assert not [s.text() for s in shown if layout(s).cut]  # every screen fits the OLED
    assert journal.replay(journal.read(tmp_path / "m.jsonl"))[-1].is_over()


def test_a_race_resumes_after_a_power_cut(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    run_demo(4, whole, game="hannipe", options={"players": 3, "cards": "deal"})
    lines = whole.read_text().splitlines(keepends=True)
    half = len(lines) // 2
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:half]) + lines[half][:25])  # torn mid-line, mid-race
    assert json.loads(lines[half - 1])["state"]["programme"] is not None
    result = run_demo(4, cut, game="hannipe")
    assert result.table.resumed
    kept = cut.read_text().splitlines(keepends=True)
    assert kept[:half] == lines[:half]  # nothing journaled before the cut changed
    assert journal.replay(journal.read(cut))[-1].winners


def _race(seed: int, *, finished: bool) -> State:
    """A deterministic position: random legal play in the middle of a race, or just after its finish."""
    rng = random.Random(seed)
    g = new_game(players=5, cards="deal")
    while not (g.last_race if finished else g.step == "tip" and g.round == 3):
        if g.is_chance():
            moves, weights = zip(*g.chance_outcomes(), strict=True)
            g.apply(rng.choices(moves, weights)[0])
        else:
            g.apply(rng.choice(g.legal_moves()))
    return g


def test_golden_race_and_payout_screens() -> None:
    race = position_screen(_race(1, finished=False))
    payout = finish_screen(_race(1, finished=True))
    for screen in (race, payout):
        assert not layout(screen).cut, screen.text()
    check_golden("hannipe_race", render(race))
    check_golden("hannipe_payout", render(payout))


def test_location_names_match_the_layout() -> None:
    assert set(profile_for("hannipe-sim").locations) == set(LOCATIONS)
    assert set(profile_for("hannipe").buttons) == set(profile_for("hannipe-sim").buttons)
