"""The dealer of a game with hidden cards shared by two tables (``engines.base.Hidden``: Hannipe!).

Each table keeps its own seats' secrets and journals only what every seat may know: the ledger writes the move as
announced (``deal p2 ?``, ``bet p2 ?``) and the public state, and the private move goes to this table's secret
file first (fsynced), so that a restart replays the journal with it (``private_moves``) and every seat finds its
cards and its bet again. Both journals stay identical line for line.

What chance hides, the two tables draw together, face down (``controller.remote.deck``): the table that journals
a shuffle locks and shuffles the decks, the far table locks and shuffles them again, and each card is read by
taking both locks off: a dealt card by its seat's table alone, with the far table's share; a turned card by the
leader's table, with the far share. At the race's end both tables send their keys, and each checks the far
table's shuffle, turns and dealt cards (``DeckBroken`` stops play).

A secret decision (a bet) is sealed as in ``controller.remote.seals``: its table sends ``sha256(code, seq, seat,
move, salt)`` before the line ``bet p2 ?``, and when the race's bets are revealed, the salt; the far table
applies a seat's reveal only if it opens that seal. A far line waits here (``waits``) for what it needs: a bet
for its seal, a reveal for its salt and for the race's deck check.
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from controller.journal import UNDO
from controller.remote.deck import DeckBroken, Shuffle
from controller.remote.lines import canonical
from controller.remote.seals import SealBroken, digest
from controller.remote.sync import SyncStopped
from engines.base import GameState, Hidden, Move, Shown

log = logging.getLogger("boardkeeper.remote")
_UNREAD = object()  # a card this table cannot read yet

Send = Callable[[dict[str, Any]], None]


def secrets_path(journal: Path) -> Path:
    """This table's secret file for the journal at ``journal``: beside it, never sent."""
    return journal.with_name(journal.name + ".secret")


def private_moves(journal: Path, game: str) -> dict[int, str] | None:
    """This table's hidden moves by seq (its seats' cards and bets) in the game its journal header says ``started``
    at (``game``), for replaying its journal on a resume; None for a journal with no secret file (a game not
    shared, or one that hides nothing)."""
    path = secrets_path(journal)
    return {seq: move for seq, (_, move, _) in _Records(path, game).own.items()} if path.exists() else None


class _Records:
    """The secret file: JSON lines, each fsynced before it counts; a torn last line is cut off."""

    def __init__(self, path: Path, game: str) -> None:
        self.path = path
        self.game = game  # the journal header's "started": another game's records in the file are left out
        self.own: dict[int, tuple[str, str, str | None]] = {}  # seq -> (player, private move, salt of a sealed one)
        self.race: dict[int, str] = {}  # seq of an own move -> the shuffle in use then
        self.far_seals: dict[int, tuple[str, str]] = {}  # seq -> (player, digest)
        self.far_bets: dict[str, int] = {}  # far seat -> the seq of its bet line in the race under way
        self.shuffles: dict[str, Shuffle] = {}
        self.shared: dict[str, dict[str, tuple[str | None, str]]] = {}  # shuffle -> "deck:position" -> (seat, share)
        self.revealed: set[str] = set()  # shuffles whose key and salts were sent
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return
        whole = raw.rfind(b"\n") + 1
        if whole < len(raw):
            log.warning("remote: %s: a record torn by a power cut, cut off (it was never used)", path)
            os.truncate(path, whole)
        for number, text in enumerate(raw[:whole].split(b"\n"), start=1):
            if text.strip():
                try:
                    self._take(json.loads(text))
                except (ValueError, KeyError, TypeError, AttributeError, DeckBroken) as e:
                    log.warning("remote: %s:%d: a record that cannot be read, left out (%s)", path, number, e)

    def _take(self, r: dict[str, Any]) -> None:
        if r.get("game") != self.game:
            return
        kind = r["kind"]
        if kind == "own":
            self.own[int(r["seq"])] = (str(r["player"]), str(r["move"]), r.get("salt"))
            self.race[int(r["seq"])] = str(r.get("shuffle"))
        elif kind == "far_seal":
            self.far_seals[int(r["seq"])] = (str(r["player"]), str(r["seal"]))
        elif kind == "far_bet":
            self.far_bets[str(r["player"])] = int(r["seq"])
        elif kind == "shuffle":
            self.shuffles[str(r["shuffle"]["name"])] = Shuffle.from_json(r["shuffle"])
        elif kind == "shared":
            self.shared.setdefault(str(r["name"]), {})[str(r["at"])] = (r["seat"], str(r["value"]))
        elif kind == "revealed":
            self.revealed.add(str(r["name"]))

    def write(self, record: Mapping[str, Any]) -> None:
        full = {**record, "game": self.game}
        with self.path.open("ab") as f:
            f.write(canonical(full) + b"\n")
            f.flush()
            os.fsync(f.fileno())
        self._take(full)


