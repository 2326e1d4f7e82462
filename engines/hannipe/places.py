"""The running order and the digest's "Places" steps (I-7), kept apart so each step can be tested alone.

The order is a tuple of lines from the front to the back, each line a tuple of horses in the sheet's
order. Tuples, because a state's clone then shares them: bots clone far more often than horses move.
A horse never joins an existing line by moving; lines are only shared from the start of a race.
"""

from __future__ import annotations

from engines.hannipe.data import HORSES

Line = tuple[str, ...]
Order = tuple[Line, ...]


def start(starters: Line) -> Order:
    """Every starter on one line."""
    return (tuple(h for h in HORSES if h in starters),)


def line_of(order: Order, horse: str) -> int:
    """Index of the horse's line (0 = front)."""
    for i, line in enumerate(order):
        if horse in line:
            return i
    raise ValueError(f"{horse} is not running")


def gain(order: Order, horse: str) -> Order:
    """One place forward: pass the line-mates if any, else pass the whole line ahead (front: stay)."""
    i = line_of(order, horse)
    line = order[i]
    if len(line) > 1:
        return (*order[:i], (horse,), tuple(h for h in line if h != horse), *order[i + 1:])
    if i == 0:
        return order
    return (*order[:i - 1], (horse,), order[i - 1], *order[i + 1:])


def lose(order: Order, horse: str) -> Order:
    """One place back: the mirror image of ``gain`` (last: stay)."""
    i = line_of(order, horse)
    line = order[i]
    if len(line) > 1:
        return (*order[:i], tuple(h for h in line if h != horse), (horse,), *order[i + 1:])
    if i == len(order) - 1:
        return order
    return (*order[:i], order[i + 1], (horse,), *order[i + 2:])


def move(order: Order, horse: str, places: int) -> Order:
    """``places`` single steps: forward if positive, back if negative."""
    step = gain if places > 0 else lose
    for _ in range(abs(places)):
        order = step(order, horse)
    return order
