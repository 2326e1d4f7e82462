"""Sealed choices: a seat's secret decision kept face down until every seat of that decision has made its own.

Scipio's armies organise, and place each phase's cards, at once and in secret (``engines.base.Simultaneous``);
the engine asks Rome, then Carthage. At one table the other army looks away. At two tables, neither table may
learn the far army's choice before its own is fixed, and neither may change its own once it has seen the far one.

So each table *seals* its own seat's choice before sending anything about it: the choice and a random salt are
written to the seal file beside the journal (fsynced), and only ``sha256(code, seq, seat, move, salt)`` goes out
(a ``seal`` message). The salt makes the seal unguessable although there are few choices. Once a table holds
the seals of every seat of the decision, its own choice is journaled as the line its seq names, and that line
goes out as usual, with its salt. The far table checks the line against the seal before it applies it. A line
that does not open its seal stops play.

A table that plays a later seat (Carthage) decides first on a *stand-in* position. That is the real one with a
placeholder for the earlier far seat's choice, which a later seat's choices never depend on. The
ledger shows the flow that position (``view``) and hands the choice here (``hold``). Nothing of a stand-in is
ever journaled.

The seal file also makes a power cut harmless: a choice sealed before the cut is the same choice after it, and
its salt still opens its seal. The flow never asks the seat again. The far table's seals are written there too
before they count, so a far choice cannot be changed by sending another seal after this table restarted; a
line already journaled was checked against its seal, and counts as sealed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from controller.remote.lines import canonical
from controller.remote.sync import SyncStopped
from engines.base import GameState, Move, Simultaneous

log = logging.getLogger("boardkeeper.remote")


class SealBroken(SyncStopped):
    """A far line that does not open the seal its table sent, or two seals for one seq: play stops."""


@dataclass(frozen=True)
class Seal:
    """One of this table's sealed choices: the line ``seq`` it becomes, and every seq of its decision."""

    seq: int
    player: str
    move: str
    salt: str
    seqs: tuple[int, ...]


def digest(code: str, seq: int, player: str, move: str, salt: str) -> str:
    """The seal of a choice: what both tables compute, and all the broker and the far table see before it opens."""
    return hashlib.sha256(canonical({"code": code, "seq": seq, "player": player, "move": move,
                                     "salt": salt})).hexdigest()


def seals_path(journal: Path) -> Path:
    """The seal file of the journal at ``journal``: beside it, never sent."""
    return journal.with_name(journal.name + ".seals")


def _seats(state: GameState) -> tuple[str, ...]:
    return state.simultaneous() if isinstance(state, Simultaneous) else ()


def _after(state: GameState, move: Move) -> GameState:
    out = state.clone()
    out.apply(move)
    return out


