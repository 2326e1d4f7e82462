"""One journal, two copies: the far table's lines applied exactly once, in seq order (pure: no network).

A broker delivers QoS 1 messages at least once, and after a reconnect a table asks for what it missed and may get
some of it twice; lines may come in any order. ``Sync`` turns that into the one sequence the journal needs: each
seq handed on once, in order; a line after a gap held back until the gap is filled (``missing`` and ``next_seq``
say what to ask for). The table's own lines go through ``local`` so that both kinds share one seq space.

A seq already applied that comes again with another content is a replay of a forged history or a fork (both
tables wrote the same seq): the game can no longer be one game, so ``Sync`` stops with one clear line
(``ForkError``). After each far line is applied, the caller's ``same_state`` compares its own state with the
``state`` the far table journaled; a difference (another engine version, a bug, a tampered table) stops play too
(``StateMismatch``). Once stopped, every later call raises the same error: nothing more is applied.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from controller.remote.lines import canonical

Line = dict[str, Any]


class SyncStopped(Exception):
    """Play must stop: ``str()`` is the one line both tables show."""


class ForkError(SyncStopped):
    """Two different lines for one seq: a replayed or forged history, or both tables moved at once."""


class StateMismatch(SyncStopped):
    """After a far line, this table's state differs from the one the far table journaled."""


def _digest(line: Mapping[str, Any]) -> bytes:
    return hashlib.sha256(canonical(line)).digest()


class Sync:
    """Orders lines for one table. ``apply(line)`` applies a far line to the table's game and journal (False: it
    could not, and the line stays due);
    ``same_state(state)`` says whether the table's state now equals ``state`` (the far table's, after that line).

    ``applied``: the lines already in this table's journal (a table restarted from its journal), in seq order.
    ``ready()`` says whether the table can take the next far line now (its players may still be moving the
    pieces of the last one): a line due while it cannot waits for ``drain``.
    """

    def __init__(self, apply: Callable[[Line], bool | None], same_state: Callable[[Mapping[str, Any]], bool],
                 applied: Iterable[Mapping[str, Any]] = (), ready: Callable[[Line], bool] = lambda line: True) -> None:
        self._apply = apply
        self._same_state = same_state
        self._ready = ready
        self._seen: list[bytes] = []  # digest of the line at each applied seq (index seq - 1): forks are found
        self._pending: dict[int, Line] = {}
        self.stopped: SyncStopped | None = None
        for line in applied:
            if line["seq"] != self.next_seq:
                raise ValueError(f"applied lines must start at 1 and follow each other; got seq {line['seq']} "
                                 f"where {self.next_seq} was due")
            self._seen.append(_digest(line))

    @property
    def next_seq(self) -> int:
        """The seq the journal needs next: after a reconnect, ask the far table for its lines from here on."""
        return len(self._seen) + 1

    def missing(self) -> list[int]:
        """Seqs not yet here although a later one is: the gaps to ask for again."""
        if not self._pending:
            return []
        return [s for s in range(self.next_seq, max(self._pending)) if s not in self._pending]

    @property
    def waiting(self) -> int:
        """How many lines are held back behind a gap."""
        return len(self._pending)

    def offer(self, line: Line) -> list[Line]:
        """Take a far line (in any order, perhaps again); returns the lines applied now, in seq order: none for a
        duplicate or a line after a gap, several when this one filled a gap."""
        self._check_running()
        seq = line["seq"]
        if seq < self.next_seq:
            self._same_as_applied(line)
            return []
        held = self._pending.get(seq)
        if held is not None:
            if _digest(held) != _digest(line):
                self._stop(ForkError(f"seq {seq}: two different lines arrived ({held['move']!r} and "
                                     f"{line['move']!r}): a forged or forked history"))
            return []
        self._pending[seq] = line
        return self._drain()

    def local(self, line: Mapping[str, Any]) -> list[Line]:
        """Record a line this table journaled itself (it must be the next seq: the table applies far lines and
        journals its own on one thread); returns far lines this unblocked (held back behind it), applied now. If
        the far table journaled another line at this seq (both moved at once), its line arrives later and
        ``offer`` finds the fork."""
        self._check_running()
        seq = line["seq"]
        if seq != self.next_seq:
            raise ValueError(f"own line seq {seq}, but seq {self.next_seq} is due")
        held = self._pending.pop(seq, None)  # the far table's line for this seq, here but not yet applied
        self._seen.append(_digest(line))
        if held is not None and _digest(held) != _digest(line):
            self._stop(ForkError(f"seq {seq}: both tables moved at once ({held['move']!r} there, {line['move']!r} "
                                 f"here)"))
        return self._drain()

    def drain(self) -> list[Line]:
        """Apply the lines that wait for the table to be ready, if it is now; returns those applied."""
        self._check_running()
        return self._drain()

    @property
    def due(self) -> Line | None:
        """The far line due next, if it is here (waiting for the table to be ready)."""
        return self._pending.get(self.next_seq)

    def _drain(self) -> list[Line]:
        done: list[Line] = []
        while self.next_seq in self._pending and self._ready(self._pending[self.next_seq]):
            line = self._pending[self.next_seq]
            if self._apply(line) is False:
                break  # not applied (the table could not save it): it stays due
            del self._pending[line["seq"]]
            self._seen.append(_digest(line))
            done.append(line)
            if not self._same_state(line["state"]):
                self._stop(StateMismatch(f"seq {line['seq']} ({line['player']}: {line['move']}): this table's "
                                         f"state differs from the far table's"))
        return done

    def _same_as_applied(self, line: Line) -> None:
        if _digest(line) != self._seen[line["seq"] - 1]:
            self._stop(ForkError(f"seq {line['seq']} ({line['move']!r}) differs from the line already applied "
                                 f"there: a replayed or forked history"))

    def _check_running(self) -> None:
        if self.stopped is not None:
            raise self.stopped

    def _stop(self, error: SyncStopped) -> None:
        self.stopped = error
        self._pending.clear()
        raise error
