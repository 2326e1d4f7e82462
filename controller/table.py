"""The composition root: profile + backend + journal -> a running table (loop, inputs, display, flow).

The backend is loaded by the name the profile gives (``sim`` -> ``sim_hardware.backend``, ``gpio`` ->
``controller.gpio_backend``), so the controller never imports the simulation, and a Pi whose hardware is
missing fails loudly instead of quietly simulating.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.bridge_inputs import LinkedMatrix, LinkGuard
from controller.buttons import ButtonTracker, GpioButtons
from controller.dice import Dice
from controller.display import Display
from controller.events import ButtonEvent, Event, Press
from controller.flows.hannibal import HannibalFlow
from controller.flows.scipio import CARD, ScipioFlow
from controller.inputs import Inputs
from controller.journal import Journal, JournalError, read, replay
from controller.loop import EventLoop
from controller.scanner import MatrixScanner, busy_wait
from controller.screen import Screen
from controller.sdnotify import Notifier
from engines.base import GameState
from engines.hannibal import State
from engines.registry import get_game
from engines.scipio import State as ScipioState
from hw_config import Needs, Profile, load_profile

log = logging.getLogger("boardkeeper")

BACKENDS = {"sim": "sim_hardware.backend", "gpio": "controller.gpio_backend", "bridge": "controller.bridge_backend",
            "sim-bridge": "sim_hardware.bridge_backend"}


def game_needs(game: str) -> Needs:
    """What a profile for ``game`` must provide; ``KeyError`` names the known games."""
    info = get_game(game)
    return Needs(info.locations(), info.buttons)


def profile_for(name_or_path: str) -> Profile:
    return load_profile(name_or_path, game_needs)


def load_backend(profile: Profile, **options: Any) -> Any:
    module = importlib.import_module(BACKENDS[profile.backend])
    return module.create(profile, **options)


PLAYERS = {"hannibal": "sim_hardware.players:ScriptedTable",
           "scipio": "sim_hardware.scipio_players:ScriptedScipioTable"}


def scripted_players(game: str = "hannibal") -> Any:
    """The scripted people of the simulated table for ``game``, loaded by name like the backend they act on."""
    module, _, name = PLAYERS[game].partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass
class Table:
    profile: Profile
    hardware: Any
    loop: EventLoop
    inputs: Inputs
    display: Display
    flow: HannibalFlow | ScipioFlow
    journal: Journal
    resumed: bool

    def finished(self) -> bool:
        return self.flow.game.is_over()


@dataclass
class Opened:
    journal: Journal
    game: GameState
    history: list[tuple[GameState, str]]
    resumed: bool


def open_journal(path: Path, game: str, options: dict[str, Any], seed: int | None) -> Opened:
    """Resume an unfinished journal at ``path`` (replayed and checked), or start a new one there."""
    if path.exists() and path.stat().st_size > 0:
        contents = read(path)
        if contents.header["game"] != game:
            raise JournalError(f"{path}: a {contents.header['game']} journal, not {game}")
        states = replay(contents, path)
        if not contents.finished:
            if contents.torn:
                log.warning("%s: torn last line dropped (power cut while writing)", path)
            history = _undoable(states, contents)
            return Opened(Journal.resume(path, contents), states[-1], history, True)
        raise JournalError(f"{path}: that game is finished; choose another journal path")
    return Opened(Journal.create(path, game, options, seed), get_game(game).new_game(**options), [], False)


def _undoable(states: list[GameState], contents: Any) -> list[tuple[GameState, str]]:
    """Position before, and notation of, each step since the last roll: what BACK may still take back
    after a resume."""
    out: list[tuple[GameState, str]] = []
    for before, entry in zip(states, contents.entries, strict=False):
        if entry.move.startswith("R"):  # a roll: earlier steps can no longer be taken back
            out = []
        elif entry.move != "undo":
            out.append((before, entry.move))
        elif out:
            out.pop()
    return out


@dataclass
class TableIO:
    """The table's hardware side, before any game is attached: loop, inputs, display, watchdog."""

    profile: Profile
    hardware: Any
    loop: EventLoop
    inputs: Inputs
    display: Display
    gpio: GpioButtons | None


