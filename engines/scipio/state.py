"""The Scipio rules as a state machine of decisions and chance events.

Simultaneous secret choices (organisations, card placements) are asked one army after the other, Rome
first; the engine holds Rome's choice hidden until both are in, and ``determinize`` lets Carthage's bots
search without seeing it. The New Orders deck is the multiset of cards not yet drawn; each draw is a
chance event over it (a shuffled deck drawn from the top gives exactly these odds), and the Deserter's
reshuffle puts all ten cards back into it.

Steps (``state.step``): ``org`` -> ``tiles`` (chance) -> per phase ``place`` -> ``remove`` (one per
damaged field) -> ``offer`` (draw or pass) -> ``card`` (chance) -> the card's own step (``redeploy``,
``opportune``, ``opportune_draw``, ``relief``, ``deserter``, ``general``) -> the next phase, or after
phase 2 ``tiles`` again. ``over`` once a formation is empty.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import permutations
from typing import Any, Final

from engines.base import IllegalMoveError, JsonDict, Move, check_players
from engines.scipio.moves import PASS, Order, card, deserter, draw, parse, place, redeploy, relief, remove, tiles
from engines.scipio.organisations import Organisations
from engines.scipio.rules import (
    ADJACENT,
    ARMIES,
    CARDS,
    FIELDS,
    FORMATIONS,
    NEW_ORDERS,
    DamageStep,
    field_formations,
    other,
    plan_damage,
)

PLAYERS: Final = ARMIES
LOCATIONS: Final = tuple(f"{army}:{f}" for army in ARMIES for f in FORMATIONS)
TILE_ORDERS: Final = tuple(tiles((a, b, c)) for a, b, c in permutations((1, 2, 3)))
STEPS: Final = ("org", "tiles", "place", "remove", "offer", "card", "redeploy", "opportune", "opportune_draw",
                "relief", "deserter", "general", "over")
_DRAWS: Final = {army: draw(army) for army in ARMIES}  # built once: the bots weigh the offer after every removal
_DRAWER_STEPS: Final = ("redeploy", "opportune", "opportune_draw", "relief", "general")


@cache
def _placements(army: str, hand: tuple[int, ...]) -> tuple[Move, ...]:
    """Every way to put three cards of ``hand`` on the fields (built once per hand: bots ask often)."""
    return tuple(place(army, (y, p, g)) for y, p, g in permutations(hand, 3))


@cache
def _placements_of(hand: tuple[int, ...]) -> dict[tuple[int, ...], tuple[dict[str, int], list[int], _CardsKey]]:
    """Per three cards of ``hand`` put down (by field): the placed cards, and the hand left as a position holds
    it and as its key reads it, as ``_do_place`` makes them. Built once per hand and shared by every position
    ``State.successors`` builds: a position's containers never change in place."""
    out: dict[tuple[int, ...], tuple[dict[str, int], list[int], _CardsKey]] = {}
    for nums in permutations(hand, 3):
        left = [c for c in hand if c not in nums]  # cards are unique
        out[nums] = dict(zip(FIELDS, nums, strict=True)), left, tuple(left)
    return out


@cache
def _removals(army: str, field: str, amount: int, first: int, second: int) -> tuple[Move, ...]:
    """Every split of ``amount`` over a field's formations holding ``first`` and ``second`` tokens that
    leaves both non-empty (built once per case: bots weigh every removal of every plan)."""
    return tuple(remove(army, field, (x, amount - x)) for x in range(amount + 1)
                 if x < first and amount - x < second)


def _cannot_take(plan: Sequence[DamageStep], troops: Mapping[str, list[int] | None]) -> str | None:
    """The army that cannot take ``plan``'s first damage step without emptying a formation, and so loses
    (I-4), or ``None``. One place for the rule that ``apply``, the bots' fast ``successors`` and
    ``from_json`` all judge by."""
    if not plan:
        return None
    field, army, amount, _ = plan[0]
    formations = troops[army]
    assert formations is not None, "organisation not entered yet"
    i, j = field_formations(field)
    return army if amount > formations[i] + formations[j] - 2 else None


def _versus(mine: int, theirs: int) -> int:
    """How a card fares against the opponent's in one field, all ``plan_damage`` reads of the pair: 0 equal,
    1 lower, 2 lower with the opponent's shield break, 3 higher, 4 higher with a shield break of its own."""
    if mine == theirs:
        return 0
    if mine < theirs:
        return 2 if theirs >= 2 * mine else 1
    return 4 if mine >= 2 * theirs else 3


_VERSUS: Final = {theirs: {mine: _versus(mine, theirs) for mine in CARDS} for theirs in CARDS}
"""``_versus`` by the opponent's card, then by one's own. Why: placements whose cards fare alike in every field
deal the same damage (the troops and tiles being the same), so ``State.successors`` works each out once."""


