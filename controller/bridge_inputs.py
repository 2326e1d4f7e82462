"""The board read through the MCU (``firmware_bridge``) as the same events the direct scanner gives.

``LinkedMatrix`` stands where ``MatrixScanner`` stands for ``Inputs``, so cells become ``CellChanged``
(or matrix buttons) by the very same code. ``LinkGuard`` wraps that source: while the host cannot read
the board it puts "Board link lost" over the game's screen, and it lets a button through only once the
board it meets is known, so nothing is decided on a board the host cannot see.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from controller.display import Display
from controller.events import ButtonEvent, Cell, CellChanged, Event, Press
from controller.screen import Screen
from firmware_bridge.link import Link, Status

log = logging.getLogger("boardkeeper.bridge")

LINK_LOST = Screen("Board link lost", ("reconnecting...", "pieces are kept", "as they stand"), footer="the game waits")
WRONG_FIRMWARE = Screen("Board firmware?", ("it does not match", "this host: see log"), footer="the game waits")


class LinkedMatrix:
    """The reed matrix as the MCU reports it: ``scan`` polls the link (acks, retries, resync happen there)."""

    def __init__(self, link: Link) -> None:
        self.link = link

    def scan(self, now: float) -> list[CellChanged]:
        return [CellChanged(cell, closed, now) for cell, closed in self.link.poll(now)]

    def closed_cells(self) -> set[Cell]:
        return set(self.link.closed)


class LinkGuard:
    """A loop source around the inputs: the link-lost screen, and buttons judged on the board as it was.

    A button event goes to the game once the link has confirmed its board *after* it (a row or a delta, every
    10 ms on a good line), and before the changes that came later: so the game meets press and cells in
    the order they happened, as on a directly wired board. An event is dropped when that order cannot be
    known -- changes arrived with no confirmation between the press and them (a lost delta taken from a
    copy or rebuilt from rows) -- and when the board was lost meanwhile (a hello, a drop) or "Board link
    lost" is on the screen: it was made on a board the host could not see, and the position it would meet
    may not be the one it was made for. The player sees nothing happen and presses again.
    """

    def __init__(self, link: Link, source: Callable[[float], Iterable[Event]], display: Display) -> None:
        self.link = link
        self.source = source
        self.display = display
        self.dropped = 0  # presses dropped, for the bench and the log
        self._held: list[tuple[Event, int]] = []  # with the link's epoch when they came

    def poll(self, now: float) -> list[Event]:
        events = list(self.source(now))
        cells: list[Event] = [e for e in events if isinstance(e, CellChanged)]
        others: list[Event] = [e for e in events if not isinstance(e, CellChanged)]
        link = self.link
        if link.in_trouble(now):
            self.display.overlay(WRONG_FIRMWARE if link.status is Status.INCOMPATIBLE else LINK_LOST)
            self._drop([e for e, _ in self._held] + others)
            self._held = []
            return cells  # none: the link reports no cell while it is not in step
        self.display.overlay(None)
        before = self._release(lambda e: e.at < link.confirmed_before)
        if cells:  # changes came: whatever is older and still unconfirmed cannot be placed against them
            stale = [e for e, _ in self._held if e.at < now]
            self._drop(stale)
            self._held = self._held[len(stale):]
        self._held += [(e, link.epoch) for e in others]
        after = self._release(lambda e: link.sure and e.at < link.heard_at)
        return before + cells + after

    def _release(self, confirmed: Callable[[Event], bool]) -> list[Event]:
        out: list[Event] = []
        while self._held:
            event, epoch = self._held[0]
            if epoch != self.link.epoch:
                self._drop([event])
            elif confirmed(event):
                out.append(event)
            else:
                break
            self._held.pop(0)
        return out

    def _drop(self, events: list[Event]) -> None:
        presses = sum(1 for e in events if isinstance(e, ButtonEvent) and e.kind is Press.PRESS)
        if presses:
            self.dropped += presses
            log.info("board link: %d press(es) dropped, made on a board the host could not see", presses)
