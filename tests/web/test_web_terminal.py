"""``play GAME --sim --web [HOST:]PORT`` (issue 25): the table's page is served while a person plays at the
terminal; it shows the game the terminal plays, move for move."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from support import ROOT_DIR

pytest.importorskip("aiohttp", reason="pip install -e '.[web]' (aiohttp)")


def _state(port: int) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1) as answer:
            data: dict[str, Any] = json.load(answer)
            return data
    except OSError:
        return None


def _until(what: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = what()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_the_page_follows_the_game_played_at_the_terminal(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    journal = tmp_path / "game.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "hannibal", "--sim", "--seed", "1",
                             "--journal", str(journal), "--web", f"127.0.0.1:{port}"], cwd=ROOT_DIR,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    try:
        state = _until(lambda: (s := _state(port)) and s.get("phase") == "setup" and s)
        assert state["game"] == "hannibal" and state["pieces"]["pos:0"] == ["yellow", 4]
        assert set(state["disagreeing"]) == set(state["pieces"])  # nothing on the board yet: every place is wrong
        proc.stdin.write("fix\nroll\nwait 2\n")
        proc.stdin.flush()
        rolled = _until(lambda: (s := _state(port)) and s["seq"] >= 1 and s)
        first = json.loads(journal.read_text().splitlines()[1])
        assert rolled["recent"][0] == {"seq": 1, "player": first["player"], "move": first["move"]}
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-2000:]
    assert _state(port) is None  # the page stops with the game
