"""Building Hannibal positions for tests from just the pieces that matter."""

from __future__ import annotations

from hypothesis import strategies as st

from engines.hannibal import PLAYERS, State


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


@st.composite
def positions(draw: st.DrawFn) -> dict[str, object]:
    """Any consistent position with dice to use, including ones random play rarely reaches."""
    board: dict[str, list[object]] = {}
    waiting, home = {}, {}
    free = list(range(49))
    for i, p in enumerate(PLAYERS):
        goal = 48 if i == 0 else 0
        left = 12 - draw(st.integers(0, 11))  # at least one piece not home
        home[p] = 12 - left
        waiting[p] = draw(st.integers(0, min(left, 3)))
        left -= waiting[p]
        while left:
            pos = draw(st.sampled_from([q for q in free if q != goal]))
            n = draw(st.integers(1, left))
            free.remove(pos)
            board[str(pos)] = [p, n]
            left -= n
    dice = sorted(draw(st.lists(st.integers(1, 6), min_size=1, max_size=2)))
    return {"game": "hannibal", "to_move": draw(st.sampled_from(PLAYERS)), "dice": dice,
            "doubles": len(dice) == 2 and dice[0] == dice[1], "board": board,
            "waiting": waiting, "home": home, "winner": None}
