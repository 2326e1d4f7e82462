"""Buttons: GPIO pins to ground or matrix cells, debounced, turned into press / release / hold events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.events import ButtonEvent, Fault, Press


class ButtonTracker:
    """Turns debounced up/down states into events; a button already down at start is ignored until it
    has been released once (a stuck or leaned-on button must not fire a move)."""

    def __init__(self, hold_s: float) -> None:
        self._hold_s = hold_s
        self._down_since: dict[str, float] = {}
        self._held: set[str] = set()
        self._ignored: set[str] = set()

    def ignore_until_released(self, name: str) -> None:
        self._ignored.add(name)

    def update(self, name: str, down: bool, now: float) -> list[ButtonEvent]:
        if name in self._ignored:
            if not down:
                self._ignored.discard(name)
            return []
        if down and name not in self._down_since:
            self._down_since[name] = now
            return [ButtonEvent(name, Press.PRESS, now)]
        if not down and name in self._down_since:
            del self._down_since[name]
            self._held.discard(name)
            return [ButtonEvent(name, Press.RELEASE, now)]
        return []

    def poll(self, now: float) -> list[ButtonEvent]:
        out = []
        for name, since in self._down_since.items():
            if name not in self._held and now - since >= self._hold_s:
                self._held.add(name)
                out.append(ButtonEvent(name, Press.HOLD, now))
        return out


class GpioButtons:
    """Buttons wired from a GPIO pin (pulled up) to ground, debounced over consecutive polls."""

    def __init__(self, factory: Any, pins: Mapping[str, int], tracker: ButtonTracker, *, debounce_polls: int) -> None:
        self._pins = {name: factory.pin(f"GPIO{n}") for name, n in pins.items()}
        for pin in self._pins.values():
            pin.function = "input"
            pin.pull = "up"
        self._tracker = tracker
        self._debounce = debounce_polls
        self._stable = {name: False for name in self._pins}
        self._count = {name: 0 for name in self._pins}
        self.startup_faults: list[Fault] = []
        for name, pin in self._pins.items():
            if not pin.state:
                tracker.ignore_until_released(name)
                self.startup_faults.append(Fault(f"button {name} is held down at start: ignored until released", 0.0))

    @property
    def settling(self) -> bool:
        """A button reads differently from its debounced state: a press or release is under way."""
        return any(self._count.values())

    def poll(self, now: float) -> list[ButtonEvent]:
        out: list[ButtonEvent] = []
        for name, pin in self._pins.items():
            down = not pin.state
            if down == self._stable[name]:
                self._count[name] = 0
                continue
            self._count[name] += 1
            if self._count[name] >= self._debounce:
                self._count[name] = 0
                self._stable[name] = down
                out += self._tracker.update(name, down, now)
        return out

    def close(self) -> None:
        for pin in self._pins.values():
            pin.close()
