"""Seat codes: what opens a seat's own page (``/seat/SEAT?code=...``), where its secrets are shown; and the
table's PIN, which opens its settings (``/settings``).

Random for each game and dropped with it, so a phone that joined one game cannot read the next; short
enough to type from the OLED (six characters of an alphabet without look-alikes: no 0/O, 1/I/L) and
compared in constant time.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Mapping
from types import MappingProxyType

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6


def _code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


class SeatCodes:
    """The codes of the game being played (none before one is dealt), and the table's PIN, which opens its
    settings: dealt anew with each game's codes, and once at start for the time before any game."""

    def __init__(self) -> None:
        self._codes: Mapping[str, str] = MappingProxyType({})
        self.pin = _code()

    def deal(self, seats: Iterable[str]) -> Mapping[str, str]:
        """New codes for a new game's ``seats`` and a new PIN; every code of the game before stops working."""
        self._codes = MappingProxyType({seat: _code() for seat in seats})
        self.pin = _code()
        return self._codes

    def pin_opens(self, code: str) -> bool:
        """Whether ``code`` is the table's PIN (letters in either case)."""
        return hmac.compare_digest(self.pin.encode(), code.strip().upper().encode())

    def opens(self, seat: str, code: str) -> bool:
        """Whether ``code`` is ``seat``'s (a seat not in the game has none); letters in either case."""
        own = self._codes.get(seat)
        return own is not None and hmac.compare_digest(own.encode(), code.strip().upper().encode())

    @property
    def current(self) -> Mapping[str, str]:
        """The game's codes, seat -> code (what the log says until the OLED shows them)."""
        return self._codes
