"""The composition root: profile + backend + journal -> a running table (loop, inputs, display, flow).

The backend is loaded by the name the profile gives (``sim`` -> ``sim_hardware.backend``, ``gpio`` ->
``controller.gpio_backend``), so the controller never imports the simulation, and a Pi whose hardware is
missing fails loudly instead of quietly simulating.
"""

from __future__ import annotations

import glob
import importlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from controller.bridge_inputs import LinkedMatrix, LinkGuard
from controller.buttons import ButtonTracker, GpioButtons
from controller.dice import Dice
from controller.display import Display
from controller.events import ButtonEvent, Event, Press
from controller.flows import Flow, FlowContext
from controller.inputs import Inputs
from controller.journal import Journal, JournalError, read, replay
from controller.leds import LedView, LinkStrip
from controller.loop import EventLoop
from controller.move_match import kinds_of
from controller.oled_view import OledView
from controller.remote.dealer import private_moves
from controller.scanner import MatrixScanner
from controller.screen import Screen
from controller.sdnotify import Notifier
from controller.table_state import Line, Seat, StateFeed, TableState, look_away
from engines.base import GameState, Scored
from engines.registry import get_game, load_ref
from hw_config import Needs, Profile, load_profile

if TYPE_CHECKING:
    from engines.bots.match import Bot

log = logging.getLogger("boardkeeper")

BACKENDS = {"sim": "sim_hardware.backend", "gpio": "controller.gpio_backend", "bridge": "controller.bridge_backend",
            "sim-bridge": "sim_hardware.bridge_backend"}


def game_needs(game: str) -> Needs:
    """What a profile for ``game`` must provide; ``KeyError`` names the known games."""
    info = get_game(game)
    return Needs(info.locations(), info.buttons, info.players)


def profile_for(name_or_path: str) -> Profile:
    return load_profile(name_or_path, game_needs)


def load_backend(profile: Profile, **options: Any) -> Any:
    module = importlib.import_module(BACKENDS[profile.backend])
    return module.create(profile, **options)


def scripted_players(game: str) -> Any:
    """The scripted people of the simulated table for ``game``, loaded by name like the backend they act on."""
    info = get_game(game)
    if info.scripted is None:
        raise JournalError(f"{game} has no scripted players for the simulated table")
    return load_ref(info.scripted)


class FaultLog:
    """Where the flows report faults: each distinct message is logged once, then with a count at 10, 100,
    1000... repeats, so a full disk retried every turn does not flood the log; and it can tell when one
    fault stands while nothing gets journaled (``stalled``)."""

    STALLED_S = 120.0  # a fault this old, with not one line saved since, stops a demo

    def __init__(self, seq: Callable[[], int], now: Callable[[], float]) -> None:
        self._seq = seq
        self._now = now
        self.counts: dict[str, int] = {}
        self._since: dict[str, tuple[int, float]] = {}  # journal length and time when first seen

    def __call__(self, message: str) -> None:
        n = self.counts.get(message, 0) + 1
        self.counts[message] = n
        if n == 1:
            self._since[message] = (self._seq(), self._now())
            log.warning("%s", message)
        elif n in (10, 100, 1000, 10000, 100000):
            log.warning("%s (%d times so far)", message, n)

    def stalled(self) -> str | None:
        """A fault that has stood for ``STALLED_S`` with not one journal line saved since it first came."""
        seq, now = self._seq(), self._now()
        for message, (since_seq, since) in self._since.items():
            if since_seq == seq and now - since >= self.STALLED_S:
                return message
        return None


@dataclass
class Table:
    profile: Profile
    hardware: Any
    loop: EventLoop
    inputs: Inputs
    display: Display
    flow: Flow
    journal: Journal
    resumed: bool
    faults: FaultLog
    feed: StateFeed
    oled: OledView

    def finished(self) -> bool:
        """The game is over and its end is on screen: whoever stops the loop then (``demo``, ``play``, the
        terminal) must not cut off the last spin, the last payouts to read, or a result held behind a message."""
        return self.flow.done and self.display.settled

    def outcome(self) -> str:
        return outcome(self.flow.game)

    def log_over(self) -> None:
        """The result in the log, as every command that plays a game writes it."""
        log.info("game over: %s", self.outcome())


