"""A disk that fills up under a demo: the fault is logged once (then with a count), the screen keeps saying
NOT SAVED, and the demo ends with one line and exit 2 instead of retrying forever."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.demo import DemoStalledError, run_demo
from controller.journal import Journal
from controller.table import Table

pytestmark = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")


def _fill_the_disk(tmp_path: Path) -> object:
    def faults(table: Table) -> None:
        full = tmp_path / "full.jsonl"
        full.symlink_to("/dev/full")
        good = table.flow.journal
        table.flow.ledger.journal = Journal(full, good.header, good.seq)  # type: ignore[attr-defined]
    return faults


def test_a_full_disk_ends_the_demo_with_one_line_logged_once(tmp_path: Path,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    screens: list[str] = []
    with caplog.at_level(logging.WARNING, logger="boardkeeper"), pytest.raises(DemoStalledError) as stop:
        run_demo(1, tmp_path / "j.jsonl", faults=_fill_the_disk(tmp_path),  # type: ignore[arg-type]
                 echo=lambda s: screens.append(s.text()))
    assert "cannot save the game: No space left on device" in str(stop.value) and "\n" not in str(stop.value)
    said = [r.getMessage() for r in caplog.records if "No space left" in r.getMessage()]
    assert 1 <= len(said) <= 3  # the first time, then only with a count (10, 100, ...): never a line per retry
    assert "NOT SAVED: disk full" in screens[-1]


def test_the_cli_says_it_in_one_line_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from controller import demo
    from controller.cli import main

    real = demo.run_demo

    def with_full_disk(*args: object, **kwargs: object) -> object:
        kwargs["faults"] = _fill_the_disk(tmp_path)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(demo, "run_demo", with_full_disk)
    assert main(["demo", "hannibal", "--quiet", "--journal", str(tmp_path / "j.jsonl")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("error:")] == [err[-1]] and "No space left" in err[-1]
