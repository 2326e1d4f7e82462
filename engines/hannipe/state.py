"""The Hannipe! rules as a state machine of decisions and chance events.

A race goes ``programme`` (chance) -> ``shuffle`` (chance) -> ``deal`` (chance, one card per event,
``cards="deal"`` only) -> ``bet`` (one per seat) -> per round ``turn`` (the leader) then ``tip`` (one per
seat) -> payout inside the last tip's ``apply`` -> the next race's ``programme``, or ``over``.

A state shared by two tables (G-10) knows only what its table may: the order is ``shuffle ?`` and each turn
names its horse, a far seat's cards are ``?``, and every bet is sealed until the race's last tip, after which
each seat ``reveal``s it (step ``reveal``) and the payout follows. ``public()`` is that state as a spectator
knows it; ``announce(move)`` is a move as everyone may hear it.

The step is never stored: it follows from the race fields (how many cards dealt, bets placed, tips
played), so a state read from JSON cannot disagree with itself about whose turn it is.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping
from functools import cache
from itertools import permutations
from math import factorial
from typing import Any, Final

from engines.base import FaceDown, IllegalMoveError, JsonDict, Move, Shown
from engines.hannipe import places
from engines.hannipe.data import (
    CARD_MODES,
    COPIES,
    FACES,
    FAVORI,
    HORSES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PROGRAMMES,
    ROWS,
    SEATS,
    SECRET,
    UNKNOWN,
    Card,
    card_sort_key,
    card_text,
    leader_of,
    tip_value,
    turn_order,
)
from engines.hannipe.moves import (
    SECRET_SHUFFLE,
    TURN,
    Action,
    bet,
    deal,
    parse,
    programme,
    reveal,
    shuffle,
    tip,
    turn,
)
from engines.hannipe.payout import RaceResult, game_winners, pay
from engines.hannipe.reading import read

LOCATIONS: Final = tuple(f"lane:{h}:{row}" for h in HORSES for row in range(1, ROWS + 1))
CHANCE_STEPS: Final = ("programme", "shuffle", "deal")
_PROGRAMME_OUTCOMES: Final = tuple((programme(n), 1 / len(PROGRAMMES)) for n in PROGRAMMES)
_NO_VALUES: Final[Mapping[str, int]] = {}
_DECKS: Final = {n: {(h, f): COPIES[f] for h in values for f in FACES} for n, values in PROGRAMMES.items()}
"""Per programme, the tip cards a race uses: 7 per starter."""
_DEALS: Final = {seat: {(h, f): deal(seat, (h, f)) for h in HORSES for f in FACES} for seat in SEATS}
"""Every deal outcome built once: a race's deal is twenty-odd chance events, and MCTS walks them often."""


def location(horse: str, row: int) -> str:
    """The track-mat location of a horse's pawn: its own lane, row 1 being the front line."""
    return f"lane:{horse}:{row}"


@cache
def _shuffles(starters: tuple[str, ...]) -> tuple[tuple[Move, float], ...]:
    """Every order of the horse cards, equally likely (built once per programme: at most 720)."""
    p = 1 / factorial(len(starters))
    return tuple((shuffle(order), p) for order in permutations(starters))