def outcome(state: GameState) -> str:
    """Who won, for people and logs: the seats with the best result (several on a shared win), or a draw."""
    if not state.is_over():
        return "nobody yet"
    returns = state.returns()
    best = max(returns.values())
    top = [p for p in state.players if returns.get(p) == best]
    return "draw" if len(top) == len(state.players) and len(top) > 1 else " and ".join(top)


def position_screen(state: GameState) -> Screen:
    """The game's own pure screen for a position, as ``replay`` and the terminal show it."""
    ref = get_game(state.game).screen
    if ref is None:
        return Screen(state.game, (f"{len(state.legal_moves())} legal moves",))
    screen: Screen = load_ref(ref)(state)
    return screen


def known_profiles() -> list[str]:
    """The profiles shipped with the package, for a user who named one that does not exist."""
    folder = Path(importlib.import_module("hw_config").__file__ or ".").parent / "profiles"
    return sorted(p.stem for p in folder.glob("*.toml"))


def stop_table(table: Table) -> None:
    """``systemctl stop`` or Ctrl-C: the journal is closed (every line already fsynced), the OLED says the
    game is safe and keeps saying it after the process is gone (luma must not blank it on exit)."""
    table.journal.close()
    say_stopped(table.display, table.feed, table.oled)


def say_stopped(display: Display, feed: StateFeed, oled: OledView) -> None:
    """"Stopped" on the OLED, kept there after the process is gone; also at a stop with no game attached yet
    (the resume question), where the question would otherwise stay up with nothing left to answer it."""
    display.overlay(Screen("Stopped", ("the game is saved", "it resumes on the", "next start")))
    feed.refresh()  # the loop has stopped: the views are told once more
    oled.keep()


@dataclass
class Opened:
    journal: Journal
    game: GameState
    history: list[tuple[GameState, str]]
    resumed: bool


def open_journal(path: Path, game: str, options: dict[str, Any], seed: int | None,
                 seats: Mapping[str, str] | None = None) -> Opened:
    """Resume an unfinished journal at ``path`` (replayed and checked), or start a new one there.
    ``options`` and ``seats`` (the bots' kinds) are the new game's; a resumed game keeps its header's."""
    if path.exists() and path.stat().st_size > 0:
        contents = read(path)
        if contents.header["game"] != game:
            raise JournalError(f"{path}: a {contents.header['game']} journal, not {game}")
        # with a far table, the journal holds what every seat may know, and its own seats' secrets are kept beside it
        states = replay(contents, path, private_moves(path, str(contents.header.get("started", ""))))
        if not contents.finished:
            if contents.torn:
                log.warning("%s: torn last line dropped (power cut while writing)", path)
            history = _undoable(states, contents)
            return Opened(Journal.resume(path, contents), states[-1], history, True)
        raise JournalError(f"{path}: that game is finished; choose another journal path")
    return Opened(Journal.create(path, game, options, seed, seats), get_game(game).new_game(**options), [], False)


def _undoable(states: list[GameState], contents: Any) -> list[tuple[GameState, str]]:
    """Position before, and notation of, each step since the last chance outcome: what BACK may still
    take back after a resume. The engine says what is chance; the notation is never parsed."""
    out: list[tuple[GameState, str]] = []
    for before, entry in zip(states, contents.entries, strict=False):
        if before.is_chance():  # a roll, a spin, a draw: earlier steps can no longer be taken back
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
    feed: StateFeed  # the table state, handed to every view after each loop turn
    oled: OledView

    def close(self) -> None:
        """Let go of the board's parts (the buttons' pins, the matrix lines, the serial link, the pin factory),
        so that another installed board can take them: the game menu changes boards without a restart."""
        if self.gpio is not None:
            self.gpio.close()
        for part in (self.inputs.scanner, getattr(self.hardware, "link", None), self.hardware.pin_factory,
                     self.hardware):  # the hardware's own close, where it has more (the simulated MCU's pty)
            close = getattr(part, "close", None)
            if close is not None:
                close()


