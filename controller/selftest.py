"""``boardkeeper selftest PROFILE``: the sensor self-test a board builder runs before the first game.

Each cell and button is named on the OLED and stdout as it is touched, by location name and matrix row/column,
with a running count of cells seen working; on a board with LEDs each cell's LED is lit while its sensor reads
closed, so the builder sees that the profile's ``[leds]`` puts each LED where it lies. At the end (BACK held,
or ``--seconds``) a report lists the cells never seen closing (a dead reed, a broken row or column line, a
missing diode), the ones that chatter (a magnet at the edge of a reed, a loose wire) and the ones closed at
start (a stuck reed, a piece left on the board, or ghosting through a missing diode).
"""

from __future__ import annotations

import importlib
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from controller.events import ButtonEvent, CellChanged, Event, Press
from controller.leds import SELFTEST
from controller.realtime import RealTime
from controller.screen import Screen
from controller.table import build_io, idle_state, load_backend
from hw_config import Profile

START_S = 0.5  # closures seen this soon after start were closed before anyone touched the board


@dataclass
class Report:
    """What the self-test saw, per location (cells) and per button."""

    names: dict[tuple[int, int], str]
    buttons: tuple[str, ...]
    chatter_hz: float
    closed_at_start: set[str] = field(default_factory=set)
    working: set[str] = field(default_factory=set)
    pressed: set[str] = field(default_factory=set)
    chattering: set[str] = field(default_factory=set)
    changes: dict[str, deque[float]] = field(default_factory=dict)

    def cell_changed(self, name: str, closed: bool, at: float, started: float) -> None:
        if closed and at - started < START_S:
            self.closed_at_start.add(name)
        elif closed:
            self.working.add(name)
        recent = self.changes.setdefault(name, deque())
        recent.append(at)
        while recent and at - recent[0] > 1.0:
            recent.popleft()
        if len(recent) > self.chatter_hz:
            self.chattering.add(name)

    def never_closed(self) -> list[str]:
        return sorted(set(self.names.values()) - self.working - self.closed_at_start)

    def lines(self) -> list[str]:
        total = len(self.names)
        out = [f"cells seen working: {len(self.working - self.chattering)}/{total}",
               f"buttons pressed: {len(self.pressed)}/{len(self.buttons)}"]
        for title, items in (("never seen closing", self.never_closed()),
                             ("chattering", sorted(self.chattering)),
                             ("closed at start", sorted(self.closed_at_start)),
                             ("buttons never pressed", sorted(set(self.buttons) - self.pressed))):
            if items:
                out.append(f"{title} ({len(items)}): {' '.join(self.where(i) for i in items)}")
        return out

    def where(self, name: str) -> str:
        cell = next((c for c, n in self.names.items() if n == name), None)
        return f"{name} (r{cell[0]} c{cell[1]})" if cell is not None else name

    @property
    def ok(self) -> bool:
        return not (self.never_closed() or self.chattering or self.closed_at_start
                    or set(self.buttons) - self.pressed)


def run_selftest(profile: Profile, *, seconds: float | None, script: bool, chatter_hz: float,
                 faults: Any = None, web: Any = None, speed: float | None = None) -> int:
    """Run the test on ``profile``'s board; exit 0 when every cell and button was seen working, else 1.
    ``script`` (simulated profiles) puts scripted hands on the table; ``faults(hardware)`` lets a test
    break a cell first; ``web`` (a ``WebView``) shows it on the page's self-test view as it goes, the scripted
    hands paced at ``speed`` simulated seconds per real second for a person to watch."""
    hardware = load_backend(profile)
    if faults is not None:
        faults(hardware)
    io = build_io(profile, hardware)
    if web is not None:
        web.serve(io.feed, io.loop, io.display)
    clock = hardware.clock
    started = clock.now()
    report = Report(dict(profile.cells), tuple(profile.buttons), chatter_hz)
    done: list[bool] = []
    io.feed.attach(lambda: replace(idle_state(profile, io.inputs, io.display), phase=SELFTEST, over=bool(done),
                                   seen=frozenset(report.working - report.chattering), report=tuple(report.lines())),
                   lambda: (io.display.current, io.inputs.changes, bool(done)))  # the LEDs light each closed cell
    last = [""]

    def say(line: str) -> None:
        print(line, flush=True)
        last[0] = line
        io.display.show(Screen("Self-test", (line, f"{len(report.working)}/{len(report.names)} cells work",
                                             f"{len(report.pressed)}/{len(report.buttons)} buttons"),
                               footer="hold BACK to end"))

    def handle(event: Event) -> None:
        if isinstance(event, CellChanged) and event.location is not None:
            report.cell_changed(event.location, event.closed, event.at, started)
            r, c = event.cell
            say(f"{event.location} (r{r} c{c}) {'closed' if event.closed else 'open'}")
        elif isinstance(event, ButtonEvent):
            if event.kind is Press.PRESS:
                report.pressed.add(event.button)
                say(f"button {event.button} pressed")
            elif event.kind is Press.HOLD and event.button == "BACK":
                done.append(True)

    io.loop.set_handler(handle)
    say("touch every cell")
    if script:
        hands = importlib.import_module("sim_hardware.selftest_hands").TouchEverything(hardware.board, profile)
        io.loop.add_source(hands.poll)
        if speed is not None:
            io.loop.after_tick(RealTime(clock, speed))
    io.loop.run(until=lambda: bool(done) or (seconds is not None and clock.now() - started >= seconds))
    done.append(True)
    lines = report.lines()
    for line in lines:
        print(line)
    io.display.show(Screen("Self-test done", tuple(lines[:4]), footer="OK" if report.ok else "see the report"))
    io.feed.refresh()  # the loop has stopped: the page is told the test is over here
    if hasattr(hardware, "close"):
        hardware.close()
    return 0 if report.ok else 1
