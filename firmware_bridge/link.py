"""The host's end of the serial link to the board's MCU: handshake, acks and retries, liveness, reconnect,
and resynchronisation from the board's rows.

A reader thread only moves bytes from the port into a buffer. Everything else happens in ``poll(now)``,
called from the table's single-consumer loop with the table's clock, so a fake clock drives every timeout
and a test replays to the tick.

The rule that keeps a bad line out of the game is the board *version* every MCU frame about the board
carries (``firmware_bridge.board``): the host's cells move only along versions it can prove, by the next
delta or one of its copies, or by rows that rebuild the newest version. Until they do, the host is
*unsure* (``SYNCING``); after ``catch_up_s`` of that it asks for every row at once, and asks again until
it is in step. So a lost delta becomes the right change a little late, never a phantom and never a missed
move. A damaged frame alone changes nothing: if it was a delta, the next row says so.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import serial

from firmware_bridge.board import BoardView, Cell, Update
from firmware_bridge.codec import (
    ACK,
    DELTA,
    DELTA_COPY,
    HELLO,
    NACK,
    ROW,
    SNAPSHOT_REQUEST,
    VERSION,
    Decoder,
    Frame,
    FrameError,
    delta_fields,
    encode,
    row_fields,
)
from firmware_bridge.recorder import Recorder

log = logging.getLogger("boardkeeper.bridge")

Port = Any  # a pyserial ``Serial`` (or any object with its read/write/in_waiting/close)
READ_TIMEOUT_S = 0.05  # how long the reader blocks before it looks at its stop flag


def serial_opener(url: str, baud: int) -> Callable[[], Port]:
    """How to (re)open the port named in the profile: ``/dev/ttyACM0``, ``/dev/serial0``, a pty, any
    pyserial URL. Failing to open is an ``OSError`` (pyserial's ``SerialException`` is one)."""

    def open_port() -> Port:
        return serial.serial_for_url(url, baudrate=baud, timeout=READ_TIMEOUT_S)

    return open_port


class Status(Enum):
    OFFLINE = "offline"  # no port: unplugged, or waiting to reconnect
    CONNECTING = "connecting"  # port open, waiting for the MCU's hello
    SYNCING = "syncing"  # the host is unsure of the board until it holds every row of one version
    UP = "up"  # in step: deltas apply
    INCOMPATIBLE = "incompatible"  # the MCU speaks another protocol version or has another matrix


@dataclass
class Stats:
    bytes_in: int = 0
    bytes_out: int = 0
    frames_in: int = 0
    frames_out: int = 0
    damaged: int = 0
    lost: int = 0  # deltas lost on the line with every copy: the board rebuilt from rows
    caught_up: int = 0  # deltas lost on the line and taken from one of their copies
    resyncs: int = 0
    retries: int = 0
    drops: int = 0  # times the link was given up (read error, silence, no answer)
    reconnects: int = 0  # times it came back in step after a drop
    presses_dropped: int = 0  # buttons pressed while the board could not be read (counted by the table's guard)
    greetings: int = 0  # hellos accepted: each may be a rebooted MCU, which has forgotten every command


@dataclass
class _Pending:
    frame: Frame
    reply: int  # the message type that answers it: ACK, HELLO, or ROW (a snapshot request: the board in step)
    first_sent: float
    sent_at: float
    key: object = None  # a later command with the same key supersedes it (one LED's colour)


class _Reader(threading.Thread):
    """Moves bytes from the port to ``sink``, nothing else; a read error ends it and is kept for ``poll``."""

    def __init__(self, port: Port, sink: Callable[[bytes], None]) -> None:
        super().__init__(name="bridge-reader", daemon=True)
        self.port = port
        self.sink = sink
        self.error: Exception | None = None
        self.stopping = False

    def run(self) -> None:
        try:
            while not self.stopping:
                data = self.port.read(self.port.in_waiting or 1)
                if data:
                    self.sink(data)
        except Exception as e:  # SerialException, OSError, or pyserial tripping over a port closed under it
            if not self.stopping:
                self.error = e

    def stop(self) -> None:
        self.stopping = True
        cancel = getattr(self.port, "cancel_read", None)
        if cancel is not None:
            cancel()
        self.join(timeout=1.0)


class Link:
    """One board over one serial port. ``poll(now)`` returns the cell changes the host is sure of, as
    ``((row, col), closed)``; nothing comes while the link is down or unsure."""

    def __init__(self, open_port: Callable[[], Port], rows: int, cols: int, *, retry_s: float = 0.1,
                 give_up_s: float = 5.0, dead_s: float = 0.3, silent_s: float = 5.0, catch_up_s: float = 0.1,
                 backoff_s: tuple[float, float] = (0.05, 2.0), grace_s: float = 0.5,
                 recorder: Recorder | None = None) -> None:
        self._open_port = open_port
        self.rows = rows
        self.cols = cols
        self.retry_s = retry_s
        self.give_up_s = give_up_s  # a command (LED, dice) unacknowledged this long is dropped with a warning
        self.dead_s = dead_s  # not one byte for this long: the line is dead (the MCU sends a row every 10 ms)
        self.silent_s = silent_s  # bytes but no valid frame for this long: not our board, or a hopeless line
        self.catch_up_s = catch_up_s  # unsure this long (no copy of a lost delta came): ask for every row
        self.backoff_s = backoff_s
        self.grace_s = grace_s
        self.recorder = recorder or Recorder()
        self.stats = Stats()
        self.status = Status.OFFLINE
        self.problem = ""  # why the link is not up, for the log and the screen
        self.board = BoardView(rows, cols)
        self._row_bytes = (cols + 7) // 8
        self._port: Port | None = None
        self._reader: _Reader | None = None
        self._lock = threading.Lock()
        self._inbox = bytearray()
        self._decoder = Decoder()
        self._pending: dict[int, _Pending] = {}
        self._tx_seq = 0
        self._now = 0.0
        self._last_byte = 0.0
        self._last_rx = 0.0
        self._retry_at = 0.0
        self._backoff = backoff_s[0]
        self._unsure_since: float | None = None
        self._dropped = False

    # -- what the controller uses -----------------------------------------------------------------------

    @property
    def sure(self) -> bool:
        return self.status is Status.UP

    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def closed(self) -> set[Cell]:
        """The cells last reported closed."""
        return self.board.closed

    def in_trouble(self, now: float) -> bool:
        """Unsure for longer than a resync takes, or the link given up: the players must be told, and the
        game waits."""
        if self.status is Status.UP:
            return False
        if self._unsure_since is None:
            self._unsure_since = now
        return self.status is Status.INCOMPATIBLE or self._dropped or now - self._unsure_since >= self.grace_s

    def poll(self, now: float) -> list[tuple[Cell, bool]]:
        self._now = now
        if self._port is None:
            if now >= self._retry_at:
                self._connect(now)
            return []
        reader = self._reader
        if reader is not None and reader.error is not None:
            self._drop(now, f"read failed ({reader.error})")
            return []
        with self._lock:
            data = bytes(self._inbox)
            self._inbox.clear()
        if data:
            self._last_byte = now
        changes: list[tuple[Cell, bool]] = []
        for item in self._decoder.feed(data):
            if isinstance(item, FrameError):
                self._damaged(now, str(item))
            else:
                changes += self._receive(item, now)
            if self._port is None:
                return changes
        if self.status is Status.SYNCING and self._unsure_since is not None \
                and now - self._unsure_since >= self.catch_up_s:
            self._ask_for_rows(now)
        self._retry(now)
        if self._port is None:
            return changes
        if now - self._last_byte >= self.dead_s:
            self._drop(now, f"nothing from the board for {now - self._last_byte:.1f} s")
        elif now - self._last_rx >= self.silent_s:
            self._drop(now, f"no valid frame from the board for {now - self._last_rx:.1f} s")
        elif self.status is Status.INCOMPATIBLE and now >= self._retry_at:
            self._hello(now)  # a reflashed board answers right
        return changes

    @property
    def unanswered(self) -> int:
        """Commands sent and not yet answered (each is retried until it is, or given up)."""
        return len(self._pending)

    def send(self, kind: int, body: bytes, key: object = None) -> int:
        """A command for the MCU (an LED, the dice), retried until it is acknowledged; returns its seq. An
        unanswered command with the same ``key`` is dropped first: retried after this one, it would undo it."""
        if key is not None:
            for seq in [s for s, p in self._pending.items() if p.key == key]:
                del self._pending[seq]
        seq = self._send(kind, body, ACK)
        self._pending[seq].key = key
        return seq

    def close(self) -> None:
        if self._reader is not None:
            self._reader.stop()
        if self._port is not None:
            self._port.close()
        self._port = self._reader = None
        self.status = Status.OFFLINE

    # -- connection -------------------------------------------------------------------------------------

    def _connect(self, now: float) -> None:
        try:
            port = self._open_port()
        except OSError as e:
            self._retry_at = now + self._backoff
            self._backoff = min(self._backoff * 2, self.backoff_s[1])
            self.problem = f"cannot open the port ({e})"
            self.recorder.note(now, "--", self.problem)
            return
        self._port = port
        self._inbox.clear()
        self._decoder = Decoder()
        self._pending.clear()
        self._last_byte = self._last_rx = now
        self.status = Status.CONNECTING
        self._reader = _Reader(port, self._sink)
        self._reader.start()
        self.recorder.note(now, "--", "port open")
        self._hello(now)

    def _hello(self, now: float) -> None:
        self._retry_at = now + 5.0
        self._send(HELLO, bytes([VERSION, self.rows, self.cols]), HELLO)

    def _sink(self, data: bytes) -> None:
        with self._lock:
            self._inbox += data
            self.stats.bytes_in += len(data)

    def _drop(self, now: float, reason: str) -> None:
        """Give the link up: close the port and try again after the backoff, which doubles up to its cap."""
        self.stats.drops += 1
        self.problem = f"board link lost: {reason}"
        log.warning("%s; reconnecting in %.2f s", self.problem, self._backoff)
        self.recorder.dump(self.problem)
        self.close()
        self._become_unsure(now)
        self._dropped = True
        self._retry_at = now + self._backoff
        self._backoff = min(self._backoff * 2, self.backoff_s[1])

    def _become_unsure(self, now: float) -> None:
        if self._unsure_since is None:
            self._unsure_since = now

    # -- frames in --------------------------------------------------------------------------------------

    def _receive(self, frame: Frame, now: float) -> list[tuple[Cell, bool]]:
        self._last_rx = now
        self.stats.frames_in += 1
        self.recorder.note(now, "in", f"{frame.name} seq {frame.seq} {frame.body.hex(' ')}")
        if frame.type == HELLO:
            self._on_hello(frame, now)
            return []
        if self.status not in (Status.SYNCING, Status.UP):
            return []  # nothing counts before a good hello
        if frame.type == ROW:
            version, row, mask = row_fields(frame.body)
            if row >= self.rows or len(frame.body) != 2 + self._row_bytes or mask >> self.cols:
                self._damaged(now, f"row {row} of {len(frame.body) - 2} bytes does not fit a {self.rows}x{self.cols} "
                                   f"matrix")
                return []
            return self._update(now, self.board.row(version, row, mask))
        if frame.type in (DELTA, DELTA_COPY):
            version, cells = delta_fields(frame.body)
            if any(r >= self.rows or c >= self.cols for r, c, _ in cells):
                self._damaged(now, f"{frame.name} names a cell outside the {self.rows}x{self.cols} matrix")
                return []
            return self._update(now, self.board.delta(version, cells, copy=frame.type == DELTA_COPY))
        if frame.type == ACK:
            self._answered(frame.body[0], ACK)
        elif frame.type == NACK:
            self._on_nack(frame, now)
        else:
            self.recorder.note(now, "--", f"unexpected {frame.name} from the board, ignored")
        return []

    def _on_hello(self, frame: Frame, now: float) -> None:
        version, rows, cols = frame.body
        if version != VERSION or (rows, cols) != (self.rows, self.cols):
            self.problem = (f"board firmware speaks protocol {version}, the host {VERSION}: flash the matching "
                            f"firmware" if version != VERSION else
                            f"the board reports a {rows}x{cols} matrix, the profile {self.rows}x{self.cols}")
            if self.status is not Status.INCOMPATIBLE:
                log.error("board link: %s", self.problem)
            self.status = Status.INCOMPATIBLE
            self._pending.clear()
            self._retry_at = now + 5.0
            return
        self._answered(None, HELLO)
        self.stats.greetings += 1
        self.board.forget()  # a hello may be a rebooted MCU, whose versions start again
        self._unsure(now, "hello")
        self._ask_for_rows(now)

    def _update(self, now: float, update: Update) -> list[tuple[Cell, bool]]:
        if update.how == "copy":
            self.stats.caught_up += 1
        elif update.how == "rows":
            self.stats.lost += 1
            self.recorder.dump("a change was lost on the line, its delta and every copy: board rebuilt from rows")
        if self.board.in_step:
            if self.status is not Status.UP:
                self._in_step()
        elif self.status is Status.UP:
            self._unsure(now, f"version {self.board.newest} heard, the host's board is {self.board.version}")
        return update.changes

    def _in_step(self) -> None:
        self._answered(None, ROW)
        self.status = Status.UP
        self._unsure_since = None
        self._backoff = self.backoff_s[0]
        if self._dropped:
            self._dropped = False
            self.stats.reconnects += 1
            log.warning("board link back: in step again")

    def _on_nack(self, frame: Frame, now: float) -> None:
        seq, reason = frame.body
        pending = self._pending.get(seq)
        if reason != 1 and pending is not None:  # refused for what it says: retrying cannot help
            del self._pending[seq]
            log.warning("board refused %s (reason %d)", pending.frame.name, reason)
            return
        for item in self._pending.values():  # it reached the board damaged: send again at once
            item.sent_at = now - self.retry_s

    def _damaged(self, now: float, reason: str) -> None:
        """Counted and recorded, nothing more: whether it was a delta, the next row's version tells."""
        self.stats.damaged += 1
        self.recorder.note(now, "in", f"damaged: {reason}")

    def _unsure(self, now: float, reason: str) -> None:
        """Not in step with the board: no change is reported until its versions say where it is."""
        if self.status is Status.UP:
            self.stats.resyncs += 1
        self.status = Status.SYNCING
        self._become_unsure(now)
        self.recorder.note(now, "--", f"unsure: {reason}")

    def _ask_for_rows(self, now: float) -> None:
        """Every row at once, asked again each ``retry_s`` until the board is in step (the rows sent every
        10 ms fill in whatever a noisy line loses meanwhile)."""
        if not any(p.reply == ROW for p in self._pending.values()):
            self._send(SNAPSHOT_REQUEST, b"", ROW)

    # -- frames out -------------------------------------------------------------------------------------

    def _send(self, kind: int, body: bytes, reply: int) -> int:
        seq = self._tx_seq
        self._tx_seq = (seq + 1) % 256
        frame = Frame(kind, seq, body)
        self._pending[seq] = _Pending(frame, reply, self._now, self._now)
        self._write(frame)
        return seq

    def _write(self, frame: Frame) -> None:
        if self._port is None:
            return
        wire = encode(frame)
        self.recorder.note(self._now, "out", f"{frame.name} seq {frame.seq} {frame.body.hex(' ')}")
        try:
            self._port.write(wire)
        except OSError as e:
            self._drop(self._now, f"write failed ({e})")
            return
        self.stats.bytes_out += len(wire)
        self.stats.frames_out += 1

    def _answered(self, seq: int | None, reply: int) -> None:
        for s in [s for s, p in self._pending.items() if p.reply == reply and (seq is None or s == seq)]:
            del self._pending[s]

    def _retry(self, now: float) -> None:
        """Every request again each ``retry_s`` until answered: the hello and the snapshot request for as long
        as the board is there (a noisy line takes its time), a command until ``give_up_s``."""
        for seq, item in list(self._pending.items()):
            if now - item.sent_at < self.retry_s - 1e-9:
                continue
            if item.reply == ACK and now - item.first_sent >= self.give_up_s - 1e-9:
                del self._pending[seq]
                log.warning("board did not acknowledge %s seq %d in %.1f s: given up", item.frame.name, seq,
                            now - item.first_sent)
                continue
            item.sent_at = now
            self.stats.retries += 1
            self._write(item.frame)
            if self._port is None:
                return
