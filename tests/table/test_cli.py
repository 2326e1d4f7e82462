"""The command line as a user meets it: clear one-line errors and exit 2, never a traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import ROOT_DIR

from controller.cli import main


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          input=stdin, timeout=120)


def test_bad_mistake_rate_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "hannibal", "--mistakes", "2"]) == 2
    assert "--mistakes must be between 0 and 1" in capsys.readouterr().err


def test_unknown_game_is_refused() -> None:
    result = _run("demo", "chess")
    assert result.returncode == 2 and result.stderr.startswith("error: unknown game 'chess' (known: ")
    assert result.stderr.count("\n") == 1


def test_broken_journal_is_named_by_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"game": "hannibal", "options": {}}\nnot json\n{"seq": 2}\n')
    result = _run("replay", str(path))
    assert result.returncode == 2 and f"{path}:2: not JSON" in result.stderr and "Traceback" not in result.stderr


def test_a_finished_journal_is_kept_aside_and_the_same_seed_plays_the_same_new_game(tmp_path: Path) -> None:
    """One rule for ``play`` and ``demo``: a finished game is kept aside, renamed, and a new one starts."""
    path = tmp_path / "j.jsonl"
    assert main(["demo", "hannibal", "--seed", "2", "--journal", str(path), "--quiet"]) == 0
    first = path.read_text()
    result = _run("--log-level", "INFO", "demo", "hannibal", "--seed", "2", "--journal", str(path), "--quiet")
    assert result.returncode == 0, result.stderr
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("j-") and p.name.endswith(".finished.jsonl")]
    assert len(aside) == 1 and aside[0].read_text() == first and "moved aside" in result.stderr
    for line in ("INFO boardkeeper ", f"on profile {ROOT_DIR}/hw_config/profiles/hannibal-sim.toml, journal {path}",
                 f"INFO game started: hannibal, journal {path}", "INFO game over: "):  # as the service logs
        assert line in result.stderr, result.stderr
    assert path.read_text().splitlines()[1:] == first.splitlines()[1:]  # the dice unsalted by the old file


def test_the_terminal_game_logs_what_the_service_logs(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    for begun in ("started", "resumed"):
        result = _run("--log-level", "INFO", "play", "hannibal", "--sim", "--journal", str(path), stdin="quit\n")
        assert result.returncode == 0 and "INFO boardkeeper " in result.stderr, result.stderr
        assert f"INFO game {begun}: hannibal, journal {path}" in result.stderr, result.stderr


def test_selftest_off_a_pi_or_scripted_on_a_real_board_says_one_line() -> None:
    for args in (("selftest", "hannibal"), ("selftest", "hannibal", "--script")):
        result = _run(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    assert "needs a simulated profile (hannibal-sim?)" in _run("selftest", "hannibal", "--script").stderr


def test_journal_of_another_game_or_with_a_wrong_state(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"game": "hannibal", "options": {}}\n{"seq": 1, "player": "yellow", "move": "R3,5", '
                    '"state": {"game": "hannibal"}}\n')
    result = _run("replay", str(path))
    assert result.returncode == 2 and "recorded state differs" in result.stderr


def test_real_play_without_a_pi_says_what_is_missing(tmp_path: Path) -> None:
    result = _run("play", "hannibal", "--journal", str(tmp_path / "j.jsonl"))
    assert result.returncode == 2 and "pin factory 'lgpio' unavailable" in result.stderr


def test_terminal_game_against_a_bot(tmp_path: Path) -> None:
    result = _run("play", "hannibal", "--sim", "--seed", "3", "--journal", str(tmp_path / "j.jsonl"),
                  stdin="fix\nroll\nok\nnonsense\nlift 99\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Yellow to move" in result.stdout and "unknown command 'nonsense'" in result.stdout
    assert "cannot do that: no location '99' on this board" in result.stdout


def test_hold_next_at_the_terminal_explains_the_screen_s_codes(tmp_path: Path) -> None:
    """The terminal's ``hold next`` is the table's held NEXT: the codes of the roll screen, page by page."""
    result = _run("play", "hannibal", "--sim", "--seed", "3", "--journal", str(tmp_path / "j.jsonl"),
                  stdin="fix\nhold next\n" + "next\n" * 7 + "ok\nhold\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "1/" in out and "Pieces home" in out and "Pieces waiting" in out, out
    assert "hold which button? e.g. 'hold next'" in out


def test_the_terminal_says_when_it_waits_for_the_bots(tmp_path: Path) -> None:
    """The prompt is held back while a bot decides and its hands move the pieces: a line says so, before the
    bot's step, and the prompt comes back only when it is the person's turn again."""
    result = _run("play", "hannibal", "--sim", "--seed", "3", "--journal", str(tmp_path / "j.jsonl"),
                  stdin="fix\nroll\nok\nok\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "(waiting for the bots: Blue)" in out, out
    after = out.split("(waiting for the bots: Blue)", 1)[1]
    assert after.index("Blue to move") < after.index("Yellow") and after.rstrip().endswith("resumes it")


def test_bench_runs_a_benchmark_by_name_with_its_options(capfd: pytest.CaptureFixture[str]) -> None:
    """``boardkeeper bench NAME OPTIONS`` is ``python -m bench.NAME OPTIONS`` (DESIGN's CLI names it), its exit
    code included: a random bot's decisions are far inside the target whatever the machine."""
    assert main(["bench", "bots", "--game", "cannonball", "--kind", "random", "--games", "1", "--rounds", "1"]) == 0
    out = capfd.readouterr().out
    assert "cannonball random" in out and "target p95 <= 40 ms: met" in out and "heuristic" not in out
    assert main(["bench", "bots", "--no-such-option"]) == 2  # the benchmark's own refusal, passed on
    assert "unrecognized arguments: --no-such-option" in capfd.readouterr().err


def test_bench_refuses_an_unknown_name_and_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "no benchmark 'nosuch'" in err and "bots" in err and "strength" in err


def test_a_stop_while_starting_is_quiet() -> None:
    """Ctrl-C (or systemctl stop) at any moment of start-up from the first line of ours: exit 0 and one line,
    never a traceback from a half-done import. A signal that lands in Python's own start-up, before any line
    of ours, is beyond any program's reach: a traceback then holds no frame of the project."""
    script = Path(sys.executable).with_name("boardkeeper")  # the console script, as the unit starts it
    seen = []
    for delay in (0.12, 0.2, 0.3, 0.45):
        proc = subprocess.Popen([str(script), "demo", "hannibal", "--quiet"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        if "Traceback" in err:
            assert not any(part in err for part in ("/controller/", "/engines/", "/hw_config/")), err
            continue
        assert proc.returncode == 0 and err.strip().splitlines()[-1].startswith("stopped by SIGINT"), err
        seen.append(err)
    assert seen, "every stop landed before Python ran a line of ours"


def test_a_question_the_screen_highlights_is_no_menu_at_the_terminal(tmp_path: Path) -> None:
    """Factional's Honor board highlights its question on the panel; at the terminal it is printed as a line,
    not with a menu's ``> `` (which reads as the prompt), and the page is told it is no choice."""
    result = _run("play", "factional", "--sim", "--seed", "1", "--as", "all", "--journal", str(tmp_path / "j.jsonl"),
                  stdin="fix\nwait 2\nquit\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  T1 OK when reinforced" in lines, result.stdout
    assert not any(line.startswith("> T1") for line in lines), result.stdout


def test_fix_makes_a_stack_as_tall_as_the_table_counts_it(tmp_path: Path) -> None:
    """A stack one piece short senses as a whole stack: ``lift`` says the table counts more, and ``fix``
    puts the missing piece back, where the fix-up list (which only the sensors make) has nothing to say."""
    result = _run("play", "hannibal", "--sim", "--seed", "3", "--journal", str(tmp_path / "j.jsonl"),
                  stdin="fix\nlift 0\nlift 0 4\nfix\nlift 0 4\nfix\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "cannot lift 4 from 0: 3 there (the table counts 4: 'fix' makes the stack so)" in out, out
    assert out.count("(the stack on 0 made 4 high, as the table counts it)") == 1, out
    assert "cannot lift" not in out.split("made 4 high", 1)[1], out  # the stack was whole again
