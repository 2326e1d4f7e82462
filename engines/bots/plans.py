"""Whole-turn planning over the State protocol: every distinct position a player can reach before the
decision passes to chance or to someone else.

Games where one turn is several decisions (Hannibal's two dice) are judged far better on the position at
the end of the turn than after each step: a piece moved onto a stack may only pay off with the stack
move that follows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engines.base import GameState, Move
from engines.registry import get_game

Plan = tuple[list[Move], GameState]

DEFAULT_LIMIT = 4000


def turn_plans(state: GameState, limit: int = DEFAULT_LIMIT) -> list[Plan]:
    """Distinct end-of-turn positions with one move sequence reaching each, in a deterministic order.

    Past ``limit`` expanded positions the search stops and the positions still mid-turn are returned as
    they are, so a game with very long turns degrades to shallower plans instead of running away.
    """
    player = state.current_player
    if player is None:
        return []
    successors = successors_for(state)
    # Why an end keeps the sequence before its last move apart, and each position's key is hashed once: a key
    # is a nested tuple that is hashed anew at every lookup, and most ends are reached again and again (the
    # first sequence found stands, so the later ones need not be built at all).
    ends: dict[object, tuple[list[Move], Move | None, GameState]] = {}
    seen: set[object] = set()
    frontier: list[Plan] = [([], state)]
    push, mark, end = frontier.append, seen.add, ends.setdefault
    expanded = 0
    while frontier and expanded < limit:
        seq, s = frontier.pop()
        expanded += 1
        for move, t in successors(s):
            key = t.key()
            if t.current_player != player:
                end(key, (seq, move, t))
            else:
                known = len(seen)
                mark(key)
                if len(seen) > known:
                    push(([*seq, move], t))
    for seq, s in frontier:  # cut off by the limit: judge them as they stand
        end(s.key(), (seq, None, s))
    return [(seq if move is None else [*seq, move], t) for seq, move, t in ends.values()]


def successors_for(state: GameState) -> Callable[[GameState], Sequence[tuple[Move, GameState]]]:
    """Each candidate move of a position with the position after it: the game's own fast way if it has one,
    else a clone with the move applied."""
    fast = get_game(state.game).successor_positions()
    if fast is not None:
        return fast
    moves_of = candidates_for(state)

    def successors(s: GameState) -> Sequence[tuple[Move, GameState]]:
        out: list[tuple[Move, GameState]] = []
        for move in moves_of(s):
            t = s.clone()
            t.apply(move)
            out.append((move, t))
        return out

    return successors


def candidates_for(state: GameState) -> Callable[[GameState], Sequence[Move]]:
    """The moves bots search in ``state``'s game: its own reduction if it has one, else every legal move."""
    reduce = get_game(state.game).candidate_moves()
    return reduce if reduce is not None else type(state).legal_moves
