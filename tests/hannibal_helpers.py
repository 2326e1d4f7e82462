"""Building Hannibal positions for tests from just the pieces that matter."""

from __future__ import annotations

from engines.hannibal import State


def position(
    board: dict[int, tuple[str, int]],
    *,
    to_move: str = "yellow",
    dice: tuple[int, ...] = (),
    waiting: tuple[int, int] = (0, 0),
    doubles: bool | None = None,
) -> State:
    """A legal state with the given pieces; every piece not on the board or waiting is home."""
    on = {"yellow": 0, "blue": 0}
    for owner, n in board.values():
        on[owner] += n
    wait = {"yellow": waiting[0], "blue": waiting[1]}
    home = {p: 12 - on[p] - wait[p] for p in on}
    return State.from_json({
        "game": "hannibal",
        "to_move": to_move,
        "dice": sorted(dice),
        "doubles": (len(dice) == 2 and dice[0] == dice[1]) if doubles is None else doubles,
        "board": {str(k): [o, n] for k, (o, n) in board.items()},
        "waiting": wait,
        "home": home,
        "winner": None,
    })


def steps(state: State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def play(state: State, *moves: str) -> State:
    for text in moves:
        state.apply(state.parse_move(text))
    return state