def build_io(profile: Profile, hardware: Any, echo: Callable[[Screen], None] | None = None) -> TableIO:
    """The table's hardware side; ``echo`` hears each screen the OLED draws (a headless run prints it)."""
    timing = profile.timing
    simulated = getattr(hardware, "simulated", False)
    link = getattr(hardware, "link", None)  # the bridge backends: the MCU reads the matrix
    scanner = LinkedMatrix(link) if link is not None else MatrixScanner(
        hardware.pin_factory, profile.rows, profile.cols, debounce_scans=timing.debounce_scans)
    tracker = ButtonTracker(timing.hold_s)
    pins = {b.name: b.pin for b in profile.buttons.values() if b.pin is not None}
    cells = {b.cell: b.name for b in profile.buttons.values() if b.cell is not None}
    gpio = GpioButtons(hardware.pin_factory, pins, tracker, debounce_polls=timing.debounce_scans) if pins else None
    inputs = Inputs(scanner, profile.cells, cells, gpio, tracker)
    loop = EventLoop(hardware.clock, 1.0 / timing.scan_hz)
    loop.pace = inputs.pace
    display = Display(hardware.clock, timing.message_min_s)
    loop.add_source(inputs.poll if link is None else LinkGuard(link, inputs.poll, display, loop.pause_timers).poll)
    loop.after_tick(display.refresh)
    feed = StateFeed(lambda: idle_state(profile, inputs, display), lambda: (display.current, inputs.changes))
    oled = OledView(hardware.display_device, echo)
    feed.watch(oled.see)
    if profile.leds is not None and link is not None:  # the strip hangs on the board's microcontroller
        strip = LinkStrip(link)
        feed.watch(LedView(strip, profile.leds.at).see)
        loop.after_tick(strip.tick)
    loop.after_tick(feed.refresh)
    notifier = Notifier(hardware.clock, {} if simulated else None)

    def heartbeat() -> None:
        """READY once the first frame is up, STATUS with the screen's title, WATCHDOG every loop turn."""
        if oled.drawn is not None:
            notifier.ready()
            notifier.status(f"{profile.game}: {oled.drawn.title}")
        notifier.tick()

    loop.after_tick(heartbeat)
    return TableIO(profile, hardware, loop, inputs, display, gpio, feed, oled)


def idle_state(profile: Profile, inputs: Inputs, display: Display) -> TableState:
    """The table with no game attached (the resume question, the self-test, "New game?"): its screen and
    its sensors."""
    screen = display.current
    return TableState(game=profile.game, screen=public(screen, profile.seats), shown=screen,
                      sensed=frozenset(inputs.sensed))


def public(screen: Screen | None, names: Mapping[str, str]) -> Screen | None:
    """What every view but the OLED may show of ``screen``: a seat's secret entry only as "look away"."""
    if screen is None or not screen.private:
        return screen
    seat = screen.private  # by the seat's name, never by what the screen shows big (a tip's turned horse)
    return look_away(names.get(seat) or (screen.headline if screen.headline.lower() == seat.lower() else seat))


def saved_game(path: Path) -> tuple[str | None, str]:
    """What to do with the journal at ``path``: None (nothing there), "unfinished" (ask), "damaged" (say so
    and keep it aside) or "finished" (keep it aside and start anew); and what is wrong with a damaged one."""
    if not path.exists() or path.stat().st_size == 0:
        return None, ""
    try:
        contents = read(path)
        replay(contents, path)
    except JournalError as e:
        return "damaged", str(e)
    return "finished" if contents.finished else "unfinished", ""


