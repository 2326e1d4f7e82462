"""The bots' fast successors: the position after each of a step's candidate moves, exactly as ``apply``
would leave it, for moves known to be legal.

Why: whole-turn planning reaches every placement of a turn and every removal and draw offer after it,
hundreds per search node, and ``apply`` would check each move against the legal ones again. The key of a
position after one of those moves is mostly its parent's (the cards or the troops change, and what the
reveal, the damage step or the phase's end decide; the tiles and the New Orders do not), so it is built
from the parent's (``key_after``). What the candidates share (the damage a placement deals, the troops a
removal leaves) is worked out once and shared by the positions, whose containers never change in place.
The positions are changed only through ``State``'s own methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING, Any, Final

from engines.scipio.moves import Order
from engines.scipio.rules import ARMIES, CARDS, FIELDS, DamageStep, cannot_take, field_formations, other, plan_damage

if TYPE_CHECKING:
    from engines.scipio.state import State

_CardsKey = tuple[int, ...]
"""One army's hand, or its placed or shown cards, in ``State.key``."""
_NO_CARDS: Final = tuple(() for _ in ARMIES)  # ``State.key``'s placed or shown cards when there are none
_FULL_HANDS: Final = tuple(CARDS for _ in ARMIES)  # ``State.key``'s hands at the start of a round

_Split = tuple[dict[str, list[int] | None], dict[str, int], tuple[object, ...], tuple[int, ...], str | None]
"""A removal's troops and tokens removed, the key's troops and tokens removed after it, and the army that loses
as the next damage step is asked for, if one does (``_splits``)."""


def after_each(s: State, moves: Sequence[Order]) -> list[tuple[Order, State]]:
    """The position after each of ``moves`` (legal in ``s``), paired with its move, in the order given."""
    step = s.step
    if step == "remove":
        return _after_removals(s, moves, s.key())
    if step == "place":
        return _after_placements(s, moves, s.key())
    offer = s.key() if step == "offer" else None  # draw, or pass and end the phase: the key follows
    out: list[tuple[Order, State]] = []
    for move in moves:
        t = s.clone()
        t._play(move)
        if offer is not None:
            t._know_key(key_after(t, offer, offer[3], offer[4], offer[5]))
        out.append((move, t))
    return out


def _after_removals(s: State, moves: Sequence[Order], parent: tuple[Any, ...]) -> list[tuple[Order, State]]:
    """``_do_remove`` for each split, with what every split shares worked out once (``_splits``)."""
    out: list[tuple[Order, State]] = []
    rest, rest_key, splits = _splits(s, moves, parent[3])
    for move, (troops_after, removed, troops_key, removed_key, loser) in zip(moves, splits, strict=True):
        t = s.clone()
        t._take_damage(troops_after, rest, removed, loser)
        if rest:  # ``key_after``'s key, with the damage left as ``_splits`` keyed it
            t._know_key((t.step, parent[1], parent[2], troops_key, parent[4], parent[5], rest_key, removed_key,
                         t.drawer, parent[9], t.winner, parent[11]))
        else:
            t._know_key(key_after(t, parent, troops_key, parent[4], parent[5]))
        out.append((move, t))
    return out


def _after_placements(s: State, moves: Sequence[Order], parent: tuple[Any, ...]) -> list[tuple[Order, State]]:
    """``_do_place`` for each placement; when the opponent's cards are down, the reveal that follows too, with
    one damage plan per damage dealt (``_VERSUS``), shared by the placements dealing it."""
    _SPLITS.clear()  # a new turn's placements: the removals remembered so far were of other turns
    army = s.current_player
    assert army is not None
    index = ARMIES.index(army)
    placements = _placements_of(tuple(s.hands[army]))
    hands_key, placed_key = parent[4], parent[5]
    first = s.placed[other(army)]  # Rome's cards when Carthage places: the reveal follows
    if first is not None:  # what ``_reveal`` reads, the same for every placement
        r, c = s.troops["rome"], s.troops["carthage"]
        assert r is not None and c is not None
        field_troops = (r[0] + r[1], r[2] + r[3], r[4] + r[5]), (c[0] + c[1], c[2] + c[3], c[4] + c[5])
        first_cards, tiles_ = tuple(map(first.__getitem__, FIELDS)), tuple(map(s.tiles.__getitem__, FIELDS))
        removed = {a: 0 for a in ARMIES}  # shared: containers never change in place
        removed_key = tuple(removed.values())
        versus_y, versus_p, versus_g = (_VERSUS[card] for card in first_cards)
        # by the placement's ``_VERSUS`` per field: the damage plan, as the key holds it, and the army that
        # cannot take its first step (``_next_damage``)
        plans: dict[tuple[int, int, int], tuple[list[DamageStep], tuple[DamageStep, ...], str | None]] = {}
    out: list[tuple[Order, State]] = []
    for move in moves:
        nums = move.nums
        cards, left, left_key = placements[nums]
        t = s.clone()
        t._put_cards(army, cards, left)
        hands = (*hands_key[:index], left_key, *hands_key[index + 1:])
        placed = (*placed_key[:index], nums, *placed_key[index + 1:])
        if first is None:
            t._know_key((*parent[:4], hands, placed, *parent[6:]))
        else:  # ``_reveal``
            y, p, g = nums
            versus = versus_y[y], versus_p[p], versus_g[g]
            dealt = plans.get(versus)
            if dealt is None:  # one list per damage dealt, shared by the placements dealing it
                plan = plan_damage(first_cards, nums, *field_troops, tiles_) if index else \
                    plan_damage(nums, first_cards, *field_troops, tiles_)
                dealt = plans[versus] = plan, tuple(plan), cannot_take(plan, s.troops)
            plan, plan_key, loser = dealt
            t._take_damage(t.troops, plan, removed, loser)
            if plan:  # ``key_after``'s key, with the damage as the plan keyed it
                t._know_key((t.step, parent[1], parent[2], parent[3], hands, placed, plan_key, removed_key, t.drawer,
                             parent[9], t.winner, parent[11]))
            else:
                t._know_key(key_after(t, parent, parent[3], hands, placed))
        out.append((move, t))
    return out


