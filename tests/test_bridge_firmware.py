"""The MCU firmware under CPython: its own CRC and COBS agree with the host's codec byte for byte, the
matrix debounces as the direct scanner does, and the protocol answers the host."""

from __future__ import annotations

import binascii

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import codec
from firmware_bridge.firmware import pico, wire
from firmware_bridge.firmware.mcu import NACK_BAD_FRAME, NACK_UNSUPPORTED, Mcu
from sim_hardware.clock import FakeClock
from sim_hardware.mcu import Leds, machine_for
from sim_hardware.pins import SimBoard

ROWS, COLS = (5, 6, 13), (21, 12, 25)


@given(st.binary(max_size=300))
def test_firmware_crc_is_crc_hqx_seeded_with_ffff(data: bytes) -> None:
    assert wire.crc16(data) == binascii.crc_hqx(data, 0xFFFF) == codec.crc16(data)


@given(st.binary(max_size=600))
def test_firmware_cobs_matches_the_codec(data: bytes) -> None:
    encoded = wire.cobs_encode(data)
    assert encoded == codec.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


@given(st.sampled_from(sorted(codec.MESSAGES)), st.integers(0, 255), st.binary(max_size=40))
def test_firmware_frames_are_the_codecs_frames(kind: int, seq: int, body: bytes) -> None:
    try:
        expected = codec.encode(codec.Frame(kind, seq, body))
    except codec.FrameError:
        return  # a body the codec refuses for this type
    assert wire.encode_frame(kind, seq, body) == expected
    assert codec.Decoder().feed(expected) == [codec.Frame(kind, seq, body)]


@given(st.binary(max_size=200))
def test_firmware_reader_never_crashes_and_accepts_only_whole_host_frames(junk: bytes) -> None:
    for item in wire.FrameReader().feed(junk + b"\x00"):
        if item is not None:
            kind, _, body = item
            assert wire.HOST_BODIES[kind] == len(body)


def test_firmware_reader_takes_host_commands_and_refuses_damage() -> None:
    led = codec.encode(codec.Frame(codec.LED, 7, bytes([1, 2, 1])))
    damaged = bytearray(led)
    damaged[3] ^= 0x10
    assert wire.FrameReader().feed(led + bytes(damaged)) == [(wire.LED, 7, bytes([1, 2, 1])), None]


class _Port:
    def __init__(self) -> None:
        self.incoming = b""
        self.sent = codec.Decoder()
        self.frames: list[codec.Frame] = []

    def read(self) -> bytes | None:
        data, self.incoming = self.incoming, b""
        return data or None

    def write(self, data: bytes) -> None:
        self.frames += [f for f in self.sent.feed(data) if isinstance(f, codec.Frame)]


def _mcu() -> tuple[SimBoard, _Port, Leds, Mcu]:
    board = SimBoard(ROWS, COLS, FakeClock())
    port, leds = _Port(), Leds()
    return board, port, leds, pico.build(machine_for(board), port, ROWS, COLS, leds)


def test_debounce_counts_three_scans_and_ignores_a_short_bounce() -> None:
    board = SimBoard(ROWS, COLS, FakeClock())
    board.place((0, 1))
    matrix = pico.build(machine_for(board), _Port(), ROWS, COLS).matrix
    assert matrix.scan() == []  # what is on the board at boot is the state, not a change
    board.place((2, 2))
    assert matrix.scan() == [] and matrix.scan() == []
    assert matrix.scan() == [(2, 2, True)]
    board.lift((2, 2))
    assert matrix.scan() == [] and matrix.scan() == []
    board.place((2, 2))  # back before the third scan: a bounce
    assert [matrix.scan() for _ in range(5)] == [[]] * 5
    assert matrix.bitmap() == codec.snapshot_body(3, 3, {(0, 1), (2, 2)})[2:]


def test_mcu_says_hello_with_version_and_size_then_reports_deltas_and_heartbeats() -> None:
    board, port, _, mcu = _mcu()
    mcu.step(0)
    assert port.frames == [codec.Frame(codec.HELLO, 0, bytes([codec.VERSION, 3, 3]))]
    board.place((1, 2))
    for ms in range(5, 101, 5):
        mcu.step(ms)
    kinds = [f.type for f in port.frames]
    assert kinds == [codec.HELLO, codec.DELTA, codec.HEARTBEAT]
    assert codec.delta_changes(port.frames[1].body) == [(1, 2, True)]
    assert [f.seq for f in port.frames] == [0, 1, 2]
    assert int.from_bytes(port.frames[2].body, "big") == 100


def test_mcu_answers_the_host() -> None:
    board, port, leds, mcu = _mcu()
    board.place((0, 0))
    for ms in (0, 5, 10, 15):
        mcu.step(ms)
    assert [f.type for f in port.frames] == [codec.HELLO, codec.DELTA]
    damaged = bytearray(codec.encode(codec.Frame(codec.LED, 4, bytes([0, 0, 1]))))
    damaged[2] ^= 1
    port.incoming = b"".join([
        codec.encode(codec.Frame(codec.SNAPSHOT_REQUEST, 1, b"")),
        codec.encode(codec.Frame(codec.LED, 2, bytes([2, 1, 1]))),
        codec.encode(codec.Frame(codec.DICE, 3, bytes([3, 4]))),
        bytes(damaged),
        codec.encode(codec.Frame(codec.HELLO, 5, bytes([codec.VERSION, 3, 3]))),
    ])
    mcu.step(16)
    replies = [(f.type, f.body) for f in port.frames[2:]]
    assert replies == [
        (codec.SNAPSHOT, codec.snapshot_body(3, 3, {(0, 0)})),
        (codec.ACK, bytes([2])),
        (codec.NACK, bytes([3, NACK_UNSUPPORTED])),
        (codec.NACK, bytes([4, NACK_BAD_FRAME])),  # refused as the seq that should have come
        (codec.HELLO, bytes([codec.VERSION, 3, 3])),
    ]
    assert leds.lit == {(2, 1)}
