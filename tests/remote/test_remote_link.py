"""Two tables on a real Mosquitto broker (started here on 127.0.0.1 at a free port): a whole journal crosses,
duplicates and reordering apply once, a forged line is refused, a broker restart is caught up, the last will
shows the far table offline."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("paho.mqtt", reason="pip install -e '.[test]' (paho-mqtt)")
import paho.mqtt.client as mqtt
from broker import NEEDS_MOSQUITTO, Broker
from paho.mqtt.enums import CallbackAPIVersion
from support import ROOT_DIR

from controller.journal import Journal, read
from controller.remote.lines import encode_line
from controller.remote.link import Link
from controller.remote.sync import Sync
from engines.registry import get_game
from hw_config.remote import parse_url

ROOT = ROOT_DIR
pytestmark = NEEDS_MOSQUITTO


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path)
    yield b
    b.kill()


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("remote") / "hannibal.jsonl"
    subprocess.run([sys.executable, "-m", "controller.cli", "demo", "hannibal", "--seed", "2", "--journal", str(path),
                    "--quiet"], cwd=ROOT, check=True, capture_output=True, timeout=60)
    return path


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in path.read_text().splitlines()[1:]]


def wait_for(what: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


class FarCopy:
    """The receiving table: the game's engine and its own journal, fed by a Sync from a Link."""

    def __init__(self, journal: Path, game: str = "hannibal") -> None:
        self.state = get_game(game).new_game()
        self.journal = Journal.create(journal, game, {})
        self.sync = Sync(self.apply, lambda far: bool(self.state.to_json() == far))

    def apply(self, line: dict[str, Any]) -> None:
        self.state.apply(self.state.parse_move(line["move"]))
        self.journal.append(line["player"], line["move"], self.state.to_json(), entered=bool(line.get("entered")))

    def pump(self, link: Link, until_seq: int, timeout: float = 15.0) -> None:
        """What the table's loop will do: take arrivals, order them, ask again for gaps."""
        deadline = time.monotonic() + timeout
        while self.sync.next_seq <= until_seq:
            assert time.monotonic() < deadline, f"stuck at seq {self.sync.next_seq}, link {link.status()}"
            for line in link.take(timeout=0.1):
                self.sync.offer(line)
            if self.sync.missing():
                link.want(self.sync.next_seq)


def link(broker: Broker, table: str, **kw: Any) -> Link:
    lk = Link(parse_url(f"mqtt://127.0.0.1:{broker.port}/test-{broker.port}"), table, **kw)
    lk.start()
    wait_for(lambda: lk.status().connected)
    return lk


def plain_client(broker: Broker) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder")
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def test_a_whole_journal_crosses_and_the_far_copy_is_identical(broker: Broker, journal_path: Path,
                                                               tmp_path: Path) -> None:
    lines = lines_of(journal_path)
    far = FarCopy(tmp_path / "far.jsonl")
    north = link(broker, "north")
    south = link(broker, "south", expecting=lambda: far.sync.next_seq)
    try:
        wait_for(lambda: south.status().far_online == ("north",))
        assert south.status().text(time.monotonic()) == "connected"
        for line in lines:
            north.publish(line)
        far.pump(south, until_seq=len(lines))
    finally:
        north.close()
        south.close()
    assert read(tmp_path / "far.jsonl").entries == read(journal_path).entries
    assert (tmp_path / "far.jsonl").read_text().splitlines()[1:] == journal_path.read_text().splitlines()[1:]
    assert far.state.to_json()["winner"] == "blue" and south.refused == []


def test_duplicated_and_reordered_deliveries_apply_once_in_order(broker: Broker, journal_path: Path,
                                                                 tmp_path: Path) -> None:
    # a relay that knows the code (a table sending again after reconnects) delivers each line 1-3 times, shuffled
    lines = lines_of(journal_path)[:60]
    far = FarCopy(tmp_path / "far.jsonl")
    south = link(broker, "south")
    applied: list[int] = []
    inner = far.apply
    far.sync._apply = lambda ln: (applied.append(ln["seq"]), inner(ln))[1]
    relay = plain_client(broker)
    try:
        rng = random.Random(3)
        deliveries = [ln for ln in lines for _ in range(rng.randint(1, 3))]
        rng.shuffle(deliveries)
        code = south.remote.code
        for ln in deliveries:
            relay.publish(south.topics["lines"], encode_line(code, "north", ln), qos=1).wait_for_publish(5)
        far.pump(south, until_seq=len(lines))
    finally:
        relay.loop_stop()
        relay.disconnect()
        south.close()
    assert applied == list(range(1, len(lines) + 1))
    assert far.journal.seq == len(lines) and far.sync.waiting == 0


