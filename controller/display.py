"""The display: draws screens on a luma device, keeps each message up for a minimum time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.clock import Clock
from controller.screen import Screen, render


class Display:
    """Shows screens on ``device`` (any luma device: ssd1306, sh1106, dummy).

    A message (``show(..., hold=True)``) stays up at least ``min_s``; screens shown meanwhile wait and
    the latest one appears when the time is up, so a quick player never misses "turn passes".
    """

    def __init__(self, device: Any, clock: Clock, min_s: float, echo: Callable[[Screen], None] | None = None) -> None:
        self.device = device
        self.clock = clock
        self.min_s = min_s
        self.echo = echo
        self.current: Screen | None = None
        self.frames = 0
        self._hold_until = 0.0
        self._pending: Screen | None = None
        self._overlay: Screen | None = None
        self._behind: Screen | None = None  # the game's latest screen while an overlay covers it

    def show(self, screen: Screen, *, hold: bool = False) -> None:
        if self._overlay is not None:
            self._behind = screen
            return
        now = self.clock.now()
        if now < self._hold_until and not hold:
            self._pending = screen
            return
        self._pending = None
        if hold:
            self._hold_until = now + self.min_s
        self._draw(screen)

    @property
    def waiting(self) -> bool:
        """A newer screen waits for the message on display to have had its minimum time."""
        return self._pending is not None and self.clock.now() < self._hold_until

    @property
    def settled(self) -> bool:
        """No screen waits behind a message: the latest one shown is the one on display."""
        return self._pending is None

    def overlay(self, screen: Screen | None) -> None:
        """Put ``screen`` over whatever the game shows (the board link lost), or take it away (None): the
        game's screens keep coming underneath, and the latest is back the moment the overlay goes."""
        if screen is None:
            if self._overlay is not None:
                behind = self._behind
                self._overlay = self._behind = None
                if behind is not None:
                    self._draw(behind)
            return
        if self._overlay is None:
            self._behind = self._pending or self.current
            self._pending = None
        self._overlay = screen
        self._draw(screen)

    def refresh(self) -> None:
        """Called after every loop tick: puts up a waiting screen once the message time is over."""
        if self._pending is not None and self.clock.now() >= self._hold_until:
            screen, self._pending = self._pending, None
            self._draw(screen)

    def _draw(self, screen: Screen) -> None:
        if screen == self.current:
            return
        self.current = screen
        self.device.display(render(screen, self.device.width, self.device.height))
        self.frames += 1
        if self.echo is not None:
            self.echo(screen)
