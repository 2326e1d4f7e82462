"""The MCU's side of the protocol: say hello, report cell changes, send the board row by row, answer the host.

``Mcu.step(now_ms)`` is called from the firmware's main loop (and from the simulation's clock). Each
delta frame makes a new board *version*; every frame about the board carries the version it describes.
One row goes out every ``beat_ms`` (round robin: the heartbeat and a rolling snapshot at once), and the
latest delta goes out again (``delta_copy``) with each of the next ``DELTA_REPEATS`` rows, as the hello
does after boot and after the host's hello. Nothing waits for the host: a host that lost a delta takes one
of its copies, or, having lost them all, sees a version it does not have and rebuilds the board from rows
-- small frames that a noisy line still carries, whatever the matrix size. A ``snapshot_request`` sends
every row at once.
"""

from firmware_bridge.firmware.matrix import Matrix
from firmware_bridge.firmware.wire import (
    ACK,
    COLOURS,
    DELTA,
    DELTA_COPY,
    DICE,
    HELLO,
    LED,
    NACK,
    ROW,
    SNAPSHOT_REQUEST,
    VERSION,
    FrameReader,
    encode_frame,
)

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here
MAX_CHANGES = 16  # per delta frame: a short frame survives a noisy line; a bigger scan takes several versions
DELTA_REPEATS = 24  # copies of the latest delta, one per beat: a lost delta costs one copy, not every row
GREET_BEATS = 10  # after boot and after the host's hello, a hello with each row: on a noisy line one gets through

NACK_BAD_FRAME = 1
NACK_UNSUPPORTED = 2
NACK_OUT_OF_RANGE = 3


def ticks_diff(now: int, then: int) -> int:
    """``time.ticks_diff`` of MicroPython, so the logic runs the same under CPython."""
    half = TICKS_PERIOD // 2
    return (now - then + half) % TICKS_PERIOD - half


class Mcu:
    """``port`` has ``read() -> bytes | None`` (never blocks) and ``write(bytes)``, as ``machine.UART``;
    ``leds`` has ``count``, ``set(index, colour)`` and ``show()`` (the strip written once per step, however many
    LEDs changed), or is None on a board without LEDs."""

    def __init__(self, port, matrix: Matrix, leds=None, *, scan_ms: int = 5, beat_ms: int = 10) -> None:
        self.port = port
        self.matrix = matrix
        self.leds = leds
        self.scan_ms = scan_ms
        self.beat_ms = beat_ms
        self.reader = FrameReader()
        self.seq = 0
        self.version = 0  # of the board: one more per delta frame, wrapping at 256
        self.host_seq = 255  # the last host seq seen; a damaged frame is refused as the next one
        self._row_bytes = (matrix.ncols + 7) // 8
        self._next_row = 0
        self._repeat = b""  # the latest delta's body
        self._repeats_left = 0
        self._greetings_left = 0
        self._started = False
        self._last_scan = 0
        self._last_beat = 0

    def step(self, now: int) -> None:
        if not self._started:
            self._started = True
            self._last_scan = self._last_beat = now
            self._hello()
        data = self.port.read()
        if data:
            for frame in self.reader.feed(data):
                self._handle(frame)
            if self.leds is not None:
                self.leds.show()
        if ticks_diff(now, self._last_scan) >= self.scan_ms:
            self._last_scan = now
            changes = self.matrix.scan()
            for i in range(0, len(changes), MAX_CHANGES):
                self._send_delta(changes[i:i + MAX_CHANGES])
        if ticks_diff(now, self._last_beat) >= self.beat_ms:
            self._last_beat = now
            self._send_row(self._next_row)
            self._next_row = (self._next_row + 1) % self.matrix.nrows
            if self._repeats_left:
                self._repeats_left -= 1
                self._send(DELTA_COPY, self._repeat)
            if self._greetings_left:
                self._greetings_left -= 1
                self._send_hello()

    def _handle(self, frame: tuple[int, int, bytes] | None) -> None:
        if frame is None:
            self._send(NACK, bytes([(self.host_seq + 1) & 0xFF, NACK_BAD_FRAME]))
            return
        kind, seq, body = frame
        self.host_seq = seq
        if kind == HELLO:
            self._hello()
        elif kind == SNAPSHOT_REQUEST:
            for r in range(self.matrix.nrows):
                self._send_row(r)
        elif kind == LED:
            index, colour = body[0] << 8 | body[1], body[2]
            if self.leds is None:
                self._send(NACK, bytes([seq, NACK_UNSUPPORTED]))
            elif index >= self.leds.count or colour >= COLOURS:
                self._send(NACK, bytes([seq, NACK_OUT_OF_RANGE]))
            else:
                self.leds.set(index, colour)
                self._send(ACK, bytes([seq]))
        elif kind == DICE:
            self._send(NACK, bytes([seq, NACK_UNSUPPORTED]))  # this board has no dice display
        # ACK and NACK from the host need no answer

    def _hello(self) -> None:
        self._send_hello()
        self._greetings_left = GREET_BEATS

    def _send_hello(self) -> None:
        self._send(HELLO, bytes([VERSION, self.matrix.nrows, self.matrix.ncols]))

    def _send_row(self, r: int) -> None:
        mask = self.matrix.stable[r]
        self._send(ROW, bytes([self.version, r]) + bytes([mask >> 8 * i & 0xFF for i in range(self._row_bytes)]))

    def _send_delta(self, changes: list[tuple[int, int, bool]]) -> None:
        self.version = (self.version + 1) & 0xFF
        body = bytearray([self.version])
        for r, c, closed in changes:
            body.extend(bytes([r, c, 1 if closed else 0]))
        self._repeat = bytes(body)
        self._repeats_left = DELTA_REPEATS
        self._send(DELTA, self._repeat)

    def _send(self, kind: int, body: bytes) -> None:
        self.port.write(encode_frame(kind, self.seq, body))
        self.seq = (self.seq + 1) & 0xFF