def test_a_forged_line_from_another_client_is_refused_logged_and_never_applied(
        broker: Broker, journal_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    lines = lines_of(journal_path)[:5]
    far = FarCopy(tmp_path / "far.jsonl")
    north = link(broker, "north")
    south = link(broker, "south")
    intruder = plain_client(broker)
    try:
        for ln in lines[:3]:
            north.publish(ln)
        far.pump(south, until_seq=3)
        forged_line = {**lines[3], "move": "S0-6"}  # another move in the seq the far table has not sent yet
        code, topic = south.remote.code, south.topics["lines"]
        tampered = json.loads(encode_line(code, "north", lines[3]))
        tampered["line"] = forged_line
        for payload in (encode_line("not-the-code", "north", forged_line), json.dumps(tampered).encode(),
                        b"rubbish"):
            intruder.publish(topic, payload, qos=1).wait_for_publish(5)
        wait_for(lambda: len(south.refused) == 3)
        arrived = south.take()  # only north's lines again (answers to south's want when north came online)
        assert all(ln in lines[:3] for ln in arrived)
        for ln in arrived:
            far.sync.offer(ln)
        assert far.sync.next_seq == 4 and far.journal.seq == 3
        for ln in lines[3:]:
            north.publish(ln)
        far.pump(south, until_seq=5)
    finally:
        intruder.loop_stop()
        intruder.disconnect()
        north.close()
        south.close()
    assert [e.move for e in read(tmp_path / "far.jsonl").entries] == [ln["move"] for ln in lines]
    assert "WrongGame" in south.refused[0] and "BadSignature" in south.refused[1]
    assert "MalformedMessage" in south.refused[2]
    logged = [r.getMessage() for r in caplog.records if "refused a message" in r.getMessage()]
    assert len(set(logged)) == 3, logged


def test_the_far_table_catches_up_after_a_broker_restart(broker: Broker, journal_path: Path,
                                                         tmp_path: Path) -> None:
    lines = lines_of(journal_path)[:40]
    far = FarCopy(tmp_path / "far.jsonl")
    north = link(broker, "north", expecting=lambda: 1, reconnect_delay=(1, 1))
    south = link(broker, "south", expecting=lambda: far.sync.next_seq, reconnect_delay=(1, 1))
    try:
        for ln in lines[:15]:
            north.publish(ln)
        far.pump(south, until_seq=15)
        broker.kill()
        wait_for(lambda: not north.status().connected and not south.status().connected)
        for ln in lines[15:30]:
            north.publish(ln)  # while the broker is down: must not raise, must not be lost
        broker.start()
        wait_for(lambda: north.status().connected and south.status().connected)
        for ln in lines[30:]:
            north.publish(ln)
        far.pump(south, until_seq=len(lines))
    finally:
        north.close()
        south.close()
    assert [e.move for e in read(tmp_path / "far.jsonl").entries] == [ln["move"] for ln in lines]


def test_the_last_will_shows_the_far_table_offline(broker: Broker) -> None:
    north = link(broker, "north")
    south = link(broker, "south")
    try:
        wait_for(lambda: south.status().far_online == ("north",))
        # north's power goes: its connection drops without a DISCONNECT, so the broker publishes its last will
        north.client.loop_stop()
        sock = north.client.socket()
        assert sock is not None
        sock.close()
        wait_for(lambda: south.status().far_offline == ("north",), timeout=20)
        status = south.status()
        assert status.connected and status.far_online == ()
        assert status.text(status.since + 3) == "far table offline for 3 s"
    finally:
        south.close()
