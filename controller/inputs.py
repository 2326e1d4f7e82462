"""Everything sensed, as one loop source: matrix cells mapped to locations, and buttons.

It also sets the pace of the loop: full rate while anything moves, and a slower idle rate otherwise,
which is most of a game (people think, the screen waits), so an idle table costs little CPU.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from controller.buttons import ButtonTracker, GpioButtons
from controller.events import Cell, CellChanged, Event

ACTIVE_S = 1.0  # full rate for this long after anything changed
CATCH_S = 0.050  # a piece put down on an idle table is reported within this


class CellScanner(Protocol):
    """Where debounced cell changes come from: the Pi's own ``MatrixScanner``, or the MCU over the serial
    link (``controller.bridge_inputs.LinkedMatrix``)."""

    def scan(self, now: float) -> list[CellChanged]: ...


@runtime_checkable
class RawScanner(Protocol):
    """A scanner that sees raw reads, so a change under way can wake the loop before it is debounced."""

    debounce_scans: int

    @property
    def settling(self) -> bool: ...


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
        self._raw = scanner if isinstance(scanner, RawScanner) else None
        self._active_until: float | None = None  # full rate for the first second too
        self.sensed: set[str] = set()  # locations whose cells read closed: what the views draw as sensed
        self.changes = 0  # cell changes so far: a view's cheap test that the sensed board moved

    def poll(self, now: float) -> list[Event]:
        out: list[Event] = []
        for change in self.scanner.scan(now):
            button = self._cell_buttons.get(change.cell)
            if button is not None:
                out += self._tracker.update(button, change.closed, now)
            else:
                location = self._locations.get(change.cell)
                out.append(CellChanged(change.cell, change.closed, now, location))
                if location is not None:
                    (self.sensed.add if change.closed else self.sensed.discard)(location)
                    self.changes += 1
        if self._gpio is not None:
            out += self._gpio.poll(now)
        out += self._tracker.poll(now)
        if out or self._active_until is None or (self._raw is not None and self._raw.settling) \
                or (self._gpio is not None and self._gpio.settling):
            self._active_until = now + ACTIVE_S
        return out

    def standing(self, now: float) -> list[CellChanged]:
        """The located cells that read closed now, each as a change to closed. The scanner reports a piece
        once, to whoever handles events then: a game attached after the resume question or the last game's
        result must still hear of the pieces standing on the board, or it waits for them to be put down."""
        return [CellChanged(cell, True, now, location) for cell, location in sorted(self._locations.items())
                if location in self.sensed]

    def pace(self, now: float, full: float) -> float:
        """The loop's period: ``full`` while anything changed in the last ``ACTIVE_S``; else the longest
        period that still reports a piece put down within ``CATCH_S`` -- one idle period to see it, then
        the rest of the debounce at full rate. Without raw reads (the MCU scans) always ``full``."""
        if self._raw is None or self._active_until is None or now < self._active_until:
            return full
        return max(full, CATCH_S - (self._raw.debounce_scans - 1) * full)
