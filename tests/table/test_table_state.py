"""The table state every view reads: one snapshot after each event, built from the flow, the journal, the
sensors and the screen, handed to observers; a failing view is dropped and the game goes on. And the
terminal's board view, drawn from it for every game."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hannibal_harness import Harness

from controller.cli import main
from controller.demo import run_demo
from controller.journal import read
from controller.table_state import TableState
from controller.terminal import run_terminal
from engines.registry import games, get_game, load_ref
from hw_config.profile import load_profile


def test_the_snapshot_follows_the_table(tmp_path: Path) -> None:
    t = Harness(tmp_path / "j.jsonl")
    seen: list[TableState] = []
    t.table.feed.watch(seen.append)
    t.roll(3, 5)
    state = seen[-1]
    assert (state.game, state.seq, state.phase, state.to_move) == ("hannibal", 1, "step", "yellow")
    assert state.dice == (3, 5) and [line.move for line in state.recent] == ["R3,5"]
    assert [(s.seat, s.played_by) for s in state.seats] == [("yellow", "person"), ("blue", "person")]
    assert state.expected["pos:0"] == ("yellow", 4) and state.sensed >= {"pos:0", "pos:6", "pos:12"}
    assert not state.disagreeing and state.screen is t.table.display.current
    t.lift(12)
    t.place(13)  # no legal move of a 3 and a 5 lands there: the sensors now disagree
    assert seen[-1].disagreeing == {"pos:13"} and seen[-1].expected == state.expected
    t.run(3.5)
    assert seen[-1].fixups == ("lift 13",) and seen[-1].phase == "fixup"


def test_a_failing_view_is_dropped_and_the_game_goes_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    t = Harness(tmp_path / "j.jsonl")
    calls: list[int] = []

    def broken(state: TableState) -> None:
        calls.append(state.seq)
        raise RuntimeError("the view fell over")

    t.table.feed.watch(broken)
    t.roll(1, 2)
    t.play(12, 13)
    assert len(calls) == 1 and "a view of the table failed" in caplog.text
    assert t.moves() == ["R1,2", "12-13"]


@pytest.mark.parametrize("game", [g.name for g in games() if g.board_view and g.scripted])
def test_the_terminal_draws_the_board_for_every_game(tmp_path: Path, game: str) -> None:
    """``play GAME --sim``: after ``fix`` the board is drawn from the table state, every location as the game
    says, and ``board`` draws it again. A game no bot can play is played at every seat by the person."""
    out = io.StringIO()
    info = get_game(game)
    profile = load_profile(f"{game}-sim", lambda g: __import__("controller.table").table.game_needs(g))
    run_terminal(tmp_path / "j.jsonl", profile=profile, humans=info.players[:1] if info.bots else info.seats(),
                 seats=get_game(game).seats(), seed=2, stdin=io.StringIO("fix\nboard\nquit\n"), write=out.write)
    text = out.getvalue()
    assert f"game saved in {tmp_path / 'j.jsonl'}" in text
    draw = load_ref(get_game(game).board_view)
    assert draw.__doc__ and text.count("\n> ") >= 2
    first_line = {"hannibal": " 0 Y4", "cannonball": "    a  b  c  d  e  f  g  h  i  j  k  l", "hannipe": "Noiro",
                  "scipio": "Rome", "factional": "Latium"}[game]
    assert text.count(first_line) >= 2, text[-3000:]  # drawn, then drawn again by ``board``


def test_hot_seat_one_person_plays_every_seat_and_no_hands_move_for_them(tmp_path: Path) -> None:
    """``play hannibal --sim --as all``: the person rolls and moves for both colours; nothing moves by itself."""
    journal = tmp_path / "j.jsonl"
    stdin = io.StringIO("fix\nroll\nwait 5\nquit\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", stdin)
        assert main(["play", "hannibal", "--sim", "--as", "all", "--seed", "3", "--journal", str(journal)]) == 0
    moves = [entry.move for entry in read(journal).entries]
    assert len(moves) == 1 and moves[0].startswith("R")  # rolled, and nobody took the step in five seconds


def test_hot_seat_factional_is_played_at_every_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Factional has no bots: at the terminal the person keeps the whole ledger (``--as all`` by default), and
    asking for one seat only says why not."""
    journal = tmp_path / "j.jsonl"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO("fix\nok\nquit\n"))
        assert main(["play", "factional", "--sim", "--seed", "3", "--journal", str(journal)]) == 0
    assert [entry.move for entry in read(journal).entries] == ["reinforced"]  # OK at the reinforcements
    assert main(["play", "factional", "--sim", "--as", "rome-silver", "--journal", str(tmp_path / "k.jsonl")]) == 2
    assert "factional has no bots: at the terminal you play every seat (--as all)" in capsys.readouterr().err


def test_at_the_terminal_a_persons_wrong_move_is_theirs_to_put_right(tmp_path: Path) -> None:
    """The bots' hands never put the person's own mistake right: the fix-up list stays until ``fix``."""
    out = io.StringIO()
    profile = load_profile("hannibal-sim", lambda g: __import__("controller.table").table.game_needs(g))
    journal = tmp_path / "j.jsonl"
    run_terminal(journal, profile=profile, humans=("yellow",), seats=("yellow", "blue"), seed=3,
                 stdin=io.StringIO("fix\nroll\nmove 12 21\nwait 4\nwait 4\nfix\nquit\n"), write=out.write)
    screens = out.getvalue().split("\n> ")  # what was printed before each prompt; the last: "game saved"
    assert "lift 21" in screens[-4] and "lift 21" in screens[-3]  # after each wait: still there, still asked
    assert "Yellow to move" in screens[-2] and "lift 21" not in screens[-2]  # ``fix`` put it right
    assert "21 .  " in screens[-2]  # and the board view agrees


@pytest.mark.parametrize("game", [g.name for g in games() if g.seat_screen and g.scripted])
def test_each_seat_sees_its_secrets_and_nobody_elses(tmp_path: Path, game: str) -> None:
    """A whole demo watched through the table state: a seat's own screen (its hand, its bet, its organisation)
    is only ever under that seat in ``private``; while a seat's secret entry is on the OLED, the public screen
    says only "look away"; and what a private screen says never appears on the public one."""
    seen: list[TableState] = []
    result = run_demo(2, tmp_path / "j.jsonl", game=game, faults=lambda table: table.feed.watch(seen.append))
    assert result.table.finished() and len(seen) > 20
    covered = 0
    for state in seen:
        assert set(state.private) <= {s.seat for s in state.seats}
        for seat, screen in state.private.items():
            assert screen.private == seat, (seat, screen)
        public = state.screen
        assert public is None or not public.private, public
        if public is not None and public.title.endswith(": secret"):
            covered += 1
            assert all(not set(secret.lines) & set(public.lines) for secret in state.private.values())
    assert covered > 0, "no secret entry was ever on the OLED"