class State:
    """A Hannipe! position; see the module docstring for the order of steps."""

    game: Final = "hannipe"

    __slots__ = ("_due", "_seats", "_step", "bets", "cards", "coins", "hands", "last_race", "order", "played",
                 "players", "programme", "race", "round", "sealed", "shuffle", "winners")

    def __init__(self, players: int = 4, cards: str = "table") -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players: expected {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}")
        if cards not in CARD_MODES:
            raise ValueError(f"cards: expected one of {', '.join(CARD_MODES)}, got {cards!r}")
        self.players: tuple[str, ...] = SEATS[:players]
        self.cards: str = cards
        self.coins: dict[str, int] = {p: 0 for p in self.players}
        self.race = 1
        self.winners: tuple[str, ...] = ()
        self.last_race: RaceResult | None = None
        self._clear_race()
        self._settle()

    def _clear_race(self) -> None:
        self.programme: int | None = None
        self.order: places.Order = ()
        self.shuffle: tuple[str, ...] = ()
        self.round = 0
        self.bets: dict[str, str | None] = {p: None for p in self.players}
        self.hands: dict[str, list[Card]] | None = {p: [] for p in self.players} if self.cards == "deal" else None
        self.played: list[tuple[str, str, str]] = []  # (seat, horse, face) in play order, this race
        self.sealed: set[str] = set()  # G-10: seats whose bet is placed but not revealed yet (shared play)
        self._seats = turn_order(self.players, self.leader)

    # -- reading the position ---------------------------------------------------------------------------

    @property
    def values(self) -> Mapping[str, int]:
        """This race's starters and their values (empty before the programme draw)."""
        return _NO_VALUES if self.programme is None else PROGRAMMES[self.programme]

    @property
    def starters(self) -> tuple[str, ...]:
        return tuple(self.values)

    @property
    def leader(self) -> str:
        return leader_of(self.players, self.race)

    @property
    def seat_order(self) -> tuple[str, ...]:
        """This race's order for deals, bets and tips: from the seat after the leader to the leader."""
        return self._seats

    @property
    def turned(self) -> tuple[str, ...]:
        return self.shuffle[:self.round]

    @property
    def secret(self) -> bool:
        """G-10: this race's horse-card order is unknown here (``shuffle ?``): deals and bets may be announced
        hidden, turns name their horse, and bets are sealed."""
        return SECRET in self.shuffle

    @property
    def step(self) -> str:
        return self._step

    @property
    def current_player(self) -> str | None:
        return None if self._step in CHANCE_STEPS or self._step == "over" else self._due

    @property
    def winner(self) -> str | None:
        """The single winner; ``None`` while the game goes on and when several seats share the win."""
        return self.winners[0] if len(self.winners) == 1 else None

    def is_over(self) -> bool:
        return self._step == "over"

    def is_chance(self) -> bool:
        return self._step in CHANCE_STEPS

    def is_last_round(self) -> bool:
        return self.round == len(self.values)

    def scores(self) -> dict[str, int]:
        return dict(self.coins)

    def returns(self) -> dict[str, float]:
        """A win shared by k seats is worth 1/k to each, so a bot prefers winning alone (G-1)."""
        share = 1 / len(self.winners) if self.winners else 0.0
        return {p: share if p in self.winners else 0.0 for p in self.players}

    def hand(self, seat: str) -> list[Card]:
        """A seat's tip cards (``cards="deal"``); at a ``"table"`` game the engine cannot know them."""
        if self.hands is None:
            raise ValueError("cards='table': the players hold their own tip cards")
        return list(self.hands[seat])

    def unplayed(self) -> dict[Card, int]:
        """This race's starters' tip cards not played yet, by kind (in hands or never dealt)."""
        left = dict(_DECKS[self.programme]) if self.programme is not None else {}
        for _, h, f in self.played:
            left[h, f] -= 1
        return left

    def undealt(self) -> dict[Card, int]:
        """Cards not played and in no hand this state can see (an unknown far card may be any of them)."""
        left = self.unplayed()
        if self.hands is not None:
            for cards in self.hands.values():
                for card in cards:
                    if card != UNKNOWN:
                        left[card] -= 1
        return left

    def _copies_out(self, card: Card) -> int:
        """Cards of one kind already dealt or played this race (a quick check for each deal)."""
        dealt = sum(hand.count(card) for hand in self.hands.values()) if self.hands is not None else 0
        return dealt + sum(1 for _, h, f in self.played if (h, f) == card)

    def describe(self) -> str:
        """What the game waits for, in words (error messages, screens)."""
        s, who = self._step, self._due
        if s == "over":
            return f"game over, {' and '.join(self.winners)} won"
        where = f"race {self.race}"
        if s == "programme":
            return f"the programme of {where} to draw"
        if s == "shuffle":
            return f"the horse cards of {where} to shuffle"
        if s == "deal":
            return f"a tip card to deal to {who}, {where}"
        if s == "bet":
            return f"{who} to bet, {where}"
        if s == "turn":
            return f"{who} (leader) to turn horse card {self.round + 1}, {where}"
        if s == "reveal":
            return f"{who} to reveal the bet, {where}"
        return f"{who} to tip, round {self.round} of {where}"

    # -- chance and legal moves -------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        s = self._step
        if s == "programme":
            return list(_PROGRAMME_OUTCOMES)
        if s == "shuffle":
            return list(_shuffles(self.starters))
        if s == "deal":
            left = self.undealt()
            total = sum(left.values())
            moves = _DEALS[self._due]
            return [(moves[card], n / total) for card, n in left.items() if n > 0]
        return []

    def legal_moves(self) -> list[Move]:
        """The decisions allowed now; at a chance node, its outcomes (G-3: a menu may offer them)."""
        s, who = self._step, self._due
        if s in CHANCE_STEPS:
            return [m for m, _ in self.chance_outcomes()]
        if s == "bet":
            return [bet(who, h) for h in self.values]
        if s == "turn":
            if self.shuffle[self.round] != SECRET:
                return [TURN]
            return [turn(h) for h in self.values if h not in self.turned]
        if s == "tip":
            return [tip(who, h, f) for h, f in self._playable(who)]
        if s == "reveal":
            horse = self.bets[who]
            return [reveal(who, h) for h in self.values if horse in (SECRET, h)]
        return []

    def _playable(self, seat: str) -> list[Card]:
        """The tip cards ``seat`` may play: its hand; with physical cards (G-7), or for a far seat's unknown
        cards (G-10), any kind with a card this state cannot place elsewhere."""
        hand = self.hands[seat] if self.hands is not None else [UNKNOWN]
        known = sorted(set(hand) - {UNKNOWN}, key=card_sort_key)
        if UNKNOWN not in hand:
            return known
        left = self.undealt()
        return sorted(set(known) | {(h, f) for h in self.values for f in FACES if left[h, f] > 0},
                      key=card_sort_key)

    def parse_move(self, text: str) -> Move:
        move = parse(text)
        reason = self._why_illegal(move)
        if reason:
            raise IllegalMoveError(f"{move}: {reason}")
        return move

    def _why_illegal(self, move: Move) -> str:
        """Why ``move`` is not allowed now, or ``""`` if it is (the bots' hot path: no move lists)."""
        if not isinstance(move, Action):
            return f"not a Hannipe! move ({self.describe()})"
        s, k, who = self._step, move.kind, self._due
        if s == "over":
            return "the game is over"
        if k != s:
            return f"not a {k} now: {self.describe()}"
        if move.seat and move.seat not in self.players:
            return f"{move.seat} is not at this table ({', '.join(self.players)})"
        if move.seat and move.seat != who:
            return f"it is {who}'s turn, not {move.seat}'s ({self.describe()})"
        if k == "programme":
            return "" if move.number in PROGRAMMES else f"no programme {move.number}"
        if k == "shuffle":
            if not move.secret and sorted(move.horses) != sorted(self.values):
                return f"a shuffle orders exactly this race's starters: {', '.join(self.values)}"
            return ""
        if move.secret and k in ("deal", "bet"):
            return "" if self.secret else f"a {k} is hidden only once the horse cards are (shuffle ?)"
        if k == "turn":
            return self._why_not_turn(move.horse)
        if k in ("deal", "bet", "tip", "reveal") and move.horse not in self.values:
            return f"{move.horse} is not running in this race (starters: {', '.join(self.values)})"
        if k in ("deal", "tip") and move.face not in FACES:
            return f"no tip card face {move.face!r}"
        card = (move.horse, move.face)
        if k == "deal" and self._copies_out(card) >= COPIES[move.face]:
            return f"no {card_text(card)} card left to deal"
        if k == "tip" and card not in self._playable(who):
            if self.hands is not None:
                return f"{who} holds no {card_text(card)} card"
            return f"every {card_text(card)} card of this race has been played"
        if k == "reveal" and self.bets[who] not in (SECRET, move.horse):
            return f"{who} bet on {self.bets[who]}, not {move.horse}"
        return ""

    def _why_not_turn(self, horse: str) -> str:
        """``turn`` takes the next card of a known order; ``turn HORSE`` names it, and must where it is unknown."""
        following = self.shuffle[self.round]
        if not horse:
            return "" if following != SECRET else "the order is not known here: say which horse (turn HORSE)"
        if following == SECRET:
            if horse not in self.values:
                return f"{horse} is not running in this race (starters: {', '.join(self.values)})"
            return f"{horse} is not a horse card still face down" if horse in self.turned else ""
        return "" if horse == following else f"the next horse card is {following}, not {horse}"

    # -- applying ---------------------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        reason = self._why_illegal(move)
        if reason:
            raise IllegalMoveError(f"{move}: {reason}")
        assert isinstance(move, Action)
        k = move.kind
        if k == "programme":
            self.programme = move.number
            self.order = places.start(self.starters)
        elif k == "shuffle":
            self.shuffle = (SECRET,) * len(self.values) if move.secret else move.horses
        elif k == "deal":
            assert self.hands is not None
            insort(self.hands[move.seat], (move.horse, move.face), key=card_sort_key)
        elif k == "bet":
            self.bets[move.seat] = move.horse
            if self.secret:
                self.sealed.add(move.seat)
        elif k == "turn":
            horse = move.horse or self.shuffle[self.round]
            self.shuffle = (*self.shuffle[:self.round], horse, *self.shuffle[self.round + 1:])
            self.round += 1
            self.order = places.move(self.order, horse, self.values[horse])
        elif k == "reveal":
            self.bets[move.seat] = move.horse
            self.sealed.discard(move.seat)
            if not self.sealed:
                self._finish_race()
        else:
            self._tip(move)
        self._settle()

    def announce(self, move: Move) -> Move:
        """G-10: ``move`` (legal now) as every seat may hear of it in a shared game: a shuffle, a dealt card and a
        bet hidden, a turn naming its horse, the rest as they are."""
        assert isinstance(move, Action)
        k = move.kind
        if k == "shuffle":
            return SECRET_SHUFFLE
        if k == "deal":
            return deal(move.seat, UNKNOWN)
        if k == "bet":
            return bet(move.seat, SECRET)
        if k == "turn":
            return turn(move.horse or self.shuffle[self.round])
        return move

    def roller(self) -> str | None:
        """Whose table draws the chance due (``Rolled``; with two tables, G-10): the leader's the programme and
        the shuffle, the dealt seat's its card; None when no chance is due."""
        return (self._due if self._step == "deal" else self.leader) if self.is_chance() else None

    def decks(self) -> tuple[str, dict[str, tuple[str, ...]]] | None:
        """G-10: the race's horse cards and tip cards, shuffled face down by both tables, from the shuffle to the
        race's reveal."""
        if self._step != "shuffle" and not self.secret and not self.sealed:
            return None
        tips = tuple(card_text((h, f)) for h in self.values for f in FACES for _ in range(COPIES[f]))
        return str(self.race), {"horses": self.starters, "tips": tips}

    def face_down(self) -> FaceDown | None:
        """G-10: the card a shared race needs next: the dealt seat's tip card, or the horse card the leader turns."""
        if self._step == "deal" and self.secret:
            dealt = len(self.played) + sum(map(len, self.hands.values())) if self.hands is not None else 0
            return FaceDown(str(self.race), "tips", dealt, self._due)
        if self._step == "turn" and self.shuffle[self.round] == SECRET:
            return FaceDown(str(self.race), "horses", self.round, None)
        return None

    def turn_up(self, card: str) -> Move:
        """The move the card ``face_down()`` named makes: the seat's deal, or the leader's turn."""
        if self._step == "deal":
            return parse(f"deal {self._due} {card}")
        return turn(card)

    def opens(self, move: Move) -> Move | None:
        """The sealed bet a reveal opens."""
        return bet(move.seat, move.horse) if isinstance(move, Action) and move.kind == "reveal" else None

    def hides(self, move: Move) -> bool:
        """A bet announced hidden (``bet p2 ?``): its seal must come before it."""
        return isinstance(move, Action) and move.kind == "bet" and move.secret

    def shown(self) -> Shown | None:
        """G-10, at the race's reveal: the horse cards in turn order and the tip cards each seat played."""
        if self._step != "reveal":
            return None
        played = {p: tuple(card_text((h, f)) for s, h, f in self.played if s == p) for p in self.players}
        return Shown(str(self.race), {"horses": self.turned}, played)

    def public(self) -> State:
        """G-10: this position as a spectator knows it: the order of the horse cards not turned, every hand's
        cards and every bet of the race in progress hidden (until its reveal, or the payout of the last race)."""
        out = self.clone()
        if self.shuffle:
            out.shuffle = self.turned + (SECRET,) * (len(self.shuffle) - self.round)
        if out.hands is not None:
            out.hands = {p: [UNKNOWN] * len(h) for p, h in out.hands.items()}
        if not self.winners:
            hidden = self.sealed if self.secret or self.sealed else {p for p, b in self.bets.items() if b is not None}
            out.sealed = set(hidden)
            out.bets = {p: SECRET if p in hidden else b for p, b in self.bets.items()}
        return out

    def tip_places(self, horse: str, face: str) -> int:
        """The places a tip of ``horse`` with ``face`` would move it this round (negative: it loses them): the
        card's value less the turned horse's (I-3), and never a loss for the turned favori (G-5). What a screen
        previews is this, so it cannot say other than what the tip does."""
        turned = self.shuffle[self.round - 1]
        v = self.values[turned]
        places_ = tip_value(face, self.is_last_round()) - v
        return 0 if horse == turned and v == FAVORI and places_ < 0 else places_

    def _tip(self, move: Action) -> None:
        seat, horse, face = move.seat, move.horse, move.face
        places_ = self.tip_places(horse, face)
        self.played.append((seat, horse, face))
        if self.hands is not None:
            hand = self.hands[seat]
            hand.remove((horse, face) if (horse, face) in hand else UNKNOWN)
        self.order = places.move(self.order, horse, places_)
        if len(self.played) == len(self.values) * len(self.players) and not self.sealed:
            self._finish_race()

    def _finish_race(self) -> None:
        """Payout inside the last tip's ``apply``; the finished race stays on show only at game end."""
        bets = {p: b for p, b in self.bets.items() if b is not None}
        self.last_race = pay(self.race, self.order, self.values, bets)
        for seat, coins in self.last_race.paid.items():
            self.coins[seat] += coins
        self.winners = game_winners(self.coins)
        if not self.winners:
            self.race += 1
            self._clear_race()

    def _settle(self) -> None:
        """Derive the step and the seat it concerns from the race fields."""
        seats = self._seats
        dealt = len(self.played) + (sum(map(len, self.hands.values())) if self.hands is not None else 0)
        self._due: str = self.leader
        if self.winners:
            self._step = "over"
        elif self.programme is None:
            self._step = "programme"
        elif not self.shuffle:
            self._step = "shuffle"
        elif self.hands is not None and dealt < len(self.values) * len(seats):
            self._step, self._due = "deal", seats[dealt % len(seats)]
        elif None in self.bets.values():
            self._step, self._due = "bet", seats[sum(b is not None for b in self.bets.values())]
        elif self.sealed and len(self.played) == len(self.values) * len(seats):
            self._step, self._due = "reveal", next(p for p in seats if p in self.sealed)
        else:
            done = len(self.played) - max(0, self.round - 1) * len(seats)
            if self.round == 0 or done == len(seats):
                self._step = "turn"
            else:
                self._step, self._due = "tip", seats[done]

    # -- the board ---------------------------------------------------------------------------------------

    def occupancy(self) -> dict[str, tuple[str, int]]:
        """G-2: each starter's pawn in its lane at its line's row; the owner is the horse, the count 1."""
        return {location(h, row): (h, 1) for row, line in enumerate(self.order, 1) for h in line}

    # -- identity, copies, hidden information -----------------------------------------------------------

    def key(self) -> tuple[object, ...]:
        return (self.players, self.cards, tuple(self.coins.values()), self.race, self.programme, self.order,
                self.shuffle, self.round, tuple(self.bets.values()), tuple(sorted(self.sealed)),
                None if self.hands is None else tuple(tuple(h) for h in self.hands.values()), tuple(self.played),
                self.winners, None if self.last_race is None else self.last_race.key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def clone(self) -> State:
        c = State.__new__(State)
        c.players, c.cards, c.coins, c.race = self.players, self.cards, dict(self.coins), self.race
        c.winners, c.last_race = self.winners, self.last_race
        c.programme, c.order, c.shuffle, c.round = self.programme, self.order, self.shuffle, self.round
        c.bets, c.sealed = dict(self.bets), set(self.sealed)
        c.hands = None if self.hands is None else {p: h[:] for p, h in self.hands.items()}
        c.played = self.played[:]
        c._step, c._due, c._seats = self._step, self._due, self._seats
        return c

    def determinize(self, player: str, rng: random.Random) -> State:
        """G-6: a copy where what ``player`` cannot see is drawn again: the order of the horse cards not
        yet turned, the other seats' bets (uniformly among the starters) and, when the engine deals, the
        other seats' hands (from the cards neither played nor in ``player``'s hand)."""
        out = self.clone()
        out.sealed = set()  # a world drawn whole: its bets are known, its race pays out at the last tip
        rest = [h for h in self.starters if h not in self.turned]  # the true order must not leak into the draw
        rng.shuffle(rest)
        out.shuffle = self.turned + tuple(rest)
        starters = self.starters
        for seat, horse in self.bets.items():
            if seat != player and horse is not None:
                out.bets[seat] = rng.choice(starters)
        if out.hands is not None:
            unseen = self.unplayed()
            for card in out.hands.get(player, ()):
                if card != UNKNOWN:
                    unseen[card] -= 1
            pool = [card for card, n in unseen.items() for _ in range(n)]
            rng.shuffle(pool)
            for seat, hand in out.hands.items():
                if seat != player:
                    out.hands[seat] = sorted((pool.pop() for _ in hand), key=card_sort_key)
        return out

    # -- serialising -------------------------------------------------------------------------------------

    def to_json(self) -> JsonDict:
        return {
            "game": self.game,
            "players": list(self.players),
            "cards": self.cards,
            "coins": dict(self.coins),
            "race": self.race,
            "leader": self.leader,
            "to_move": self.current_player,
            "winners": list(self.winners),
            "programme": self.programme,
            "values": dict(self.values),
            "order": [list(line) for line in self.order],
            "round": self.round,
            "turned": list(self.turned),
            "bets": dict(self.bets),
            "last_race": None if self.last_race is None else {
                "race": self.last_race.race, "winners": list(self.last_race.winners),
                "bets": dict(self.last_race.bets), "paid": dict(self.last_race.paid)},
            # G-8: what the digest's keys leave out but an exact round trip needs (hidden from players)
            "shuffle": list(self.shuffle),
            "hands": None if self.hands is None else {p: [card_text(c) for c in h] for p, h in self.hands.items()},
            "played": [list(p) for p in self.played],
            "sealed": [p for p in self.players if p in self.sealed],  # G-10
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state, rejecting anything inconsistent (journals can be hand-edited or torn)."""
        f = read(data)
        s = cls.__new__(cls)
        s.players, s.cards, s.coins, s.race, s.winners = f.players, f.cards, f.coins, f.race, f.winners
        s.last_race, s.programme, s.order, s.shuffle, s.round = f.last_race, f.programme, f.order, f.shuffle, f.round
        s.bets, s.hands, s.played, s.sealed = f.bets, f.hands, f.played, f.sealed
        s._seats = turn_order(s.players, s.leader)
        s._settle()
        if s.current_player != f.to_move:
            raise ValueError(f"to_move: the other fields give {s.current_player!r}, got {f.to_move!r}")
        return s


def new_game(*, players: int = 4, cards: str = "table") -> State:
    """A game at the first race's programme draw; ``players`` 2..7 seats ``p1``..; ``cards`` ``"table"``
    (players hold physical tip cards) or ``"deal"`` (the engine deals them as chance events)."""
    return State(players, cards)