class Sealer:
    """This table's seals and the far table's, for one game.

    ``game`` is the journal header's ``started``, so that a new game in the same journal file never takes the
    last game's seals; ``far`` the seats the far table plays; ``send(seq, player, digest)`` publishes a seal.
    """

    def __init__(self, path: Path, code: str, game: str, far: frozenset[str],
                 send: Callable[[int, str, str], None]) -> None:
        self.path = path
        self.code = code
        self.game = game
        self.far = far
        self.send = send
        self.own: dict[int, Seal] = {}
        self.far_seals: dict[int, tuple[str, str]] = {}
        self._read()
        self._view: tuple[int, int, int, GameState] | None = None  # (id of the real position, seq, seals) -> view

    # -- the ledger's side -----------------------------------------------------------------------------------

    def _shared(self, seats: tuple[str, ...]) -> bool:
        """A decision that needs seals: some of its seats are played here, some at the far table."""
        return bool(seats) and bool(set(seats) & self.far) and not set(seats) <= self.far

    def view(self, real: GameState, seq: int) -> GameState:
        """The position the flow shows and asks about (``seq``: the journal's last). The real one, except within
        a sealed decision: after this table's own sealed choices (which are not journaled yet), and, while a seat
        of this table has still to decide, with a placeholder for each far seat before it."""
        key = (id(real), seq, len(self.own))
        if self._view is not None and self._view[:3] == key:
            return self._view[3]
        seats = _seats(real)
        position = real
        if self._shared(seats):
            for i, seat in enumerate(seats):
                if seat not in self.far:
                    sealed = self.own.get(seq + 1 + i)
                    if sealed is None:
                        break  # this seat decides now
                    position = _after(position, position.parse_move(sealed.move))
                elif all(seq + 1 + j in self.own for j in range(i + 1, len(seats)) if seats[j] not in self.far):
                    break  # every later seat of this table has sealed: the far seat's turn
                else:
                    position = _after(position, position.legal_moves()[0])  # a stand-in: never journaled
        self._view = (*key, position)
        return position

    def hold(self, real: GameState, seq: int, move: Move, player: str) -> tuple[bool, str | None]:
        """Whether ``player``'s ``move`` at the journal's ``seq`` must be held back rather than journaled, and the
        notice if it could not be: a choice of this table's seat in a shared decision is sealed (written here,
        then sent as a seal) until every seat has sealed; then it is journaled as the seq its seal names."""
        if player in self.far:
            return False, None
        seats = _seats(real)
        if self._shared(seats) and player in seats:
            i = seats.index(player)
            sealed = self.own.get(seq + 1 + i)
            if sealed is None:
                return True, self._seal(seq + 1 + i, player, str(move), tuple(range(seq + 1, seq + 1 + len(seats))))
            if i == 0 and self.complete(sealed, seq) and str(move) == sealed.move:
                return False, None
            return True, f"sealed already: {sealed.move}"
        sealed = self.own.get(seq + 1)
        if sealed is not None and sealed.player == player and str(move) != sealed.move:
            return True, f"sealed already: {sealed.move}"
        return False, None

    def due(self, real: GameState, seq: int) -> Move | None:
        """This table's sealed choice that is the next line now (every seat of its decision has sealed, and the
        lines before it are journaled), if there is one."""
        sealed = self.own.get(seq + 1)
        if sealed is None or not self.complete(sealed, seq) or real.current_player != sealed.player:
            return None
        return real.parse_move(sealed.move)

    def complete(self, sealed: Seal, seq: int) -> bool:
        """Every seat of ``sealed``'s decision has sealed (``seq``: the journal's last; a line there was checked
        against its seal when it was applied)."""
        return all(s <= seq or s in self.own or s in self.far_seals for s in sealed.seqs)

    def _seal(self, seq: int, player: str, move: str, seqs: tuple[int, ...]) -> str | None:
        """Write the choice and its salt (fsynced) before its seal goes out: after a power cut the same choice
        opens the same seal. The notice if the file could not be written (nothing was sent)."""
        sealed = Seal(seq, player, move, secrets.token_hex(16), seqs)
        try:
            self._write(asdict(sealed))
        except OSError as e:
            log.error("remote: %s's choice could not be sealed: %s", player, e)
            return f"NOT SAVED: {e.strerror or e}"
        self.own[seq] = sealed
        log.info("remote: %s's choice sealed as line %d; the far table gets its seal only", player, seq)
        self.send(seq, player, self.seal_of(sealed))
        return None

    # -- the link's side -------------------------------------------------------------------------------------

    def seal_of(self, sealed: Seal) -> str:
        return digest(self.code, sealed.seq, sealed.player, sealed.move, sealed.salt)

    def pending(self, seq: int) -> list[tuple[int, str, str]]:
        """This table's seals from ``seq`` on, as sent (seq, player, digest): sent again when the far table asks."""
        own = self.own.copy()  # asked on the MQTT client's thread while the table's may add one
        return [(s.seq, s.player, self.seal_of(s)) for s in sorted(own.values(), key=lambda s: s.seq)
                if max(s.seqs) >= seq]  # every seal of a decision the far table may still need

    def salt_for(self, seq: int) -> str | None:
        """The salt that opens the seal of this table's line ``seq`` (None: not a sealed line)."""
        sealed = self.own.get(seq)
        return sealed.salt if sealed is not None else None

    def far_seal(self, seq: int, player: str, sealed: str) -> None:
        """A seal from the far table: kept until its line comes. Another seal for the same seq is a forked or
        forged history, and so is a seal for a seat this table plays."""
        if player not in self.far:
            raise SealBroken(f"seq {seq}: a seal for {player}, a seat this table plays")
        known = self.far_seals.get(seq)
        if known is not None and known != (player, sealed):
            raise SealBroken(f"seq {seq}: two different seals arrived for {player}'s choice")
        if known is None:
            try:
                self._write({"far": True, "seq": seq, "player": player, "seal": sealed})
            except OSError as e:  # not kept: it does not count, and the far table is asked for it again
                log.error("remote: %s's seal for line %d could not be kept: %s", player, seq, e)
                return
            self.far_seals[seq] = (player, sealed)

    def _needs_seal(self, seq: int) -> bool:
        return seq in self.far_seals or any(seq in s.seqs for s in self.own.values())

    def waits_for_seal(self, line: Mapping[str, Any]) -> bool:
        """A far line of a decision this table sealed a choice of, whose own seal has not come (lost on the way:
        the line waits while the far table is asked again)."""
        return line["seq"] not in self.far_seals and self._needs_seal(line["seq"])

    def check(self, line: Mapping[str, Any], salt: str | None) -> None:
        """A far line due now: it must open the seal its table sent, if it sent one or the line belongs to a
        decision this table sealed a choice of; ``SealBroken`` otherwise."""
        seq = line["seq"]
        known = self.far_seals.get(seq)
        if not self._needs_seal(seq):
            return
        who = f"seq {seq} ({line['player']})"
        if known is None:
            raise SealBroken(f"{who}: a secret choice sent without its seal")
        if salt is None or digest(self.code, seq, line["player"], line["move"], salt) != known[1] \
                or known[0] != line["player"]:
            raise SealBroken(f"{who}: the choice does not open the seal its table sent (changed after sealing)")

    # -- the seal file ---------------------------------------------------------------------------------------

    def _write(self, record: Mapping[str, Any]) -> None:
        """One record, fsynced before it counts."""
        with self.path.open("ab") as f:
            f.write(canonical({"game": self.game, "code": self.code, **record}) + b"\n")
            f.flush()
            os.fsync(f.fileno())

    def _read(self) -> None:
        """This game's seals from the file, this table's and the far table's (another game's left out). A last
        line torn by a power cut is cut off: it was never sent, nor counted, and the next record must not be
        appended to it."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        whole = raw.rfind(b"\n") + 1
        if whole < len(raw):
            log.warning("remote: %s: a seal torn by a power cut, cut off (it was never sent)", self.path)
            os.truncate(self.path, whole)
        for number, text in enumerate(raw[:whole].split(b"\n"), start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
                if obj.get("game") != self.game or obj.get("code") != self.code:
                    continue
                if obj.get("far") is True:
                    self.far_seals[int(obj["seq"])] = (str(obj["player"]), str(obj["seal"]))
                    continue
                sealed = Seal(int(obj["seq"]), str(obj["player"]), str(obj["move"]), str(obj["salt"]),
                              tuple(int(s) for s in obj["seqs"]))
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                log.warning("remote: %s:%d: a seal that cannot be read, left out (%s)", self.path, number, e)
                continue
            self.own[sealed.seq] = sealed
