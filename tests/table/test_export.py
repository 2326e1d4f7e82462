"""``boardkeeper export JOURNAL``: a finished game as a reader follows it, through the CLI as a user runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.journal import read, replay
from controller.table import outcome, position_screen
from engines.registry import get_game


@pytest.mark.parametrize("game", ["hannibal", "scipio"])  # the two quick games; the others share the code
def test_export_prints_the_notation_every_move_and_the_result(game: str, capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    journal = tmp_path / f"{game}.jsonl"
    assert main(["demo", game, "--seed", "2", "--journal", str(journal), "--quiet"]) == 0
    capsys.readouterr()
    contents = read(journal)
    info = get_game(contents.header["game"])
    assert main(["export", str(journal)]) == 0
    text = capsys.readouterr().out
    head, body = text.split("\n\n", 2)[1:] if info.notation else ("", text)
    assert head.splitlines() == ["notation:", *(f"  {key}" for key in info.notation)]
    moves = [line.split(None, 2) for line in body.splitlines() if line[:5].strip().isdigit()]
    assert [(int(seq), who, move) for seq, who, move in moves] == [(e.seq, e.player, e.move) for e in contents.entries]
    assert text.rstrip().endswith(f"result: {outcome(replay(contents, journal)[-1])}")
    out = tmp_path / "game.txt"
    assert main(["export", str(journal), "--out", str(out)]) == 0
    assert out.read_text() == text and f"written to {out}" in capsys.readouterr().out


def test_export_of_a_missing_journal_is_one_line_and_exit_2(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.jsonl" in err


def test_every_game_explains_its_notation() -> None:
    from engines.registry import games

    for info in games():
        assert info.notation, f"{info.name}: no notation key for export"


def test_a_roll_the_players_keyed_in_is_marked_and_the_end_says_how_it_was_won(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A spin keyed in at the terminal (NEXT, NEXT, OK: 2) is marked under its line; a finished game's export
    shows the table's last screen, which says what won, before the result."""
    import subprocess
    import sys

    from support import ROOT_DIR

    journal = tmp_path / "cb.jsonl"
    subprocess.run([sys.executable, "-m", "controller.cli", "play", "cannonball", "--sim", "--seed", "2", "--journal",
                    str(journal)], input="fix\nnext\nnext\nok\nquit\n", cwd=ROOT_DIR, capture_output=True, text=True,
                   timeout=300, check=True)
    assert main(["export", str(journal)]) == 0
    text = capsys.readouterr().out
    first = text.splitlines().index("    1  chance   spin blue 2")
    assert text.splitlines()[first + 1] == "       keyed in: the players' own dice or spinner, not the table's"
    assert "the table's last screen:" not in text and text.rstrip().endswith("result: not finished yet")
    done = tmp_path / "hannibal.jsonl"
    assert main(["demo", "hannibal", "--seed", "2", "--journal", str(done), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["export", str(done)]) == 0
    end = capsys.readouterr().out.split("the table's last screen:\n", 1)[1]
    final = replay(read(done), done)[-1]
    shown = position_screen(final).text().splitlines()
    assert end.splitlines() == [f"       {row}" for row in shown] + ["", f"result: {outcome(final)}"], end
    assert "wins" in shown[0] or "won" in end, shown  # Hannibal's result screen names the winner
