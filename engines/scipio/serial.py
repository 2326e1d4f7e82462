"""``State.to_json`` and the strict reader behind ``State.from_json``: every key and type is checked, and
every cross-field fact a hand edit or a torn write could break, and the error names the key.

Kept out of ``state.py`` because it is long and only the journal's resume path needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.base import JsonDict, read_choice, read_int, read_list, read_maybe, read_object
from engines.scipio.rules import ARMIES, CARDS, FIELDS, FORMATIONS, NEW_ORDERS, DamageStep, cannot_take
from engines.scipio.steps import DRAWER_STEPS, STEPS

if TYPE_CHECKING:
    from engines.scipio.state import State


@dataclass
class Fields:
    """A state's stored fields, as ``State.from_json`` gives them to the state it builds."""

    step: str
    round: int
    phase: int
    troops: dict[str, list[int] | None]
    tiles: dict[str, int]
    hands: dict[str, list[int]]
    placed: dict[str, dict[str, int] | None]
    shown: dict[str, dict[str, int]]
    plan: list[DamageStep]
    removed: dict[str, int]
    drawer: str | None
    moves_left: int
    deck: dict[str, int]
    discard: dict[str, int]
    winner: str | None


def to_json(s: State) -> JsonDict:
    return {
        "game": s.game,
        "step": s.step,
        "round": s.round,
        "phase": s.phase,
        "troops": {a: (dict(zip(FORMATIONS, t, strict=True)) if t is not None else None)
                   for a, t in s.troops.items()},
        "tiles": dict(s.tiles),
        "hands": {a: list(h) for a, h in s.hands.items()},
        "placed": {a: (dict(p) if p is not None else None) for a, p in s.placed.items()},
        "shown": {a: dict(p) for a, p in s.shown.items()},
        "plan": [list(step) for step in s.plan],
        "removed": dict(s.removed),
        "drawer": s.drawer,
        "moves_left": s.moves_left,
        "deck": dict(s.deck),
        "discard": dict(s.discard),
        "winner": s.winner,
    }


def read(data: Mapping[str, Any]) -> Fields:
    """The fields ``data`` gives, each checked alone (``check`` judges them together, once in a state)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a Scipio state is a JSON object, got {type(data).__name__}")
    if data.get("game") != "scipio":
        raise ValueError(f"game: expected 'scipio', got {data.get('game')!r}")
    step = read_choice(data.get("step"), STEPS, "step")
    round_ = read_int(data.get("round"), "round", 1, 10_000)
    phase = read_int(data.get("phase"), "phase", 1, 2)
    troops = {a: None if t is None else [read_int(v, f"troops.{a}.{f}", 0, 34)
                                         for f, v in read_object(t, f"troops.{a}", FORMATIONS).items()]
              for a, t in read_object(data.get("troops"), "troops", ARMIES).items()}
    tiles: dict[str, int] = {}
    if data.get("tiles"):
        tiles = {f: read_int(v, f"tiles.{f}", 1, 3)
                 for f, v in read_object(data.get("tiles"), "tiles", FIELDS).items()}
        if sorted(tiles.values()) != [1, 2, 3]:
            raise ValueError(f"tiles: each of 1, 2, 3 once, got {tiles}")
    hands = {a: [_card(c, f"hands.{a}") for c in read_list(h, f"hands.{a}")]
             for a, h in read_object(data.get("hands"), "hands", ARMIES).items()}
    placed = {a: None if p is None else _cards(p, f"placed.{a}")
              for a, p in read_object(data.get("placed"), "placed", ARMIES).items()}
    shown = {a: {} if p == {} else _cards(p, f"shown.{a}")
             for a, p in read_object(data.get("shown"), "shown", ARMIES).items()}
    plan = [_damage_step(entry, i) for i, entry in enumerate(read_list(data.get("plan"), "plan"))]
    removed = {a: read_int(v, f"removed.{a}", 0, 34)
               for a, v in read_object(data.get("removed"), "removed", ARMIES).items()}
    drawer = read_maybe(data.get("drawer"), ARMIES, "drawer")
    moves_left = read_int(data.get("moves_left", 0), "moves_left", 0, 2)
    deck = {n: read_int(v, f"deck.{n}", 0, NEW_ORDERS[n])
            for n, v in read_object(data.get("deck"), "deck", NEW_ORDERS).items()}
    discard = {n: read_int(v, f"discard.{n}", 0, NEW_ORDERS[n])
               for n, v in read_object(data.get("discard"), "discard", NEW_ORDERS).items()}
    return Fields(step, round_, phase, troops, tiles, hands, placed, shown, plan, removed, drawer, moves_left, deck,
                  discard, read_maybe(data.get("winner"), ARMIES, "winner"))


def _damage_step(value: object, i: int) -> DamageStep:
    entry = read_list(value, f"plan[{i}]")
    if len(entry) != 4:
        raise ValueError(f"plan[{i}]: expected [field, army, amount, shield_break], got {entry!r}")
    return (read_choice(entry[0], FIELDS, f"plan[{i}].field"), read_choice(entry[1], ARMIES, f"plan[{i}].army"),
            read_int(entry[2], f"plan[{i}].amount", 1, 4), bool(entry[3]))


def check(s: State) -> None:
    """Cross-field consistency a hand edit or a torn write could break."""
    if (s.step == "over") != (s.winner is not None):
        raise ValueError("winner: set exactly when step is 'over'")
    if s.step not in ("org", "over") and any(t is None for t in s.troops.values()):
        raise ValueError("troops: both organisations must be entered after setup")
    if s.step not in ("org", "tiles") and not s.tiles:
        raise ValueError("tiles: missing after the first shuffle")
    if s.step == "remove" and not s.plan:
        raise ValueError("plan: a removal is due but no damage is pending")
    if s.step in (*DRAWER_STEPS, "deserter", "card") and s.drawer is None:
        raise ValueError(f"drawer: step {s.step} needs the drawing army")
    if s.step == "card" and not s.deck_left():
        raise ValueError("deck: a draw is due from an empty deck")
    if s.step == "offer" and (s.current_player is None or not s.deck_left()):  # the army that removed more
        raise ValueError("removed: a draw is offered only to the army that removed more, from a non-empty deck")
    if s.step == "remove" and cannot_take(s.plan, s.troops) is not None:
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


def _cards(value: object, key: str) -> dict[str, int]:
    """An army's cards placed or shown, by field."""
    return {f: _card(v, f"{key}.{f}") for f, v in read_object(value, key, FIELDS).items()}


def _card(value: object, key: str) -> int:
    return read_int(value, key, CARDS[0], CARDS[-1])
