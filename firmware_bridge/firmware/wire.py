"""The wire format as the firmware speaks it: CRC-16/GENIBUS, COBS and frames.

The host's codec uses ``binascii.crc_hqx``, which MicroPython lacks, so the CRC is computed here from a
table; tests check both sides agree byte for byte.
"""

VERSION = 3  # 3: an LED is addressed by its place on the strip and lit in a colour
MAX_FRAME = 255

HELLO = 1
ROW = 2
DELTA = 3
ACK = 6
NACK = 7
LED = 8
DICE = 9
SNAPSHOT_REQUEST = 10
DELTA_COPY = 11

# an LED's colours: 0 off, 1 "lift a piece here", 2 "put a piece here", 3 "this sensor reads closed" (self-test)
COLOURS = 4

# body length of each message the firmware accepts from the host; anything else is refused
HOST_BODIES = {HELLO: 3, ACK: 1, NACK: 2, LED: 3, DICE: 2, SNAPSHOT_REQUEST: 0}


def _table() -> list[int]:
    out = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        out.append(crc & 0xFFFF)
    return out


_CRC_TABLE = _table()


def crc16(data: bytes) -> int:
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc ^ 0xFFFF  # CRC-16/GENIBUS: see the host's codec for why inverted


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """The decoded bytes, or None for a chunk that is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        for j in range(i + 1, end):
            if data[j] == 0:
                return None
        out.extend(data[i + 1:end])
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(kind: int, seq: int, body: bytes) -> bytes:
    raw = bytes([kind, seq & 0xFF]) + body
    crc = crc16(raw)
    return cobs_encode(raw + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


class FrameReader:
    """Splits the incoming byte stream at zeros; each complete chunk becomes ``(kind, seq, body)`` or
    None when it is damaged, so the firmware can refuse it (a NACK) instead of acting on it."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, int, bytes] | None]:
        out = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) <= 2 * MAX_FRAME:
                    self._buffer.append(byte)
                continue
            if self._buffer:
                out.append(_decode(bytes(self._buffer)))
                self._buffer = bytearray()
        return out


def _decode(chunk: bytes) -> tuple[int, int, bytes] | None:
    raw = cobs_decode(chunk)
    if raw is None or len(raw) < 4 or len(raw) > MAX_FRAME:
        return None
    payload = raw[:-2]
    if crc16(payload) != (raw[-2] << 8) | raw[-1]:
        return None
    kind = payload[0]
    body = payload[2:]
    if HOST_BODIES.get(kind) != len(body):
        return None
    return (kind, payload[1], body)