def build_io(profile: Profile, hardware: Any, echo: Callable[[Screen], None] | None = None) -> TableIO:
    timing = profile.timing
    simulated = getattr(hardware, "simulated", False)
    settle = None if simulated or not timing.settle_us else busy_wait(timing.settle_us)
    link = getattr(hardware, "link", None)  # the bridge backends: the MCU reads the matrix
    scanner = LinkedMatrix(link) if link is not None else MatrixScanner(
        hardware.pin_factory, profile.rows, profile.cols, debounce_scans=timing.debounce_scans, settle=settle)
    tracker = ButtonTracker(timing.hold_s)
    pins = {b.name: b.pin for b in profile.buttons.values() if b.pin is not None}
    cells = {b.cell: b.name for b in profile.buttons.values() if b.cell is not None}
    gpio = GpioButtons(hardware.pin_factory, pins, tracker, debounce_polls=timing.debounce_scans) if pins else None
    inputs = Inputs(scanner, profile.cells, cells, gpio, tracker)
    loop = EventLoop(hardware.clock, 1.0 / timing.scan_hz)
    display = Display(hardware.display_device, hardware.clock, timing.message_min_s, echo)
    loop.add_source(inputs.poll if link is None else LinkGuard(link, inputs.poll, display, loop.pause_timers).poll)
    loop.after_tick(display.refresh)
    notifier = Notifier(hardware.clock, {} if simulated else None)

    def heartbeat() -> None:
        """READY once the first frame is up, STATUS with the screen's title, WATCHDOG every loop turn."""
        if display.current is not None:
            notifier.ready()
            notifier.status(f"{profile.game}: {display.current.title}")
        notifier.tick()

    loop.after_tick(heartbeat)
    return TableIO(profile, hardware, loop, inputs, display, gpio)


def saved_game(path: Path) -> str | None:
    """What to ask about the journal at ``path``: None (nothing to resume), "unfinished" or "damaged"."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        contents = read(path)
        replay(contents, path)
    except JournalError as e:
        log.error("%s", e)
        return "damaged"
    return None if contents.finished else "unfinished"


def ask_resume(io: TableIO, path: Path) -> bool:
    """On the OLED: resume the saved game (OK) or start a new one (BACK). A new game keeps the old
    journal beside it, renamed, so nothing is ever lost. Returns True to resume."""
    kind = saved_game(path)
    if kind is None:
        return False
    if kind == "damaged":
        screen = Screen("Saved game damaged", ("see the log", "BACK = new game"), footer="old file is kept")
    else:
        screen = Screen("Resume the game?", (f"{path.stem}", "OK = resume", "BACK = new game"))
    answer: list[bool] = []

    def handle(event: Event) -> None:
        if isinstance(event, ButtonEvent) and event.kind is Press.PRESS:
            if event.button == "OK" and kind == "unfinished":
                answer.append(True)
            elif event.button == "BACK":
                answer.append(False)

    io.loop.set_handler(handle)
    io.display.show(screen)
    io.loop.run(until=lambda: bool(answer))
    if not answer[0]:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        aside = path.with_name(f"{path.stem}-{stamp}.{kind}{path.suffix}")
        path.rename(aside)
        log.warning("saved game moved aside to %s; starting a new game", aside)
    return answer[0]


def build_table(profile: Profile, hardware: Any, journal_path: Path, dice: Dice, *,
                seed: int | None = None, echo: Callable[[Screen], None] | None = None) -> Table:
    return attach_game(build_io(profile, hardware, echo), journal_path, dice, seed=seed)


def attach_game(io: TableIO, journal_path: Path, dice: Dice, *, seed: int | None = None) -> Table:
    """Open (or resume) the journal and put the game's flow on the table."""
    profile, loop, display = io.profile, io.loop, io.display
    timing = profile.timing
    opened = open_journal(journal_path, profile.game, {}, seed)
    flow: HannibalFlow | ScipioFlow

    def warn(message: str) -> None:
        log.warning("%s", message)

    if isinstance(opened.game, ScipioState):
        pads = any(name.startswith(CARD) for name in profile.buttons)
        flow = ScipioFlow(game=opened.game, journal=opened.journal, display=display, loop=loop, dice=dice, pads=pads,
                          on_fault=warn)
    elif isinstance(opened.game, State):
        history = [(s, move) for s, move in opened.history if isinstance(s, State)]
        flow = HannibalFlow(game=opened.game, journal=opened.journal, display=display, loop=loop, dice=dice,
                            settle_s=timing.settle_s, grace_s=timing.grace_s, history=history, on_fault=warn)
    else:
        raise JournalError(f"{journal_path}: the table has no flow for {opened.game.game}")
    loop.set_handler(flow.handle)
    if io.gpio is not None:
        for fault in io.gpio.startup_faults:
            loop.post(fault)
    return Table(profile, io.hardware, loop, io.inputs, display, flow, opened.journal, opened.resumed)
