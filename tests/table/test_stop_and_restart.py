"""The service's promises at stop and start: SIGTERM and Ctrl-C leave "Stopped" on the screen, the journal
closed and exit 0; a finished game never blocks the next one; output piped into head is not an error."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT_DIR

from controller.demo import run_demo
from controller.dice import Dice
from controller.journal import read
from controller.table import ask_resume, attach_game, build_io, load_backend, profile_for

ROOT = ROOT_DIR


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "controller.cli", *args]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_says_stopped_keeps_the_game_and_exits_0(tmp_path: Path, sig: signal.Signals) -> None:
    journal = tmp_path / "j.jsonl"
    proc = subprocess.Popen(_cli("play", "hannibal", "--sim", "--seed", "3", "--journal", str(journal)), cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"fix\n")
    proc.stdin.flush()
    seen = b""
    while seen.count(b"> ") < 2:  # the set-up is done and the table waits for the next command
        chunk = proc.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert b"Stopped" in out and f"stopped by {sig.name}".encode() in err and b"Traceback" not in err
    assert read(journal).header["game"] == "hannibal"  # the journal is whole and resumable
    again = subprocess.run(_cli("play", "hannibal", "--sim", "--seed", "3", "--journal", str(journal)), cwd=ROOT,
                           input="quit\n", capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "game saved in" in again.stdout


def test_a_finished_game_is_kept_aside_and_a_new_one_starts_at_the_terminal(tmp_path: Path) -> None:
    done = tmp_path / "done.jsonl"
    run_demo(2, done)
    old = done.read_bytes()
    result = subprocess.run(_cli("play", "hannibal", "--sim", "--journal", str(done)), cwd=ROOT, input="quit\n",
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    kept = list(tmp_path.glob("done-*.finished.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == old and "is over; kept as" in result.stdout
    assert not read(done).finished and read(done).entries == []


def test_the_service_start_on_a_finished_game_keeps_it_and_sets_up_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "hannibal.jsonl"
    run_demo(2, path)
    old = path.read_bytes()
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    screens: list[str] = []
    io = build_io(profile, hardware, echo=lambda s: screens.append(s.text()))
    assert ask_resume(io, path) is False  # nothing to ask: no button is pressed, nothing waits
    table = attach_game(io, path, Dice(random.Random(1)))
    table.flow.start()
    table.loop.run(until=lambda: False, max_ticks=5)
    assert [p.read_bytes() for p in tmp_path.glob("hannibal-*.finished.jsonl")] == [old]
    assert not table.resumed and screens[-1].startswith("Set up the board")


def test_replay_into_head_is_not_an_error(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    run_demo(2, journal)
    result = subprocess.run(f"{sys.executable} -m controller.cli replay {journal} | head -1", shell=True, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.stdout.startswith(str(journal)) and result.stderr == ""


def test_after_a_game_ok_twice_starts_the_next_one_and_keeps_the_last(tmp_path: Path) -> None:
    from controller.table import await_next_game

    path = tmp_path / "hannibal.jsonl"
    run_demo(2, path)
    old = path.read_bytes()
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    screens: list[str] = []
    io = build_io(profile, hardware, echo=lambda s: screens.append(s.text()))
    pin = profile.buttons["OK"].pin
    assert pin is not None
    presses = [1.0, 2.0]  # seconds after start: OK (asks), OK again (starts)
    t0 = hardware.clock.now()

    def person(now: float) -> list[object]:
        if presses and now - t0 >= presses[0]:
            hardware.board.press_pin(pin)
        if presses and now - t0 >= presses[0] + 0.2:
            hardware.board.release_pin(pin)
            presses.pop(0)
        return []

    io.loop.add_source(person)  # type: ignore[arg-type]
    await_next_game(io, path)
    assert "New game?" in screens[-1] and not path.exists()
    assert [p.read_bytes() for p in tmp_path.glob("hannibal-*.finished.jsonl")] == [old]
    table = attach_game(io, path, Dice(random.Random(1)))
    assert not table.resumed and read(path).entries == []


def test_the_last_frame_of_a_demo_is_the_result_not_a_blank_panel(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    assert subprocess.run(_cli("demo", "scipio", "--seed", "4", "--quiet", "--frames", str(frames)), cwd=ROOT,
                          capture_output=True, timeout=300).returncode == 0
    from PIL import Image

    last = sorted(frames.glob("*.png"))[-1]
    assert Image.open(last).getbbox() is not None  # something is drawn: luma did not blank it at exit


def test_log_lines_carry_no_timestamp_under_systemd(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    run_demo(2, journal)
    finished = journal.read_bytes()
    env_plain = {"PATH": "/usr/bin:/bin"}
    for env, stamped in ((env_plain, True), ({**env_plain, "JOURNAL_STREAM": "8:1234"}, False)):
        result = subprocess.run(_cli("play", "hannibal", "--sim", "--journal", str(journal)), cwd=ROOT,
                                input="quit\n", capture_output=True, text=True, env=env, timeout=120)
        line = next(x for x in result.stderr.splitlines() if "moved aside" in x)
        assert bool(re.match(r"\d{4}-\d\d-\d\d ", line)) is stamped, line
        assert "WARNING" in line
        journal.write_bytes(finished)


def test_a_stop_is_never_taken_for_a_failing_view(tmp_path: Path) -> None:
    """The signal can land while a view draws (the OLED renders a frame as a view of the table state): the
    table's guard that drops a failing view must let the stop through, and keep the view."""
    from hannibal_harness import Harness

    from controller.stop import StopRequested
    from controller.table_state import TableState

    t = Harness(tmp_path / "j.jsonl")
    seen: list[frozenset[str]] = []

    def drawing(state: TableState) -> None:
        seen.append(state.sensed)
        if "pos:12" not in state.sensed:  # the snapshot of the lift below: SIGTERM comes while it is drawn
            raise StopRequested("SIGTERM")

    t.table.feed.watch(drawing)
    with pytest.raises(StopRequested):
        t.lift(12, 4)
    t.place(12, 4)
    assert "pos:12" in seen[-1]  # still fed: a stop is no failure of the view


