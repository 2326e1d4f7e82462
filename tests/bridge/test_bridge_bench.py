"""The short version of ``python -m bench.bridge`` (the full one plays whole games at every noise level):
a game at the noise limit with the cable pulled is the direct board's game; and the bench fails, naming
the case, when the link guard replays presses held while the board could not be read (issue 11's fault)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

import controller.table
from bench import bridge
from controller.bridge_inputs import LINK_LOST, LinkGuard
from controller.display import Display
from controller.events import CellChanged, Event
from firmware_bridge.board import BoardView, Update
from firmware_bridge.limits import NOISE_LIMIT
from firmware_bridge.link import Link

SHORT = ["--games-only", "--noise", str(NOISE_LIMIT), "--moves"]


class ReplayingGuard(LinkGuard):
    """The fault as it was: presses made while the host is unsure of the board are held and handed on
    after the resync, where they meet a position they were not made for."""

    def __init__(self, link: Link, source: Callable[[float], Iterable[Event]], display: Display,
                 pause_timers: Callable[[bool], None]) -> None:
        super().__init__(link, source, display, pause_timers)
        self._held: list[Event] = []

    def poll(self, now: float) -> list[Event]:
        events = list(self.source(now))
        self.display.overlay(LINK_LOST if self.link.in_trouble(now) else None)
        self.pause_timers(not self.link.sure)
        if not self.link.sure:
            self._held += events
            return []
        cells: list[Event] = [e for e in events if isinstance(e, CellChanged)]
        out = cells + self._held + [e for e in events if not isinstance(e, CellChanged)]
        self._held = []
        return out


def test_a_game_at_the_noise_limit_with_the_cable_pulled_is_the_direct_boards(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert bridge.main([*SHORT, "70", "--seeds", "3"]) == 0
    out = capsys.readouterr().out
    assert f"noise {NOISE_LIMIT:<5} seed 3: same game as the direct board; 70 lines" in out
    assert "cable pulled 1x; 1 drops, 1 reconnects" in out


def test_the_bench_fails_on_presses_replayed_after_a_resync(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(controller.table, "LinkGuard", ReplayingGuard)
    assert bridge.main([*SHORT, "40", "--seeds", "3"]) == 1  # the cable is pulled once in these 40 lines
    out = capsys.readouterr().out
    assert f"noise {NOISE_LIMIT:<5} seed 3: FAIL: differs from the direct board at line 6" in out
    assert "FAILED: 1 of 1 games" in out


def _unchecked_delta(self: BoardView, v8: int, changes: list[tuple[int, int, bool]], copy: bool) -> Update:
    """The fault measured from outside: every delta applied as it comes, its version never checked."""
    version = self._unwrap(v8)
    update = Update(how="copy" if copy else "delta")
    for r, c, closed in changes:
        if closed != bool(self.masks[r] >> c & 1):
            self.masks[r] ^= 1 << c
            update.changes.append(((r, c), closed))
    self.version = max(self.version, version)
    return update


def test_the_bench_fails_on_a_delta_applied_without_its_version_check(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(BoardView, "delta", _unchecked_delta)
    assert bridge.main([*SHORT, "5", "--seeds", "3"]) == 1
    out = capsys.readouterr().out
    assert "FAIL: late copies: trial 0, after delta v7 the host shows" in out and "a phantom" in out
    assert "FAILED: 0 of 1 games; late copies" in out  # the games alone heal it with the next rows: blind
