"""The MCU's side of the protocol: say hello, report cell changes, answer the host, keep a heartbeat.

``Mcu.step(now_ms)`` is called from the firmware's main loop (and from the simulation's clock). Deltas
are not retried: a lost one shows up on the host as a sequence gap or a damaged frame, and the host asks
for a snapshot, which is the state itself and cannot be replayed wrongly.
"""

from firmware_bridge.firmware.matrix import Matrix
from firmware_bridge.firmware.wire import (
    ACK,
    DELTA,
    DICE,
    HEARTBEAT,
    HELLO,
    LED,
    NACK,
    SNAPSHOT,
    SNAPSHOT_REQUEST,
    VERSION,
    FrameReader,
    encode_frame,
)

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here
MAX_CHANGES = 80  # per delta frame: 1 + 3 * 80 bytes of body fit a frame

NACK_BAD_FRAME = 1
NACK_UNSUPPORTED = 2
NACK_OUT_OF_RANGE = 3


def ticks_diff(now: int, then: int) -> int:
    """``time.ticks_diff`` of MicroPython, so the logic runs the same under CPython."""
    half = TICKS_PERIOD // 2
    return (now - then + half) % TICKS_PERIOD - half


class Mcu:
    """``port`` has ``read() -> bytes | None`` (never blocks) and ``write(bytes)``, as ``machine.UART``;
    ``leds`` has ``set(row, col, on)`` or is None on a board without LEDs."""

    def __init__(self, port, matrix: Matrix, leds=None, *, scan_ms: int = 5, heartbeat_ms: int = 100) -> None:
        self.port = port
        self.matrix = matrix
        self.leds = leds
        self.scan_ms = scan_ms
        self.heartbeat_ms = heartbeat_ms
        self.reader = FrameReader()
        self.seq = 0
        self.host_seq = 255  # the last host seq seen; a damaged frame is refused as the next one
        self._started: int | None = None
        self._last_scan = 0
        self._last_beat = 0

    def step(self, now: int) -> None:
        if self._started is None:
            self._started = self._last_scan = self._last_beat = now
            self._hello()
        data = self.port.read()
        if data:
            for frame in self.reader.feed(data):
                self._handle(frame)
        if ticks_diff(now, self._last_scan) >= self.scan_ms:
            self._last_scan = now
            changes = self.matrix.scan()
            for i in range(0, len(changes), MAX_CHANGES):
                self._send_delta(changes[i:i + MAX_CHANGES])
        if ticks_diff(now, self._last_beat) >= self.heartbeat_ms:
            self._last_beat = now
            uptime = ticks_diff(now, self._started) & 0xFFFFFFFF
            self._send(HEARTBEAT, bytes([uptime >> 24 & 0xFF, uptime >> 16 & 0xFF, uptime >> 8 & 0xFF, uptime & 0xFF]))

    def _handle(self, frame: tuple[int, int, bytes] | None) -> None:
        if frame is None:
            self._send(NACK, bytes([(self.host_seq + 1) & 0xFF, NACK_BAD_FRAME]))
            return
        kind, seq, body = frame
        self.host_seq = seq
        if kind == HELLO:
            self._hello()
        elif kind == SNAPSHOT_REQUEST:
            self._send(SNAPSHOT, bytes([len(self.matrix.rows), len(self.matrix.cols)]) + self.matrix.bitmap())
        elif kind == LED:
            row, col, on = body[0], body[1], body[2]
            if self.leds is None:
                self._send(NACK, bytes([seq, NACK_UNSUPPORTED]))
            elif row >= len(self.matrix.rows) or col >= len(self.matrix.cols) or on > 1:
                self._send(NACK, bytes([seq, NACK_OUT_OF_RANGE]))
            else:
                self.leds.set(row, col, on == 1)
                self._send(ACK, bytes([seq]))
        elif kind == DICE:
            self._send(NACK, bytes([seq, NACK_UNSUPPORTED]))  # this board has no dice display
        # ACK, NACK, HEARTBEAT from the host need no answer

    def _hello(self) -> None:
        self._send(HELLO, bytes([VERSION, len(self.matrix.rows), len(self.matrix.cols)]))

    def _send_delta(self, changes: list[tuple[int, int, bool]]) -> None:
        body = bytearray([len(changes)])
        for r, c, closed in changes:
            body.extend(bytes([r, c, 1 if closed else 0]))
        self._send(DELTA, bytes(body))

    def _send(self, kind: int, body: bytes) -> None:
        self.port.write(encode_frame(kind, self.seq, body))
        self.seq = (self.seq + 1) & 0xFF
