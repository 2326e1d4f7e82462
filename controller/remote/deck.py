"""Cards shuffled face down by two tables that trust neither each other nor the broker (mental poker, SRA).

Hannipe!'s horse cards and tip cards must be in an order that neither table can read, and a tip card dealt to a
seat must be readable by that seat's table alone. So both tables lock and shuffle every deck in turn, with a
commutative lock (Shamir, Rivest and Adleman's "mental poker": exponentiation modulo a safe prime ``P``):

1. The *first* table (the one that journals the shuffle) writes card ``i`` of each deck as a hash of the
   shuffle's name, the deck's and ``i``, squared modulo ``P`` (``encode``): a quadratic residue, so that a lock
   cannot leak the residue bit, and one with no known relation to any other card. (Small numbers such as
   ``(i + 2)^2`` would not do: a lock keeps products, ``x^e * y^e = (xy)^e``, so ``3^2 * 4^2 = 12^2`` would still
   hold between three locked cards, for anyone to see.) It locks each with its key ``e`` (``x^e``), shuffles,
   and sends the lists.
2. The *second* table locks each again with its own key and shuffles again: that is the deck both tables play.
   No one knows its order; a card under both locks is read only once both take theirs off.
3. A card dealt to a seat: the other table sends its *share*, the card with its own lock taken off (``x^d``,
   ``d`` the inverse of ``e``); the seat's table takes off its own and reads the card. A card turned for all:
   both tables send their shares.
4. At the race's end each table sends its key, and each checks the far table's work: its lock and shuffle
   was a permutation of the deck, every card it turned is the card at that place, every card its seats played
   was dealt to them, and every share it sent is the card at its place with the far lock off. A deck that does
   not check out stops play.

Keys are fresh for every shuffle and never leave a table before the race is over. Pure: no network, no file.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# RFC 2409's 1024-bit MODP group (Oakley group 2): P is a safe prime, P = 2Q + 1 with Q prime. 1024 bits, not
# 2048: a race costs about 200 exponentiations per table, 3 ms each here at 1024 bits and 23 ms at 2048, and a Pi
# Zero 2 W is 13 to 29 times slower; the keys live for one race.
P = int("FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A"
        "431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F2411"
        "7C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)
Q = (P - 1) // 2
KEY_BITS = 128  # a lock's exponent: a discrete log with a 128-bit exponent costs 2^64 steps


class DeckBroken(ValueError):
    """The far table's locks, shares or cards do not check out: ``str()`` says which, in one line."""


@lru_cache(maxsize=32)
def encodings(shuffle: str, deck: str, size: int) -> tuple[int, ...]:
    """The cards of one deck of one shuffle as quadratic residues modulo ``P``: each a hash (SHAKE-256, 64 bits
    longer than ``P`` so that its reduction is uniform) squared, distinct across decks and shuffles."""
    out = []
    for index in range(size):
        digest = hashlib.shake_256(f"boardkeeper/deck/v1|{shuffle}|{deck}|{index}".encode()).digest(136)
        out.append(pow(int.from_bytes(digest, "big") % P, 2, P))
    if len(set(out)) != size:  # never seen: 2^-1000 or so
        raise DeckBroken(f"deck {deck}: two cards hash alike")
    return tuple(out)


def new_key(rng: random.Random | None = None) -> int:
    """A lock's exponent: odd and below ``Q``, hence invertible modulo ``Q`` (the residues' group order)."""
    r = rng or secrets.SystemRandom()
    return r.randrange(2 ** (KEY_BITS - 1), 2 ** KEY_BITS) | 1


def unlock_key(e: int) -> int:
    return pow(e, -1, Q)


def lock(values: Sequence[int], e: int, rng: random.Random | None = None) -> list[int]:
    """Each value locked with ``e``, in a new order only this table knows (and forgets)."""
    out = [pow(v, e, P) for v in values]
    (rng or secrets.SystemRandom()).shuffle(out)
    return out


def _hex(values: Sequence[int]) -> list[str]:
    return [format(v, "x") for v in values]


def _ints(values: Any, what: str) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise DeckBroken(f"{what}: expected a list of hex numbers")
    try:
        out = [int(v, 16) for v in values]
    except ValueError:
        raise DeckBroken(f"{what}: not hex numbers") from None
    if not all(1 < v < P for v in out):
        raise DeckBroken(f"{what}: a number out of range")
    return out


