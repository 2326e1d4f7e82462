"""``boardkeeper play hannipe --sim``: a person at the terminal against bots sees their own hand and bet, and
nothing of the bots' secrets (at the table those screens stand behind "look away"; a terminal has no one
to look away, so it must not print them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import ROOT_DIR

from controller import journal
from controller.flows.hannipe_screens import hand_text
from engines.hannipe import State
from hw_config.profile import PROFILES

ROOT = ROOT_DIR
# each round: set the pawns, the look-away screen, then OK through the bet or the tip (horse, then value)
ROUNDS = "fix\nok\nok\nok\n" * 8 + "quit\n"
NAMES = {"p1": "Anna", "p2": "Bruno", "p3": "Chloé"}


def play(path: Path, *extra: str) -> str:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "hannipe", "--sim", "--seed", "3",
                             "--players", "3", "--journal", str(path), *extra], input=ROUNDS, cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result.stdout


def dealt_hands(path: Path) -> State:
    """The position of the first bet: every hand dealt, none played."""
    states = journal.replay(journal.read(path))
    first_bet = next(s for s in states if isinstance(s, State) and s.step == "bet")
    assert isinstance(first_bet, State)
    return first_bet


def test_the_terminal_shows_the_persons_secrets_and_none_of_the_bots(tmp_path: Path) -> None:
    profile = tmp_path / "named.toml"
    profile.write_text((PROFILES / "hannipe-sim.toml").read_text() + "\n[seats]\n"
                       + "".join(f'{seat} = "{name}"\n' for seat, name in NAMES.items()))
    path = tmp_path / "h.jsonl"
    out = play(path, "--profile", str(profile))
    dealt = dealt_hands(path)
    moves = [e.move for e in journal.read(path).entries]
    assert "bet p1 noiro" in moves and any(m.startswith("tip p1 ") for m in moves)  # the person played
    assert hand_text(dealt.hand("p1")) in out and "Anna: secret bet" in out and "Anna tips, round 1/6" in out
    for bot in ("p2", "p3"):
        name = NAMES[bot]
        assert hand_text(dealt.hand(bot)) not in out
        assert f"{name}: secret bet" not in out and f"{name} tips, round" not in out
        assert f"{name}: secret\n  everyone but {name}\n  look away!" in out  # the public face of it
        assert f"{name}: your tip" in out  # the look-away screen itself is for everyone
    assert "look away!\nsecret\n\nBruno: secret" not in out  # said once per look
