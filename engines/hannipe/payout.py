"""The end of a race (steps 7-9 of the digest): who won, who is paid, and whether the game is over."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engines.hannipe.data import GOAL, PAYOUT
from engines.hannipe.places import Line, Order


@dataclass(frozen=True)
class RaceResult:
    """What ``last_race`` shows: the horses on the front line, the revealed bets, the coins each seat won
    (every seat listed, 0 included). Never mutated, so clones share it."""

    race: int
    winners: Line
    bets: Mapping[str, str]
    paid: Mapping[str, int]

    def key(self) -> tuple[object, ...]:
        return self.race, self.winners, tuple(self.bets.items()), tuple(self.paid.items())


def pay(race: int, order: Order, values: Mapping[str, int], bets: Mapping[str, str]) -> RaceResult:
    """I-4: every horse on the front line wins, and a bet on any of them pays by that horse's value."""
    winners = order[0]
    paid = {seat: PAYOUT[values[horse]] if horse in winners else 0 for seat, horse in bets.items()}
    return RaceResult(race, winners, dict(bets), paid)


def game_winners(coins: Mapping[str, int]) -> tuple[str, ...]:
    """I-5: once anyone has the goal, everyone with the most coins wins, in seat order; else nobody yet."""
    top = max(coins.values())
    if top < GOAL:
        return ()
    return tuple(seat for seat, n in coins.items() if n == top)
