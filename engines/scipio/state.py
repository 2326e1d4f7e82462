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

This module alone sets a position's fields. The moves each step offers are in ``steps.py``, the bots' fast
successors in ``successors.py`` and the JSON form in ``serial.py``; they change positions only through the
methods here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from engines.base import IllegalMoveError, JsonDict, Move
from engines.scipio import serial
from engines.scipio.moves import PASS, Order, card, deserter, parse, redeploy, relief
from engines.scipio.organisations import Organisations
from engines.scipio.rules import (
    ADJACENT,
    ARMIES,
    CARDS,
    FIELDS,
    FORMATIONS,
    NEW_ORDERS,
    DamageStep,
    cannot_take,
    field_formations,
    other,
    plan_damage,
)
from engines.scipio.steps import DRAWS, TILE_ORDERS, placements, removals
from engines.scipio.successors import after_each

PLAYERS: Final = ARMIES
LOCATIONS: Final = tuple(f"{army}:{f}" for army in ARMIES for f in FORMATIONS)


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
    ``successors`` or the bots' evaluation (``engines.scipio.successors`` and ``engines.scipio.heuristic``
    remember what they worked out by container).
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

    def simultaneous(self) -> tuple[str, ...]:
        """Both armies while their organisations or a phase's cards are due and neither is in (``Simultaneous``)."""
        if self.step in ("org", "place") and self.current_player == "rome":
            return ARMIES
        return ()

    def roller(self) -> str | None:
        """The army whose table draws the chance now (``Rolled``; with two tables, I-7): Rome's shuffles the
        tiles, the drawing army's turns the New Orders card; nobody while no chance is due."""
        if self.step == "tiles":
            return "rome"
        return self.drawer if self.step == "card" else None

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
            return placements(player, tuple(self.hands[player]))
        if s == "remove":
            field, army, amount, _ = self.plan[0]
            troops = self._troops(army)
            i, j = field_formations(field)
            return removals(army, field, amount, troops[i], troops[j])
        if s in ("offer", "opportune_draw"):
            return [DRAWS[player], PASS]
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
        self._play(move)

    def _play(self, move: Order) -> None:
        """``apply`` without checking the move: for moves known to be legal (``apply`` checked it, or the
        bots' candidates, see ``successors``)."""
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
        self._put_cards(army, dict(zip(FIELDS, nums, strict=True)),
                        [c for c in self.hands[army] if c not in nums])  # cards are unique
        if None not in self.placed.values():
            self._reveal()

    def _put_cards(self, army: str, cards: dict[str, int], left: list[int]) -> None:
        """``army``'s cards of the phase put down by field, ``left`` kept in hand."""
        self.placed = {**self.placed, army: cards}
        self.hands = {**self.hands, army: left}

    def _reveal(self) -> None:
        rome, carthage = self.placed["rome"], self.placed["carthage"]
        assert rome is not None and carthage is not None
        r, c = self._troops("rome"), self._troops("carthage")  # a field's formations: FORMATIONS 2k and 2k+1
        plan = plan_damage(tuple(map(rome.__getitem__, FIELDS)), tuple(map(carthage.__getitem__, FIELDS)),
                           (r[0] + r[1], r[2] + r[3], r[4] + r[5]), (c[0] + c[1], c[2] + c[3], c[4] + c[5]),
                           tuple(map(self.tiles.__getitem__, FIELDS)))
        self._take_damage(self.troops, plan, {a: 0 for a in ARMIES}, cannot_take(plan, self.troops))

    def _take_damage(self, troops: dict[str, list[int] | None], plan: list[DamageStep], removed: dict[str, int],
                     loser: str | None) -> None:
        """The troops and the tokens removed so far as a damage step (or the reveal) leaves them, and the damage
        ``plan`` still to take; ``loser`` is ``cannot_take(plan, troops)``, which the bots' fast successors
        work out once for many positions."""
        self.troops, self.plan, self.removed = troops, plan, removed
        self._next_damage(loser)

    def _next_damage(self, loser: str | None) -> None:
        """Ask for the next removal, or end the game when ``loser`` cannot take it without emptying a
        formation (I-4); with no damage left, offer the draw or end the phase."""
        if self.plan:
            self.step = "remove"
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
        self._next_damage(cannot_take(self.plan, self.troops))

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
        legal here (the bots' candidates), built faster: see ``engines.scipio.successors``."""
        return after_each(self, moves)

    def _know_key(self, key: tuple[object, ...]) -> None:
        """Take ``key`` as this position's: the fast successors build it from their parent's key."""
        self._key = key

    def to_json(self) -> JsonDict:
        return serial.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state, rejecting anything inconsistent (journals can be hand-edited or torn)."""
        f = serial.read(data)
        s = cls()
        s.step, s.round, s.phase, s.troops, s.tiles = f.step, f.round, f.phase, f.troops, f.tiles
        s.hands, s.placed, s.shown, s.plan, s.removed = f.hands, f.placed, f.shown, f.plan, f.removed
        s.drawer, s.moves_left, s.deck, s.discard, s._winner = f.drawer, f.moves_left, f.deck, f.discard, f.winner
        serial.check(s)
        return s


_APPLY: Final[dict[str, Callable[[State, Order], None]]] = {
    "org": State._do_org, "tiles": State._do_tiles, "place": State._do_place, "remove": State._do_remove,
    "draw": State._do_draw, "pass": State._do_pass, "card": State._do_card, "redeploy": State._do_redeploy,
    "relief": State._do_relief, "deserter": State._do_deserter,
}  # ``apply``'s dispatch on the move's kind, looked up once


def new_game() -> State:
    """A game at setup: Rome enters its organisation first (hidden), then Carthage."""
    return State()
