"""A hand-made evaluation of Scipio positions, and the organisations bots consider.

Value for an army = its tokens minus the opponent's, after the damage already decided is taken, minus a
risk term for thin formations (an empty formation loses the game, so the last few tokens of a formation
are worth far more than the thirtieth). When the army has placed its cards and the opponent has not yet,
the damage is averaged over the opponent's possible placements (at most ``SAMPLES`` of them, spread
evenly): that is the most the army can know at that moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations, product
from typing import Final

from engines.scipio.moves import PASS, Order, draw, org
from engines.scipio.rules import ARMIES, CARDS, FIELDS, TOKENS, field_formations, other
from engines.scipio.state import State

WIN_VALUE: Final = 1000.0
RISK: Final = (0.0, 12.0, 5.0, 2.0, 0.8, 0.3)  # by tokens left in a formation: 1 is one hit from losing
SAMPLES: Final = 10
_RISK_BY_TOKENS: Final = RISK + (0.0,) * (TOKENS + 1 - len(RISK))  # RISK for any formation, 0..34 tokens


def evaluate(state: State, army: str) -> float:
    winner = state.winner
    if winner is not None:
        return WIN_VALUE if winner == army else -WIN_VALUE
    enemy = other(army)
    mine, theirs = state.troops[army], state.troops[enemy]
    if mine is None or theirs is None:
        return 0.0
    step = state.step
    if step == "remove":
        troops, plan = state.troops, state.plan
        after = _AFTER[0]
        if after is None or after[0] is not troops or after[1] is not plan:
            after = _AFTER[0] = (troops, plan, _after({army: mine, enemy: theirs}, plan))  # ``_after`` copies
        return _value(after[2], army)
    if step == "place" and state.placed[army] is not None and state.placed[enemy] is None:
        return _expected_after_placement(state, army, {army: mine, enemy: theirs})
    troops = state.troops  # no damage pending
    last = _BALANCES.get(army)
    if last is not None and last[0] is troops:
        return last[1]
    value = _balance(mine, theirs)
    _BALANCES[army] = (troops, value)
    return value


_AFTER: list[tuple[object, object, dict[str, list[int]]] | None] = [None]
"""``evaluate``'s last troops after the pending damage, with the troops and the damage plan they came from:
search judges runs of end positions that share both (the placements of a turn that deal the same damage, see
``State.successors``), and the same containers give the same troops (see ``_BALANCES``)."""

_BALANCES: dict[str, tuple[object, float]] = {}
"""``evaluate``'s last value without damage pending, per army, with the troops it was worked out for. Why: a
bot judges runs of end positions that share their troops (a placement or an answer to the draw offer changes
none), and a position's containers never change in place (see ``State``), so the very same troops give the
very same value. The entry holds the troops, so no other object can take their identity."""


def _after(troops: dict[str, list[int]], plan: list[tuple[str, str, int, bool]]) -> dict[str, list[int]]:
    """Troops once the pending damage is taken, spread to keep the two formations even; ``[]`` marks an
    army that cannot take it without emptying a formation."""
    out = {a: t[:] for a, t in troops.items()}
    for field, defender, amount, _ in plan:
        t = out[defender]
        if not t:
            continue
        i, j = field_formations(field)
        if amount > t[i] + t[j] - 2:
            out[defender] = []
            continue
        for _ in range(amount):
            k = i if t[i] >= t[j] else j
            t[k] -= 1
    return out


def _value(troops: dict[str, list[int]], army: str) -> float:
    return _balance(troops[army], troops[other(army)])


def _balance(mine: list[int], theirs: list[int]) -> float:
    """``_value`` from the two armies' troops (``[]``: the army cannot take its pending damage)."""
    if not mine:
        return -WIN_VALUE / 2
    if not theirs:
        return WIN_VALUE / 2
    return (sum(mine) - sum(theirs)) - _risk(mine) + _risk(theirs)


def _risk(troops: list[int]) -> float:
    return sum(map(_RISK_BY_TOKENS.__getitem__, troops))


