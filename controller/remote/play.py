"""Remote play at one table: its own journal lines go to the far table, the far table's come in, in order.

The table plays its own seats as always; a far seat's move or roll arrives as the far table's journal line.
Each line this table journals for its own seats is recorded in the ``Sync`` core (one seq space for both
tables) and published. The far table's lines are offered to ``Sync``, which hands them on once, in seq order;
one is applied when the flow can take it (``takes_far``: that seat's turn, this table's board showing the
position), journaled here as this table's copy (``far_line``), and this table's state is then compared with
the ``state`` the far table journaled. A fork (two lines for one seq) or a state that differs stops play: one
line on the screen and in the log, and nothing more is applied or published.

In a game whose seats decide at once in secret (Scipio), this table's choices there are sealed
(``controller.remote.seals``): the ledger holds them back and the seals go out. Each is journaled
(``play_sealed``) once the far table's seals are in, and a far line there must open its seal.

In a game with hidden cards (Hannipe!), this table's secrets stay here and the journal holds what every seat may
know (``controller.remote.dealer``): the ledger hands each hidden move to the dealer, which draws the race's cards
face down with the far table and checks its work at each race's end.

A loop source (``poll``) does all of it on the table's own thread; the MQTT client only queues what it
received. A table restarted from its journal starts ``Sync`` from the lines already there, and answers the far
table's ``want`` from its journal file, so nothing journaled before the restart is lost to the far table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol, get_type_hints, runtime_checkable

from controller.dice import Dice
from controller.events import Event
from controller.journal import JournalError, read
from controller.ledger import Ledger
from controller.remote.dealer import Dealer
from controller.remote.deck import DeckBroken
from controller.remote.lines import Signed, canonical
from controller.remote.presence import LinkStatus
from controller.remote.seals import Sealer, seals_path
from controller.remote.sync import Line, Sync, SyncStopped
from controller.screen import Screen
from controller.table import Table
from engines.base import Hidden, Simultaneous
from engines.registry import GameInfo, load_ref
from hw_config.remote import Remote

log = logging.getLogger("boardkeeper.remote")
ASK_AGAIN_S = 1.0  # a gap in the far table's lines is asked for again at most this often (real seconds)
LINGER_S = 60.0  # a table whose game ended waits this long at most for the far table to have the last line
IDLE_ASK_S = 2.0  # waiting this long (real seconds) for the far seat, the table asks for its lines again


@runtime_checkable
class FarPlay(Protocol):
    """What a flow that can play with a far table offers (``controller.sensed.SensedFlow``)."""

    FAR_PLAY: bool

    @property
    def game(self) -> Any: ...

    def takes_far(self, line: Mapping[str, Any]) -> bool: ...

    def far_line(self, line: Mapping[str, Any]) -> bool: ...

    def wait_far(self, why: str, always: bool = False) -> None: ...

    def far_turn(self) -> bool: ...

    @property
    def far(self) -> frozenset[str]: ...


@runtime_checkable
class HiddenPlay(Protocol):
    """What a flow whose game hides cards from a far table offers besides ``FarPlay``."""

    ledger: Ledger[Any]
    dealer: Any
    dice: Dice  # its generator draws the keys and shuffles too: seeded in a demo, the system's in play

    def play_face_down(self) -> None: ...  # a draw that waited for the far table's share goes on


@runtime_checkable
class SealedPlay(Protocol):
    """What a flow whose seats decide at once in secret offers a far table besides ``FarPlay``."""

    ledger: Ledger[Any]

    def play_sealed(self) -> None: ...  # journal this table's sealed choice if it is the next line now


class Carrier(Protocol):
    """The link to the far table (``controller.remote.link.Link``)."""

    def status(self) -> LinkStatus: ...

    def publish(self, line: Line) -> None: ...

    def take(self, timeout: float = 0.0) -> list[Line]: ...

    far_stop: str | None
    far_seals: list[Signed]
    far_salts: dict[int, str]

    def seal(self, seq: int, player: str, seal: str) -> None: ...

    far_decks: list[dict[str, Any]]

    def deck(self, data: dict[str, Any]) -> None: ...

    def want(self, seq: int) -> None: ...

    def stop(self, seq: int, why: str) -> None: ...

    def close(self, linger_s: float = 0.0) -> None: ...


def journal_lines(path: Path, start: int = 1) -> list[Line]:
    """The move lines of the journal at ``path`` from seq ``start`` on, as the journal's own reader reads them
    (notes left out; a last line the table is still writing is a torn tail, left for the next read)."""
    return [entry.line() for entry in read(path).entries if entry.seq >= start]


class RemotePlay:
    """The table's side of one remote game. ``poll`` is a loop source; ``stopped`` the line that stopped play."""

    def __init__(self, table: Table, link: Carrier, code: str, clock: Callable[[], float] = time.monotonic) -> None:
        flow = table.flow
        if not isinstance(flow, FarPlay) or not flow.FAR_PLAY:
            raise ValueError(f"{table.profile.game} cannot be played with a far table yet")
        self.table = table
        self.flow = flow
        self.journal = journal = table.journal
        self.link = link
        self.code = code  # the game's code on the broker: the screen shows it until a far table is seen
        self.clock = clock
        self.stopped: str | None = None
        self.applied = 0  # far lines applied here
        self._own: list[Line] = []
        self._applying: int | None = None  # the seq of the far line being applied
        self._copy: Mapping[str, Any] | None = None  # the state this table journaled for it
        self._asked = float("-inf")  # when the far table was last asked to fill a gap
        self.sync = Sync(self._apply, self._same_state, applied=journal_lines(journal.path), ready=self._ready)
        self.sealer: Sealer | None = None
        self.dealer: Dealer | None = None
        if isinstance(flow.game, Hidden):
            if not isinstance(flow, HiddenPlay):
                raise ValueError(f"{table.profile.game} cannot hide its cards from a far table yet")
            self.dealer = Dealer(journal.path, str(journal.header.get("started", "")), code, flow.far,
                                 lambda data: self.link.deck(data),
                                 lambda seq, player, seal: self.link.seal(seq, player, seal), flow.dice.rng)
            flow.ledger.hiding = flow.dealer = self.dealer
        if isinstance(flow.game, Simultaneous):
            if not isinstance(flow, SealedPlay):
                raise ValueError(f"{table.profile.game} cannot seal its secret choices for a far table yet")
            self.sealer = Sealer(seals_path(journal.path), code, str(journal.header.get("started", "")),
                                 flow.far, lambda seq, player, seal: self.link.seal(seq, player, seal))
            flow.ledger.sealing = self.sealer
            for seq, player, seal in self.sealer.pending(self.sync.next_seq):  # sealed before a restart, perhaps
                link.seal(seq, player, seal)  # never sent: queued before any line this table journals from now on
        journal.listeners.append(self._journaled)

    def poll(self, now: float) -> list[Event]:
        if self.stopped is not None:
            return []
        if self.link.far_stop is not None:
            self._stop(f"at the far table, {self.link.far_stop}", tell=False)
            return []
        try:
            if self.dealer is not None:
                self.dealer.flush(self.journal.seq)  # the seals of bets journaled here go out before their lines
            while self._own:
                line = self._own.pop(0)
                self.sync.local(line)
                self.link.publish(line)
            lines = self.link.take()
            if self.dealer is not None:
                self._deal()
            if self.sealer is not None:
                while self.link.far_seals:
                    seal = self.link.far_seals.pop(0)
                    self.sealer.far_seal(seal.seq, seal.player, seal.seal)
            for line in lines:
                self.sync.offer(line)
            self.sync.drain()
            if isinstance(self.flow, SealedPlay):
                self.flow.play_sealed()  # every seal of a secret decision is in: this table's choice is journaled
            if self.dealer is not None:
                self._deal()  # what the far line just applied calls for
            status = self.link.status()
            if status.connected and not status.far_online and not status.far_offline:
                self.flow.wait_far(f"code {self.code}", always=True)  # what the far table joins with
            else:
                link = status.text(self.clock())  # the broker's clock is the link's: real time
                self.flow.wait_far(link if link != "connected" else "at the far table")
            real = self.clock()  # the network's time is real time, whatever pace the table's clock keeps
            if self.sync.missing() and real - self._asked >= ASK_AGAIN_S:
                self._asked = real  # a gap: the far table sends its lines again from the first missing one
                self.link.want(self.sync.next_seq)
            elif self._idle() and real - self._asked >= IDLE_ASK_S:
                # nothing came for long while the far seat acts: its line (or its seal) may have been lost on
                # the way (the last of a burst leaves no gap to notice), so ask for it
                self._asked = real
                self.link.want(self.sync.next_seq)
        except SyncStopped as e:
            self._stop(str(e))
        return []

    def _deal(self) -> None:
        """The far table's seals and deck messages to the dealer, then what this table's position calls for sent;
        a draw that waited for a share goes on. ``SyncStopped`` (``DeckBroken``, ``SealBroken``) stops play."""
        dealer, link = self.dealer, self.link
        assert dealer is not None and isinstance(self.flow, HiddenPlay)
        while link.far_seals:
            seal = link.far_seals.pop(0)
            dealer.far_seal(seal.seq, seal.player, seal.seal)
        while link.far_decks:
            try:
                dealer.take(link.far_decks.pop(0))
            except (DeckBroken, KeyError, TypeError, ValueError) as e:
                raise SyncStopped(f"a deck message of the far table does not hold: {e}") from None
        dealer.poll(self.flow.game)
        self.flow.play_face_down()

    def _idle(self) -> bool:
        """The far seat acts and nothing of it is here to apply, or this table's draw waits for the far table's
        share of a card."""
        return (self.flow.far_turn() and self._nothing_due()) or (self.dealer is not None and bool(self.dealer.waiting))

    def _ready(self, line: Line) -> bool:
        """The far line may be applied now: the flow can take it, and a secret choice's seal is here (and, for
        a bet revealed, its salt and the race's cards checked)."""
        return (self.flow.takes_far(line) and (self.sealer is None or not self.sealer.waits_for_seal(line))
                and (self.dealer is None or not self.dealer.waits(line, self.flow.game)))

    def _nothing_due(self) -> bool:
        """No far line is here to apply next, or the one here still waits for its seal."""
        due = self.sync.due
        return due is None or (self.sealer is not None and self.sealer.waits_for_seal(due)) or (
            self.dealer is not None and self.dealer.waits(due, self.flow.game))

    def _journaled(self, line: Line) -> None:
        """This table's copy of the far line being applied is kept for the state check; any other line is this
        table's own, to publish (a draw or a sealed choice may follow a far line at once)."""
        if line["seq"] == self._applying:
            self._copy = line["state"]
        else:
            self._own.append(dict(line))

    def _apply(self, line: Line) -> bool:
        if self.sealer is not None:
            self.sealer.check(line, self.link.far_salts.get(line["seq"]))
        if self.dealer is not None:
            self.dealer.check(line, self.flow.game)
        self._applying, self._copy = line["seq"], None
        try:
            done = self.flow.far_line(line)
        except ValueError as e:  # signed with the game's code, yet no move here: a tampered or broken far table
            raise SyncStopped(f"seq {line['seq']} ({line['player']}: {line['move']}): not a move of this game "
                              f"here ({e})") from None
        finally:
            self._applying = None
        self.applied += done
        return done

    def _same_state(self, state: Mapping[str, Any]) -> bool:
        """This table's state after the far line (as journaled here, whatever followed it at once) is the far
        table's."""
        return self._copy is not None and canonical(self._copy) == canonical(state)

    def _stop(self, why: str, tell: bool = True) -> None:
        """Play cannot go on as one game: say so once, tell the far table (unless it told us), and apply or
        publish nothing more."""
        self.stopped = why
        log.error("remote play stopped: %s", why)
        if tell:
            self.link.stop(self.sync.next_seq, why)
        self.table.loop.set_handler(lambda event: None)  # the flow takes nothing more: no move, no redraw
        self.table.display.show(Screen("Remote play stopped", (why,), footer="game saved"))