class Dealer:
    """This table's secrets and draws in one shared game with hidden cards (``game``: its journal header's
    ``started``); ``far`` the far table's seats, ``send(data)`` publishes a deck message, ``seal(seq, player,
    digest)`` a bet's seal."""

    def __init__(self, journal: Path, game: str, code: str, far: frozenset[str], send: Send,
                 seal: Callable[[int, str, str], None], rng: random.Random | None = None) -> None:
        self.code = code
        self.rng = rng or secrets.SystemRandom()  # keys, shuffles and salts: seeded in a demo
        self.far = far
        self.send = send
        self.seal = seal
        self.records = _Records(secrets_path(journal), game)
        self.far_locked: dict[str, dict[str, Any]] = {}  # a far first lock, until this table's state reaches it
        self.far_salts: dict[int, str] = {}  # far bets opened: seq -> salt
        self.far_keys: dict[str, int] = {}
        self.checked: set[str] = set()  # shuffles whose far work checked out
        self.waiting = ""  # what this table's draw waits for: remote play asks the far table again after a while
        self.broken: str | None = None  # the far table's cards did not check out: play must stop
        self.sealed_up_to = 0  # the journal's seq up to which this table's bets' seals went out

    # -- the ledger's side -----------------------------------------------------------------------------------

    def keep(self, seq: int, player: str, move: Move, said: Move, decision: bool) -> str | None:
        """``move`` is to be journaled as ``said`` at ``seq``: keep it here first (fsynced), and seal it if it is a
        decision (a bet); the seal goes out once the line is journaled (``flush``), so a line that could not be
        saved never leaves a seal behind. The notice if it could not be kept (nothing is journaled then)."""
        kept = self.records.own.get(seq)
        if kept is not None and kept[:2] == (player, str(move)):
            return None  # kept already: the journal could not take the line last time
        salt = format(self.rng.getrandbits(128), "032x") if decision else None
        shuffle = next(reversed(self.records.shuffles), None)
        try:
            self.records.write({"kind": "own", "seq": seq, "player": player, "move": str(move), "salt": salt,
                                "shuffle": shuffle})
        except OSError as e:
            log.error("remote: %s's secret could not be kept: %s", player, e)
            return f"NOT SAVED: {e.strerror or e}"
        return None

    def flush(self, journaled: int) -> None:
        """Send the seals of this table's bets journaled up to seq ``journaled`` (before those lines go out)."""
        for seq, player, sealed in self.seals(journaled):
            if seq > self.sealed_up_to:
                self.seal(seq, player, sealed)
        self.sealed_up_to = max(self.sealed_up_to, journaled)

    # -- the flow's side -------------------------------------------------------------------------------------

    def draw(self, state: GameState) -> Move | None:
        """The hidden chance (or the turned card) this table journals now, or None while it waits for the far
        table (``waiting`` says for what). A shuffle is begun here: this table locks first."""
        assert isinstance(state, Hidden)
        down, decks = state.face_down(), state.decks()
        if down is None and decks is not None and state.is_chance():  # the shuffle: this table locks first
            name, cards = decks
            if name not in self.records.shuffles:
                self._store(Shuffle.begin(name, cards, self.rng))
            self._send_locked(self.records.shuffles[name])
            return state.announce(state.chance_outcomes()[0][0])
        if down is None:
            return None
        deck = self.records.shuffles.get(down.shuffle)
        try:
            card = deck.read(down.deck, down.position) if deck is not None and deck.final is not None else None
        except DeckBroken as e:
            self.broken = str(e)  # remote play stops on it: the flow only waits
            card = None
        if card is None:
            self.waiting = "the far table's share of the cards"
            return None
        self.waiting = ""
        return state.turn_up(card)

    # -- remote play's side ----------------------------------------------------------------------------------

    def take(self, data: Mapping[str, Any]) -> None:
        """A deck message from the far table (signature checked); ``DeckBroken`` if it cannot be one."""
        part, name = data.get("part"), str(data.get("shuffle"))
        if part == "locked":
            self.far_locked[name] = dict(data["decks"])
        elif part == "final":
            deck = self.records.shuffles.get(name)
            if deck is not None and deck.first and deck.final is None:
                deck.take_final(data["decks"])
                self._store(deck)
        elif part == "share":
            deck = self.records.shuffles.get(name)
            if deck is not None:
                deck.take_share(str(data["deck"]), int(data["position"]), str(data["value"]))
        elif part == "key":
            self.far_keys[name] = int(str(data["key"]), 16)
        elif part == "open":
            self.far_salts[int(data["seq"])] = str(data["salt"])
        else:
            raise DeckBroken(f"a deck message of unknown part {part!r}")

    def far_seal(self, seq: int, player: str, sealed: str) -> None:
        """A far bet's seal: kept (fsynced) before it counts; another seal for the same seq is a forked history."""
        if player not in self.far:
            raise SealBroken(f"seq {seq}: a seal for {player}, a seat this table plays")
        known = self.records.far_seals.get(seq)
        if known is not None and known != (player, sealed):
            raise SealBroken(f"seq {seq}: two different seals arrived for {player}'s bet")
        if known is None:
            self.records.write({"kind": "far_seal", "seq": seq, "player": player, "seal": sealed})

    def poll(self, state: GameState) -> None:
        """Send what the position now calls for: the second lock of a far shuffle, this table's share of a card
        a far seat is dealt or the leader turns, and at the race's end its key and its bets' salts; then check
        the far table's work once its key is here. ``SyncStopped`` if it does not check out."""
        assert isinstance(state, Hidden)
        if self.broken is not None:
            raise SyncStopped(f"the far table's cards do not check out: {self.broken}")
        decks, down = state.decks(), state.face_down()
        if decks is not None and not (state.is_chance() and down is None):  # past the shuffle here
            try:
                self._second(decks)
            except DeckBroken as e:
                raise SyncStopped(f"the far table's shuffle does not hold: {e}") from None
        if down is not None:
            deck = self.records.shuffles.get(down.shuffle)
            if deck is not None and deck.final is not None and (down.seat is None or down.seat in self.far):
                self._share(deck, down.deck, down.position, down.seat)
        shown = state.shown()
        if shown is not None:
            self._reveal(shown)

    def _second(self, decks: tuple[str, dict[str, tuple[str, ...]]]) -> None:
        """The far table journaled a shuffle and locked it first: lock and shuffle it again, once."""
        name, cards = decks
        if name in self.records.shuffles or name not in self.far_locked:
            return
        self._store(Shuffle.answer(name, cards, self.far_locked[name], self.rng))
        self.send(_lock_message(self.records.shuffles[name]))

    def _share(self, deck: Shuffle, which: str, position: int, seat: str | None) -> None:
        """This table's share of a card the far table needs, once; kept, so that it is sent again as it is."""
        at = f"{which}:{position}"
        if at not in self.records.shared.get(deck.name, {}):
            value = format(deck.share(which, position), "x")
            self.records.write({"kind": "shared", "name": deck.name, "at": at, "seat": seat, "value": value})
            self.send(_share_message(deck.name, at, value))

    def _send_locked(self, deck: Shuffle) -> None:
        if deck.first:
            self.send(_lock_message(deck))

    def _reveal(self, shown: Shown) -> None:
        """The race's bets are revealed now: send this table's key and its bets' salts (once), and check the far
        table's shuffle, turns and cards as soon as its key is here."""
        name = shown.shuffle
        deck = self.records.shuffles.get(name)
        if deck is None:
            return
        if name not in self.records.revealed:
            self.records.write({"kind": "revealed", "name": name})
            self._send_reveal(deck)
        far_key = self.far_keys.get(name)
        if far_key is not None and name not in self.checked:
            dealt = {at: seat for at, (seat, _) in self.records.shared.get(name, {}).items() if seat is not None}
            played = {seat: cards for seat, cards in shown.played.items() if seat in self.far}
            try:
                deck.check(far_key, shown.turned, dealt, played)
            except DeckBroken as e:
                raise SyncStopped(f"the far table's cards do not check out: {e}") from None
            self.checked.add(name)
            log.info("remote: race %s: the far table's shuffle, turns and cards check out", name)

    def _send_reveal(self, deck: Shuffle) -> None:
        for message in self._reveal_messages(deck.name):
            self.send(message)

    def _reveal_messages(self, name: str) -> list[dict[str, Any]]:
        """This table's key of shuffle ``name`` and the salts of its bets in that race."""
        deck = self.records.shuffles[name]
        opens = [{"part": "open", "shuffle": name, "seq": seq, "salt": salt}
                 for seq, (_, _, salt) in list(self.records.own.items())
                 if salt is not None and self.records.race.get(seq) == name]
        return [{"part": "key", "shuffle": name, "key": format(deck.key, "x")}, *opens]

    def waits(self, line: Mapping[str, Any], state: GameState) -> bool:
        """A far line that must wait: a hidden bet for its seal; a card turned for all until this table can read
        it too; a reveal for its salt and for the race's deck check."""
        assert isinstance(state, Hidden)
        move = self._far_move(line, state)
        if move is None:
            return False
        if state.hides(move):
            return line["seq"] not in self.records.far_seals
        if self._turned_here(state) is _UNREAD:
            return True
        if state.opens(move) is None:
            return False
        shown = state.shown()
        return self._far_bet(line["player"]) not in self.far_salts or shown is None or shown.shuffle not in self.checked

    def check(self, line: Mapping[str, Any], state: GameState) -> None:
        """A far line due now (``SealBroken`` if it may not be applied): it says no more than every seat may know,
        a hidden bet is kept as its seat's bet of this race, a card turned for all is the one this table reads
        too, a reveal opens the seal of its seat's bet, and no takeback undoes a step after which this table
        gave its share of the next card."""
        assert isinstance(state, Hidden)
        who = f"seq {line['seq']} ({line['player']}: {line['move']})"
        if line["move"] == UNDO and state.face_down() is not None:
            raise SealBroken(f"{who}: a takeback after this table gave its share of the next card")
        move = self._far_move(line, state)
        if move is None:
            return
        said = state.announce(move)
        if said != move:
            raise SealBroken(f"{who}: shows what the rules hide (it must say {said})")
        if state.hides(move):
            self.records.write({"kind": "far_bet", "seq": line["seq"], "player": line["player"]})
        card = self._turned_here(state)
        if isinstance(card, str) and state.turn_up(card) != move:
            raise SealBroken(f"{who}: this table's deck turns {state.turn_up(card)}")
        opened = state.opens(move)
        if opened is None:
            return
        player = line["player"]
        bet_seq = self._far_bet(player)
        salt = self.far_salts.get(bet_seq)
        _, sealed = self.records.far_seals.get(bet_seq, ("", ""))
        if salt is None or digest(self.code, bet_seq, player, str(opened), salt) != sealed:
            raise SealBroken(f"{who}: does not open the seal of {player}'s bet at seq {bet_seq} (changed after "
                             "sealing)")

    def _turned_here(self, state: Hidden) -> str | object | None:
        """The card a far seat turns for all now, as this table reads it (``_UNREAD`` while the far share is on
        its way); None when no card is turned for all now."""
        down = state.face_down()
        if down is None or down.seat is not None:
            return None
        deck = self.records.shuffles.get(down.shuffle)
        if deck is None or deck.final is None:
            return _UNREAD
        try:
            card = deck.read(down.deck, down.position)
        except DeckBroken as e:
            raise SealBroken(f"the far table's share of the card turned is false: {e}") from None
        return _UNREAD if card is None else card

    def _opened(self, line: Mapping[str, Any], state: GameState) -> Move | None:
        assert isinstance(state, Hidden)
        move = self._far_move(line, state)
        return None if move is None else state.opens(move)

    def _far_move(self, line: Mapping[str, Any], state: GameState) -> Move | None:
        """The move of the far table's ``line`` (a far seat's, or a draw signed ``chance``), if it is one here
        (else the flow refuses it as it would any)."""
        try:
            return state.parse_move(line["move"])
        except ValueError:
            return None

    def _far_bet(self, player: str) -> int:
        """The seq of the far seat's bet line in the race under way, as applied here (0: none)."""
        return self.records.far_bets.get(player, 0)

    def messages(self) -> Iterable[dict[str, Any]]:
        """The deck messages of the last two shuffles this table sent, again (the far table asked for what it
        missed; one further back it had before it could play on)."""
        for name, deck in list(self.records.shuffles.items())[-2:]:
            if deck.first or deck.final is not None:
                yield _lock_message(deck)
            for at, (_, value) in list(self.records.shared.get(name, {}).items()):
                yield _share_message(name, at, value)
            if name in self.records.revealed:
                yield from self._reveal_messages(name)

    def seals(self, journaled: int | None = None) -> list[tuple[int, str, str]]:
        """This table's bets' seals (seq, player, digest), of lines journaled up to ``journaled`` (by default, of
        those whose seals went out: what the far table may be sent again)."""
        up_to = self.sealed_up_to if journaled is None else journaled
        return [(seq, player, digest(self.code, seq, player, move, salt))
                for seq, (player, move, salt) in sorted(list(self.records.own.items())) if salt is not None
                and seq <= up_to]

    def _store(self, deck: Shuffle) -> None:
        self.records.write({"kind": "shuffle", "shuffle": deck.to_json()})


def _lock_message(deck: Shuffle) -> dict[str, Any]:
    """This table's lock of a shuffle as sent: the first table's locked decks, or the second's final ones."""
    if deck.first:
        return {"part": "locked", "shuffle": deck.name, "decks": deck.locked_hex()}
    return {"part": "final", "shuffle": deck.name, "decks": deck.final_hex()}


def _share_message(name: str, at: str, value: str) -> dict[str, Any]:
    which, position = at.split(":")
    return {"part": "share", "shuffle": name, "deck": which, "position": int(position), "value": value}
