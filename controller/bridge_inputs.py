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
from controller.events import Cell, CellChanged, Event
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

    A press goes to the game only once the link has heard the board *after* it (a row or a delta confirming
    the host's cells, every 20 ms on a good line), so cells the MCU saw change before the press always
    reach the game before it, as on a directly wired board. A press made while "Board link lost" is on the
    screen, or one still waiting when the host lost step with the board (a resync or a drop), is dropped:
    it was made on a board the host could not see, and the position it would meet after the board is read
    again may not be the one the player pressed it for. The player sees nothing happen and presses again.
    """

    def __init__(self, link: Link, source: Callable[[float], Iterable[Event]], display: Display) -> None:
        self.link = link
        self.source = source
        self.display = display
        self.dropped = 0  # presses and other button events dropped, for the bench and the log
        self._held: list[tuple[Event, int]] = []  # with the link's epoch when they came

    def poll(self, now: float) -> list[Event]:
        events = list(self.source(now))
        cells: list[Event] = [e for e in events if isinstance(e, CellChanged)]
        others = [e for e in events if not isinstance(e, CellChanged)]
        if self.link.in_trouble(now):
            self.display.overlay(WRONG_FIRMWARE if self.link.status is Status.INCOMPATIBLE else LINK_LOST)
            self._drop(len(self._held) + len(others))
            self._held = []
            return cells  # none: the link reports no cell while it is not in step
        self.display.overlay(None)
        epoch = self.link.epoch
        self._held += [(e, epoch) for e in others]
        released: list[Event] = []
        while self._held:
            event, seen = self._held[0]
            if seen != epoch:
                self._drop(1)
            elif self.link.sure and self.link.heard_at > event.at:
                released.append(event)
            else:
                break
            self._held.pop(0)
        return cells + released

    def _drop(self, n: int) -> None:
        if n:
            self.dropped += n
            log.info("board link: %d button event(s) dropped, made while the board could not be read", n)
