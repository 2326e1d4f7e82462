"""The wire format between the host and the board's microcontroller: a pure codec, no I/O.

A frame on the wire is ``COBS(type, seq, body..., crc_hi, crc_lo) 0x00``: COBS removes every zero byte
from the frame, so 0x00 always means "frame ends" and a receiver that joins a stream mid-frame, or loses
bytes, resynchronises at the next zero. The CRC is CRC-16/GENIBUS (``binascii.crc_hqx`` seeded with
0xFFFF, then inverted) over type, seq and body: inverted, because a CRC without it accepts a frame with one
zero byte more or less at its end (crc(m + crc_hi) is always crc_lo, 0), which COBS makes one flipped or
lost byte away. Message types and bodies are in ``MESSAGES``; the package README shows
frames byte by byte.

The board's state travels as a *version* (one byte, counting the MCU's delta frames) with every frame
that speaks of the board: a ``delta`` says "version v is the one before with these cells changed" (a
``delta_copy`` says it again, later), a ``row`` says "at version v, row r holds these cells". Rows are
small frames whatever the matrix size (two bytes of cells for 16 columns), so a noisy line still carries
them, and the host never needs one big frame to learn the whole board.

This is the host's codec. The firmware (``firmware_bridge.firmware.wire``) speaks the same format with
its own CRC table and COBS, because MicroPython has neither ``binascii.crc_hqx`` nor dataclasses; tests
check the two agree byte for byte.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from enum import IntEnum

VERSION = 3  # 3: an LED is addressed by its place on the strip and lit in a colour
MAX_FRAME = 255  # decoded bytes: type + seq + body + crc
DELIMITER = b"\x00"

HELLO, ROW, DELTA, BUTTON = 1, 2, 3, 4
ACK, NACK, LED, DICE, SNAPSHOT_REQUEST, DELTA_COPY = 6, 7, 8, 9, 10, 11  # 5 was protocol 1's heartbeat

# type -> (name, fixed body length or None for "checked by its parser")
MESSAGES: dict[int, tuple[str, int | None]] = {
    HELLO: ("hello", 3),  # protocol version, rows, cols
    ROW: ("row", None),  # board version, row, its cells: bit c = column c, little-endian, ceil(cols/8) bytes
    DELTA: ("delta", None),  # board version after it, then (row, col, closed) per changed cell
    BUTTON: ("button", 2),  # button id, 1 = pressed / 0 = released
    ACK: ("ack", 1),  # the seq acknowledged
    NACK: ("nack", 2),  # the seq refused, reason code
    LED: ("led", 3),  # the LED's place on the strip (high byte, low byte), its colour (0 = off)
    DICE: ("dice", 2),  # two dice values to show, 0 = blank
    SNAPSHOT_REQUEST: ("snapshot_request", 0),
    DELTA_COPY: ("delta_copy", None),  # a delta sent again, the same body: late, so it dates nothing
}



class Colour(IntEnum):
    """An LED frame's colour byte (the firmware's ``PALETTE`` draws each): what the cell asks of the players."""

    OFF = 0
    LIFT = 1  # lift a piece here
    PUT = 2  # put a piece here
    SEEN = 3  # the self-test: this cell's sensor reads closed


def led_body(index: int, colour: Colour) -> bytes:
    """An LED frame's body: the LED's place on the strip, then its colour."""
    return bytes([index >> 8, index & 0xFF, colour])


class FrameError(ValueError):
    """Bytes between two delimiters that are not a valid frame (kept out of the game, logged)."""


@dataclass(frozen=True)
class Frame:
    type: int
    seq: int
    body: bytes

    @property
    def name(self) -> str:
        return MESSAGES[self.type][0]


def crc16(data: bytes) -> int:
    return binascii.crc_hqx(data, 0xFFFF) ^ 0xFFFF


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the frame")
        block = data[i + 1:end]
        if 0 in block:
            raise FrameError("zero byte inside a COBS block")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode(frame: Frame) -> bytes:
    """One frame as it goes on the wire, delimiter included."""
    check_body(frame.type, frame.body)
    if not 0 <= frame.seq <= 255:
        raise ValueError(f"seq {frame.seq} out of 0..255")
    raw = bytes([frame.type, frame.seq]) + frame.body
    crc = crc16(raw)
    return cobs_encode(raw + bytes([crc >> 8, crc & 0xFF])) + DELIMITER


def decode(chunk: bytes) -> Frame:
    """One frame from the bytes between two delimiters; ``FrameError`` says why it is not one."""
    raw = cobs_decode(chunk)
    if len(raw) < 4:
        raise FrameError(f"frame of {len(raw)} bytes is too short")
    if len(raw) > MAX_FRAME:
        raise FrameError(f"frame of {len(raw)} bytes is too long")
    payload, crc = raw[:-2], (raw[-2] << 8) | raw[-1]
    if crc16(payload) != crc:
        raise FrameError(f"CRC mismatch (got {crc:#06x}, computed {crc16(payload):#06x})")
    kind, seq, body = payload[0], payload[1], payload[2:]
    if kind not in MESSAGES:
        raise FrameError(f"unknown message type {kind}")
    check_body(kind, body)
    return Frame(kind, seq, bytes(body))


def check_body(kind: int, body: bytes) -> None:
    name, size = MESSAGES[kind]
    if size is not None and len(body) != size:
        raise FrameError(f"{name} body of {len(body)} bytes, expected {size}")
    if kind == ROW and len(body) < 3:
        raise FrameError("row body without its cells")
    if kind in (DELTA, DELTA_COPY) and (len(body) < 4 or (len(body) - 1) % 3
                                        or any(body[i] > 1 for i in range(3, len(body), 3))):
        raise FrameError("delta body is not a version and (row, col, 0/1) triples")


class Decoder:
    """Splits a byte stream into frames; garbage between delimiters becomes a ``FrameError`` in the output,
    so the link can count it and ask for a snapshot, and never a frame."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        self._buffer += data
        out: list[Frame | FrameError] = []
        while True:
            end = self._buffer.find(0)
            if end < 0:
                if len(self._buffer) > 2 * MAX_FRAME:  # no delimiter for too long: junk, drop it
                    out.append(FrameError(f"{len(self._buffer)} bytes without a delimiter"))
                    self._buffer.clear()
                return out
            chunk = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if not chunk:
                continue  # back-to-back delimiters: an idle line
            try:
                out.append(decode(chunk))
            except FrameError as e:
                out.append(e)


# -- bodies -------------------------------------------------------------------------------------------------


def row_body(version: int, row: int, mask: int, cols: int) -> bytes:
    """``mask``: bit c set = cell (row, c) closed."""
    return bytes([version, row]) + mask.to_bytes((cols + 7) // 8, "little")


def row_fields(body: bytes) -> tuple[int, int, int]:
    """(board version, row, mask); the link checks the mask's width against its matrix."""
    return body[0], body[1], int.from_bytes(body[2:], "little")


def delta_body(version: int, changes: list[tuple[int, int, bool]]) -> bytes:
    out = bytearray([version])
    for r, c, closed in changes:
        out += bytes([r, c, 1 if closed else 0])
    return bytes(out)


def delta_fields(body: bytes) -> tuple[int, list[tuple[int, int, bool]]]:
    """(board version after the change, [(row, col, closed), ...])."""
    return body[0], [(body[i], body[i + 1], body[i + 2] == 1) for i in range(1, len(body), 3)]
