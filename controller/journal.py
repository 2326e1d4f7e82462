"""The game journal: JSON Lines, one fsynced line per applied move, replayable and resumable.

Format (DESIGN.md): a header ``{"game", "options", "seed"?, "seats"?, "started"}``, then one line per applied move
``{"seq", "player", "move", "state"}`` where ``move`` is the engine notation and ``state`` is
``to_json()`` after it (and ``"entered": true`` on a chance outcome the players keyed in from their own
dice or spinner). A roll is written (and fsynced) before it is shown, so a power cut never
re-rolls a die. A takeback is journaled too, as ``"move": "undo"`` with the restored state: the file is
append-only, so nothing already written is ever rewritten.

The table also writes notes between move lines, ``{"note", "after"}`` (``after``: the seq of the last move
line): what the players told the table that is no move, such as a sensor they said to ignore. Notes are
kept in ``Contents.notes`` and take no part in replay.

A power cut can tear the last line, and only the last: the bytes after the last newline (a line whose
newline never reached the disk), or a tail of NUL bytes (the file grew but its data block never came).
Reading drops exactly that (and cuts it off the file before appending). A complete line is never torn:
its newline was written after it, and it may have been fsynced and shown, so one that does not parse or
does not follow from the line before is damage, an error naming the line (``JournalError.line``) and
never a reason to play on without it (that would re-roll a die already shown).
"""

from __future__ import annotations

import errno
import json
import logging
import os
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engines.base import GameState, Hidden, Move, Rolled, TableDecisions
from engines.registry import get_game

log = logging.getLogger(__name__)
UNDO = "undo"
RECENT = 8  # the last lines a journal keeps in memory, for the views


class JournalError(ValueError):
    """The journal cannot be trusted; the message names the file and line, and ``line`` carries the
    number (1 = the header) so a screen can name it too; ``None`` when no one line is to blame."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class JournalWriteError(OSError):
    """A line could not be saved (disk full, read-only storage); nothing of it was left in the file."""

    @property
    def notice(self) -> str:
        """What the screen says, short enough for one OLED line."""
        reason = {errno.ENOSPC: "disk full", errno.EROFS: "read-only", errno.EACCES: "no access"}
        return f"NOT SAVED: {reason.get(self.errno or 0, 'storage error')}"


@dataclass
class Entry:
    seq: int
    player: str
    move: str
    state: dict[str, Any]
    entered: bool = False  # a chance outcome the players keyed in from their own dice or spinner

    def line(self) -> dict[str, Any]:
        """The line as the journal holds it (what a far table is sent, and compares byte for byte)."""
        line = {"seq": self.seq, "player": self.player, "move": self.move, "state": self.state}
        return {**line, "entered": True} if self.entered else line


@dataclass
class Contents:
    header: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)  # (after seq, text)
    torn: bool = False  # a torn last line was dropped
    good_bytes: int = 0  # length of the trustworthy prefix of the file

    @property
    def finished(self) -> bool:
        """A winner, or several sharing the win (``winners``: games where a win can be shared)."""
        if not self.entries:
            return False
        last = self.entries[-1].state
        return last.get("winner") is not None or bool(last.get("winners"))


def read(path: Path) -> Contents:
    """Parse a journal, dropping only a torn tail (see the module docstring); ``JournalError`` for
    anything else."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise JournalError(f"{path}: cannot read: {e.strerror}") from None
    good = data.rstrip(b"\0").rfind(b"\n") + 1  # end of the last complete line
    parsed: list[tuple[int, Any]] = []
    for i, raw in enumerate(data[:good].split(b"\n")[:-1], start=1):
        if not raw.strip():
            raise JournalError(f"{path}:{i}: empty line", i)
        try:
            parsed.append((i, json.loads(raw)))
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise JournalError(f"{path}:{i}: not JSON, the line is damaged ({e})", i) from None
    if not parsed:
        raise JournalError(f"{path}: no header line", 1)
    header = _header(path, parsed[0][1])
    contents = Contents(header, torn=good < len(data), good_bytes=good)
    for i, obj in parsed[1:]:
        if isinstance(obj, dict) and "note" in obj and "seq" not in obj:
            contents.notes.append((len(contents.entries), str(obj["note"])))
            continue
        contents.entries.append(_entry(path, i, obj, len(contents.entries) + 1))
    return contents


