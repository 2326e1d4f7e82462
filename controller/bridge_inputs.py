"""The board read through the MCU (``firmware_bridge``) as the same events the direct scanner gives.

``LinkedMatrix`` stands where ``MatrixScanner`` stands for ``Inputs``, so cells become ``CellChanged``
(or matrix buttons) by the very same code. ``LinkGuard`` wraps that source: while the host is unsure of
the board it puts "Board link lost" over the game's screen and holds button presses back until the board
is read again, so nothing is decided on a board the host cannot see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from controller.display import Display
from controller.events import Cell, CellChanged, Event
from controller.screen import Screen
from firmware_bridge.link import Link, Status

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
    """A loop source around the inputs: the link-lost screen, and button events held while unsure.

    Held presses are handed on after the resynchronised cells, in the order they came: a player who
    moved a piece and pressed OK during an outage gets the move judged on the board as it really is."""

    def __init__(self, link: Link, source: Callable[[float], Iterable[Event]], display: Display) -> None:
        self.link = link
        self.source = source
        self.display = display
        self._held: list[Event] = []

    def poll(self, now: float) -> list[Event]:
        events = list(self.source(now))
        if self.link.in_trouble(now):
            self.display.overlay(WRONG_FIRMWARE if self.link.status is Status.INCOMPATIBLE else LINK_LOST)
        else:
            self.display.overlay(None)
        if not self.link.sure:
            self._held += events  # never cells: the link reports none while unsure
            return []
        cells = [e for e in events if isinstance(e, CellChanged)]
        out = cells + self._held + [e for e in events if not isinstance(e, CellChanged)]
        self._held = []
        return out
