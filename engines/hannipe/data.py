"""Hannipe!'s fixed facts, in one place: horses, programmes, tip cards, payouts, seats.

Every table here is copied from ``docs/rules/hannipe.md`` (the seed's card lists are lost, so the
digest's I-1..I-3 are the source); nothing else in the engine spells out a value.
"""

from __future__ import annotations

from typing import Final

HORSES: Final = ("noiro", "roujo", "grisette", "vertige", "pepite", "cocotte")
"""The betting sheet's order: also the order horses are listed in within a line and in JSON."""

NAMES: Final = {"noiro": "Noiro", "roujo": "Roujo", "grisette": "Grisette", "vertige": "Vertige",
                "pepite": "Pepite", "cocotte": "Cocotte"}
COLOURS: Final = {"noiro": "black", "roujo": "red", "grisette": "grey", "vertige": "green",
                  "pepite": "yellow", "cocotte": "blue"}  # I-1

FAVORI: Final = 2
OUTSIDER: Final = 1
TOCARD: Final = 0

PROGRAMMES: Final[dict[int, dict[str, int]]] = {  # I-2: starter -> value, in the sheet's order
    1: {"noiro": 2, "roujo": 1, "grisette": 1, "vertige": 1, "pepite": 0, "cocotte": 0},
    2: {"noiro": 0, "roujo": 2, "grisette": 2, "vertige": 1, "pepite": 1, "cocotte": 0},
    3: {"noiro": 1, "roujo": 0, "grisette": 0, "vertige": 2, "pepite": 1, "cocotte": 0},
    4: {"noiro": 2, "grisette": 1, "vertige": 1, "pepite": 0, "cocotte": 0},
    5: {"roujo": 1, "grisette": 2, "vertige": 0, "pepite": 2, "cocotte": 0},
    6: {"noiro": 1, "roujo": 1, "vertige": 0, "pepite": 1, "cocotte": 2},
    7: {"noiro": 0, "roujo": 2, "pepite": 1, "cocotte": 1},
    8: {"grisette": 1, "vertige": 2, "pepite": 0, "cocotte": 0},
}

CRAVACHE: Final = "c"
FACES: Final = ("0", "1", "2", CRAVACHE)
"""A tip card's face as written in the notation; ``tip_value`` says what it is worth in a round."""
COPIES: Final = {"0": 2, "1": 2, "2": 2, CRAVACHE: 1}  # I-3: per horse, 7 tip cards in all

PAYOUT: Final = {FAVORI: 1, OUTSIDER: 2, TOCARD: 3}
"""Coins a winning bet earns, by the programme value of the horse backed."""
GOAL: Final = 6

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 7
SEATS: Final = tuple(f"p{i}" for i in range(1, MAX_PLAYERS + 1))
CARD_MODES: Final = ("table", "deal")
ROWS: Final = len(HORSES)
"""Rows of the track mat: at most one line per starter."""

Card = tuple[str, str]
"""A tip card: (horse, face)."""

SECRET: Final = "?"
"""What a state shared by two tables writes for what this table does not know (G-10): a horse card not turned
yet, a far seat's tip card, a bet not revealed yet."""
UNKNOWN: Final[Card] = (SECRET, SECRET)
"""A tip card in a far seat's hand: this table knows it is there, not what it is."""


def tip_value(face: str, last_round: bool) -> int:
    """The cravache is worth 2, or 3 when played in the race's last round."""
    if face == CRAVACHE:
        return 3 if last_round else 2
    return int(face)


def card_text(card: Card) -> str:
    """``noiro:2``: how a card is written in ``deal`` moves and in JSON hands; ``?`` for an unknown card."""
    return SECRET if card == UNKNOWN else f"{card[0]}:{card[1]}"


CARD_RANK: Final = {(h, f): i * len(FACES) + j for i, h in enumerate(HORSES) for j, f in enumerate(FACES)}


def card_sort_key(card: Card) -> int:
    """Sheet order, then face order, unknown cards last: hands are kept sorted so equal hands compare equal."""
    return CARD_RANK.get(card, len(CARD_RANK))


def leader_of(players: tuple[str, ...], race: int) -> str:
    """I-6: p1 leads the first race and the role passes one seat on per race."""
    return players[(race - 1) % len(players)]


def turn_order(players: tuple[str, ...], leader: str) -> tuple[str, ...]:
    """Deals, bets and tips go round from the seat after the leader and end with the leader."""
    i = players.index(leader) + 1
    return players[i:] + players[:i]
