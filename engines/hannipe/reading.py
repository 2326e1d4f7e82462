"""Reading a Hannipe! state back from JSON, strictly: every key, every type, and every cross-field fact a
hand edit or a torn write could break is checked, and the error names the key.

Kept out of ``state.py`` because it is long and only the journal's resume path needs it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from engines.base import read_choice, read_int, read_list, read_maybe, read_object
from engines.hannipe import places
from engines.hannipe.data import (
    CARD_MODES,
    COPIES,
    FACES,
    GOAL,
    HORSES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAYOUT,
    PROGRAMMES,
    SEATS,
    SECRET,
    UNKNOWN,
    Card,
    card_sort_key,
    leader_of,
    turn_order,
)
from engines.hannipe.payout import RaceResult, game_winners, pay

KEYS: Final = frozenset({"game", "players", "cards", "coins", "race", "leader", "to_move", "winners", "programme",
                         "values", "order", "round", "turned", "bets", "last_race", "shuffle", "hands", "played",
                         "sealed"})
MAX_COINS: Final = GOAL - 1 + max(PAYOUT.values())
MAX_RACES: Final = 100_000


@dataclass
class Fields:
    """The stored fields of a state; everything else (step, seat to play) is derived from them."""

    players: tuple[str, ...]
    cards: str
    coins: dict[str, int]
    race: int
    winners: tuple[str, ...]
    last_race: RaceResult | None
    programme: int | None
    order: places.Order
    shuffle: tuple[str, ...]
    round: int
    bets: dict[str, str | None]
    hands: dict[str, list[Card]] | None
    played: list[tuple[str, str, str]]
    sealed: set[str]
    to_move: str | None


def read(data: object) -> Fields:
    if not isinstance(data, Mapping):
        raise ValueError(f"a Hannipe! state is a JSON object, got {type(data).__name__}")
    if data.get("game") != "hannipe":
        raise ValueError(f"game: expected 'hannipe', got {data.get('game')!r}")
    if "sealed" not in data:  # written since shared play (G-10): a journal from before has no sealed bets
        data = {**data, "sealed": []}
    if set(data) != KEYS:
        missing, extra = sorted(KEYS - set(data)), sorted(set(data) - KEYS)
        raise ValueError(f"keys: missing {missing}, unexpected {extra}")
    raw = read_list(data["players"], "players")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS or raw != list(SEATS[:len(raw)]):
        raise ValueError(f"players: expected p1..pN with N {MIN_PLAYERS}..{MAX_PLAYERS}, got {raw!r}")
    players = tuple(raw)
    race = read_int(data["race"], "race", 1, MAX_RACES)
    if data["leader"] != leader_of(players, race):
        raise ValueError(f"leader: race {race} is led by {leader_of(players, race)}, got {data['leader']!r}")
    programme = None if data["programme"] is None else read_int(data["programme"], "programme", 1, len(PROGRAMMES))
    values = PROGRAMMES[programme] if programme is not None else {}
    if read_object(data["values"], "values", values) != values:
        raise ValueError(f"values: programme {programme} gives {values}, got {data['values']!r}")
    f = Fields(
        players=players,
        cards=read_choice(data["cards"], CARD_MODES, "cards"),
        coins={p: read_int(v, f"coins.{p}", 0, MAX_COINS)
               for p, v in read_object(data["coins"], "coins", players).items()},
        race=race,
        winners=tuple(read_choice(w, players, f"winners[{i}]") for i, w in enumerate(read_list(data["winners"],
                                                                                              "winners"))),
        last_race=None,
        programme=programme,
        order=_order(data["order"], values),
        shuffle=tuple(_horse(h, {**values, SECRET: 0}, f"shuffle[{i}]")
                      for i, h in enumerate(read_list(data["shuffle"], "shuffle"))),
        round=read_int(data["round"], "round", 0, len(values)),
        bets={p: None if b is None else _horse(b, {**values, SECRET: 0}, f"bets.{p}")
              for p, b in read_object(data["bets"], "bets", players).items()},
        hands=_hands(data["hands"], players, values),
        played=[_play(e, players, values, f"played[{i}]") for i, e in enumerate(read_list(data["played"], "played"))],
        sealed={read_choice(p, players, f"sealed[{i}]") for i, p in enumerate(read_list(data["sealed"], "sealed"))},
        to_move=read_maybe(data["to_move"], players, "to_move"),
    )
    if SECRET in f.shuffle[:f.round] or (SECRET in f.shuffle and set(f.shuffle[f.round:]) != {SECRET}):
        raise ValueError(f"shuffle: the turned horses, then ? for each card face down, got {list(f.shuffle)}")
    if read_list(data["turned"], "turned") != list(f.shuffle[:f.round]):
        raise ValueError(f"turned: the first {f.round} of the shuffle {list(f.shuffle)}, got {data['turned']!r}")
    if (f.cards == "table") != (f.hands is None):
        raise ValueError("hands: null exactly when cards is 'table'")
    f.last_race = None if data["last_race"] is None else _result(data["last_race"], players)
    _check_race(f)
    _check_cards(f)
    _check_end(f)
    return f


def _check_race(f: Fields) -> None:
    """The race fields follow the steps: programme, shuffle, deal, bets in seat order, rounds, tips."""
    starters = tuple(PROGRAMMES[f.programme]) if f.programme is not None else ()
    seats = turn_order(f.players, leader_of(f.players, f.race))
    known = [h for h in f.shuffle if h != SECRET]
    if f.shuffle and (len(f.shuffle) != len(starters) or len(set(known)) != len(known)):
        raise ValueError(f"shuffle: an order of the starters {list(starters)}, got {list(f.shuffle)}")
    if any(b == SECRET and p not in f.sealed for p, b in f.bets.items()) or any(f.bets[p] is None for p in f.sealed):
        raise ValueError(f"sealed: every hidden bet is sealed, and only a placed bet, got {sorted(f.sealed)}")
    if f.programme is not None and f.round == 0 and f.order != places.start(starters):
        raise ValueError("order: every starter stands on one line until the first horse card is turned")
    placed = [b is not None for b in (f.bets[s] for s in seats)]
    if placed != sorted(placed, reverse=True):
        raise ValueError(f"bets: placed in seat order {', '.join(seats)}, got {f.bets}")
    dealt = len(f.played) + (sum(map(len, f.hands.values())) if f.hands is not None else 0)
    if any(placed) and (not f.shuffle or (f.hands is not None and dealt < len(starters) * len(seats))):
        raise ValueError("bets: placed only once the horse cards are shuffled and every hand dealt")
    if dealt and not f.shuffle:
        raise ValueError("hands: dealt only once the horse cards are shuffled")
    if f.round and not all(placed):
        raise ValueError("round: horse cards are turned only once every seat has bet")
    tips = len(f.played)
    low, high = max(0, f.round - 1) * len(seats), f.round * len(seats)
    if not low <= tips <= high:
        raise ValueError(f"played: round {f.round} with {len(seats)} seats allows {low}..{high} tips, got {tips}")
    for i, (seat, _, _) in enumerate(f.played):
        if seat != seats[i % len(seats)]:
            raise ValueError(f"played[{i}]: tips go round {', '.join(seats)}, got {seat}")


def _check_cards(f: Fields) -> None:
    """No more cards of a kind than the game has; hands dealt round-robin from the seat after the leader."""
    used: Counter[Card] = Counter((h, c) for _, h, c in f.played)
    if f.hands is not None:
        if any(UNKNOWN in hand for hand in f.hands.values()) and SECRET not in f.shuffle and not f.sealed:
            raise ValueError("hands: a card is unknown (?) only in a shared race (shuffle ?, sealed bets)")
        for hand in f.hands.values():
            used.update(hand)
        seats = turn_order(f.players, leader_of(f.players, f.race))
        dealt = sum(used.values())
        for j, seat in enumerate(seats):
            held = len(f.hands[seat]) + sum(1 for s, _, _ in f.played if s == seat)
            if held != dealt // len(seats) + (j < dealt % len(seats)):
                raise ValueError(f"hands.{seat}: {held} cards dealt and played does not fit a round-robin deal "
                                 f"of {dealt} from {seats[0]}")
    for (horse, face), n in used.items():
        if face != SECRET and n > COPIES[face]:
            raise ValueError(f"hands, played: {n} {horse}:{face} cards, the game has {COPIES[face]}")


def _check_end(f: Fields) -> None:
    """Coins, winners and ``last_race`` agree: the game ends at the first payout reaching the goal."""
    if f.winners != game_winners(f.coins):
        raise ValueError(f"winners: coins {f.coins} give {list(game_winners(f.coins))}, got {list(f.winners)}")
    n = len(PROGRAMMES[f.programme]) if f.programme is not None else 0
    complete = f.programme is not None and f.round == n and len(f.played) == n * len(f.players)
    if (complete and not f.winners and not f.sealed) or (f.winners and (not complete or f.sealed)):
        raise ValueError("played: a race whose last tip is in is paid out once its bets are revealed, so it is "
                         "shown only at game end")
    r = f.last_race
    if (r is None) != (f.race == 1 and not f.winners):
        raise ValueError("last_race: null exactly until the first payout")
    if r is None:
        if any(f.coins.values()):
            raise ValueError(f"coins: only payouts give coins, and no race is paid yet: {f.coins}")
        return
    if any(f.coins[seat] < paid for seat, paid in r.paid.items()):
        raise ValueError(f"coins: fewer than the last race paid ({dict(r.paid)}): {f.coins}")
    if r.race != f.race - (0 if f.winners else 1):
        raise ValueError(f"last_race.race: expected the race before {f.race} (or {f.race} at game end), got {r.race}")
    if f.winners and f.programme is not None:
        bets = {p: b for p, b in f.bets.items() if b is not None}
        if r != pay(f.race, f.order, PROGRAMMES[f.programme], bets):
            raise ValueError("last_race: does not match the finished race's order and bets")
    for seat, coins in r.paid.items():
        if (coins > 0) != (r.bets[seat] in r.winners):
            raise ValueError(f"last_race.paid.{seat}: {coins} coins for a bet on {r.bets[seat]}")


def _result(value: object, players: tuple[str, ...]) -> RaceResult:
    data = read_object(value, "last_race", ("race", "winners", "bets", "paid"))
    winners = tuple(_horse(h, HORSES, f"last_race.winners[{i}]") for i, h in enumerate(read_list(data["winners"],
                                                                                           "last_race.winners")))
    if not winners or list(winners) != sorted(set(winners), key=HORSES.index):
        raise ValueError(f"last_race.winners: distinct horses in the sheet's order, got {list(winners)}")
    return RaceResult(
        race=read_int(data["race"], "last_race.race", 1, MAX_RACES),
        winners=winners,
        bets={p: _horse(b, HORSES, f"last_race.bets.{p}")
              for p, b in read_object(data["bets"], "last_race.bets", players).items()},
        paid={p: read_int(v, f"last_race.paid.{p}", 0, max(PAYOUT.values()))
              for p, v in read_object(data["paid"], "last_race.paid", players).items()},
    )


def _order(value: object, starters: Mapping[str, int]) -> places.Order:
    lines = [read_list(line, f"order[{i}]") for i, line in enumerate(read_list(value, "order"))]
    order = tuple(tuple(_horse(h, starters, f"order[{i}]") for h in line) for i, line in enumerate(lines))
    flat = [h for line in order for h in line]
    if sorted(flat) != sorted(starters) or any(not line or list(line) != sorted(line, key=HORSES.index)
                                               for line in order):
        raise ValueError(f"order: lines of the starters {list(starters)}, each once and in the sheet's order, "
                         f"got {value!r}")
    return order


def _hands(value: object, players: tuple[str, ...], starters: Mapping[str, int]) -> dict[str, list[Card]] | None:
    if value is None:
        return None
    return {p: sorted((_card(c, starters, f"hands.{p}[{i}]") for i, c in enumerate(read_list(h, f"hands.{p}"))),
                      key=card_sort_key)
            for p, h in read_object(value, "hands", players).items()}


def _card(value: object, starters: Mapping[str, int], key: str) -> Card:
    if value == SECRET:
        return UNKNOWN
    if not isinstance(value, str) or value.count(":") != 1:
        raise ValueError(f"{key}: expected 'horse:face', got {value!r}")
    horse, face = value.split(":")
    return _horse(horse, starters, key), read_choice(face, FACES, key)


def _play(value: object, players: tuple[str, ...], starters: Mapping[str, int], key: str) -> tuple[str, str, str]:
    entry = read_list(value, key)
    if len(entry) != 3:
        raise ValueError(f"{key}: expected [seat, horse, face], got {entry!r}")
    return (read_choice(entry[0], players, key), _horse(entry[1], starters, key), read_choice(entry[2], FACES, key))


def _horse(value: object, allowed: Sequence[str] | Mapping[str, int], key: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{key}: expected a starter ({', '.join(allowed) or 'none before the programme'}), "
                         f"got {value!r}")
    return value