def _header(path: Path, obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict) or not isinstance(obj.get("game"), str) or not isinstance(obj.get("options"), dict):
        raise JournalError(f"{path}:1: not a journal header (needs \"game\" and \"options\")", 1)
    try:
        get_game(obj["game"])
    except KeyError as e:
        raise JournalError(f"{path}:1: {e.args[0]}", 1) from None
    return obj


def saved_seats(path: Path) -> dict[str, str]:
    """The bots the game in ``path`` was begun with (seat -> bot kind; empty for people only), read from the
    header alone. ``JournalError`` when the header says something else there: the caller reports it and
    plays on with people, for a game must never be lost over who plays it."""
    try:
        with path.open("rb") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError) as e:
        raise JournalError(f"{path}:1: header unreadable ({e})", 1) from None
    seats = header.get("seats", {}) if isinstance(header, dict) else {}
    if not (isinstance(seats, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in seats.items())):
        raise JournalError(f"{path}:1: \"seats\" must map each seat to a bot kind, got {seats!r}", 1)
    return seats


def _entry(path: Path, line: int, obj: Any, expected_seq: int) -> Entry:
    if not isinstance(obj, dict):
        raise JournalError(f"{path}:{line}: expected an object, got {type(obj).__name__}", line)
    missing = [k for k in ("seq", "player", "move", "state") if k not in obj]
    if missing:
        raise JournalError(f"{path}:{line}: missing {', '.join(missing)}", line)
    if obj["seq"] != expected_seq:
        raise JournalError(f"{path}:{line}: seq {obj['seq']!r}, expected {expected_seq}", line)
    if not isinstance(obj["move"], str) or not isinstance(obj["player"], str) or not isinstance(obj["state"], dict):
        raise JournalError(f"{path}:{line}: move and player must be strings, state an object", line)
    return Entry(obj["seq"], obj["player"], obj["move"], obj["state"], obj.get("entered") is True)


def replay(contents: Contents, path: Path | None = None, private: Mapping[int, str] | None = None
           ) -> list[GameState]:
    """Re-apply every move from the header's new game, checking each recorded state; returns the states
    after each line (index 0 = the new game). An undo line restores the state before the last step.

    ``private``: a journal of a game shared with a far table (``engines.base.Hidden``), which holds what every seat
    may know; ``private`` holds this table's own hidden moves by seq (may be none), each replacing its line's
    announcement, and each recorded state is compared with the position as every seat may know it (``public()``)."""
    where = str(path or "journal")
    info = get_game(contents.header["game"])
    try:
        state = info.new_game(**contents.header["options"])
    except (TypeError, ValueError) as e:
        raise JournalError(f"{where}:1: bad options: {e}", 1) from None
    states = [state.clone()]
    undo_stack: list[GameState] = []
    for line, entry in enumerate(contents.entries, start=2):
        signers = _signers(state)
        if signers and entry.player not in signers:  # none when over: the move itself is refused below
            raise JournalError(f"{where}:{line}: player {entry.player!r}, expected {' or '.join(map(repr, signers))}",
                               line)
        if entry.move == UNDO:
            if not undo_stack:
                raise JournalError(f"{where}:{line}: undo with nothing to take back", line)
            state = undo_stack.pop()
        else:
            try:
                move = state.parse_move(entry.move)
                if private is not None and entry.seq in private:
                    move = _private(state, move, private[entry.seq], f"{where}:{line}")
            except ValueError as e:
                raise JournalError(f"{where}:{line}: {e}", line) from None
            if state.is_chance():
                undo_stack.clear()  # a roll: steps before it can no longer be taken back
            else:
                undo_stack.append(state.clone())
            state.apply(move)
        shown = state.public() if private is not None and isinstance(state, Hidden) else state
        if shown.to_json() != entry.state:
            raise JournalError(f"{where}:{line}: recorded state differs from the replayed one after {entry.move}",
                               line)
        states.append(state.clone())
    return states


def _private(state: GameState, said: Move, kept: str, where: str) -> Move:
    """The table's own hidden move for a line, if it is one the line announces; else the line's own (the secret
    file and the journal disagree: the log says so, and the seat's secret is unknown here from now on)."""
    try:
        move = state.parse_move(kept)
    except ValueError as e:
        log.warning("%s: the secret kept for this line is not a move here (%s); playing on without it", where, e)
        return said
    if not isinstance(state, Hidden) or state.announce(move) != said:
        log.warning("%s: the secret kept for this line (%s) is not what the line says; playing on without it",
                    where, kept)
        return said
    return move


