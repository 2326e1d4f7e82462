"""The bridge's wire codec, byte by byte, and its decoder under random and damaged input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codec import (
    BUTTON,
    DELTA,
    HELLO,
    LED,
    MESSAGES,
    ROW,
    SNAPSHOT_REQUEST,
    Colour,
    Decoder,
    Frame,
    FrameError,
    cobs_encode,
    crc16,
    decode,
    delta_body,
    delta_fields,
    encode,
    led_body,
    row_body,
    row_fields,
)


@pytest.mark.parametrize(("frame", "wire"), [
    (Frame(HELLO, 0, bytes([3, 7, 7])), "02 01 06 03 07 07 f4 82 00"),
    (Frame(DELTA, 5, delta_body(1, [(2, 3, True)])), "09 03 05 01 02 03 01 41 fe 00"),
    (Frame(ROW, 7, row_body(1, 2, 1 << 3, 7)), "08 02 07 01 02 08 2b 07 00"),
    (Frame(ROW, 8, row_body(1, 15, 1 << 15 | 1, 16)), "09 02 08 01 0f 01 80 80 be 00"),
    (Frame(SNAPSHOT_REQUEST, 9, b""), "05 0a 09 9c 12 00"),
    (Frame(LED, 4, led_body(36, Colour.PUT)), "03 08 04 05 24 02 cc 4f 00"),
])
def test_documented_frames_byte_by_byte(frame: Frame, wire: str) -> None:
    assert encode(frame).hex(" ") == wire
    assert Decoder().feed(bytes.fromhex(wire)) == [frame]


def test_cobs_known_vectors() -> None:
    assert cobs_encode(b"") == b"\x01"
    assert cobs_encode(b"\x00") == b"\x01\x01"
    assert cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"
    assert cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255)) + b"\x01"


def test_crc_is_genibus() -> None:
    assert crc16(b"123456789") == 0xD64E


@given(st.sampled_from(sorted(MESSAGES)), st.integers(0, 255), st.binary(min_size=3, max_size=30))
def test_one_zero_byte_more_or_less_at_the_end_is_caught(kind: int, seq: int, body: bytes) -> None:
    """With CCITT-FALSE (not inverted) m + crc + 00 always passed as m + crc_hi, and m + crc without its last
    byte passed whenever that byte was 00: one flipped COBS code away on the wire."""
    raw = bytes([kind, seq]) + body
    crc = crc16(raw)
    framed = raw + bytes([crc >> 8, crc & 0xFF])
    for damaged in (framed + b"\x00", framed[:-1]):
        if len(damaged) >= 4:
            payload, got = damaged[:-2], damaged[-2] << 8 | damaged[-1]
            assert crc16(payload) != got


@given(st.integers(0, 255), st.integers(0, 255), st.integers(1, 255), st.data())
def test_row_and_delta_bodies_round_trip(version: int, row: int, cols: int, data: st.DataObject) -> None:
    mask = data.draw(st.integers(0, (1 << cols) - 1))
    body = row_body(version, row, mask, cols)
    assert len(body) == 2 + (cols + 7) // 8 and row_fields(body) == (version, row, mask)
    changes = [(1, 2, True), (15, 15, False)]
    assert delta_fields(delta_body(version, changes)) == (version, changes)


@pytest.mark.parametrize(("kind", "body"), [(HELLO, b"\x01\x07"), (BUTTON, b"\x01"), (ROW, b"\x07\x07"),
                                            (DELTA, b"\x02\x01\x01"), (DELTA, b"\x02\x01\x01\x02")])
def test_wrong_body_lengths_are_refused(kind: int, body: bytes) -> None:
    raw = bytes([kind, 1]) + body
    crc = crc16(raw)
    with pytest.raises(FrameError):
        decode(cobs_encode(raw + bytes([crc >> 8, crc & 0xFF])))


frames = st.builds(
    Frame,
    st.sampled_from([k for k, (_, size) in MESSAGES.items() if size is not None]),
    st.integers(0, 255),
    st.just(b""),
).map(lambda f: Frame(f.type, f.seq, bytes(MESSAGES[f.type][1] or 0)))


@settings(max_examples=300)
@given(st.binary(max_size=600))
def test_random_bytes_never_crash_and_never_make_a_frame_that_is_not_on_the_wire(data: bytes) -> None:
    for item in Decoder().feed(data):
        if isinstance(item, Frame):
            assert encode(item)[:-1] in data  # exactly those bytes were there, CRC and all


@settings(max_examples=300)
@given(st.lists(frames, min_size=1, max_size=5), st.integers(0, 2000), st.integers(0, 7))
def test_a_flipped_bit_is_always_caught(sent: list[Frame], where: int, bit: int) -> None:
    wire = bytearray(b"".join(encode(f) for f in sent))
    i = where % len(wire)
    wire[i] ^= 1 << bit
    got = [x for x in Decoder().feed(bytes(wire)) if isinstance(x, Frame)]
    assert all(f in sent for f in got)  # CRC-16 catches every single-bit error: no corrupted frame gets in
    assert len(got) >= len(sent) - 2  # at most the frames either side of the flip are lost


@settings(max_examples=200)
@given(st.lists(frames, min_size=1, max_size=6), st.data())
def test_truncated_and_duplicated_streams(sent: list[Frame], data: st.DataObject) -> None:
    wire = b"".join(encode(f) for f in sent)
    cut = data.draw(st.integers(0, len(wire)))
    stream = wire[cut:] + wire + wire[: len(wire) // 2]  # joined mid-frame, whole, then cut off
    decoder = Decoder()
    got = []
    for piece in (stream[i:i + 7] for i in range(0, len(stream), 7)):  # arrives in small reads
        got += [x for x in decoder.feed(piece) if isinstance(x, Frame)]
    assert all(f in sent for f in got)
    n = len(sent)
    assert any(got[i:i + n] == sent for i in range(len(got) - n + 1))  # the whole copy in the middle arrives