def test_a_stop_at_the_resume_question_says_stopped_and_exits_0(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The real table's ``play`` on the simulated board, stopped while the resume question is up (before any
    game is attached): the boot of the unit found the question left on the panel, answerable no more."""
    from controller import cli
    from controller import table as table_module
    from controller.stop import StopRequested

    full = tmp_path / "full.jsonl"
    run_demo(8, full)
    path = tmp_path / "hannibal.jsonl"
    path.write_bytes(b"".join(full.read_bytes().splitlines(keepends=True)[:12]))
    profile = profile_for("hannibal-sim")
    hardware = load_backend(profile)
    shown: list[str] = []

    def build_io_then_stop(profile: object, hardware: object, echo: object = None) -> object:
        io = build_io(profile, hardware, echo=lambda screen: shown.append(screen.title))  # type: ignore[arg-type]
        t0 = io.loop.clock.now()

        def systemctl_stop(now: float) -> list[object]:  # SIGTERM's handler raises where the loop is
            if now - t0 > 1.0:
                raise StopRequested("SIGTERM")
            return []

        io.loop.add_source(systemctl_stop)  # type: ignore[arg-type]
        return io

    monkeypatch.setattr(cli, "game_profile", lambda *args, **kwargs: profile)
    monkeypatch.setattr(table_module, "load_backend", lambda *args, **kwargs: hardware)
    monkeypatch.setattr(table_module, "build_io", build_io_then_stop)
    assert cli.main(["play", "hannibal", "--journal", str(path)]) == 0
    assert "Resume the game?" in shown and shown[-1] == "Stopped"


def test_under_journald_each_line_carries_its_priority(tmp_path: Path) -> None:
    """journald files a line at the priority its ``<N>`` prefix names, else at "info": the unit's boot test saw
    the table's warnings and the reason it would not start filed as "info", out of ``journalctl -p warning``."""
    journal = tmp_path / "j.jsonl"
    run_demo(2, journal)
    env = {"PATH": "/usr/bin:/bin", "JOURNAL_STREAM": "8:1234"}
    result = subprocess.run(_cli("play", "hannibal", "--sim", "--journal", str(journal)), cwd=ROOT,
                            input="quit\n", capture_output=True, text=True, env=env, timeout=120)
    line = next(x for x in result.stderr.splitlines() if "moved aside" in x)
    assert line.startswith("<4>WARNING saved game"), line
    failed = subprocess.run(_cli("play", "hannibal", "--profile", str(tmp_path / "none.toml")), cwd=ROOT,
                            capture_output=True, text=True, env=env, timeout=120)
    assert failed.returncode == 2 and failed.stderr.startswith("<3>error: "), failed.stderr
    plain = subprocess.run(_cli("play", "hannibal", "--profile", str(tmp_path / "none.toml")), cwd=ROOT,
                           capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, timeout=120)
    assert plain.stderr.startswith("error: "), plain.stderr  # at a terminal: no prefix
