"""The board referee on its own, through a tiny game: one piece, three spots, moves between them.

The referee is what every sensed game relies on, so its rules are pinned here without any game's flow:
a piece put down proves a move, a lift alone is only asked about, a wrong board gets a fix-up list after
the grace period (at once during set-up), a question goes stale when the board changes under it, a
sensor stuck for too long is named and can be ignored, and after a takeback the board must follow.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.events import CellChanged
from controller.loop import EventLoop
from controller.referee import STUCK_S, Call, Referee, Stage
from engines.base import Move
from sim_hardware.clock import FakeClock

SPOTS = ("spot:a", "spot:b", "spot:c")


@dataclass(frozen=True)
class Hop(Move):
    src: str
    dst: str

    def __str__(self) -> str:
        return f"{self.src[-1]}-{self.dst[-1]}"


class Tiny:
    """One piece of player "p"; it may hop to any other spot; over once it reaches c."""

    def __init__(self, at: str = "spot:a") -> None:
        self.at = at

    def occupancy(self) -> dict[str, tuple[str, int]]:
        return {self.at: ("p", 1)}

    def legal_moves(self) -> list[Move]:
        return [] if self.is_over() else [Hop(self.at, s) for s in SPOTS if s != self.at]

    def apply(self, move: Move) -> None:
        assert isinstance(move, Hop) and move in self.legal_moves()
        self.at = move.dst

    def clone(self) -> Tiny:
        return Tiny(self.at)

    def is_chance(self) -> bool:
        return False

    def is_over(self) -> bool:
        return self.at == "spot:c"


class Bench:
    def __init__(self) -> None:
        self.clock = FakeClock()
        self.loop = EventLoop(self.clock, 0.005)
        self.game = Tiny()
        self.ref = Referee(self.loop, lambda: self.game, settle_s=0.3, grace_s=3.0)  # type: ignore[arg-type,return-value]
        self.sense("spot:a", True)

    def sense(self, location: str, closed: bool) -> None:
        self.ref.record(CellChanged((0, SPOTS.index(location)), closed, self.clock.now(), location))

    def later(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def judge(self, stage: Stage = Stage.PLAY, **kw: bool) -> tuple[Call, tuple[str, ...], tuple[str, ...]]:
        v = self.ref.judge(stage, moves_allowed=kw.pop("moves_allowed", True), placed=kw.pop("placed", False), **kw)
        return v.call, tuple(str(m) for m in ((v.move,) if v.move else v.candidates)), v.fixups


def test_a_piece_put_down_proves_the_move() -> None:
    b = Bench()
    b.sense("spot:a", False)
    assert b.judge()[0] is Call.NONE  # lifted: the piece is in the air
    b.sense("spot:b", True)
    assert b.judge(placed=True) == (Call.MOVE, ("a-b",), ())


def test_a_lift_alone_is_asked_about_once_settled_never_applied() -> None:
    b = Bench()
    b.sense("spot:a", False)
    assert b.judge(settled=True)[0] is Call.NONE  # nothing fits a lift-only board: not a move
    assert b.judge(settled=True, pressed_ok=True)[0] is Call.UNSEEN  # OK: which move was it?


def test_an_unchanged_board_on_ok_asks_which_move_with_every_legal_move() -> None:
    b = Bench()
    assert b.judge(pressed_ok=True) == (Call.UNSEEN, ("a-b", "a-c"), ())


def test_a_wrong_board_gets_a_fixup_list_only_after_the_grace_period() -> None:
    b = Bench()
    b.sense("spot:b", True)  # a second piece appears from nowhere
    assert b.judge(settled=True)[0] is Call.NONE
    b.later(3.0)
    assert b.judge(settled=True) == (Call.FIXUP, (), ("lift b",))


def test_setup_lists_the_fixups_at_once_and_is_ready_when_the_board_matches() -> None:
    b = Bench()
    b.sense("spot:a", False)
    assert b.judge(Stage.SETUP, moves_allowed=False) == (Call.FIXUP, (), ("put 1 p on a",))
    b.sense("spot:a", True)
    assert b.judge(Stage.SETUP, moves_allowed=False)[0] is Call.READY


def test_a_question_goes_stale_when_the_board_changes_under_it() -> None:
    b = Bench()
    b.sense("spot:a", False)
    b.sense("spot:b", True)
    b.ref.asking((Hop("spot:a", "spot:b"),), manual=False)
    assert b.judge(Stage.CHOOSE, settled=True)[0] is Call.MOVE  # the board still shows the move asked about
    b.sense("spot:b", False)
    b.sense("spot:c", True)
    assert b.judge(Stage.CHOOSE, settled=True)[0] is Call.STALE
    b.ref.asking((Hop("spot:a", "spot:b"),), manual=True)  # opened from the menu: the board does not cancel it
    assert b.judge(Stage.CHOOSE, settled=True)[0] is not Call.STALE


def test_a_stuck_sensor_is_named_and_can_be_ignored() -> None:
    b = Bench()
    b.sense("spot:b", True)  # stuck closed
    b.later(3.0)
    call, _, fixups = b.judge(settled=True)
    assert call is Call.FIXUP and b.ref.post_fixups(fixups) and not b.ref.post_fixups(fixups)
    assert b.ref.stuck_location() is None
    b.later(STUCK_S)
    assert b.ref.stuck_location() == "spot:b"
    b.ref.ignore("spot:b")
    assert b.ref.board_matches() and b.judge(Stage.FIXUP, settled=True)[0] is Call.READY


def test_after_a_takeback_the_board_must_follow_before_any_move() -> None:
    b = Bench()
    b.sense("spot:a", False)
    b.sense("spot:b", True)
    assert b.judge(placed=True)[0] is Call.MOVE
    b.game.apply(Hop("spot:a", "spot:b"))
    b.ref.new_position()
    b.game = Tiny("spot:a")  # taken back
    b.ref.taken_back()
    assert b.ref.follow() == ("lift b", "put 1 p on a") and b.ref.restoring
    b.sense("spot:b", False)
    assert b.judge(placed=False)[0] is Call.FIXUP  # still following: no move judged meanwhile
    b.sense("spot:a", True)
    assert b.judge(placed=True)[0] is Call.READY and not b.ref.restoring
    assert b.ref.follow() is None