def key_after(t: State, parent: tuple[Any, ...], troops: object, hands: object, placed: object) -> tuple[object, ...]:
    """``t``'s key, built from the key of the position one placement, removal or answer to the draw offer
    before it and the key's parts for the troops, hands and placed cards it has now (what ``State.key`` would
    compute: the phase goes on, or it ends as ``_end_phase`` ends it)."""
    step, rare, removed = t.step, parent[11], tuple(t.removed.values())
    if step in ("remove", "offer", "card", "over"):  # the phase goes on
        return (step, parent[1], parent[2], troops, hands, placed, tuple(t.plan), removed, t.drawer,
                parent[9], t.winner, rare)
    if t.phase == 2:  # phase 1 ended: its cards are face up
        return (step, parent[1], 2, troops, hands, _NO_CARDS, (), removed, None, parent[9], None,
                (rare[0], placed, rare[2], rare[3]))
    return (step, t.round, 1, troops, _FULL_HANDS, _NO_CARDS, (), removed, None, parent[9], None,
            (rare[0], _NO_CARDS, rare[2], rare[3]))  # a new round


@cache
def _placements_of(hand: tuple[int, ...]) -> dict[tuple[int, ...], tuple[dict[str, int], list[int], _CardsKey]]:
    """Per three cards of ``hand`` put down (by field): the placed cards, and the hand left as a position holds
    it and as its key reads it, as ``_do_place`` makes them. Built once per hand and shared by every position
    built here: a position's containers never change in place."""
    out: dict[tuple[int, ...], tuple[dict[str, int], list[int], _CardsKey]] = {}
    for nums in permutations(hand, 3):
        left = [c for c in hand if c not in nums]  # cards are unique
        out[nums] = dict(zip(FIELDS, nums, strict=True)), left, tuple(left)
    return out


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
deal the same damage (the troops and tiles being the same), so ``_after_placements`` works each out once."""


def _splits(s: State, moves: Sequence[Order], troops_key: tuple[object, ...]
            ) -> tuple[list[DamageStep], tuple[DamageStep, ...], list[_Split]]:
    """For a removal step, the damage left (and as the key holds it) and, per split in ``moves``, the troops,
    the tokens removed and the key's troops and tokens removed after it (``troops_key``: the key's troops
    now), as ``_do_remove`` leaves them, and the army that cannot take the next damage step after it
    (``None``: none, or no step left).

    Why remembered (``_SPLITS``): a turn's placements that deal the same damage share their troops, their
    damage plan (see ``_after_placements``) and what was removed, so whole-turn planning asks for the very
    same removals after each of them; the positions after them can then share these containers in turn,
    which never change in place."""
    troops_now, plan, removed_now = s.troops, s.plan, s.removed
    memo_key = (id(troops_now), id(plan), id(removed_now), id(moves))
    known = _SPLITS.get(memo_key)
    if known is not None:
        return known[1], known[2], known[3]
    field, remover, _, _ = plan[0]
    i, j = field_formations(field)
    troops, index = troops_now[remover], ARMIES.index(remover)
    assert troops is not None
    taken = removed_now[remover]
    rest = plan[1:]
    splits: list[_Split] = []
    for move in moves:
        from_i, from_j = move.nums
        left = troops[:]
        left[i] -= from_i
        left[j] -= from_j
        troops_after = {**troops_now, remover: left}
        loser = cannot_take(rest, troops_after)  # that army loses (``_next_damage``)
        removed = {**removed_now, remover: taken + from_i + from_j}
        splits.append((troops_after, removed, (*troops_key[:index], tuple(left), *troops_key[index + 1:]),
                       tuple(removed.values()), loser))
    if len(_SPLITS) >= _SPLITS_LIMIT:
        _SPLITS.clear()
    rest_key = tuple(rest)
    _SPLITS[memo_key] = ((troops_now, plan, removed_now, moves), rest, rest_key, splits)  # holds them: no id reused
    return rest, rest_key, splits


_SPLITS: dict[tuple[int, int, int, int],
              tuple[tuple[object, ...], list[DamageStep], tuple[DamageStep, ...], list[_Split]]] = {}
"""``_splits`` by the identity of the troops, damage plan, removed tokens and moves it was asked for, each entry
holding those objects (so their identities are not reused while it lives). Emptied as a new turn's placements
are weighed, and at ``_SPLITS_LIMIT`` entries: its use is within one whole-turn search, and what it holds stays
alive only that long."""
_SPLITS_LIMIT: Final = 4096
