"""A broken reed in every sensed game, through the CLI on the simulated table: ``demo GAME --fault
stuck:LOC`` (a reed stuck closed) or ``--fault dead:LOC`` (one that never closes). The table names the
sensor once its fix-up has stood too long, the scripted players press OK to ignore it, the game ends with
exit 0, and the journal says which sensor was ignored (a note line, no move)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal import read, replay


@pytest.mark.parametrize(("game", "fault", "seed"), [
    ("hannibal", "dead:pos:0", 2),  # under a stack from the set-up on
    ("cannonball", "stuck:box:a11", 2),  # an empty box reads closed
    ("hannipe", "dead:lane:noiro:1", 2),  # a pawn on its first row is never seen
    # a second chit on a row; seed 1 moves Apulia's chit onto the broken cell, which the sensors cannot tell from
    # off the tray (the table asked "nobody?" there; it once stopped on an assertion)
    ("factional", "stuck:tray:apulia:carthage", 1),
])
def test_a_broken_reed_is_named_ignored_and_journaled(tmp_path: Path, game: str, fault: str, seed: int,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.jsonl"
    assert main(["demo", game, "--seed", str(seed), "--fault", fault, "--quiet", "--journal", str(journal)]) == 0
    location = fault.partition(":")[2]
    contents = read(journal)
    assert contents.finished
    replay(contents, journal)  # the notes take no part in the game
    notes = [json.loads(line) for line in journal.read_text().splitlines() if '"note"' in line]
    assert [n["note"] for n in notes] == [f"sensor {location} ignored on the players' word: stuck or dead"]
    assert "winner:" in capsys.readouterr().out


@pytest.mark.parametrize(("fault", "says"), [
    ("stuck:pos:99", "--fault stuck:pos:99: 'pos:99' is no location of the layout (such as pos:0, pos:1, pos:10)"),
    ("bent:pos:3", "--fault bent:pos:3: KIND:LOC with KIND one of stuck, dead"),
])
def test_a_bad_fault_is_one_line(fault: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "hannibal", "--fault", fault, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err
