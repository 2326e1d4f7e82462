"""Two tables, one game (issue 26): two ``boardkeeper demo GAME --remote URL --as SEAT`` processes, one per side,
on a real Mosquitto started here, play one game; both exit 0 and their journals are identical but for the
header's local fields; ``boardkeeper watch URL`` follows it line by line to its end."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from broker import NEEDS_MOSQUITTO, Broker
from support import ROOT_DIR

pytest.importorskip("paho.mqtt", reason="pip install -e '.[test]' (paho-mqtt)")
pytestmark = NEEDS_MOSQUITTO


TABLE_SIZE = {"hannipe": ["--players", "3"]}  # three seats over two tables


def _demo(game: str, seed: int, url: str, journal: Path, seats: list[str]) -> subprocess.Popen[str]:
    own = [arg for seat in seats for arg in ("--as", seat)] + TABLE_SIZE.get(game, [])
    return subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", game, "--seed", str(seed), "--quiet",
                             "--journal", str(journal), "--remote", url, *own],
                            cwd=ROOT_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _lines(journal: Path) -> list[dict[str, object]]:
    return [json.loads(raw) for raw in journal.read_text().splitlines()[1:]]


def _first_table(game: str, seed: int, url: str, journal: Path, seats: list[str]) -> tuple[subprocess.Popen[str], str]:
    """The table that starts the game: given the broker without a code, it makes one, logs the URL the far
    table joins with, and shows the code on its screen until a far table is seen (its screens are printed)."""
    own = [arg for seat in seats for arg in ("--as", seat)] + TABLE_SIZE.get(game, [])
    first = subprocess.Popen([sys.executable, "-m", "controller.cli", "--log-level", "INFO", "demo", game, "--seed",
                              str(seed), "--journal", str(journal), "--remote", url, *own],
                             cwd=ROOT_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert first.stderr is not None
    said = ""
    while "joins with --remote" not in said:
        said = first.stderr.readline()
        assert said, "the first table never said its code"
    return first, said.split("joins with --remote ")[1].split()[0]


@pytest.mark.parametrize(("game", "seed", "sides"), [("hannibal", 3, (["yellow"], ["blue"])),
                                                     ("cannonball", 2, (["blue"], ["gray"])),
                                                     ("scipio", 5, (["rome"], ["carthage"])),
                                                     ("hannipe", 4, (["p1", "p2"], ["p3"]))])
def test_two_tables_play_one_game(tmp_path: Path, game: str, seed: int, sides: tuple[list[str], list[str]]) -> None:
    """The first table makes the game's code; the second joins with it; a spectator follows."""
    broker = Broker(tmp_path)
    try:
        base = f"mqtt://127.0.0.1:{broker.port}/"
        first, url = _first_table(game, seed, base, tmp_path / "0.jsonl", sides[0])
        code = url.rsplit("/", 1)[1]
        runs = [first, _demo(game, seed, url, tmp_path / "1.jsonl", sides[1])]
        spectator = subprocess.Popen([sys.executable, "-m", "controller.cli", "watch", url], cwd=ROOT_DIR,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        results = [run.communicate(timeout=600) for run in runs]
        watched, err = spectator.communicate(timeout=60)
    finally:
        broker.kill()
    assert len(code) == 8 and url == base + code
    for run, (out, run_err) in zip(runs, results, strict=True):
        assert run.returncode == 0, run_err[-3000:]
        assert "winner:" in out
    assert f"code {code}" in results[0][0]  # on the first table's screen while it waited
    first_lines, second_lines = (_lines(tmp_path / f"{i}.jsonl") for i in range(2))
    assert first_lines == second_lines and len(first_lines) > 30
    assert spectator.returncode == 0, err[-2000:]  # the spectator followed the whole game, and saw it end
    shown = [line.split() for line in watched.splitlines()[1:-1]]
    assert shown == [[str(line["seq"]), line["player"], *str(line["move"]).split()] for line in first_lines]
    assert watched.splitlines()[-1].startswith("game over: ")
    assert {line["player"] for line in first_lines} >= {*sides[0], *sides[1]}  # each side moved its own pieces
    headers = [json.loads((tmp_path / f"{i}.jsonl").read_text().splitlines()[0]) for i in range(2)]
    assert headers[0]["game"] == game and headers[0]["seed"] == seed
    assert [{k: v for k, v in h.items() if k != "started"} for h in headers] == [
        {k: v for k, v in headers[0].items() if k != "started"}] * 2


@pytest.mark.parametrize(("argv", "said"), [
    (["demo", "hannibal", "--remote", "mqtt://127.0.0.1:1/game1"], "--remote: name this table's seats with --as"),
    (["demo", "hannibal", "--remote", "mqtt://127.0.0.1:1/game1", "--as", "green"], "green is no seat of hannibal"),
    (["demo", "hannibal", "--remote", "mqtt://127.0.0.1:1/game1", "--as", "yellow", "--as", "blue"],
     "every seat is this table's"),
    (["demo", "hannibal", "--remote", "http://127.0.0.1/game1", "--as", "yellow"], "scheme must be mqtt://"),
    (["demo", "hannibal", "--as", "yellow"], "give --remote too"),
    (["play", "hannibal", "--profile", "hannibal", "--remote", "mqtt://127.0.0.1:1/game1", "--as", "yellow",
      "--seat", "blue=mcts"], "the far table's seats are played there"),
    (["play", "hannibal", "--sim", "--remote", "mqtt://127.0.0.1:1/game1", "--as", "all"],
     "every seat is this table's"),
    (["play", "factional", "--profile", "factional", "--remote", "mqtt://127.0.0.1:1/game1", "--as", "rome"],
     "factional cannot be played with a far table yet"),
])
def test_a_remote_command_that_cannot_work_is_one_line(argv: list[str], said: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1, err


def test_scipio_secret_choices_cross_only_as_seals_until_both_are_in(tmp_path: Path) -> None:
    """Scipio over two tables (I-7): every message on the broker is recorded by a client of the same broker. An
    organisation or a phase's cards leaves its table only once both armies' seals are out; the line then carries
    the salt that opens its seal, and no earlier message holds the choice."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from controller.remote.lines import game_id
    from controller.remote.seals import digest

    broker = Broker(tmp_path)
    code = "SEALTEST"
    url = f"mqtt://127.0.0.1:{broker.port}/{code}"
    seen: list[dict[str, object]] = []
    spy = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="spy")
    spy.on_message = lambda client, userdata, msg: seen.append(
        json.loads(msg.payload)) if msg.topic.endswith("/lines") else None
    spy.connect("127.0.0.1", broker.port)
    spy.subscribe(f"boardkeeper/{game_id(code)}/#", qos=1)
    spy.loop_start()
    try:
        runs = [_demo("scipio", 5, url, tmp_path / f"{i}.jsonl", [seat]) for i, seat in enumerate(("rome", "carthage"))]
        results = [run.communicate(timeout=600) for run in runs]
    finally:
        spy.loop_stop()
        broker.kill()
    for run, (_, err) in zip(runs, results, strict=True):
        assert run.returncode == 0, err[-3000:]
    lines = _lines(tmp_path / "0.jsonl")
    assert lines == _lines(tmp_path / "1.jsonl") and lines[-1]["state"]["step"] == "over"  # type: ignore[index]
    secret = {line["seq"]: line for line in lines if str(line["move"]).split()[0] in ("org", "place")}
    assert len(secret) >= 6 and {str(line["player"]) for line in secret.values()} == {"rome", "carthage"}
    seals = {m["seq"]: m for m in seen if m["kind"] == "seal"}
    for seq, line in secret.items():
        pair = (seq, seq + 1) if line["player"] == "rome" else (seq - 1, seq)
        first = next(i for i, m in enumerate(seen) if m["kind"] == "line" and m["seq"] == seq)
        message = seen[first]
        # nothing before its own line holds the choice (a line of an earlier phase may hold the same cards)
        assert not [m for m in seen[:first] if str(line["move"]) in json.dumps(m)
                    and not (m["kind"] == "line" and int(str(m["seq"])) < pair[0])], seq
        earlier = [m for m in seen[:first] if m["kind"] == "seal"]
        assert {m["seq"] for m in earlier} >= set(pair), (seq, pair)  # both seals went out before it
        salt = message["salt"]
        assert isinstance(salt, str) and seals[seq]["seal"] == digest(code, seq, str(line["player"]),
                                                                      str(line["move"]), salt)


def test_a_table_killed_with_its_choice_sealed_keeps_that_choice(tmp_path: Path) -> None:
    """Carthage's table is SIGKILLed right after sealing its organisation, before it could journal it (Rome's has
    not come yet), and started again with the same command: it resumes, is not asked again (the seal file holds
    the choice and its salt), opens the seal it sent, and the game ends with identical journals."""
    broker = Broker(tmp_path)
    url = f"mqtt://127.0.0.1:{broker.port}/KILLSEAL"
    journal, seals = tmp_path / "1.jsonl", tmp_path / "1.jsonl.seals"
    try:
        rome = _demo("scipio", 5, url, tmp_path / "0.jsonl", ["rome"])
        carthage = _demo("scipio", 5, url, journal, ["carthage"])
        killed_at = None
        while killed_at is None and carthage.poll() is None:
            sealed = _own_seals(seals)
            if sealed and len(_lines(journal) if journal.exists() else []) < sealed[-1]:
                carthage.kill()
                carthage.wait()
                if len(_lines(journal) if journal.exists() else []) < sealed[-1]:
                    killed_at = sealed[-1]  # killed with its choice sealed, not journaled
                carthage = _demo("scipio", 5, url, journal, ["carthage"])  # else the line came first: again
        assert killed_at is not None, "the table journaled each choice before it could be killed"
        results = [run.communicate(timeout=600) for run in (rome, carthage)]
    finally:
        broker.kill()
    for run, (_, err) in zip((rome, carthage), results, strict=True):
        assert run.returncode == 0, err[-3000:]
    lines = _lines(tmp_path / "0.jsonl")
    assert lines == _lines(journal) and lines[-1]["state"]["step"] == "over"  # type: ignore[index]
    sealed_seqs = _own_seals(seals)
    assert sorted(sealed_seqs) == sorted(set(sealed_seqs))  # no choice sealed twice: not asked again
    line = next(line for line in lines if line["seq"] == killed_at)
    first = next(json.loads(raw) for raw in seals.read_text().splitlines()
                 if json.loads(raw)["seq"] == killed_at and "move" in json.loads(raw))
    assert line["move"] == first["move"]  # the choice made before the kill is the one journaled


def _own_seals(path: Path) -> list[int]:
    """The seqs of a table's own sealed choices, in its seal file (the far table's seals are kept there too)."""
    if not path.exists():
        return []
    return [json.loads(raw)["seq"] for raw in path.read_text().splitlines() if raw.endswith("}")
            and "move" in json.loads(raw)]


def test_a_person_at_the_terminal_plays_against_a_far_table(tmp_path: Path) -> None:
    """``play hannibal --sim --as blue --remote URL``: the far table's demo plays yellow, which rolls and moves
    first; once the person has set up the board, the terminal takes the far lines as they come while it waits for
    the next command (its clock runs meanwhile, as the far table's does), prints them, and ``fix`` follows
    yellow's move on the board. ``quit`` saves the game."""
    broker = Broker(tmp_path)
    url = f"mqtt://127.0.0.1:{broker.port}/TERMFAR1"
    journal, far_journal = tmp_path / "person.jsonl", tmp_path / "far.jsonl"
    logs = {name: (tmp_path / f"{name}.out").open("w+") for name in ("far", "person", "person-err")}
    far = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "hannibal", "--seed", "3", "--quiet",
                            "--journal", str(far_journal), "--remote", url, "--as", "yellow"], cwd=ROOT_DIR,
                           stdout=logs["far"], stderr=subprocess.STDOUT)
    person = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "hannibal", "--sim", "--as", "blue",
                               "--seed", "3", "--journal", str(journal), "--remote", url], cwd=ROOT_DIR,
                              stdin=subprocess.PIPE, stdout=logs["person"], stderr=logs["person-err"], text=True)
    assert person.stdin is not None
    try:
        person.stdin.write("fix\n")  # the pieces set up on the empty board, as the screen lists them
        person.stdin.flush()
        deadline = time.monotonic() + 120
        while len(_lines(journal) if journal.exists() else []) < 2:  # no command typed since: the far lines come
            assert time.monotonic() < deadline, "the far lines never came"
            with contextlib.suppress(subprocess.TimeoutExpired):
                person.wait(timeout=0.1)
            assert person.returncode is None, (tmp_path / "person-err.out").read_text()[-3000:]
        person.stdin.write("fix\nquit\n")
        person.stdin.close()
        person.wait(timeout=120)
    finally:
        far.kill()
        person.kill()
        broker.kill()
    out = (tmp_path / "person.out").read_text()
    assert person.returncode == 0, (tmp_path / "person-err.out").read_text()[-3000:]
    lines = _lines(journal)
    assert [line["player"] for line in lines[:2]] == ["yellow", "yellow"]  # the far roll and move, journaled here
    assert lines == _lines(far_journal)[:len(lines)]
    assert "(Yellow: " in out and f"game saved in {journal}" in out
