"""move_match, the pure function from sensed occupancy to a move, on hand-made Hannibal positions."""

from __future__ import annotations

from hannibal_helpers import position

from controller.move_match import Kind, Projection, fixup_list, move_match
from engines.hannibal import State


def _proj(state: State) -> Projection:
    return Projection.of(state, state.legal_moves())


def _board(state: State, *, minus: tuple[int, ...] = (), plus: tuple[int, ...] = ()) -> frozenset[str]:
    occupied = set(state.occupancy()) - {f"pos:{p}" for p in minus}
    return frozenset(occupied | {f"pos:{p}" for p in plus})


def test_unchanged_board_is_idle_until_ok() -> None:
    s = position({12: ("yellow", 2), 40: ("blue", 1)}, dice=(1, 5))
    assert move_match(_proj(s), _board(s)).kind is Kind.IDLE
    assert move_match(_proj(s), _board(s), settled=True).kind is Kind.IDLE  # silence is never a move


def test_unique_visible_move() -> None:
    s = position({10: ("yellow", 1), 40: ("blue", 1)}, dice=(1, 5))
    m = move_match(_proj(s), _board(s, minus=(10,), plus=(15,)), {"pos:10", "pos:15"})
    assert m.kind is Kind.MOVE and str(m.move) == "10-15"


def test_stack_to_stack_needs_ok_then_a_choice() -> None:
    s = position({0: ("yellow", 3), 6: ("yellow", 2), 12: ("yellow", 2), 40: ("blue", 1)}, dice=(6, 6))
    m = move_match(_proj(s), _board(s), ok=True)
    assert m.kind is Kind.CHOOSE and {"0-6", "6-12"} <= {str(c) for c in m.candidates}


def test_touches_order_the_choice_but_never_decide_it() -> None:
    # 10-13 sends the blue piece on 13; 10-12 joins the yellow stack: both leave 10 empty, 12 and 13 full
    s = position({10: ("yellow", 1), 12: ("yellow", 2), 13: ("blue", 1), 40: ("blue", 1)}, dice=(2, 3))
    sensed = _board(s, minus=(10,))
    assert move_match(_proj(s), sensed, {"pos:10", "pos:13"}).kind is Kind.PENDING
    m = move_match(_proj(s), sensed, {"pos:10", "pos:13"}, settled=True)
    assert m.kind is Kind.CHOOSE and [str(c) for c in m.candidates] == ["10-13", "10-12"]
    m = move_match(_proj(s), sensed, {"pos:10", "pos:12"}, settled=True)
    assert [str(c) for c in m.candidates] == ["10-12", "10-13"]


def test_a_single_hidden_move_is_still_asked() -> None:
    s = position({0: ("yellow", 3), 3: ("yellow", 1), 40: ("blue", 1)}, dice=(3, 4))
    m = move_match(_proj(s), _board(s), ok=True)
    assert m.kind is Kind.CHOOSE and [str(c) for c in m.candidates] == ["0-3"]


def test_nothing_fits_gives_paired_instructions() -> None:
    s = position({12: ("yellow", 1), 40: ("blue", 1)}, dice=(1, 2))
    sensed = _board(s, minus=(12,), plus=(20,))
    assert move_match(_proj(s), sensed, {"pos:12", "pos:20"}).kind is Kind.PENDING
    m = move_match(_proj(s), sensed, {"pos:12", "pos:20"}, settled=True)
    assert m.kind is Kind.FIXUP and m.fixups == ("lift 20", "put 1 yellow on 12")


def test_fixup_list_for_a_whole_setup() -> None:
    from engines.hannibal import new_game

    out = fixup_list(new_game().occupancy(), frozenset({"pos:5"}))
    assert out[:2] == ("lift 5", "put 4 yellow on 0") and "put 4 blue on 48" in out
