"""Whole games with the board read through the simulated MCU: a noisy line and a cable pulled mid-game
change nothing in the journal; the command line and the profiles check what they are given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import ROOT_DIR

from controller.cli import main
from controller.demo import run_demo
from controller.journal import read, replay
from controller.table import Table
from firmware_bridge.limits import NOISE_LIMIT
from sim_hardware.mcu import SimMcu


def _moves(journal: Path) -> list[str]:
    return [json.loads(line)["move"] for line in journal.read_text().splitlines()[1:]]


def _valid(journal: Path) -> None:
    contents = read(journal)
    assert contents.finished
    final = replay(contents, journal)[-1]
    assert final.winner in ("yellow", "blue") and final.to_json() == contents.entries[-1].state


def test_cli_demo_over_a_noisy_line_plays_the_same_game_as_the_direct_board(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    direct, bridge = tmp_path / "direct.jsonl", tmp_path / "bridge.jsonl"
    run_demo(3, direct)
    assert main(["demo", "hannibal", "--seed", "3", "--backend", "bridge", "--line-noise", "0.01",
                 "--journal", str(bridge), "--quiet"]) == 0
    assert "winner:" in capsys.readouterr().out
    _valid(bridge)
    assert _moves(bridge) == _moves(direct)


def test_a_cable_pulled_mid_game_is_survived(tmp_path: Path) -> None:
    direct, bridge = tmp_path / "direct.jsonl", tmp_path / "bridge.jsonl"
    run_demo(2, direct)
    seen: dict[str, object] = {}

    def pull_the_cable(table: Table) -> None:
        mcu: SimMcu = table.hardware.mcu
        start = table.hardware.clock.now()
        seen["link"] = table.hardware.link

        def source(now: float) -> list[object]:
            if mcu.path is not None and mcu.boots == 1 and now - start > 60.0:
                mcu.disconnect()
            elif mcu.path is None and now - start > 62.0:
                mcu.plug_in()
            return []

        table.loop.add_source(source)  # type: ignore[arg-type]

    run_demo(2, bridge, profile="hannibal-bridge-sim", line_noise=0.01, faults=pull_the_cable)
    _valid(bridge)
    assert seen["link"].stats.reconnects >= 1  # type: ignore[attr-defined]
    assert _moves(bridge) == _moves(direct)


@pytest.mark.parametrize(("argv", "message"), [
    (["--backend", "bridge", "--line-noise", "0.21"], f"--line-noise must be between 0 and {NOISE_LIMIT} (the most "
                                                      "the board link is shown to carry a game through), got 0.21"),
    (["--backend", "bridge", "--line-noise", "0.5"], f"--line-noise must be between 0 and {NOISE_LIMIT}"),
    (["--backend", "bridge", "--line-noise", "-0.1"], f"--line-noise must be between 0 and {NOISE_LIMIT}"),
    (["--line-noise", "0.1"], "--line-noise is for a board read over serial"),
])
def test_bad_line_noise_is_one_line_and_exit_2(argv: list[str], message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "hannibal", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_bridge_profiles_pass_and_a_missing_serial_url_is_named(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "hannibal-bridge"]) == 0
    assert main(["check-config", "hannibal-bridge-sim"]) == 0
    capsys.readouterr()
    shipped = ROOT_DIR / "hw_config" / "profiles" / "hannibal-bridge.toml"
    bad = tmp_path / "bad.toml"
    bad.write_text(shipped.read_text().replace('url = "/dev/serial0"', ""))
    assert main(["check-config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: serial.url: missing: the bridge backend reads the board over this port" in err


def test_play_refuses_the_simulated_bridge_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "hannibal", "--profile", "hannibal-bridge-sim"]) == 2
    assert "is simulated; use --sim" in capsys.readouterr().err