@dataclass
class Shuffle:
    """One shuffle face down, at one table: the decks' card names (public), this table's key, the decks after
    the first lock and after both (``locked``, ``final``), the far table's shares and, at the end, its key."""

    name: str
    cards: dict[str, tuple[str, ...]]
    first: bool
    key: int
    locked: dict[str, list[int]] | None = None
    final: dict[str, list[int]] | None = None
    far_shares: dict[str, int] = field(default_factory=dict)  # "deck:position" -> the far table's share
    far_key: int | None = None

    @classmethod
    def begin(cls, name: str, cards: Mapping[str, Sequence[str]], rng: random.Random | None = None) -> Shuffle:
        """The first table's shuffle: every deck written out, locked and shuffled (``locked``: to send)."""
        out = cls(name, {d: tuple(c) for d, c in cards.items()}, True, new_key(rng))
        out.locked = {d: lock(encodings(name, d, len(c)), out.key, rng) for d, c in out.cards.items()}
        return out

    @classmethod
    def answer(cls, name: str, cards: Mapping[str, Sequence[str]], locked: Mapping[str, Any],
               rng: random.Random | None = None) -> Shuffle:
        """The second table's shuffle, from the first table's locked decks (``final``: to send)."""
        out = cls(name, {d: tuple(c) for d, c in cards.items()}, False, new_key(rng))
        out.locked = out._decks(locked, "locked")
        out.final = {d: lock(v, out.key, rng) for d, v in out.locked.items()}
        return out

    def _decks(self, data: Mapping[str, Any], what: str) -> dict[str, list[int]]:
        if set(data) != set(self.cards):
            raise DeckBroken(f"{what}: decks {sorted(data)}, expected {sorted(self.cards)}")
        out = {d: _ints(data[d], f"{what} {d}") for d in self.cards}
        for d, values in out.items():
            if len(values) != len(self.cards[d]):
                raise DeckBroken(f"{what} {d}: {len(values)} cards, the deck has {len(self.cards[d])}")
        return out

    def take_final(self, final: Mapping[str, Any]) -> None:
        """The first table takes the decks as the second table locked and shuffled them again."""
        if self.final is None:
            self.final = self._decks(final, "final")

    def share(self, deck: str, position: int) -> int:
        """This table's share of a card: the card at that place with this table's lock taken off."""
        assert self.final is not None
        return pow(self.final[deck][position], unlock_key(self.key), P)

    def take_share(self, deck: str, position: int, value: str) -> None:
        [self.far_shares[f"{deck}:{position}"]] = _ints([value], f"share of {deck}:{position}")

    def read(self, deck: str, position: int) -> str | None:
        """The card at that place, once the far table's share is here (None until then)."""
        share = self.far_shares.get(f"{deck}:{position}")
        if share is None:
            return None
        return self._name(deck, pow(share, unlock_key(self.key), P), f"{deck}:{position}")

    def _name(self, deck: str, value: int, where: str) -> str:
        names = self.cards[deck]
        for i, card in enumerate(encodings(self.name, deck, len(names))):
            if card == value:
                return names[i]
        raise DeckBroken(f"the card at {where} is no card of the deck: the far table's share is false")

    def check(self, far_key: int, turned: Mapping[str, Sequence[str]], dealt: Mapping[str, str],
              played: Mapping[str, Sequence[str]]) -> None:
        """At the end, with the far table's key: its lock and shuffle; the cards turned for all (``turned``: by
        deck, in turn order); and the cards its seats played (``played``: seat -> cards) against the places
        dealt to them (``dealt``: "deck:position" -> seat). ``DeckBroken`` names the first thing that is false."""
        assert self.locked is not None and self.final is not None
        if far_key % 2 == 0 or not 1 < far_key < Q:
            raise DeckBroken("the far table's key is not a key")
        for d, names in self.cards.items():
            if self.first:  # the far table locked our decks again
                if Counter(pow(v, far_key, P) for v in self.locked[d]) != Counter(self.final[d]):
                    raise DeckBroken(f"deck {d}: the far table's lock and shuffle is not a shuffle of our deck")
            elif Counter(pow(v, far_key, P) for v in encodings(self.name, d, len(names))) != Counter(self.locked[d]):
                raise DeckBroken(f"deck {d}: the far table's first lock is not a shuffle of the deck")
        for at, share in self.far_shares.items():  # each share the far table sent: the card with its lock off
            d, place = at.split(":")
            if pow(share, far_key, P) != self.final[d][int(place)]:
                raise DeckBroken(f"the far table's share of {at} is not the card at that place")
        both = unlock_key(far_key) * unlock_key(self.key) % Q
        for d, cards in turned.items():
            for position, shown in enumerate(cards):
                card = self._name(d, pow(self.final[d][position], both, P), f"{d}:{position}")
                if card != shown:
                    raise DeckBroken(f"{d} card {position + 1}: {shown} was turned, the deck holds {card}")
        held: dict[str, Counter[str]] = {seat: Counter() for seat in played}
        for at, seat in dealt.items():
            d, place = at.split(":")
            card = self._name(d, pow(self.final[d][int(place)], both, P), at)
            held.setdefault(seat, Counter())[card] += 1
        for seat, cards in played.items():
            if Counter(cards) != held[seat]:
                raise DeckBroken(f"{seat} played {', '.join(sorted(cards))}, but was dealt "
                                 f"{', '.join(sorted(held[seat].elements()))}")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cards": {d: list(c) for d, c in self.cards.items()}, "first": self.first,
                "key": format(self.key, "x"),
                "locked": None if self.locked is None else {d: _hex(v) for d, v in self.locked.items()},
                "final": None if self.final is None else {d: _hex(v) for d, v in self.final.items()},
                "far_shares": {k: format(v, "x") for k, v in self.far_shares.items()},
                "far_key": None if self.far_key is None else format(self.far_key, "x")}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Shuffle:
        out = cls(str(data["name"]), {d: tuple(c) for d, c in data["cards"].items()}, bool(data["first"]),
                  int(data["key"], 16))
        out.locked = None if data["locked"] is None else out._decks(data["locked"], "locked")
        out.final = None if data["final"] is None else out._decks(data["final"], "final")
        out.far_shares = {k: int(v, 16) for k, v in data["far_shares"].items()}
        out.far_key = None if data["far_key"] is None else int(data["far_key"], 16)
        return out

    def locked_hex(self) -> dict[str, list[str]]:
        assert self.locked is not None
        return {d: _hex(v) for d, v in self.locked.items()}

    def final_hex(self) -> dict[str, list[str]]:
        assert self.final is not None
        return {d: _hex(v) for d, v in self.final.items()}