def _expected_after_placement(state: State, army: str, troops: dict[str, list[int]]) -> float:
    mine = state.placed[army]
    assert mine is not None
    hand, last = state.hands[other(army)], _CONTEXTS.get(army)
    if last is not None and last[0] is state.troops and last[1] is hand:
        context = last[2]
    else:
        context = _placement_context(army, tuple(sorted(hand)), tuple(tuple(troops[a]) for a in ARMIES))
        _CONTEXTS[army] = (state.troops, hand, context)
    return context.expected(tuple(map(mine.__getitem__, FIELDS)))


_Field = tuple[int, int, int, int]
"""One field of a damage outcome, see ``_PlacementContext._field``."""
_CODES: Final = 15
"""A field's part of a damage outcome is ``(defender index + 1) * 5 + damage`` (0: no damage): the outcome
reads its three fields' parts as a base-15 number, yellow first."""


class _PlacementContext:
    """What stays the same while a bot weighs every placement of one army against the same hidden hand:
    the opponent's sampled placements, who holds each field, each field's part of the outcome for every pair
    of cards, the value of each distinct damage outcome and the expected value of each placement weighed.

    Why: a bot judges 120 placements against 10 samples each, often in several determinizations and
    search trees; the 1,200 damage plans fall on far fewer distinct outcomes. The value of an outcome does
    not depend on the order its steps are taken in (each field's damage falls on its own two formations),
    so ``damage_plan``'s tile order is left out, and the values are exactly those of ``_value(_after(...))``.
    """

    def __init__(self, army: str, enemy_hand: tuple[int, ...], troops: tuple[tuple[int, ...], ...]) -> None:
        self.army = army
        self.mine_first = army == ARMIES[0]
        self.troops = {a: list(t) for a, t in zip(ARMIES, troops, strict=True)}
        options = list(permutations(enemy_hand, 3))
        self.picks = options[::max(1, len(options) // SAMPLES)]
        field_troops = [[sum(self.troops[a][k] for k in field_formations(f)) for a in ARMIES] for f in FIELDS]
        # per field: does Rome hold it as defender, does Carthage
        self.holds = [(t[0] >= t[1], t[1] >= t[0]) for t in field_troops]
        # per sampled placement, per field, by this army's card there: the field's part of the outcome
        self.tables = [tuple({card: self._field(i, card, cards[i]) for card in CARDS} for i in range(3))
                       for cards in self.picks]
        # per field, by its part of an outcome that deals damage: the defender's two formations after it
        # (``None``: it cannot take it), spread as ``_after`` spreads it
        self.damaged = [{code: _damaged(self.troops[ARMIES[code // 5 - 1]], field_formations(f), code % 5)
                         for code in range(5, _CODES)} for f in FIELDS]
        self.values: dict[int, float] = {}
        self.expectations: dict[tuple[int, ...], float] = {}  # the same placement is met in many positions

    def expected(self, mine: tuple[int, ...]) -> float:
        """The mean value over the sampled replies, added up in their order (the cancelling and the
        outcome's key are worked out inline: an organisation decision weighs tens of thousands of outcomes)."""
        value = self.expectations.get(mine)
        if value is None:
            first, second, third = mine
            values, total = self.values, 0.0
            for yellow, purple, green in self.tables:
                y, p, g = yellow[first], purple[second], green[third]
                keeper = _KEEPER[y[3] + p[3] + g[3]]
                key = (y[1] if y[0] == keeper else y[2]) + (p[1] if p[0] == keeper else p[2]) + \
                    (g[1] if g[0] == keeper else g[2])
                outcome = values.get(key)
                if outcome is None:
                    outcome = values[key] = self._outcome_value(key)
                total += outcome
            value = self.expectations[mine] = total / len(self.picks)
        return value

    def _field(self, i: int, mine: int, theirs: int) -> _Field:
        """Field ``i`` with these two cards: who breaks the shield (1 Rome, 2 Carthage, 0 neither:
        ``damage_plan``'s rule), the field's part of the outcome (see ``_CODES``) at its place in the outcome's
        number if that break is kept, and if not, and the shield's digit in base 3 at the field's place (the
        fields' digits add up to an index of ``_KEEPER``).

        Why numbers: an outcome is looked up once per sampled reply of every placement weighed, and adding
        three numbers and hashing an int costs far less than building and hashing nested tuples."""
        rome, carthage = (mine, theirs) if self.mine_first else (theirs, mine)
        shield = 1 if rome >= 2 * carthage else 2 if carthage >= 2 * rome else 0
        place = len(FIELDS) - 1 - i
        digit = shield * 3 ** place
        if rome == carthage:
            return shield, 0, 0, digit
        defender = 0 if rome < carthage else 1
        holds, weight = self.holds[i][defender], _CODES ** place
        return shield, ((defender + 1) * 5 + (3 if holds else 4)) * weight, \
            ((defender + 1) * 5 + (1 if holds else 2)) * weight, digit

    def _outcome_value(self, key: int) -> float:
        """The value of one damage outcome (see ``_CODES``), exactly ``_value(_after(...))``'s: each field's
        damage falls on its own two formations, worked out per field once (``damaged``)."""
        after = [list(self.troops[a]) for a in ARMIES]
        beaten = [False, False]
        for i, damaged in enumerate(self.damaged):
            code = key // _CODES ** (len(FIELDS) - 1 - i) % _CODES
            if code:
                defender = code // 5 - 1
                pair = damaged[code]
                if pair is None:
                    beaten[defender] = True
                else:
                    after[defender][2 * i], after[defender][2 * i + 1] = pair
        me = 0 if self.mine_first else 1
        return _balance([] if beaten[me] else after[me], [] if beaten[1 - me] else after[1 - me])


def _damaged(troops: list[int], formations: tuple[int, int], amount: int) -> tuple[int, int] | None:
    """A field's two formations once ``amount`` damage is taken as ``_after`` takes it (from the larger, the
    first on a tie), ``None`` if that would empty one."""
    i, j = formations
    first, second = troops[i], troops[j]
    if amount > first + second - 2:
        return None
    for _ in range(amount):
        if first >= second:
            first -= 1
        else:
            second -= 1
    return first, second


def _keeper(shields: tuple[int, ...]) -> int:
    """Whose shield breaks count (1 Rome, 2 Carthage) once they cancel, as in ``damage_plan``; -1 (no shield
    matches it) when they all cancel."""
    rome, carthage = shields.count(1), shields.count(2)
    return -1 if rome == carthage else 1 if rome > carthage else 2


_KEEPER: Final = tuple(_keeper(shields) for shields in product((0, 1, 2), repeat=len(FIELDS)))
"""``_keeper`` by the fields' shields read as a base-3 number, yellow first."""


_CONTEXTS: dict[str, tuple[object, object, _PlacementContext]] = {}
"""``_expected_after_placement``'s last context per army, with the troops and the opponent's hand it was looked
up for: a bot judges all of an army's placements in one position at once, and the very same containers hold
the very same facts (see ``_BALANCES``)."""


@lru_cache(maxsize=64)
def _placement_context(army: str, enemy_hand: tuple[int, ...], troops: tuple[tuple[int, ...], ...]
                       ) -> _PlacementContext:
    return _PlacementContext(army, enemy_hand, troops)


def _balanced_organisations() -> list[tuple[int, ...]]:
    """Every ordering of 5, 6 and 7 token formations that adds up to 34 (90 of them)."""
    out: set[tuple[int, ...]] = set()
    for sevens in range(3):
        sixes = 4 - 2 * sevens
        fives = 6 - sixes - sevens
        base = (5,) * fives + (6,) * sixes + (7,) * sevens
        assert sum(base) == TOKENS
        out.update(permutations(base))
    return sorted(out)


BALANCED: Final = tuple(_balanced_organisations())


def candidates(state: State) -> Sequence[Order]:
    """The moves bots weigh: all legal moves, except that an organisation is one of the balanced ones
    (searching all 237,336 splits would drown the search, and a thin formation only invites defeat), and a
    removal is one of the splits that leave the field's two formations at the least risk.

    Why the removals: a card placement is weighed with every removal that may follow it in the same turn,
    and the splits multiply (up to five per damaged field). The other splits leave the same tokens with more
    risk, so ``evaluate`` ranks them strictly lower whatever comes after in the turn (the rest of the damage
    falls on other fields): dropping them changes no choice and cuts the plans to weigh several times. Not
    when damage still to come cannot be taken: then the game is decided whatever the split, every split is
    worth the same, and all stay, as ties do."""
    player, step = state.current_player, state.step
    if step == "offer" and player is not None:
        return _ANSWERS[player]
    if step == "org" and player is not None:
        return [org(player, counts) for counts in BALANCED]
    if step == "remove" and player is not None and not _fatal_damage_ahead(state):
        field, _, amount, _ = state.plan[0]
        troops = state.troops[player]
        assert troops is not None
        i, j = field_formations(field)
        case = (player, field, amount, troops[i], troops[j])
        least = _LEAST_RISK.get(case)
        if least is None:
            moves = [m for m in state.legal_moves() if isinstance(m, Order)]
            risks = [_RISK_BY_TOKENS[troops[i] - m.nums[0]] + _RISK_BY_TOKENS[troops[j] - m.nums[1]] for m in moves]
            least = _LEAST_RISK[case] = tuple(m for m, r in zip(moves, risks, strict=True) if r == min(risks))
        return least
    return [m for m in state.legal_moves() if isinstance(m, Order)]


_ANSWERS: Final = {army: (draw(army), PASS) for army in ARMIES}
"""``candidates`` of the draw offer, as ``legal_moves`` lists them: whole-turn planning meets the offer after
nearly every removal."""

_LEAST_RISK: dict[tuple[str, str, int, int, int], tuple[Order, ...]] = {}
"""``candidates`` of a removal by (army, field, damage, tokens in the field's two formations): whole-turn
planning weighs the same removal after many placements. At most 2 x 3 x 4 x 34 x 34 cases."""


def successors(state: State) -> list[tuple[Order, State]]:
    """The bots' candidates with the position after each (the registry's ``successors`` hook): the same
    positions as applying them one by one, built faster (see ``State.successors``)."""
    step = state.step
    if step == "remove":  # the candidates depend on the troops and the damage plan alone
        troops, plan = state.troops, state.plan
        known = _REMOVALS.get((id(troops), id(plan)))
        if known is not None:
            return state.successors(known[2])
        moves = candidates(state)
        if len(_REMOVALS) >= _REMOVALS_LIMIT:
            _REMOVALS.clear()
        _REMOVALS[id(troops), id(plan)] = (troops, plan, moves)  # holds them: no identity reused
        return state.successors(moves)
    if step == "place":
        _REMOVALS.clear()  # a new turn: the removals remembered so far were of other turns
    return state.successors(candidates(state))


_REMOVALS: dict[tuple[int, int], tuple[object, object, Sequence[Order]]] = {}
"""``candidates`` of a removal by the identity of the troops and damage plan it was worked out for (each entry
holds them). Why: the placements of a turn that deal the same damage share those containers (see
``State.successors``), so whole-turn planning asks for the same removals after each of them. Emptied as a new
turn's placements are weighed and at ``_REMOVALS_LIMIT`` entries: it lives for one whole-turn search."""
_REMOVALS_LIMIT: Final = 4096


def _fatal_damage_ahead(state: State) -> bool:
    """Whether a damage step after the current one empties a formation (the removals left to choose fall on
    other fields, so no split now can change that)."""
    for field, army, amount, _ in state.plan[1:]:
        troops = state.troops[army]
        assert troops is not None
        i, j = field_formations(field)
        if amount > troops[i] + troops[j] - 2:
            return True
    return False
