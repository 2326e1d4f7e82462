"""The MCU firmware under CPython: its own CRC and COBS agree with the host's codec byte for byte, the
matrix debounces as the direct scanner does and reads the board through either wiring, and the protocol
answers the host."""

from __future__ import annotations

import binascii

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import codec
from firmware_bridge.firmware import pico, wire
from firmware_bridge.firmware.matrix import PinReader
from firmware_bridge.firmware.mcu import (
    DELTA_REPEATS,
    GREET_BEATS,
    NACK_BAD_FRAME,
    NACK_OUT_OF_RANGE,
    NACK_UNSUPPORTED,
    Mcu,
)
from sim_hardware.clock import FakeClock
from sim_hardware.mcu import Strip, machine_for
from sim_hardware.pins import SimBoard


@given(st.binary(max_size=300))
def test_firmware_crc_is_crc_hqx_seeded_with_ffff_inverted(data: bytes) -> None:
    assert wire.crc16(data) == binascii.crc_hqx(data, 0xFFFF) ^ 0xFFFF == codec.crc16(data)


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


def _mcu(rows: int = 3, cols: int = 3) -> tuple[SimBoard, _Port, Strip, Mcu]:
    board = SimBoard(range(rows), range(cols), FakeClock())
    port, strip = _Port(), Strip(rows * cols)
    leds = pico.Leds(strip, rows * cols)
    return board, port, strip, pico.build(machine_for(board, rows, cols), port, rows, cols, leds)


def _masks(cells: set[tuple[int, int]], rows: int) -> list[int]:
    return [sum(1 << c for r, c in cells if r == row) for row in range(rows)]


def test_debounce_counts_three_scans_and_ignores_a_short_bounce() -> None:
    board = SimBoard(range(3), range(3), FakeClock())
    board.place((0, 1))
    matrix = pico.build(machine_for(board, 3, 3), _Port(), 3, 3).matrix
    assert matrix.scan() == []  # what is on the board at boot is the state, not a change
    board.place((2, 2))
    assert matrix.scan() == [] and matrix.scan() == []
    assert matrix.scan() == [(2, 2, True)]
    board.lift((2, 2))
    assert matrix.scan() == [] and matrix.scan() == []
    board.place((2, 2))  # back before the third scan: a bounce
    assert [matrix.scan() for _ in range(5)] == [[]] * 5
    assert matrix.stable == _masks({(0, 1), (2, 2)}, 3)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(7, 7), (8, 8), (16, 16), (12, 9)]), st.data())
def test_every_wiring_reads_the_board_as_it_is(size: tuple[int, int], data: st.DataObject) -> None:
    """Direct pins for the sizes that fit beside the UART, the 74HC595/74HC165 chains beyond (16x16, and a
    12x9 board that leaves inputs and outputs of its second chips unused)."""
    rows, cols = size
    cells = data.draw(st.sets(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), max_size=40))
    board = SimBoard(range(rows), range(cols), FakeClock())
    for cell in cells:
        board.place(cell)
    matrix = pico.build(machine_for(board, rows, cols), _Port(), rows, cols).matrix
    assert isinstance(matrix.reader, PinReader) == pico.direct(rows, cols) == (rows + cols <= 23)
    assert matrix.stable == _masks(cells, rows)
    assert board.low_rows == set()  # between scans no row is driven
    moved = data.draw(st.sampled_from(sorted(cells))) if cells else (rows - 1, cols - 1)
    (board.lift if moved in cells else board.place)(moved)
    assert [matrix.scan() for _ in range(3)] == [[], [], [(*moved, moved not in cells)]]