def shares(info: GameInfo) -> bool:
    """Whether the game's flow can play with a far table (its ``FAR_PLAY``), asked before a table is built: the
    flow's class is read off the return type of the registry's flow factory."""
    if info.flow is None:
        return False
    flow = get_type_hints(load_ref(info.flow)).get("return")
    return bool(getattr(flow, "FAR_PLAY", False))


def table_name(seats: Iterable[str]) -> str:
    """This table's name on the broker: the seats it plays (two tables of one game never share a seat)."""
    return "-".join(sorted(seats))


def join(table: Table, remote: Remote, playing: Iterable[str]) -> RemotePlay:
    """Connect ``table``, which plays the seats ``playing``, to the game ``remote`` names, in the background
    (the broker may be down at first: the link keeps trying); the far table's lines are taken on every loop
    turn. ``close()`` the returned play's link at the end."""
    from controller.remote.link import Link  # paho-mqtt: the optional dependency "remote"

    path = table.journal.path
    holder: list[RemotePlay] = []
    def history(seq: int) -> list[Line]:
        """The lines a far table asks for (on the MQTT client's thread, which must not die of a read)."""
        try:
            return journal_lines(path, seq)
        except JournalError as e:
            log.error("remote: the far table's request for lines from seq %d cannot be answered: %s", seq, e)
            return []

    def sealer() -> Sealer | None:
        return holder[0].sealer if holder else None

    def salts(seq: int) -> str | None:
        found = sealer()
        return found.salt_for(seq) if found is not None else None

    def seals(seq: int) -> list[tuple[int, str, str]]:
        found = sealer()
        if found is not None:
            return found.pending(seq)
        dealer = holder[0].dealer if holder else None
        return dealer.seals() if dealer is not None else []

    def decks() -> list[dict[str, Any]]:
        dealer = holder[0].dealer if holder else None
        return list(dealer.messages()) if dealer is not None else []

    link = Link(remote, table_name(playing), expecting=lambda: holder[0].sync.next_seq if holder else 1,
                history=history, salts=salts, seals=seals, decks=decks)
    play = RemotePlay(table, link, remote.code)
    holder.append(play)
    table.loop.add_source(play.poll)
    link.start()
    return play