_CardsKey = tuple[int, ...]
"""One army's hand, or its placed or shown cards, in ``State.key``."""
_Split = tuple[dict[str, list[int] | None], dict[str, int], tuple[object, ...], tuple[int, ...], str | None]
"""A removal's troops and tokens removed, the key's troops and tokens removed after it, and the army that loses
as the next damage step is asked for, if one does (``State._splits``)."""
_NO_CARDS: Final = tuple(() for _ in ARMIES)  # ``State.key``'s placed or shown cards when there are none
_FULL_HANDS: Final = tuple(CARDS for _ in ARMIES)  # ``State.key``'s hands at the start of a round


def _cards_key(placed: dict[str, int] | None) -> tuple[int, ...]:
    """One army's placed or shown cards for ``State.key``: per field in FIELDS order, ``()`` for none."""
    return tuple(map(placed.__getitem__, FIELDS)) if placed else ()


def location(army: str, formation: int) -> str:
    """The board location of one of an army's formations: ``"rome:yellow.0"``."""
    return f"{army}:{FORMATIONS[formation]}"


class State:
    """A Scipio position; see the module docstring for the order of steps.

    Why the containers are never changed in place (``apply`` builds a new list or dict for whatever it
    changes): bots clone a position for every move they weigh, and a clone can then share all of them,
    and the cached ``key`` with them. Positions change only through ``apply`` (and ``from_json`` before
    first use); code that edits the containers by hand must not use the position's key afterwards, nor
    ``successors`` or the bots' evaluation (``_SPLITS`` and ``engines.scipio.heuristic`` remember what they
    worked out by container).
    """

    __slots__ = ("_key", "_memo", "_winner", "deck", "discard", "drawer", "hands", "moves_left", "phase", "placed",
                 "plan", "removed", "round", "shown", "step", "tiles", "troops")
    game: Final = "scipio"
    players: Final = PLAYERS

    def __init__(self) -> None:
        self.step = "org"
        self.round = 1
        self.phase = 1
        self.troops: dict[str, list[int] | None] = {a: None for a in ARMIES}
        self.tiles: dict[str, int] = {}
        self.hands: dict[str, list[int]] = {a: list(CARDS) for a in ARMIES}
        self.placed: dict[str, dict[str, int] | None] = {a: None for a in ARMIES}
        self.shown: dict[str, dict[str, int]] = {a: {} for a in ARMIES}  # phase-1 cards, face up in phase 2
        self.plan: list[DamageStep] = []
        self.removed: dict[str, int] = {a: 0 for a in ARMIES}
        self.drawer: str | None = None
        self.moves_left = 0  # Redeployment steps still allowed
        self.deck: dict[str, int] = dict(NEW_ORDERS)
        self.discard: dict[str, int] = {name: 0 for name in NEW_ORDERS}
        self._winner: str | None = None
        self._key: tuple[object, ...] | None = None  # see ``key``: dropped by every change
        self._memo: tuple[Any, ...] | None = None  # see ``key``: parts of the last key and what they came from

    # -- who decides ------------------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        """Who decides now (``None``: chance or the end). The steps whole-turn planning meets most are asked
        first: bots ask this for every position they reach."""
        s = self.step
        if s == "place":
            return "rome" if self.placed["rome"] is None else "carthage"
        if s == "remove":
            return self.plan[0][1]
        if s == "offer":
            return self._more_removed()
        if s in ("over", "tiles", "card"):
            return None
        if s == "org":
            return "rome" if self.troops["rome"] is None else "carthage"
        assert self.drawer is not None
        return other(self.drawer) if s == "deserter" else self.drawer

    @property
    def winner(self) -> str | None:
        return self._winner

    def is_over(self) -> bool:
        return self.step == "over"

    def is_chance(self) -> bool:
        return self.step in ("tiles", "card")

    def returns(self) -> dict[str, float]:
        return {a: float(a == self._winner) if self._winner else 0.0 for a in ARMIES}

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.step == "tiles":
            return [(m, 1 / len(TILE_ORDERS)) for m in TILE_ORDERS]
        if self.step == "card":
            total = sum(self.deck.values())
            return [(card(name), n / total) for name, n in self.deck.items() if n]
        return []

    # -- legal moves ------------------------------------------------------------------------------------

    def legal_moves(self) -> Sequence[Move]:
        player = self.current_player
        if player is None:
            return []
        s = self.step
        if s == "org":
            return Organisations(player)
        if s == "place":
            return _placements(player, tuple(self.hands[player]))
        if s == "remove":
            field, army, amount, _ = self.plan[0]
            troops = self._troops(army)
            i, j = field_formations(field)
            return _removals(army, field, amount, troops[i], troops[j])
        if s in ("offer", "opportune_draw"):
            return [_DRAWS[player], PASS]
        if s in ("redeploy", "opportune"):
            troops = self._troops(player)
            return [redeploy(i, j) for i in range(len(FORMATIONS)) if troops[i] >= 2 for j in ADJACENT[i]] + [PASS]
        if s == "relief":
            return [relief(i, j) for i in range(len(FORMATIONS)) for j in range(i + 1, len(FORMATIONS))] + [PASS]
        if s == "deserter":
            assert self.drawer is not None
            return [deserter(i) for i in range(len(FORMATIONS))]
        if s == "general":
            return list(TILE_ORDERS)
        raise AssertionError(s)

    def parse_move(self, text: str) -> Move:
        move = parse(text)
        if not self._allows(move):
            raise IllegalMoveError(f"{move} is not legal now ({self.describe()})")
        return move

    def describe(self) -> str:
        """What the game waits for, in words (error messages, screens)."""
        who = self.current_player
        if self.step == "over":
            return f"game over, {self._winner} won"
        if who is None:
            return "tiles to shuffle" if self.step == "tiles" else "a New Orders card to draw"
        return f"{who} to {self.step.replace('_', ' ')}, round {self.round} phase {self.phase}"

    # -- applying ---------------------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        if not isinstance(move, Order) or not self._allows(move):
            raise IllegalMoveError(f"{move} is not legal now ({self.describe()})")
        self._key = None
        _APPLY[move.kind](self, move)

    def _allows(self, move: Order) -> bool:
        if move.kind == "place":  # the bots' hot path: no need to list all 120 placements
            if self.step != "place" or len(move.nums) != 3:
                return False
            hand, (y, p, g) = self.hands[move.army], move.nums
            return (move.army == self.current_player and y != p and y != g and p != g
                    and y in hand and p in hand and g in hand)
        if self.is_chance():
            return any(m == move for m, _ in self.chance_outcomes())
        return move in self.legal_moves()

    def _do_org(self, move: Order) -> None:
        self.troops = {**self.troops, move.army: list(move.nums)}
        if all(t is not None for t in self.troops.values()):
            self.step = "tiles"

    def _do_tiles(self, move: Order) -> None:
        self.tiles = dict(zip(FIELDS, move.nums, strict=True))
        if self.step == "general":  # I-6: the chosen order stands for the next round
            self._next_round()
        else:
            self.step = "place"

    def _do_place(self, move: Order) -> None:
        army, nums = move.army, move.nums
        self.placed = {**self.placed, army: dict(zip(FIELDS, nums, strict=True))}
        self.hands = {**self.hands, army: [c for c in self.hands[army] if c not in nums]}  # cards are unique
        if None not in self.placed.values():
            self._reveal()

    def _reveal(self) -> None:
        rome, carthage = self.placed["rome"], self.placed["carthage"]
        assert rome is not None and carthage is not None
        r, c = self._troops("rome"), self._troops("carthage")  # a field's formations: FORMATIONS 2k and 2k+1
        self.plan = plan_damage(tuple(map(rome.__getitem__, FIELDS)), tuple(map(carthage.__getitem__, FIELDS)),
                                (r[0] + r[1], r[2] + r[3], r[4] + r[5]), (c[0] + c[1], c[2] + c[3], c[4] + c[5]),
                                tuple(map(self.tiles.__getitem__, FIELDS)))
        self.removed = {a: 0 for a in ARMIES}
        self._next_damage()

    def _next_damage(self) -> None:
        """Ask for the next removal, or end the game when it cannot be taken without emptying (I-4)."""
        if self.plan:
            self.step = "remove"
            loser = _cannot_take(self.plan, self.troops)
            if loser is not None:
                self._lose(loser)
            return
        if self._more_removed() is not None and self.deck_left():
            self.step = "offer"
        else:
            self._end_phase()

    def _do_remove(self, move: Order) -> None:
        troops = self._edit_troops(move.army)
        i, j = field_formations(move.name)
        troops[i] -= move.nums[0]
        troops[j] -= move.nums[1]
        self.removed = {**self.removed, move.army: self.removed[move.army] + sum(move.nums)}
        self.plan = self.plan[1:]
        self._next_damage()

    def _do_draw(self, move: Order) -> None:
        self.drawer = move.army
        self.step = "card"

    def _do_pass(self, move: Order) -> None:
        self._end_orders()

    def _do_card(self, move: Order) -> None:
        name = move.name
        self.deck = {**self.deck, name: self.deck[name] - 1}
        if name != "deserter":
            self.discard = {**self.discard, name: self.discard[name] + 1}
        self.step = {"redeployment": "redeploy", "opportune": "opportune", "relief": "relief",
                     "deserter": "deserter", "general": "general"}[name]
        self.moves_left = 2 if name == "redeployment" else 1

    def _do_redeploy(self, move: Order) -> None:
        assert self.drawer is not None
        troops = self._edit_troops(self.drawer)
        troops[move.nums[0]] -= 1
        troops[move.nums[1]] += 1
        self.moves_left -= 1
        if self.step == "opportune":
            self._opportune_draw()
        elif self.moves_left == 0:
            self._end_orders()

    def _do_relief(self, move: Order) -> None:
        assert self.drawer is not None
        troops = self._edit_troops(self.drawer)
        a, b = move.nums
        troops[a], troops[b] = troops[b], troops[a]
        self._end_orders()

    def _do_deserter(self, move: Order) -> None:
        drawer = self.drawer
        assert drawer is not None
        troops = self._edit_troops(drawer)
        troops[move.nums[0]] -= 1
        if troops[move.nums[0]] == 0:
            self._lose(drawer)
            return
        self.deck = dict(NEW_ORDERS)  # discard, deck and the Deserter: all ten shuffled anew
        self.discard = {name: 0 for name in NEW_ORDERS}
        self._end_orders()

    def _end_orders(self) -> None:
        """An optional step declined or a card's effect done: Opportune Move still offers its draw."""
        if self.step == "opportune":
            self._opportune_draw()
            return
        self.drawer = None
        self._end_phase()

    def _opportune_draw(self) -> None:
        if self.deck_left():
            self.step = "opportune_draw"
        else:  # I-5: nothing left to draw
            self.drawer = None
            self._end_phase()

    def _end_phase(self) -> None:
        self.plan = []
        if self.phase == 1:
            self.shown = {a: p or {} for a, p in self.placed.items()}
            self.placed = {a: None for a in ARMIES}
            self.phase = 2
            self.step = "place"
        else:
            self.round += 1
            self._new_round()
            self.step = "tiles"

    def _next_round(self) -> None:
        """Renowned General: the round ends at once; phase 2 of it is not played (I-6)."""
        self.round += 1
        self._new_round()
        self.step = "place"

    def _new_round(self) -> None:
        self.phase = 1
        self.hands = {a: list(CARDS) for a in ARMIES}
        self.placed = {a: None for a in ARMIES}
        self.shown = {a: {} for a in ARMIES}
        self.drawer = None
        self.plan = []

    def _lose(self, army: str) -> None:
        self._winner = other(army)
        self.step = "over"
        self.drawer = None

    # -- what the step offers -------------------------------------------------------------------------

    def _more_removed(self) -> str | None:
        rome, carthage = self.removed["rome"], self.removed["carthage"]
        if rome == carthage:
            return None
        return "rome" if rome > carthage else "carthage"

    def _troops(self, army: str) -> list[int]:
        troops = self.troops[army]
        assert troops is not None, "organisation not entered yet"
        return troops

    def _edit_troops(self, army: str) -> list[int]:
        """The army's formations as a fresh list this position alone holds, ready to change (see ``State``)."""
        troops = self._troops(army)[:]
        self.troops = {**self.troops, army: troops}
        return troops

    def deck_left(self) -> int:
        """New Orders cards still to draw (I-5: none left means no draw is offered)."""
        return sum(self.deck.values())

    def formation(self, army: str, index: int) -> int:
        """Tokens in one formation (0 before the army's organisation is in)."""
        troops = self.troops[army]
        return 0 if troops is None else troops[index]

    def total(self, army: str) -> int:
        troops = self.troops[army]
        return 0 if troops is None else sum(troops)

    def pending_placement(self, army: str) -> dict[str, int] | None:
        """An army's cards of this phase once placed (the referee's view: hidden from the opponent)."""
        return self.placed[army]

    def occupancy(self) -> dict[str, tuple[str, int]]:
        """``"rome:yellow.0"`` -> (army, tokens) for every formation holding tokens."""
        return {location(a, i): (a, n) for a in ARMIES if (t := self.troops[a]) is not None
                for i, n in enumerate(t) if n}

    def key(self) -> tuple[object, ...]:
        """Equal exactly for equal positions. Cached until the next change: bots key every position they
        reach, and a clone shares its original's key until it is changed itself.

        Why the memo: a move changes few containers (a placement never the troops, a removal never the
        cards), and a clone keeps its original's containers, so the parts of the last key computed in the
        family whose containers are the very same objects are reused (containers never change in place)."""
        key = self._key
        if key is None:
            troops, tiles, shown, deck, discard = self.troops, self.tiles, self.shown, self.deck, self.discard
            memo = self._memo
            if memo is not None and memo[0] is troops:
                troops_key = memo[1]
            else:
                troops_key = tuple(tuple(t) if t else () for t in troops.values())
            if memo is not None and memo[2] is tiles and memo[3] is shown and memo[4] is deck and memo[5] is discard:
                rare = memo[6]  # the tiles, the face-up cards and the New Orders change a few times a round
            else:
                rare = (tuple(map(tiles.get, FIELDS, (0, 0, 0))), tuple(map(_cards_key, shown.values())),
                        tuple(deck.values()), tuple(discard.values()))
            self._memo = (troops, troops_key, tiles, shown, deck, discard, rare)
            key = self._key = (
                self.step, self.round, self.phase, troops_key,
                tuple(map(tuple, self.hands.values())),
                tuple(map(_cards_key, self.placed.values())),
                tuple(self.plan), tuple(self.removed.values()), self.drawer, self.moves_left, self._winner, rare)
        return key

    def __eq__(self, other_: object) -> bool:
        if not isinstance(other_, State):
            return NotImplemented
        return self.key() == other_.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # -- hidden information -----------------------------------------------------------------------------

    def determinize(self, player: str, rng: random.Random) -> State:
        """A copy where what ``player`` cannot see yet (the opponent's organisation or cards entered
        first, still face down) is drawn at random among the opponent's legal choices."""
        out = self.clone()
        opponent = other(player)
        if self.step == "org" and player == "carthage" and self.troops["rome"] is not None:
            orgs = Organisations(opponent)
            out.troops = {**out.troops, opponent: list(orgs[rng.randrange(len(orgs))].nums)}
            out._key = None
        if self.step == "place" and player == "carthage" and self.placed["rome"] is not None:
            hand = self.hands[opponent] + list(self.placed["rome"].values())
            chosen = rng.sample(sorted(hand), 3)
            out.placed = {**out.placed, opponent: dict(zip(FIELDS, chosen, strict=True))}
            out.hands = {**out.hands, opponent: [c for c in sorted(hand) if c not in chosen]}
            out._key = None
        return out

    # -- copying and serialising ------------------------------------------------------------------------

    def clone(self) -> State:
        """A copy sharing every container: none is ever changed in place (see ``State``)."""
        other_ = State.__new__(State)
        other_.step, other_.round, other_.phase = self.step, self.round, self.phase
        other_.troops, other_.tiles, other_.hands = self.troops, self.tiles, self.hands
        other_.placed, other_.shown, other_.plan, other_.removed = self.placed, self.shown, self.plan, self.removed
        other_.drawer, other_.moves_left = self.drawer, self.moves_left
        other_.deck, other_.discard = self.deck, self.discard
        other_._winner, other_._key, other_._memo = self._winner, self._key, self._memo
        return other_

    def successors(self, moves: Sequence[Order]) -> list[tuple[Order, State]]:
        """The position after each of ``moves``, exactly as ``apply`` would leave it, for moves known to be
        legal here (the bots' candidates).

        Why: whole-turn planning reaches every placement of a turn and every removal and draw offer after it,
        hundreds per search node, and ``apply`` would check each move against the legal ones again. The key of
        a position after one of those moves is mostly its parent's (the cards or the troops change, and what
        the reveal, the damage step or the phase's end decide; the tiles and the New Orders do not), so it is
        built from the parent's (``_key_after``).
        """
        out: list[tuple[Order, State]] = []
        step = self.step
        if step not in ("place", "remove", "offer"):
            for move in moves:
                t = self.clone()
                t._key = None
                _APPLY[move.kind](t, move)
                out.append((move, t))
            return out
        parent: tuple[Any, ...] = self.key()  # its parts' types are ``key``'s
        if step == "offer":  # draw, or pass and end the phase
            for move in moves:
                t = self.clone()
                t._key = None
                _APPLY[move.kind](t, move)
                t._key = t._key_after(parent, parent[3], parent[4], parent[5])
                out.append((move, t))
            return out
        if step == "remove":  # ``_do_remove``, with what every split shares worked out once
            rest, rest_key, splits = self._splits(moves, parent[3])
            for move, (troops_after, removed, troops_key, removed_key, loser) in zip(moves, splits, strict=True):
                t = self.clone()
                t.troops, t.removed, t.plan = troops_after, removed, rest
                if rest:  # ``_next_damage`` with its check worked out in ``_splits``, and ``_key_after``'s key
                    t.step = "remove"
                    if loser is not None:
                        t._lose(loser)
                    t._key = (t.step, parent[1], parent[2], troops_key, parent[4], parent[5], rest_key, removed_key,
                              t.drawer, parent[9], t._winner, parent[11])
                else:
                    t._next_damage()
                    t._key = t._key_after(parent, troops_key, parent[4], parent[5])
                out.append((move, t))
            return out
        _SPLITS.clear()  # a new turn's placements: the removals remembered so far were of other turns
        army = self.current_player
        assert army is not None
        index = ARMIES.index(army)
        placements = _placements_of(tuple(self.hands[army]))
        hands_key, placed_key = parent[4], parent[5]
        first = self.placed[other(army)]  # Rome's cards when Carthage places: the reveal follows
        if first is not None:  # what ``_reveal`` reads, the same for every placement
            r, c = self._troops("rome"), self._troops("carthage")
            field_troops = (r[0] + r[1], r[2] + r[3], r[4] + r[5]), (c[0] + c[1], c[2] + c[3], c[4] + c[5])
            first_cards, tiles_ = tuple(map(first.__getitem__, FIELDS)), tuple(map(self.tiles.__getitem__, FIELDS))
            removed = {a: 0 for a in ARMIES}  # shared: containers never change in place
            removed_key = tuple(removed.values())
            versus_y, versus_p, versus_g = (_VERSUS[card] for card in first_cards)
            # by the placement's ``_VERSUS`` per field: the damage plan, as the key holds it, and the army that
            # cannot take its first step (``_next_damage``)
            plans: dict[tuple[int, int, int], tuple[list[DamageStep], tuple[DamageStep, ...], str | None]] = {}
        for move in moves:
            nums = move.nums
            cards, left, left_key = placements[nums]
            t = self.clone()
            t.placed = {**self.placed, army: cards}
            t.hands = {**self.hands, army: left}
            hands = (*hands_key[:index], left_key, *hands_key[index + 1:])
            placed = (*placed_key[:index], nums, *placed_key[index + 1:])
            if first is None:
                t._key = (*parent[:4], hands, placed, *parent[6:])
            else:  # ``_reveal``
                t._key = None
                y, p, g = nums
                versus = versus_y[y], versus_p[p], versus_g[g]
                dealt = plans.get(versus)
                if dealt is None:  # one list per damage dealt, shared by the placements dealing it
                    plan = plan_damage(first_cards, nums, *field_troops, tiles_) if index else \
                        plan_damage(nums, first_cards, *field_troops, tiles_)
                    dealt = plans[versus] = plan, tuple(plan), _cannot_take(plan, self.troops)
                plan, plan_key, loser = dealt
                t.plan = plan
                t.removed = removed
                if plan:  # ``_next_damage`` and ``_key_after`` with what the damage dealt decides worked out once
                    t.step = "remove"
                    if loser is not None:
                        t._lose(loser)
                    t._key = (t.step, parent[1], parent[2], parent[3], hands, placed, plan_key, removed_key, t.drawer,
                              parent[9], t._winner, parent[11])
                else:
                    t._next_damage()
                    t._key = t._key_after(parent, parent[3], hands, placed)
            out.append((move, t))
        return out

    def _splits(self, moves: Sequence[Order], troops_key: tuple[object, ...]
                ) -> tuple[list[DamageStep], tuple[DamageStep, ...], list[_Split]]:
        """For a removal step, the damage left (and as the key holds it) and, per split in ``moves``, the troops,
        the tokens removed and the key's troops and tokens removed after it (``troops_key``: the key's troops
        now), as ``_do_remove`` leaves them, and the army that cannot take the next damage step after it
        (``None``: none, or no step left).

        Why remembered (``_SPLITS``): a turn's placements that deal the same damage share their troops, their
        damage plan (see ``successors``) and what was removed, so whole-turn planning asks for the very same
        removals after each of them; the positions after them can then share these containers in turn, which
        never change in place."""
        troops_now, plan, removed_now = self.troops, self.plan, self.removed
        memo_key = (id(troops_now), id(plan), id(removed_now), id(moves))
        known = _SPLITS.get(memo_key)
        if known is not None:
            return known[1], known[2], known[3]
        field, remover, _, _ = plan[0]
        i, j = field_formations(field)
        troops, index = self._troops(remover), ARMIES.index(remover)
        taken = removed_now[remover]
        rest = plan[1:]
        splits: list[_Split] = []
        for move in moves:
            from_i, from_j = move.nums
            left = troops[:]
            left[i] -= from_i
            left[j] -= from_j
            troops_after = {**troops_now, remover: left}
            loser = _cannot_take(rest, troops_after)  # that army loses (``_next_damage``)
            removed = {**removed_now, remover: taken + from_i + from_j}
            splits.append((troops_after, removed, (*troops_key[:index], tuple(left), *troops_key[index + 1:]),
                           tuple(removed.values()), loser))
        if len(_SPLITS) >= _SPLITS_LIMIT:
            _SPLITS.clear()
        rest_key = tuple(rest)
        _SPLITS[memo_key] = ((troops_now, plan, removed_now, moves), rest, rest_key, splits)  # holds them: no id reused
        return rest, rest_key, splits

    def _key_after(self, parent: tuple[Any, ...], troops: object, hands: object,
                   placed: object) -> tuple[object, ...]:
        """This position's key, built from the key of the position one placement, removal or answer to the
        draw offer before it and the key's parts for the troops, hands and placed cards it has now (what
        ``key`` would compute: the phase goes on, or it ends as ``_end_phase`` ends it)."""
        step, rare, removed = self.step, parent[11], tuple(self.removed.values())
        if step in ("remove", "offer", "card", "over"):  # the phase goes on
            return (step, parent[1], parent[2], troops, hands, placed, tuple(self.plan), removed, self.drawer,
                    parent[9], self._winner, rare)
        if self.phase == 2:  # phase 1 ended: its cards are face up
            return (step, parent[1], 2, troops, hands, _NO_CARDS, (), removed, None, parent[9], None,
                    (rare[0], placed, rare[2], rare[3]))
        return (step, self.round, 1, troops, _FULL_HANDS, _NO_CARDS, (), removed, None, parent[9], None,
                (rare[0], _NO_CARDS, rare[2], rare[3]))  # a new round

    def to_json(self) -> JsonDict:
        return {
            "game": self.game,
            "step": self.step,
            "round": self.round,
            "phase": self.phase,
            "troops": {a: (dict(zip(FORMATIONS, t, strict=True)) if t is not None else None)
                       for a, t in self.troops.items()},
            "tiles": dict(self.tiles),
            "hands": {a: list(h) for a, h in self.hands.items()},
            "placed": {a: (dict(p) if p is not None else None) for a, p in self.placed.items()},
            "shown": {a: dict(p) for a, p in self.shown.items()},
            "plan": [list(step) for step in self.plan],
            "removed": dict(self.removed),
            "drawer": self.drawer,
            "moves_left": self.moves_left,
            "deck": dict(self.deck),
            "discard": dict(self.discard),
            "winner": self._winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state, rejecting anything inconsistent (journals can be hand-edited or torn)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a Scipio state is a JSON object, got {type(data).__name__}")
        if data.get("game") != "scipio":
            raise ValueError(f"game: expected 'scipio', got {data.get('game')!r}")
        s = cls()
        s.step = _choice(data.get("step"), STEPS, "step")
        s.round = _int(data.get("round"), "round", 1, 10_000)
        s.phase = _int(data.get("phase"), "phase", 1, 2)
        troops = _mapping(data.get("troops"), "troops", ARMIES)
        for a in ARMIES:
            t = troops[a]
            s.troops[a] = None if t is None else [_int(v, f"troops.{a}.{f}", 0, 34)
                                                  for f, v in _mapping(t, f"troops.{a}", FORMATIONS).items()]
        tiles_ = data.get("tiles")
        if tiles_:
            s.tiles = {f: _int(v, f"tiles.{f}", 1, 3) for f, v in _mapping(tiles_, "tiles", FIELDS).items()}
            if sorted(s.tiles.values()) != [1, 2, 3]:
                raise ValueError(f"tiles: each of 1, 2, 3 once, got {s.tiles}")
        hands = _mapping(data.get("hands"), "hands", ARMIES)
        s.hands = {a: [_card(c, f"hands.{a}") for c in _list(hands[a], f"hands.{a}")] for a in ARMIES}
        placed = _mapping(data.get("placed"), "placed", ARMIES)
        s.placed = {a: (None if p is None else {f: _card(v, f"placed.{a}.{f}")
                                                for f, v in _mapping(p, f"placed.{a}", FIELDS).items()})
                    for a, p in placed.items()}
        shown = _mapping(data.get("shown"), "shown", ARMIES)
        s.shown = {a: {} if p == {} else {f: _card(v, f"shown.{a}.{f}")
                                         for f, v in _mapping(p, f"shown.{a}", FIELDS).items()}
                   for a, p in shown.items()}
        s.plan = []
        for i, entry in enumerate(_list(data.get("plan"), "plan")):
            entry = _list(entry, f"plan[{i}]")
            if len(entry) != 4:
                raise ValueError(f"plan[{i}]: expected [field, army, amount, shield_break], got {entry!r}")
            s.plan.append((_choice(entry[0], FIELDS, f"plan[{i}].field"),
                           check_players(entry[1], ARMIES, f"plan[{i}].army"),
                           _int(entry[2], f"plan[{i}].amount", 1, 4), bool(entry[3])))
        s.removed = {a: _int(v, f"removed.{a}", 0, 34) for a, v in _mapping(data.get("removed"), "removed",
                                                                            ARMIES).items()}
        drawer = data.get("drawer")
        s.drawer = None if drawer is None else check_players(drawer, ARMIES, "drawer")
        s.moves_left = _int(data.get("moves_left", 0), "moves_left", 0, 2)
        s.deck = {n: _int(v, f"deck.{n}", 0, NEW_ORDERS[n]) for n, v in _mapping(data.get("deck"), "deck",
                                                                               NEW_ORDERS).items()}
        s.discard = {n: _int(v, f"discard.{n}", 0, NEW_ORDERS[n])
                     for n, v in _mapping(data.get("discard"), "discard", NEW_ORDERS).items()}
        winner = data.get("winner")
        s._winner = None if winner is None else check_players(winner, ARMIES, "winner")
        _check(s)
        return s


_SPLITS: dict[tuple[int, int, int, int],
              tuple[tuple[object, ...], list[DamageStep], tuple[DamageStep, ...], list[_Split]]] = {}
"""``State._splits`` by the identity of the troops, damage plan, removed tokens and moves it was asked for,
each entry holding those objects (so their identities are not reused while it lives). Emptied as a new turn's
placements are weighed, and at ``_SPLITS_LIMIT`` entries: its use is within one whole-turn search, and what it
holds stays alive only that long."""
_SPLITS_LIMIT: Final = 4096

_APPLY: Final[dict[str, Callable[[State, Order], None]]] = {
    "org": State._do_org, "tiles": State._do_tiles, "place": State._do_place, "remove": State._do_remove,
    "draw": State._do_draw, "pass": State._do_pass, "card": State._do_card, "redeploy": State._do_redeploy,
    "relief": State._do_relief, "deserter": State._do_deserter,
}  # ``apply``'s dispatch on the move's kind, looked up once


def _check(s: State) -> None:
    """Cross-field consistency a hand edit or a torn write could break."""
    if (s.step == "over") != (s._winner is not None):
        raise ValueError("winner: set exactly when step is 'over'")
    if s.step not in ("org", "over") and any(t is None for t in s.troops.values()):
        raise ValueError("troops: both organisations must be entered after setup")
    if s.step not in ("org", "tiles") and not s.tiles:
        raise ValueError("tiles: missing after the first shuffle")
    if s.step == "remove" and not s.plan:
        raise ValueError("plan: a removal is due but no damage is pending")
    if s.step in (*_DRAWER_STEPS, "deserter", "card") and s.drawer is None:
        raise ValueError(f"drawer: step {s.step} needs the drawing army")
    if s.step == "card" and not sum(s.deck.values()):
        raise ValueError("deck: a draw is due from an empty deck")
    if s.step == "offer" and (s._more_removed() is None or not s.deck_left()):
        raise ValueError("removed: a draw is offered only to the army that removed more, from a non-empty deck")
    if s.step == "remove" and _cannot_take(s.plan, s.troops) is not None:
        raise ValueError("plan: the pending damage empties a formation, so the game should be over")
    if s.step in ("redeploy", "opportune") and s.moves_left < 1:
        raise ValueError(f"moves_left: step {s.step} needs a move left")
    if any(s.deck[n] + s.discard[n] > NEW_ORDERS[n] for n in NEW_ORDERS):
        raise ValueError("deck, discard: more New Orders cards than the game has")
    if s.step != "over" and any(len(p) != (0 if s.phase == 1 else len(FIELDS)) for p in s.shown.values()):
        raise ValueError("shown: phase-1 cards are face up in phase 2 only, one per field")
    for a in ARMIES:
        t = s.troops[a]
        if t is not None and s.step not in ("over",) and min(t) < 1:
            raise ValueError(f"troops.{a}: a formation is empty but the game is not over")
        cards = list(s.hands[a]) + list((s.placed[a] or {}).values()) + list(s.shown[a].values())
        if sorted(cards) != list(CARDS):
            raise ValueError(f"hands.{a}: hand, placed and shown cards must be {list(CARDS)} once each")


def _choice(value: object, allowed: Sequence[str], key: str) -> str:
    if value not in allowed:
        raise ValueError(f"{key}: expected one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def _int(value: object, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{key}: expected a whole number {low}..{high}, got {value!r}")
    return value


def _card(value: object, key: str) -> int:
    return _int(value, key, CARDS[0], CARDS[-1])


def _list(value: object, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{key}: expected a list, got {value!r}")
    return value


def _mapping(value: object, key: str, names: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(value, Mapping) or set(value) != set(names):
        raise ValueError(f"{key}: expected keys {', '.join(names)}, got {value!r}")
    return {n: value[n] for n in names}


def new_game() -> State:
    """A game at setup: Rome enters its organisation first (hidden), then Carthage."""
    return State()
