"""Seats named in the profile (``[seats]``): the screens show the names, the journal keeps the engine's seats,
and a bad name is one line from ``check-config``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.cli import main
from controller.demo import run_demo
from controller.screen import Screen, layout
from hw_config.profile import PROFILES

SIM = (PROFILES / "hannipe-sim.toml").read_text()
LONG = {f"p{i}": name for i, name in enumerate(("Alice", "Bruno", "Chloé", "David", "Elena", "Félix", "Irène"), 1)}
"""Seven names as long as the screen allows (one with an accent the OLED's Latin-1 font draws)."""


def named_profile(tmp_path: Path, seats: str) -> Path:
    path = tmp_path / "named.toml"
    path.write_text(SIM + "\n[seats]\n" + seats)
    return path


def test_screens_show_the_names_and_the_journal_keeps_the_seats(tmp_path: Path) -> None:
    profile = named_profile(tmp_path, "".join(f'{seat} = "{name}"\n' for seat, name in LONG.items()))
    shown: list[Screen] = []
    result = run_demo(2, tmp_path / "j.jsonl", profile=str(profile), options={"players": 7, "cards": "deal"},
                      echo=shown.append)
    texts = [s.text() for s in shown]
    everything = "\n".join(texts)
    assert all(f"everyone but {name}" in everything for name in LONG.values())  # the look-away screen
    for said in (": secret bet", " has bet", " tips, round", " tipped "):  # a screen shown is
        assert any(f"{name}{said}" in everything for name in LONG.values()), said  # often soon replaced
    assert any(t.startswith("R1: ") and "Alice " in t for t in texts)  # the bets revealed with payouts
    assert any(t.startswith("Coins after race 1") and "Irène " in t for t in texts)
    assert re.search(r"leader (Alice|Bruno)", everything)
    assert not re.search(r"\bp[1-7]\b", everything), "a seat shown by its engine name"
    assert not [t for s, t in zip(shown, texts, strict=True) if layout(s).cut]  # every screen fits the OLED
    lines = [json.loads(x) for x in (tmp_path / "j.jsonl").read_text().splitlines()]
    assert lines[-1]["state"]["winners"] and set(lines[-1]["state"]["players"]) == set(LONG)
    assert any(x.get("move", "").startswith("bet p2 ") for x in lines[1:])
    assert result.table.finished()


def test_unnamed_seats_keep_their_seat_names(tmp_path: Path) -> None:
    shown: list[Screen] = []
    run_demo(1, tmp_path / "j.jsonl", profile=str(named_profile(tmp_path, 'p2 = "Anna"\n')),
             options={"players": 3, "cards": "deal"}, echo=shown.append)
    everything = "\n".join(s.text() for s in shown)
    assert "everyone but Anna" in everything and "everyone but p1" in everything and "p3: secret bet" in everything
    assert "p2" not in re.sub(r"prog \d", "", everything)


@pytest.mark.parametrize(("seats", "expected"), [
    ('p8 = "Anna"\n', r"seats\.p8: not a seat of this game \(seats: p1, p2, p3, p4, p5, p6, p7\)"),
    ("p1 = 3\n", r"seats\.p1: must be a non-empty string, got 3"),
    ('p1 = ""\n', r"seats\.p1: must be a non-empty string"),
    ('p1 = "Alexandra"\n', r"seats\.p1: 'Alexandra' is 9 characters; at most 5 fit the screen"),
    ('p1 = " Anna"\n', r"seats\.p1: ' Anna': letters, digits and inner spaces"),
    ('p1 = "Zoë€"\n', r"seats\.p1: 'Zoë€': letters, digits and inner spaces the OLED's Latin-1 font can draw"),
    ('p1 = "Anna"\np2 = "anna"\n', r"seats\.p2: 'anna' is already the name of seat p1"),
    ('p1 = "p2"\n', r"seats\.p1: 'p2' is already the name of seat p2"),
    ('seats = "Anna"\n', r"seats\.seats: not a seat of this game"),
])
def test_a_bad_seat_name_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], seats: str,
                                     expected: str) -> None:
    path = named_profile(tmp_path, seats)
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    problems = [line for line in err.splitlines() if "seats." in line]
    assert len(problems) == 1 and re.search(expected, problems[0]), err
    assert str(path) in problems[0]


def test_seats_must_be_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flat.toml"
    path.write_text('seats = ["Anna"]\n' + SIM)
    assert main(["check-config", str(path)]) == 2
    assert "seats: must be a table" in capsys.readouterr().err
