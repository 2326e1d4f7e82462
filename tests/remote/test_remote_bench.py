"""``bench.remote``: two tables in two processes keep one journal through a lossy line (dropped, duplicated and
reordered messages), a broker restart, a table SIGKILLed and restarted, and the network gone for a while, and
Scipio's secret choices cross only as seals until both are in, and Hannipe!'s cards and bets never cross before
the rules show them. The bench fails, naming the case, when a far line is applied as it arrives instead of in seq
order, when secret choices are sent unsealed, or when dealt cards are announced in clear."""

from __future__ import annotations

import pytest
from broker import NEEDS_MOSQUITTO

from bench import remote

pytest.importorskip("paho.mqtt", reason="pip install -e '.[test]' (paho-mqtt)")
pytestmark = NEEDS_MOSQUITTO


def test_one_journal_through_every_fault(capsys: pytest.CaptureFixture[str]) -> None:
    """Scipio's short games (sealed choices and all) through every fault; Hannibal's long one through a SIGKILL."""
    assert remote.main(["--games", "scipio:5", "--cases", "clean,lossy,broker,kill,outage", "--outage", "3"]) == 0
    assert remote.main(["--games", "hannibal:3", "--cases", "kill"]) == 0
    assert remote.main(["--games", "hannipe:4", "--cases", "lossy,kill"]) == 0  # three seats, cards face down
    out = capsys.readouterr().out
    assert "hannipe    seed 4 lossy   ok" in out and "hannipe    seed 4 kill    ok" in out, out
    for case in ("clean", "lossy", "broker", "kill", "outage"):
        assert f"scipio     seed 5 {case:<7} ok" in out, out
    assert "hannibal   seed 3 kill    ok" in out, out
    assert "latency over" in out and "cut 1" in out
    lossy = next(line for line in out.splitlines() if " lossy " in line)
    assert "dropped 0," not in lossy and "duplicated 0," not in lossy and "reordered 0," not in lossy  # faults hit


def test_the_bench_fails_on_lines_applied_out_of_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert remote.main(["--games", "hannibal:3", "--cases", "lossy", "--plant", "unordered", "--stall", "10"]) == 1
    out = capsys.readouterr().out
    assert "hannibal   seed 3 lossy   FAIL: " in out and "FAILED: 1 case(s)" in out


def test_the_bench_fails_on_secret_choices_sent_unsealed(capsys: pytest.CaptureFixture[str]) -> None:
    """The planted fault: each table sends its army's organisation and cards as soon as they are made. The game
    still ends with identical journals; the bench fails on what the broker saw."""
    assert remote.main(["--games", "scipio:5", "--cases", "clean", "--plant", "unsealed"]) == 1
    out = capsys.readouterr().out
    assert "scipio     seed 5 clean   FAIL: a secret crossed unsealed: line 1 (org rome" in out, out


def test_the_bench_fails_on_dealt_cards_announced_in_clear(capsys: pytest.CaptureFixture[str]) -> None:
    """The planted fault: each table announces the cards dealt to its seats as they are. The game still ends with
    identical journals; the bench fails on what the broker saw."""
    assert remote.main(["--games", "hannipe:4", "--cases", "clean", "--plant", "exposed"]) == 1
    out = capsys.readouterr().out
    assert "hannipe    seed 4 clean   FAIL: a hidden card crossed: line 3 (deal p2 " in out, out
