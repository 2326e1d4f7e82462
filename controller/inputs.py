"""Everything sensed, as one loop source: matrix cells mapped to locations, and buttons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from controller.buttons import ButtonTracker, GpioButtons
from controller.events import Cell, CellChanged, Event


class CellScanner(Protocol):
    """Where debounced cell changes come from: the Pi's own ``MatrixScanner``, or the MCU over the serial
    link (``controller.bridge_inputs.LinkedMatrix``)."""

    def scan(self, now: float) -> list[CellChanged]: ...


class Inputs:
    """Polls the scanner and the GPIO buttons; cells that are buttons become button events, the others
    carry their location name."""

    def __init__(self, scanner: CellScanner, locations: Mapping[Cell, str], cell_buttons: Mapping[Cell, str],
                 gpio_buttons: GpioButtons | None, tracker: ButtonTracker) -> None:
        self.scanner = scanner
        self._locations = dict(locations)
        self._cell_buttons = dict(cell_buttons)
        self._gpio = gpio_buttons
        self._tracker = tracker

    def poll(self, now: float) -> list[Event]:
        out: list[Event] = []
        for change in self.scanner.scan(now):
            button = self._cell_buttons.get(change.cell)
            if button is not None:
                out += self._tracker.update(button, change.closed, now)
            else:
                out.append(CellChanged(change.cell, change.closed, now, self._locations.get(change.cell)))
        if self._gpio is not None:
            out += self._gpio.poll(now)
        out += self._tracker.poll(now)
        return out