def _signers(state: GameState) -> tuple[str, ...]:
    """Who may sign the line that follows ``state``: the player to move, or for a chance outcome
    ``"chance"`` -- or the seat whose roll it is, where the engine names one (``Rolled``: the Hannibal flow
    signs a roll, and a takeback at the roll prompt, with that seat). A game whose table records events
    itself (``TableDecisions``: Factional Hannibal's ledger) also accepts ``"table"``."""
    if not state.is_chance():
        signers: tuple[str, ...] = (state.current_player,) if state.current_player is not None else ()
        if isinstance(state, TableDecisions) and not state.is_over():
            signers += ("table",)
        return signers
    roller = state.roller() if isinstance(state, Rolled) else None
    return ("chance", roller) if roller is not None else ("chance",)


class Journal:
    """Appends lines durably. Open with ``create`` for a new game or ``resume`` for an unfinished one."""

    def __init__(self, path: Path, header: dict[str, Any], seq: int, recent: list[Entry] | None = None) -> None:
        self.path = path
        self.header = header
        self.seq = seq
        # the last lines written (seq, player, move), for the views' list of the last moves
        self.recent: deque[tuple[int, str, str]] = deque(((e.seq, e.player, e.move) for e in recent or ()),
                                                         maxlen=RECENT)
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)
        # told of each move line once it is on disk (remote play publishes the table's own lines)
        self.listeners: list[Callable[[dict[str, Any]], None]] = []

    @classmethod
    def create(cls, path: Path, game: str, options: Mapping[str, Any], seed: int | None = None,
               seats: Mapping[str, str] | None = None) -> Journal:
        """``seats``: the bot kind of each seat the real table plays itself, kept so that a game resumed
        after a power cut is played by the same bots (the service restarts without ``--seat``)."""
        header: dict[str, Any] = {"game": game, "options": dict(options)}
        if seed is not None:
            header["seed"] = seed
        if seats:
            header["seats"] = dict(seats)
        header["started"] = datetime.now(UTC).isoformat(timespec="seconds")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("wb") as f:
            f.write(_line(header))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # a header is never half there
        _fsync_dir(path.parent)
        return cls(path, header, 0)

    @classmethod
    def resume(cls, path: Path, contents: Contents) -> Journal:
        if contents.torn:
            with path.open("r+b") as f:
                f.truncate(contents.good_bytes)
                f.flush()
                os.fsync(f.fileno())
        return cls(path, contents.header, len(contents.entries), contents.entries[-RECENT:])

    def append(self, player: str, move: str, state: Mapping[str, Any], *, entered: bool = False) -> None:
        """Write and fsync one line; only after this returns may its effect be shown. ``entered``: a chance
        outcome the players keyed in from their own dice or spinner (the line says ``"entered": true``).

        On failure the partial line is cut off again and ``JournalWriteError`` raised: the caller shows the
        problem and applies nothing. The next append reopens the file, so storage that comes back (space
        freed, remounted read-write) is used again without a restart.
        """
        line = {"seq": self.seq + 1, "player": player, "move": move, "state": state}
        if entered:
            line["entered"] = True
        self._write(_line(line))
        self.recent.append((self.seq + 1, player, move))
        self.seq += 1
        for listener in self.listeners:
            listener(line)

    def note(self, text: str) -> None:
        """Write and fsync a note after the last move line (``JournalWriteError`` if it cannot be saved)."""
        self._write(_line({"note": text, "after": self.seq}))

    def _write(self, data: bytes) -> None:
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            start = os.lseek(self._fd, 0, os.SEEK_END)
            written = 0
            try:
                while written < len(data):
                    written += os.write(self._fd, data[written:])
                os.fsync(self._fd)
            except OSError:
                self._cut(start)
                raise
        except OSError as e:
            raise JournalWriteError(e.errno, f"{self.path}: cannot save the game: {e.strerror or e}") from e

    def _cut(self, size: int) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, size)
        except OSError:
            pass  # the torn tail is dropped when the journal is next read
        finally:
            os.close(fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _line(obj: Mapping[str, Any]) -> bytes:
    return (json.dumps(obj, separators=(",", ":")) + "\n").encode()


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
