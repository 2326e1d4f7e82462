"""Two simulated Hannibal tables in one process, joined over a real Mosquitto: people at each table move their
own seat's pieces; the far seat's roll and steps arrive as the far table's lines, the board must follow them
(its LEDs light the step on a board that has them), nothing at a table moves or rolls for a far seat, and both
journals end identical."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from broker import NEEDS_MOSQUITTO, Broker
from hannibal_harness import Harness

from controller.flows.hannibal import Phase
from controller.remote.lines import encode_line
from controller.remote.link import topics
from controller.remote.play import RemotePlay, join, journal_lines
from controller.web.public import public_state
from hw_config.remote import parse_url

pytest.importorskip("paho.mqtt", reason="pip install -e '.[test]' (paho-mqtt)")
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

pytestmark = NEEDS_MOSQUITTO


class Pair:
    """Yellow's table (with LEDs) and blue's, each turning its loop while the other waits for the broker."""

    def __init__(self, tmp: Path, port: int) -> None:
        remote = parse_url(f"mqtt://127.0.0.1:{port}/pair-{port}")
        self.yellow = Harness(tmp / "yellow.jsonl", profile="hannibal-bridge-sim", far=frozenset({"blue"}))
        self.blue = Harness(tmp / "blue.jsonl", far=frozenset({"yellow"}))
        self.plays: list[RemotePlay] = [join(self.yellow.table, remote, ["yellow"]),
                                        join(self.blue.table, remote, ["blue"])]

    def until(self, what: Callable[[], bool], timeout: float = 15.0) -> None:
        """Both tables turn (simulated time) until ``what`` holds, the broker's messages taking real time."""
        deadline = time.monotonic() + timeout
        while not what():
            assert time.monotonic() < deadline, f"timed out: yellow {self.yellow.text!r}, blue {self.blue.text!r}"
            self.yellow.run(0.05)
            self.blue.run(0.05)
            time.sleep(0.005)

    def close(self) -> None:
        for play in self.plays:
            play.link.close()


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[Pair]:
    broker = Broker(tmp_path)
    p = Pair(tmp_path, broker.port)
    try:
        p.until(lambda: all(play.link.status().far_online for play in p.plays))
        yield p
    finally:
        p.close()
        broker.kill()


def test_each_table_plays_its_seat_and_follows_the_far_one(pair: Pair) -> None:
    yellow, blue = pair.yellow, pair.blue
    pair.until(lambda: "at the far table" in blue.text)  # yellow rolls first, far away: the link is up
    assert "far table plays" in blue.text
    state = blue.table.feed.current
    assert state is not None  # the web page names who plays each seat
    assert public_state(state, "", hidden=False)["seats"] == [
        {"seat": "yellow", "name": "yellow", "played_by": "far table"},
        {"seat": "blue", "name": "blue", "played_by": "person"}]
    blue.press("ROLL")
    assert blue.table.journal.seq == 0 and "Yellow plays at the far table" in blue.text  # never rolled here
    yellow.roll(1, 5)
    pair.until(lambda: blue.table.journal.seq == 1)
    assert "[1 5]" in blue.text or "1 5" in blue.text.replace("[", "").replace("]", "")
    yellow.play(12, 17)
    pair.until(lambda: blue.table.journal.seq == 2)
    assert blue.text.splitlines()[:2] == ["Far Yellow: 12-17", "  put 1 yellow on 17"]
    assert blue.phase is Phase.FIXUP
    yellow.play(0, 1)
    pair.until(lambda: blue.table.journal.seq == 2 and yellow.table.journal.seq == 3)  # blue's board follows first
    blue.move(12, 17)
    pair.until(lambda: blue.table.journal.seq == 3)
    assert blue.text.startswith("Far Yellow: 0-1")
    blue.move(0, 1)
    pair.until(lambda: blue.phase is Phase.ROLL and "Blue: press ROLL" in blue.text)

    yellow.press("ROLL")  # blue's roll is blue's table's
    assert yellow.table.journal.seq == 3 and "Blue plays at the far table" in yellow.text
    blue.roll(4, 6)
    blue.play(36, 30)
    pair.until(lambda: yellow.table.journal.seq == 5)
    assert yellow.text.splitlines()[:2] == ["Far Blue: 36-30", "  put 1 blue on 30"]
    assert yellow.lights == {"36": "lift", "30": "put"}  # the far step lit on yellow's board
    yellow.move(36, 30)
    pair.until(lambda: not yellow.lights and yellow.phase is Phase.STEP)
    assert [line["move"] for line in journal_lines(yellow.journal_path)] == ["R1,5", "12-17", "0-1", "R4,6",
                                                                             "36-30"]
    assert journal_lines(yellow.journal_path) == journal_lines(blue.journal_path)


@pytest.mark.parametrize(("move", "said"), [("R1,5", "state differs"), ("R9,9", "not a move of this game here")])
def test_a_line_that_is_not_this_game_stops_both_tables(pair: Pair, move: str, said: str) -> None:
    """Someone with the game's code (so the signature is good) publishes yellow's roll with another state, or a
    roll no die shows: blue's table stops with one line and tells yellow's, which stops too; nothing more is
    applied at either."""
    yellow, blue = pair.yellow, pair.blue
    pair.until(lambda: "at the far table" in blue.text)
    forged = {"seq": 1, "player": "yellow", "move": move, "state": {"game": "hannibal", "tampered": True}}
    remote = pair.plays[0].link.remote
    intruder = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="intruder")
    intruder.connect("127.0.0.1", remote.port)
    intruder.loop_start()
    try:
        intruder.publish(topics(remote.code)["lines"], encode_line(remote.code, "yellow", forged),
                         qos=1).wait_for_publish(5)
        pair.until(lambda: all(play.stopped for play in pair.plays))
    finally:
        intruder.loop_stop()
        intruder.disconnect()
    assert blue.text.startswith("Remote play stopped") and said in blue.text.replace("\n", " ")
    assert yellow.text.startswith("Remote play stopped") and "at the far table, blue" in yellow.text
    yellow.press("ROLL")
    assert yellow.table.journal.seq == 0  # the game is saved as it stood, and nothing more is taken