def set_aside(path: Path, kind: str) -> Path:
    """Keep an old journal beside the new game's, renamed with the time and why: nothing is ever lost. Its
    companion files (``JOURNAL.seals``: remote play's sealed choices) go with it."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    aside = path.with_name(f"{path.stem}-{stamp}.{kind}{path.suffix}")
    companions = list(path.parent.glob(f"{glob.escape(path.name)}.*"))
    path.rename(aside)
    for companion in companions:
        companion.rename(aside.with_name(aside.name + companion.name[len(path.name):]))
    log.warning("saved game (%s) moved aside to %s; starting a new game", kind, aside)
    return aside


def keep_finished_aside(path: Path) -> tuple[str | None, str, Path | None]:
    """The one rule for a journal that already holds a game, for ``play``, ``play --sim`` and ``demo``
    alike: a finished game is kept aside (renamed) and a new one starts at ``path``. Returns what
    ``saved_game`` found there (and why a damaged one is), and where a finished game now is."""
    kind, why = saved_game(path)
    if kind == "finished":  # the last game ended: keep it, and the table is ready for the next
        return kind, why, set_aside(path, kind)
    return kind, why, None


def ask_resume(io: TableIO, path: Path) -> bool:
    """On the OLED: resume the saved game (OK) or start a new one (BACK). A new game keeps the old
    journal beside it, renamed, so nothing is ever lost. Returns True to resume."""
    kind, why, _ = keep_finished_aside(path)
    if kind in (None, "finished"):
        return False
    if kind == "damaged":
        log.error("%s", why)
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
        set_aside(path, kind)
    return answer[0]


def await_next_game(io: TableIO, path: Path, *, menu: bool = False) -> bool:
    """After a game ends its result stays on screen; OK asks "New game?", and OK again keeps the finished
    journal aside and returns True, so the table never has to be restarted to play again. With a game menu
    (``menu``), holding BACK returns False: back to the menu."""
    asked: list[bool] = []
    done: list[bool] = []
    result = io.display.current

    def handle(event: Event) -> None:
        if not isinstance(event, ButtonEvent):
            return
        if menu and event.button == "BACK" and event.kind is Press.HOLD:
            done.append(False)
        if event.kind is not Press.PRESS:
            return
        if event.button == "OK" and asked:
            done.append(True)
        elif event.button == "OK":
            asked.append(True)
            lines = ("OK = start it", "BACK = see the result", *(("hold BACK = menu",) if menu else ()))
            io.display.show(Screen("New game?", lines, footer="saved"))
        elif event.button == "BACK" and asked and result is not None:
            asked.clear()
            io.display.show(result)

    io.loop.set_handler(handle)
    io.loop.run(until=lambda: bool(done))
    set_aside(path, "finished")
    return done[0]


def build_table(profile: Profile, hardware: Any, journal_path: Path, dice: Dice, *,
                seed: int | None = None, echo: Callable[[Screen], None] | None = None,
                options: dict[str, Any] | None = None, bots: Mapping[str, Bot] | None = None,
                seats: Mapping[str, str] | None = None, far: frozenset[str] = frozenset()) -> Table:
    return attach_game(build_io(profile, hardware, echo), journal_path, dice, seed=seed, options=options,
                       bots=bots, seats=seats, far=far)


def attach_game(io: TableIO, journal_path: Path, dice: Dice, *, seed: int | None = None,
                options: dict[str, Any] | None = None, bots: Mapping[str, Bot] | None = None,
                seats: Mapping[str, str] | None = None, far: frozenset[str] = frozenset()) -> Table:
    """Open (or resume) the journal and put the game's flow, made by its registry entry, on the table.
    ``bots`` are the seats the table plays itself (seat -> bot), for a game whose flow can seat them, and
    ``seats`` their kinds, which a new game's journal keeps (``journal.saved_seats``) so that a resume
    after a power cut can seat the same bots. ``far``: the seats a far table plays (remote play)."""
    profile, loop, display = io.profile, io.loop, io.display
    info = get_game(profile.game)
    if info.flow is None:
        raise JournalError(f"{journal_path}: the table has no flow for {info.name}")
    if bots and not info.table_bots:
        raise ValueError(f"the {info.name} flow cannot seat a bot at the table")
    opened = open_journal(journal_path, profile.game, dict(options or {}), seed, seats)
    log.info("game %s: %s, journal %s", "resumed" if opened.resumed else "started", info.name, journal_path)
    faults = FaultLog(lambda: opened.journal.seq, loop.clock.now)

    flow: Flow = load_ref(info.flow)(FlowContext(opened.game, opened.journal, display, loop, dice, profile,
                                                  opened.history, faults, dict(bots or {}), far))
    loop.set_handler(flow.handle)
    for standing in io.inputs.standing(loop.clock.now()):  # pieces already on the board, seen before the flow was
        loop.post(standing)
    if io.gpio is not None:
        for fault in io.gpio.startup_faults:
            loop.post(fault)
    kinds = dict(opened.journal.header.get("seats") or seats or {})
    seat_screen = load_ref(info.seat_screen) if info.seat_screen is not None else None
    link = getattr(io.hardware, "link", None)
    io.feed.attach(lambda: table_state(io, flow, opened.journal, kinds, seat_screen),
                   lambda: (opened.journal.seq, display.current, io.inputs.changes, flow.fixups, flow.phase,
                            flow.notice, link.status if link is not None else None))
    return Table(profile, io.hardware, loop, io.inputs, display, flow, opened.journal, opened.resumed, faults,
                 io.feed, io.oled)


def table_state(io: TableIO, flow: Flow, journal: Journal, kinds: Mapping[str, str],
                seat_screen: Callable[[Any, str, Mapping[str, str]], Screen | None] | None = None) -> TableState:
    """The snapshot every view reads (``controller.table_state``), built from the flow, the journal, the
    inputs and the screen; ``kinds`` are the seats the table's bots play (seat -> bot kind), ``seat_screen``
    the game's screen of what only one seat may see (its registry entry's)."""
    game = flow.game
    names = {seat: io.profile.seats.get(seat, seat) for seat in game.players}
    seats = tuple(Seat(seat, names[seat], "far table" if seat in flow.far else f"bot:{kinds[seat]}"
                       if seat in kinds else "person") for seat in game.players)
    private: dict[str, Screen] = {}
    if seat_screen is not None:
        private = {seat: own for seat in game.players  # a far seat's secrets are at its own table, not here
                   if seat not in flow.far and (own := seat_screen(game, seat, names)) is not None}
    shown = io.display.current
    if shown is not None and shown.private:  # a seat's secret entry is up: the OLED's reader is that seat
        private[shown.private] = shown
    scores: dict[str, int] = game.scores() if isinstance(game, Scored) else {}
    link = getattr(io.hardware, "link", None)
    return TableState(
        game=io.profile.game, seq=journal.seq, phase=flow.phase.value, seats=seats,
        to_move=game.current_player, over=game.is_over(), outcome=outcome(game), scores=MappingProxyType(scores),
        expected=MappingProxyType(dict(game.occupancy())), kinds=MappingProxyType(dict(kinds_of(game))),
        sensed=frozenset(io.inputs.sensed),
        ignored=frozenset(flow.referee.ignored), fixups=tuple(flow.fixups), shown=shown,
        screen=public(shown, io.profile.seats),
        notice=flow.notice, recent=tuple(Line(*line) for line in journal.recent),
        link=link.status.value if link is not None else None, private=MappingProxyType(private),
        choices=MappingProxyType({seat: mine for seat in game.players if (mine := flow.choices(seat))}),
        forms=MappingProxyType({seat: form for seat in game.players if (form := flow.form(seat)) is not None}))
