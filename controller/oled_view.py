"""The OLED as a view of the table state: it draws the table's own screen whenever it changed.

Like the terminal and the web page, the OLED reads only the table state (``state.shown``). It is the one
view that may show a seat's secret entry, because the seat it belongs to is the one at the table reading
it (everyone else looks away); the public views get ``state.screen``, where that entry is only "look away".
``echo`` hears each screen drawn: the headless demo prints it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.screen import Screen, render
from controller.table_state import TableState


class OledView:
    """Draws on ``device`` (any luma device: ssd1306, sh1106, dummy) and counts the frames sent."""

    def __init__(self, device: Any, echo: Callable[[Screen], None] | None = None) -> None:
        self.device = device
        self.echo = echo
        self.frames = 0
        self.drawn: Screen | None = None

    def see(self, state: TableState) -> None:
        if state.shown is not None:
            self.draw(state.shown)

    def draw(self, screen: Screen) -> None:
        if screen == self.drawn:
            return
        self.drawn = screen
        self.device.display(render(screen, self.device.width, self.device.height))
        self.frames += 1
        if self.echo is not None:
            self.echo(screen)

    def keep(self) -> None:
        """The process is stopping: the last frame stays on the panel after it has gone (luma must not
        blank it on exit)."""
        if hasattr(self.device, "persist"):
            self.device.persist = True
        cleanup = getattr(self.device, "cleanup", None)
        if callable(cleanup):
            cleanup()
