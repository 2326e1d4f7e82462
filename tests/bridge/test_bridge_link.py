"""The host's link to the simulated MCU, end to end: magnets on the simulated board, the real firmware
behind a pty, the real link and the Hannibal flow. Faults are injected on the line between them."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from hannibal_harness import Harness

from controller.bridge_inputs import LINK_LOST, WRONG_FIRMWARE
from controller.flows.hannibal import Phase
from firmware_bridge import codec
from firmware_bridge.firmware import mcu as firmware
from firmware_bridge.firmware import pico
from firmware_bridge.link import Status
from sim_hardware.mcu import SimMcu


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Harness]:
    t = Harness(tmp_path / "game.jsonl", profile="hannibal-bridge-sim")
    yield t
    t.hw.close()


def _mcu(t: Harness) -> SimMcu:
    mcu: SimMcu = t.hw.mcu
    return mcu


def test_handshake_brings_the_link_up_and_the_board_is_read_through_the_mcu(table: Harness) -> None:
    link = table.hw.link
    assert link.status is Status.UP and link.stats.damaged == 0 and link.stats.drops == 0
    assert (link.rows, link.cols) == (7, 7)
    assert table.phase is Phase.ROLL and "Yellow: press ROLL" in table.text
    table.roll(1, 5)
    table.move(12, 17)
    assert table.moves() == ["R1,5", "12-17"]


def test_a_board_with_another_protocol_version_is_refused_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(firmware, "VERSION", codec.VERSION + 1)
    t = Harness(tmp_path / "game.jsonl", profile="hannibal-bridge-sim")
    try:
        assert t.hw.link.status is Status.INCOMPATIBLE
        assert f"board firmware speaks protocol {codec.VERSION + 1}, the host {codec.VERSION}" in caplog.text
        assert t.table.display.current == WRONG_FIRMWARE
        assert t.table.flow.sensed == set()  # nothing read from a board the host does not understand
    finally:
        t.hw.close()


@pytest.mark.parametrize("lost", ["lift", "place"])
@pytest.mark.parametrize(("fault", "seconds", "healed_by"), [("muted", 0.03, "a copy"), ("noise", 0.35, "the rows")])
def test_a_lost_delta_is_healed_by_a_copy_or_by_the_rows(table: Harness, lost: str, fault: str, seconds: float,
                                                         healed_by: str) -> None:
    """Muted for 30 ms, the line loses the delta and its first copies, not the later ones; every byte hit
    for 350 ms (a noisy line, not a dead one: bytes still come), every copy is lost and the board is
    rebuilt from rows."""
    link, mcu = table.hw.link, _mcu(table)
    table.roll(1, 5)
    table.move(12, 17)
    for action in ("lift", "place"):  # 17-18 with the 1: a lone piece, so both halves are sensed
        if action == lost:  # the MCU reports the change; the line swallows it
            mcu.muted, mcu.noise = fault == "muted", 1.0 if fault == "noise" else 0.0
        if action == "lift":
            table.board.lift(table.cell(17))
        else:
            table.board.place(table.cell(18))
        table.run(seconds)
        mcu.muted, mcu.noise = False, 0.0
        table.run(0.4)
    assert (link.stats.caught_up, link.stats.lost) == ((1, 0) if healed_by == "a copy" else (0, 1))
    assert link.status is Status.UP and link.stats.drops == 0
    assert table.moves() == ["R1,5", "12-17", "17-18"]  # neither missed nor doubled, nothing else
    assert table.table.flow.sensed == {loc for loc, _ in table.table.flow.game.occupancy().items()}


def test_a_damaged_delta_means_a_resync_and_the_flight_recorder_in_the_log(
        table: Harness, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="boardkeeper.bridge")
    link, mcu = table.hw.link, _mcu(table)
    table.roll(1, 5)
    table.lift(12)
    mcu.noise = 1.0  # a bit flipped in every byte, both ways, while the MCU reports the piece put down
    table.board.place(table.cell(17))
    table.run(0.35)  # the delta and all its copies
    mcu.noise = 0.0
    table.run(0.4)
    assert link.stats.damaged >= 1 and link.stats.lost >= 1 and link.status is Status.UP
    assert table.moves() == ["R1,5", "12-17"]
    assert "a change was lost" in caplog.text  # the next row's version told: the damaged frame was a delta
    assert "damaged: " in caplog.text and "row seq" in caplog.text  # the frames around it


def test_silence_means_link_lost_on_the_screen_and_the_game_waits(table: Harness) -> None:
    link, mcu = table.hw.link, _mcu(table)
    table.roll(1, 5)
    mcu.muted = True  # the line dies: no heartbeat any more
    table.run(1.0)
    assert link.status is not Status.UP and link.stats.drops >= 1
    assert table.table.display.current == LINK_LOST and "Board link lost" in table.text
    table.move(12, 17)  # the players play on regardless
    table.run(1.0)
    assert table.moves() == ["R1,5"]  # nothing applied from a board the host cannot see
    assert table.table.display.current == LINK_LOST
    mcu.muted = False
    table.run(3.0)
    assert link.status is Status.UP and link.stats.reconnects == 1
    assert table.moves() == ["R1,5", "12-17"]  # the move, seen by the snapshot after the reconnect
    assert "Board link lost" not in table.text and "Yellow to move" in table.text


def test_a_press_while_the_link_is_lost_does_nothing_and_the_board_is_read_again(table: Harness) -> None:
    """Issue 11: presses made while "Board link lost" was up were replayed after the reconnect and picked
    moves nobody made. Now they do nothing; the board moved meanwhile comes with the resync, as it is."""
    link, mcu = table.hw.link, _mcu(table)
    table.roll(1, 5)
    mcu.disconnect()
    table.run(0.6)
    assert "Board link lost" in table.text
    table.lift(12)  # the move, made while the board cannot be read
    table.place(17)
    table.press("OK")  # ... and OK for it, and NEXT: neither may reach the game
    table.press("NEXT")
    assert table.moves() == ["R1,5"] and link.stats.presses_dropped == 2
    mcu.plug_in()
    table.run(2.5)
    assert link.status is Status.UP and table.phase is Phase.STEP  # the move seen from the board, nothing else
    assert table.moves() == ["R1,5", "12-17"] and link.stats.presses_dropped == 2
    assert "Board link lost" not in table.text


def test_unplugged_board_is_reconnected_with_backoff(table: Harness) -> None:
    link, mcu = table.hw.link, _mcu(table)
    table.roll(1, 5)
    mcu.disconnect()
    table.run(2.0)
    assert "Board link lost" in table.text
    attempts = [at for at, _, what in link.recorder.entries if what.startswith("cannot open")]
    waits = [b - a for a, b in pairwise(attempts)]
    assert len(waits) >= 3 and all(later > 1.5 * earlier for earlier, later in pairwise(waits))
    mcu.plug_in()  # the MCU boots again, on a new device node
    table.run(2.5)
    assert link.status is Status.UP and link.stats.reconnects == 1 and mcu.boots == 2
    assert "Yellow to move" in table.text and table.moves() == ["R1,5"]  # the reboot moved nothing
    table.move(12, 17)
    assert table.moves() == ["R1,5", "12-17"]


def test_a_command_is_retried_until_the_board_acknowledges_it(table: Harness) -> None:
    link, mcu = table.hw.link, _mcu(table)
    mcu.muted = True
    link.send(codec.LED, codec.led_body(25, codec.Colour.PUT))
    table.run(0.05)
    assert mcu.strip.lit == {}
    mcu.muted = False
    table.run(0.3)
    assert mcu.strip.lit == {25: pico.PALETTE[codec.Colour.PUT]} and link.stats.retries >= 1
    assert table.table.display.current != LINK_LOST  # a short hiccup is healed, not announced


def test_a_later_colour_of_one_led_supersedes_one_not_yet_acknowledged(table: Harness) -> None:
    """Retried after the later one, the earlier colour would light an LED the table had put out."""
    link, mcu = table.hw.link, _mcu(table)
    mcu.muted = True
    link.send(codec.LED, codec.led_body(25, codec.Colour.PUT), key=(codec.LED, 25))
    link.send(codec.LED, codec.led_body(3, codec.Colour.LIFT), key=(codec.LED, 3))
    link.send(codec.LED, codec.led_body(25, codec.Colour.OFF), key=(codec.LED, 25))
    assert link.unanswered == 2
    frames = len(mcu.strip.frames)
    mcu.muted = False
    table.run(0.3)
    assert link.unanswered == 0 and mcu.strip.lit == {3: pico.PALETTE[codec.Colour.LIFT]}
    assert all(frame[25] == (0, 0, 0) for frame in mcu.strip.frames[frames:])
