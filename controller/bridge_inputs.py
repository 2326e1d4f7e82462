"""The board read through the MCU (``firmware_bridge``) as the same events the direct scanner gives.

``LinkedMatrix`` stands where ``MatrixScanner`` stands for ``Inputs``, so cells become ``CellChanged``
(or matrix buttons) by the very same code. ``LinkGuard`` wraps that source: while the host cannot read
the board it puts "Board link lost" over the game's screen and lets no button through, so nothing is
decided on a board the host cannot see.
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
    """A loop source around the inputs: the link-lost screen, and no button on a board the host cannot see.

    A button event goes to the game at once while the link is in step with the board, and is dropped while
    it is not: during "Board link lost" (a drop, a reconnect) and during the short resyncs of a noisy line.
    It was made on a board the host could not see, and once the board is read again the position it would
    meet may not be the one it was made for (held presses replayed after a reconnect picked moves nobody
    made). The player sees nothing happen and presses again; the board itself is never lost: its changes
    come with the resync, as it is. Meanwhile the game's timers stand still (``EventLoop.pause_timers``): a
    settle or grace period that ran out on a board the host could not see would judge a stale board (and
    send the players to put right pieces they had moved correctly).
    """

    def __init__(self, link: Link, source: Callable[[float], Iterable[Event]], display: Display,
                 pause_timers: Callable[[bool], None]) -> None:
        self.link = link
        self.source = source
        self.display = display
        self.pause_timers = pause_timers

    def poll(self, now: float) -> list[Event]:
        events = list(self.source(now))
        link = self.link
        trouble = link.in_trouble(now)
        self.display.overlay((WRONG_FIRMWARE if link.status is Status.INCOMPATIBLE else LINK_LOST) if trouble else None)
        self.pause_timers(not link.sure)
        if link.sure:
            return events
        presses = sum(1 for e in events if isinstance(e, ButtonEvent) and e.kind is Press.PRESS)
        if presses:
            link.stats.presses_dropped += presses
            log.info("board link: %d press(es) dropped, made while the board could not be read", presses)
        return [e for e in events if isinstance(e, CellChanged)]  # none: the link reports no cell while unsure