def test_mcu_says_hello_then_sends_a_row_every_10_ms_and_a_delta_per_change_with_its_copies() -> None:
    board, port, _, mcu = _mcu()
    hello = ("hello", bytes([codec.VERSION, 3, 3]))
    mcu.step(0)
    assert [(f.name, f.body) for f in port.frames] == [hello]
    board.place((1, 2))
    for ms in range(5, 401, 5):
        mcu.step(ms)
    sent = [(f.name, f.body) for f in port.frames[1:]]
    assert sent.count(hello) == GREET_BEATS  # one with each of the first rows
    body = codec.delta_body(1, [(1, 2, True)])
    assert [f for f in sent if f != hello][:5] == [
        ("row", codec.row_body(0, 0, 0, 3)),  # at 10 ms
        ("delta", body),  # the third scan, at 15 ms: version 1
        ("row", codec.row_body(1, 1, 1 << 2, 3)),  # at 20 ms
        ("delta_copy", body),  # its first copy
        ("row", codec.row_body(1, 2, 0, 3)),
    ]
    copies = [("delta_copy", body)] * DELTA_REPEATS
    assert [f for f in sent if f[0] not in ("row", "hello")] == [("delta", body), *copies]
    assert [f.seq for f in port.frames] == list(range(len(port.frames)))


def test_mcu_answers_the_host() -> None:
    board, port, leds, mcu = _mcu()
    board.place((0, 0))
    mcu.beat_ms = 1000  # no row of the carousel among the answers
    for ms in (0, 5, 10, 15):
        mcu.step(ms)
    assert [f.type for f in port.frames] == [codec.HELLO, codec.DELTA]
    damaged = bytearray(codec.encode(codec.Frame(codec.LED, 4, codec.led_body(0, codec.Colour.LIFT))))
    damaged[2] ^= 1
    port.incoming = b"".join([
        codec.encode(codec.Frame(codec.SNAPSHOT_REQUEST, 1, b"")),
        codec.encode(codec.Frame(codec.LED, 2, codec.led_body(7, codec.Colour.PUT))),
        codec.encode(codec.Frame(codec.DICE, 3, bytes([3, 4]))),
        bytes(damaged),
        codec.encode(codec.Frame(codec.HELLO, 5, bytes([codec.VERSION, 3, 3]))),
    ])
    mcu.step(16)
    replies = [(f.type, f.body) for f in port.frames[2:]]
    assert replies == [
        (codec.ROW, codec.row_body(1, 0, 1, 3)),  # every row at once, of the version after the delta
        (codec.ROW, codec.row_body(1, 1, 0, 3)),
        (codec.ROW, codec.row_body(1, 2, 0, 3)),
        (codec.ACK, bytes([2])),
        (codec.NACK, bytes([3, NACK_UNSUPPORTED])),
        (codec.NACK, bytes([4, NACK_BAD_FRAME])),  # refused as the seq that should have come
        (codec.HELLO, bytes([codec.VERSION, 3, 3])),
    ]
    assert leds.lit == {7: pico.PALETTE[codec.Colour.PUT]}


def test_the_strip_lights_what_the_host_asks_and_is_written_once_a_step() -> None:
    """LEDs are addressed by their place on the strip (the profile maps them to cells); several in one
    step are one write of the strip; a place past the strip or an unknown colour is refused, not lit."""
    _, port, strip, mcu = _mcu()
    assert strip.frames == [((0, 0, 0),) * 9]  # a booting firmware puts the strip out
    mcu.step(0)
    port.incoming = b"".join(codec.encode(codec.Frame(codec.LED, seq, body)) for seq, body in enumerate([
        codec.led_body(8, codec.Colour.LIFT), codec.led_body(0, codec.Colour.PUT), codec.led_body(9, codec.Colour.PUT),
        bytes([0, 1, len(pico.PALETTE)])]))
    mcu.step(1)
    assert len(strip.frames) == 2 and strip.lit == {8: pico.PALETTE[1], 0: pico.PALETTE[2]}
    assert [(f.type, f.body) for f in port.frames[1:]] == [
        (codec.ACK, bytes([0])), (codec.ACK, bytes([1])), (codec.NACK, bytes([2, NACK_OUT_OF_RANGE])),
        (codec.NACK, bytes([3, NACK_OUT_OF_RANGE]))]
    port.incoming = codec.encode(codec.Frame(codec.LED, 4, codec.led_body(8, codec.Colour.OFF)))
    mcu.step(2)
    assert strip.lit == {0: pico.PALETTE[2]}
    assert len(pico.PALETTE) == wire.COLOURS == len(codec.Colour)  # the firmware draws every colour the host sends
