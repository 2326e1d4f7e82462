"""The table's own screen: which screen is up, and how long a message stays up.

Flows say what to show (``show``), the board link covers everything while it is lost and the help pages
while a player reads them (``overlay``, each by its owner); this model decides which screen is current. It
draws nothing: the OLED, like every other view, draws the table state built from it
(``controller.oled_view``), so the screen a view shows is always the one the others see.
"""

from __future__ import annotations

from collections.abc import Callable

from controller.clock import Clock
from controller.screen import Screen


class Display:
    """The current screen of the table (``current``).

    A message (``show(..., hold=True)``) stays up at least ``min_s``; screens shown meanwhile wait and
    the latest one appears when the time is up, so a quick player never misses "turn passes".
    """

    def __init__(self, clock: Clock, min_s: float) -> None:
        self.clock = clock
        self.min_s = min_s
        self.current: Screen | None = None
        self._hold_until = 0.0
        self._pending: Screen | None = None
        self._overlays: dict[str, Screen] = {}  # owner -> its screen, the last put up on top
        self.pages: dict[str, Callable[[Screen], list[Screen]]] = {}
        """What holding a button shows, made for the screen it was pressed on: NEXT the help (each flow sets
        it for its game), PREV the phones' seat codes (the web page, while it is on)."""
        self._behind: Screen | None = None  # the game's latest screen while an overlay covers it

    def show(self, screen: Screen, *, hold: bool = False) -> None:
        if self._overlays:
            self._behind = screen
            return
        now = self.clock.now()
        if now < self._hold_until and not hold:
            self._pending = screen
            return
        self._pending = None
        if hold:
            self._hold_until = now + self.min_s
        self.current = screen

    @property
    def held_s(self) -> float:
        """How long the message on display still stays up before another screen may take its place."""
        return max(0.0, self._hold_until - self.clock.now())

    @property
    def waiting(self) -> bool:
        """A newer screen waits for the message on display to have had its minimum time."""
        return self._pending is not None and self.clock.now() < self._hold_until

    @property
    def settled(self) -> bool:
        """No screen waits behind a message: the latest one shown is the one on display."""
        return self._pending is None

    def overlay(self, screen: Screen | None, owner: str = "link") -> None:
        """Put ``screen`` over whatever the game shows (the board link lost, the help pages), or take
        ``owner``'s away (None): the game's screens keep coming underneath, and the latest is back the moment
        the last overlay goes. Each owner puts up and takes away only its own."""
        if screen is None:
            if self._overlays.pop(owner, None) is not None:
                if self._overlays:
                    self.current = list(self._overlays.values())[-1]
                else:
                    behind, self._behind = self._behind, None
                    if behind is not None:
                        self.current = behind
            return
        if not self._overlays:
            self._behind = self._pending or self.current
            self._pending = None
        self._overlays.pop(owner, None)
        self._overlays[owner] = screen
        self.current = screen

    def refresh(self) -> None:
        """Called after every loop tick: puts up a waiting screen once the message time is over."""
        if self._pending is not None and self.clock.now() >= self._hold_until:
            self.current, self._pending = self._pending, None
