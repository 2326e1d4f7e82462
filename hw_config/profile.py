"""Board profiles: TOML files naming pins, matrix, buttons, display, timings, the serial link to the board's
microcontroller (backend "bridge") and the layout they use.

A bad profile must never half-start a table: ``load_profile`` collects every problem it finds, each
naming the file, the key and what is wrong, and raises them together as one ``ConfigError``. Values are
checked for their exact type (TOML's ``true`` is not the integer 1, ``2.9`` is not a scan count) and
lists for their size, and one bad value is one problem: a bad pin still counts as a matrix line, so the
layout is not reported as the wrong size because of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw_config.leds import KEYS as LED_KEYS
from hw_config.leds import Leds, read_leds
from hw_config.problems import ConfigError, Problem
from hw_config.remote import KEYS as REMOTE_KEYS
from hw_config.remote import Shared, read_remote
from hw_config.tomlfile import read_toml
from hw_config.web import KEYS as WEB_KEYS
from hw_config.web import Web, read_web

HERE = Path(__file__).resolve().parent
PROFILES = HERE / "profiles"
LAYOUTS = HERE / "layouts"

BACKENDS = ("gpio", "sim", "bridge", "sim-bridge")
PIN_FACTORIES = {"gpio": ("lgpio", "rpigpio"), "sim": ("mock",), "bridge": ("lgpio", "rpigpio"),
                 "sim-bridge": ("mock",)}
MCU_BACKENDS = ("bridge", "sim-bridge")  # the matrix is on the board's microcontroller, read over serial
BAUD_RANGE = (1200, 4_000_000)
DRIVERS = ("ssd1306", "sh1106", "dummy")
# BCM GPIO numbers usable on the 40-pin header; 0 and 1 belong to the HAT ID EEPROM.
GPIO_RANGE = range(2, 28)
MCU_LINES = range(256)  # an MCU's matrix lines: its own pins, or the outputs and inputs of shift-register chains
I2C_PINS = {1: (2, 3), 0: (0, 1)}
MAX_ENTRIES = 1024  # buttons, layout cells, unused cells: far above any board (a 26x26 matrix has 676)
TIMING_LIMITS: dict[str, tuple[float, float]] = {
    "scan_hz": (10, 2000),
    "debounce_scans": (1, 50),
    "settle_us": (0, 10_000),
    "settle_s": (0.0, 10.0),
    "grace_s": (0.0, 60.0),
    "hold_s": (0.1, 10.0),
    "message_min_s": (0.0, 10.0),
}
MAX_DEBOUNCE_S = 0.050
"""The longest a change may have to last to be seen (``debounce_scans / scan_hz``): a button pressed quickly
is down about 80 ms, and the idle loop may look only every 50 ms (``controller.inputs.CATCH_S``)."""
WHOLE_TIMINGS = {"debounce_scans"}  # counts: a fraction has no meaning
TIMING_DEFAULTS: dict[str, float] = {
    "scan_hz": 200, "debounce_scans": 3, "settle_us": 10, "settle_s": 0.3, "grace_s": 3.0, "hold_s": 1.0,
    "message_min_s": 1.5,
}
SEAT_NAME_CHARS = 5  # a name in an OLED title beside what the seat does: "Bruno tips, round 3/6" is 21
SECTIONS: dict[str, set[str]] = {
    "board": {"name", "game", "backend", "pin_factory", "layout"},
    "matrix": {"rows", "cols"},
    "buttons": set(),  # any button name; each value checked below
    "display": {"driver", "bus", "address", "width", "height"},
    "timing": set(TIMING_LIMITS),
    "serial": {"url", "baud"},
    "seats": set(),  # any seat of the game; each name checked below
    "bots": {"think_ms"},
    "chance": {"by_hand"},
    "web": WEB_KEYS,
    "leds": LED_KEYS,
    "remote": REMOTE_KEYS,
}
THINK_MS_RANGE = (1, 10_000)  # a decision must end well inside the service watchdog's 15 s (systemd/)

Cell = tuple[int, int]


@dataclass(frozen=True)
class Button:
    name: str
    pin: int | None = None
    cell: Cell | None = None


@dataclass(frozen=True)
class Display:
    driver: str
    bus: int
    address: int
    width: int
    height: int


@dataclass(frozen=True)
class Serial:
    url: str  # a pyserial URL: /dev/ttyACM0 (USB), /dev/serial0 (the Pi's UART), ...
    baud: int


@dataclass(frozen=True)
class Timing:
    scan_hz: float
    debounce_scans: int
    settle_us: float
    settle_s: float
    grace_s: float
    hold_s: float
    message_min_s: float


@dataclass(frozen=True)
class Bots:
    """How bots seated at this table search. ``think_ms`` caps a searching bot's time per decision, so a
    slower Pi still answers in time; ``None``: the bot's fixed iteration count alone decides."""

    think_ms: int | None = None


@dataclass(frozen=True)
class Chance:
    """``by_hand``: the players roll their own dice or spin their own spinner for the whole game and key each
    result in; the table draws none (the prompt still offers it either way: NEXT where the table would roll)."""

    by_hand: bool = False


@dataclass(frozen=True)
class Profile:
    path: Path
    name: str
    game: str
    backend: str
    pin_factory: str
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    buttons: dict[str, Button]
    display: Display
    timing: Timing
    layout_path: Path
    cells: dict[Cell, str] = field(default_factory=dict)  # matrix cell -> location name
    serial: Serial | None = None  # the link to the board's MCU (backend "bridge")
    seats: dict[str, str] = field(default_factory=dict)  # seat -> the name the screens show ([seats])
    bots: Bots = field(default_factory=Bots)
    chance: Chance = field(default_factory=Chance)
    web: Web = field(default_factory=Web)  # the table's web page ([web]; off by default)
    leds: Leds | None = None  # the LED strip under the board ([leds]; bridge boards only)
    remote: Shared | None = None  # a game shared with a far table ([remote]), played by ``play``

    @property
    def locations(self) -> dict[str, Cell]:
        return {loc: cell for cell, loc in self.cells.items()}


def resolve(name_or_path: str) -> Path:
    """A profile by path, or by name from the shipped profiles (``hannibal`` -> profiles/hannibal.toml)."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        return path
    return PROFILES / f"{name_or_path}.toml"


@dataclass(frozen=True)
class Needs:
    """What a game needs from a table: every location mapped to a cell, and these buttons; ``seats`` are
    the seats ``[seats]`` may name (empty: not checked)."""

    locations: frozenset[str]
    buttons: tuple[str, ...]
    seats: tuple[str, ...] = ()


def load_profile(name_or_path: str | Path, needs: Callable[[str], Needs] | None = None) -> Profile:
    """Load and validate a profile; ``needs(game)`` says what the profile's game requires (``KeyError``
    for a game that does not exist). hw_config imports no engine, so the caller supplies it."""
    path = resolve(str(name_or_path))
    problems: list[Problem] = []
    data = read_toml(path, problems)
    if data is None:
        raise ConfigError(problems)
    checker = _Checker(path, problems)
    game = data.get("board", {}).get("game") if isinstance(data.get("board"), dict) else None
    need: Needs | None = None
    if needs is not None and isinstance(game, str):
        try:
            need = needs(game)
        except KeyError as e:
            problems.append(Problem(str(path), "board.game", str(e.args[0]) if e.args else f"unknown game {game!r}"))
    profile = checker.profile(data, set(need.locations) if need else None, list(need.buttons) if need else [],
                              need.seats if need else ())
    if problems or profile is None:
        raise ConfigError(problems)
    return profile


def seat_name_problems(names: dict[str, Any], seats: tuple[str, ...]) -> list[str]:
    """What is wrong with ``names`` (seat -> name) as ``[seats]`` would be checked (the web page's settings
    are), one line each: ``seats.p1: 'Alexandra' is 9 characters; at most 5 fit the screen``."""
    problems: list[Problem] = []
    _Checker(Path("settings"), problems).seats(names, seats)
    return [f"{p.key}: {p.message}" for p in problems]


def _is_int(value: object) -> bool:
    """An integer as TOML writes one: ``true`` is a bool and ``2.0`` a float, neither is accepted."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Checker:
    """Walks a parsed profile, recording problems instead of stopping at the first."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        self.path = path
        self.file = str(path)
        self.problems = problems

    def bad(self, key: str, message: str, file: str | None = None) -> None:
        self.problems.append(Problem(file or self.file, key, message))

    def profile(self, data: dict[str, Any], locations: set[str] | None, needed: list[str],
                seats: tuple[str, ...]) -> Profile | None:
        for section, value in data.items():
            if section not in SECTIONS:
                self.bad(section, f"unknown section (known: {', '.join(SECTIONS)})")
            elif not isinstance(value, dict):
                self.bad(section, "must be a table")
        tables: dict[str, dict[str, Any]] = {}
        for s in SECTIONS:
            value = data.get(s)
            tables[s] = value if isinstance(value, dict) else {}
        for section, allowed in SECTIONS.items():
            for key in tables[section] if allowed else ():
                if key not in allowed:
                    self.bad(f"{section}.{key}", f"unknown key (known: {', '.join(sorted(allowed))})")
        board = tables["board"]
        name = self.text(board, "board", "name", default=self.path.stem)
        game = self.text(board, "board", "game")
        backend = self.choice(board, "board", "backend", BACKENDS)
        pin_factory = self.choice(board, "board", "pin_factory", PIN_FACTORIES.get(backend) if backend else None)
        layout_name = self.text(board, "board", "layout")
        lines = MCU_LINES if backend in MCU_BACKENDS else GPIO_RANGE
        rows = self.pins(tables["matrix"], "matrix", "rows", lines)
        cols = self.pins(tables["matrix"], "matrix", "cols", lines)
        size = (len(rows), len(cols)) if rows is not None and cols is not None else None
        display = self.display(tables["display"])
        timing = self.timing(tables["timing"])
        buttons = self.buttons(tables["buttons"], size, needed)
        serial = self.serial(tables["serial"], backend) if "serial" in data or backend == "bridge" else None
        if backend not in MCU_BACKENDS:  # else the matrix pins are the MCU's, not the Pi's
            self.pins_once([(p, f"matrix.rows[{i}]") for i, p in enumerate(rows or [])]
                           + [(p, f"matrix.cols[{i}]") for i, p in enumerate(cols or [])], buttons, display)
        else:  # the MCU's lines, each once on its side: a line cannot drive two rows, or be read as two columns
            for key, side in (("matrix.rows", rows), ("matrix.cols", cols)):
                self.lines_once(key, side or [])
            self.pins_once([], buttons, display)
        layout_path = self.path
        if layout_name:  # a shipped layout by name, or a .toml path relative to the profile
            layout_path = (self.path.parent / layout_name if layout_name.endswith(".toml")
                           else LAYOUTS / f"{layout_name}.toml")
        cells = self.layout(layout_path, game, size, buttons, locations) if layout_name else {}
        names = self.seats(tables["seats"], seats)
        bots = self.bots(tables["bots"])
        chance = self.chance(tables["chance"])
        web = read_web(tables["web"], self.bad, _short)
        leds = read_leds(tables["leds"], self.bad, _short, mcu=backend in MCU_BACKENDS, cells=cells, size=size)
        remote = read_remote(tables["remote"], self.bad, _short, seats)
        if self.problems or None in (game, backend, pin_factory, display, timing, rows, cols):
            return None
        assert game and backend and pin_factory and display and timing and rows and cols
        return Profile(self.path, name or self.path.stem, game, backend, pin_factory,
                       tuple(p for p in rows if p is not None), tuple(p for p in cols if p is not None),
                       buttons, display, timing, layout_path, cells, serial, names, bots, chance, web, leds, remote)

    # -- scalar helpers ----------------------------------------------------------------------------------

    def text(self, table: Mapping[str, Any], section: str, key: str, default: str | None = None) -> str | None:
        value = table.get(key, default)
        if value is None:
            self.bad(f"{section}.{key}", "missing")
        elif not isinstance(value, str) or not value:
            self.bad(f"{section}.{key}", f"must be a non-empty string, got {_short(value)}")
            return None
        return str(value)

    def choice(self, table: Mapping[str, Any], section: str, key: str,
               options: tuple[str, ...] | None) -> str | None:
        """A string from ``options``; ``None`` options (they depend on a value already refused) only
        checks that it is a string, so one mistake is not reported twice."""
        value = self.text(table, section, key)
        if value is not None and options is not None and value not in options:
            self.bad(f"{section}.{key}", f"{value!r} is not one of {', '.join(options)}")
            return None
        return value

    def integer(self, table: Mapping[str, Any], key: str, name: str, lo: int, hi: int,
                default: int | None = None) -> int | None:
        value = table.get(key, default)
        if value is None:
            self.bad(name, "missing")
            return None
        if not _is_int(value):
            self.bad(name, f"must be an integer, got {_short(value)}")
            return None
        if not lo <= value <= hi:
            self.bad(name, f"must be a whole number from {lo} to {hi}, got {value!r}")
            return None
        return int(value)

    def pin(self, value: object, key: str, lines: range = GPIO_RANGE) -> int | None:
        if not _is_int(value):
            self.bad(key, f"pin {_short(value)} must be an integer (a BCM GPIO number)")
            return None
        assert isinstance(value, int)
        if value not in lines:
            what = "BCM GPIO" if lines is GPIO_RANGE else "the MCU's lines"
            self.bad(key, f"pin {value!r} is out of range ({what} {lines.start}..{lines.stop - 1})")
            return None
        return value

    def pins(self, table: Mapping[str, Any], section: str, key: str, lines: range) -> list[int | None] | None:
        """The pins of one matrix side, ``None`` in place of each bad one, so the matrix keeps its size;
        ``None`` for a list that is not there at all. ``lines``: the Pi's GPIOs, or on an MCU its lines
        (a shift-register build numbers them 0 up, which are no Pi GPIOs)."""
        name = f"{section}.{key}"
        value = table.get(key)
        if not isinstance(value, list) or not value:
            self.bad(name, "missing or empty: list the BCM GPIO numbers" if value is None else
                     f"must be a list of BCM GPIO numbers, got {_short(value)}")
            return None
        if len(value) > len(lines):
            self.bad(name, f"{len(value)} pins; there are only {len(lines)} usable "
                           f"{'GPIOs' if lines is GPIO_RANGE else 'lines'}")
            return None
        return [self.pin(pin, f"{name}[{i}]", lines) for i, pin in enumerate(value)]

    def cell(self, value: object, key: str, size: tuple[int, int] | None, file: str | None = None) -> Cell | None:
        if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
            self.bad(key, f"must be [row, col] (two integers), got {_short(value)}", file)
            return None
        r, c = value
        if size is not None and not (0 <= r < size[0] and 0 <= c < size[1]):
            self.bad(key, f"cell [{r}, {c}] is outside the {size[0]}x{size[1]} matrix", file)
            return None
        return (r, c)

    def bounded(self, value: object, key: str, kind: type, what: str, file: str | None = None) -> bool:
        """``value`` is a ``kind`` (list or table) of at most ``MAX_ENTRIES`` entries."""
        if not isinstance(value, kind):
            self.bad(key, f"must be {what}, got {_short(value)}", file)
            return False
        assert isinstance(value, list | dict)
        if len(value) > MAX_ENTRIES:
            self.bad(key, f"{len(value)} entries; at most {MAX_ENTRIES}", file)
            return False
        return True

    # -- sections ----------------------------------------------------------------------------------------

    def display(self, table: Mapping[str, Any]) -> Display | None:
        driver = self.choice(table, "display", "driver", DRIVERS)
        bus = self.integer(table, "bus", "display.bus", 0, 10)
        address = self.integer(table, "address", "display.address", 0x03, 0x77)
        width = self.integer(table, "width", "display.width", 32, 256)
        height = self.integer(table, "height", "display.height", 16, 128)
        if driver is None or bus is None or address is None or width is None or height is None:
            return None
        return Display(driver, bus, address, width, height)

    def serial(self, table: Mapping[str, Any], backend: str | None) -> Serial | None:
        url = table.get("url")
        if url is None:
            if backend == "bridge":
                self.bad("serial.url", "missing: the bridge backend reads the board over this port "
                         "(e.g. /dev/ttyACM0 or /dev/serial0)")
            return None
        if not isinstance(url, str) or not url:
            self.bad("serial.url", f"must be a non-empty string, got {_short(url)}")
            return None
        baud = self.integer(table, "baud", "serial.baud", *BAUD_RANGE, default=115200)
        return Serial(url, baud) if baud is not None else None

    def bots(self, table: Mapping[str, Any]) -> Bots:
        if "think_ms" not in table:
            return Bots()
        return Bots(self.integer(table, "think_ms", "bots.think_ms", *THINK_MS_RANGE))

    def chance(self, table: Mapping[str, Any]) -> Chance:
        by_hand = table.get("by_hand", False)
        if not isinstance(by_hand, bool):
            self.bad("chance.by_hand", f"must be true or false, got {_short(by_hand)}")
            return Chance()
        return Chance(by_hand)

    def timing(self, table: Mapping[str, Any]) -> Timing | None:
        values: dict[str, float] = {}
        for key, (lo, hi) in TIMING_LIMITS.items():
            value = table.get(key, TIMING_DEFAULTS[key])
            if key in WHOLE_TIMINGS and not _is_int(value):
                self.bad(f"timing.{key}", f"must be an integer (a count), got {_short(value)}")
            elif not _is_number(value):
                self.bad(f"timing.{key}", f"must be a number, got {_short(value)}")
            elif not lo <= value <= hi:
                self.bad(f"timing.{key}", f"must be a number from {lo} to {hi}, got {value!r}")
            else:
                values[key] = value
        if len(values) < len(TIMING_LIMITS):
            return None
        seen_after = values["debounce_scans"] / values["scan_hz"]
        if seen_after > MAX_DEBOUNCE_S + 1e-9:  # within each range, together they could swallow every press
            self.bad("timing.debounce_scans", f"{int(values['debounce_scans'])} scans at {values['scan_hz']:g} Hz "
                     f"see only a press held {seen_after * 1000:.0f} ms or more; a quick press lasts about 80 ms: "
                     f"at most {int(MAX_DEBOUNCE_S * values['scan_hz'] + 1e-9)} scans at that rate")
            return None
        return Timing(scan_hz=values["scan_hz"], debounce_scans=int(values["debounce_scans"]),
                      settle_us=values["settle_us"], settle_s=values["settle_s"], grace_s=values["grace_s"],
                      hold_s=values["hold_s"], message_min_s=values["message_min_s"])

    def buttons(self, table: dict[str, Any], size: tuple[int, int] | None, needed: list[str]) -> dict[str, Button]:
        out: dict[str, Button] = {}
        if not self.bounded(table, "buttons", dict, "a table of buttons"):
            return out
        for name, spec in table.items():
            key = f"buttons.{name}"
            if not isinstance(spec, dict) or len(spec) != 1 or not ({"pin", "cell"} & set(spec)):
                self.bad(key, f"must be {{ pin = N }} or {{ cell = [row, col] }}, got {_short(spec)}")
            elif "pin" in spec:
                pin = self.pin(spec["pin"], f"{key}.pin")
                if pin is not None:
                    out[name] = Button(name, pin=pin)
            elif (cell := self.cell(spec["cell"], f"{key}.cell", size)) is not None:
                out[name] = Button(name, cell=cell)
        for name in needed:
            if name not in table:
                self.bad(f"buttons.{name}", "missing: the game needs this button")
        return out

    def seats(self, table: dict[str, Any], known: tuple[str, ...]) -> dict[str, str]:
        """``[seats]``: the names the screens show instead of the engine's seats (``p1 = "Anna"``); the
        journal keeps the seats. A name must fit an OLED title beside what the seat does, be drawable in
        the OLED's Latin-1 font, and differ from every other seat's name (and unnamed seat), so nobody
        mistakes whose secret screen is up."""
        out: dict[str, str] = {}
        if not self.bounded(table, "seats", dict, "a table of seat = name"):
            return out
        shown = {seat: seat for seat in known if seat not in table}  # the unnamed keep their seat's name
        for seat, name in table.items():
            key = f"seats.{seat}"
            if known and seat not in known:
                self.bad(key, f"not a seat of this game (seats: {', '.join(known)})")
            elif not isinstance(name, str) or not name:
                self.bad(key, f"must be a non-empty string, got {_short(name)}")
            elif len(name) > SEAT_NAME_CHARS:
                self.bad(key, f"{name!r} is {len(name)} characters; at most {SEAT_NAME_CHARS} fit the screen")
            elif name != name.strip() or not name.isprintable() or max(map(ord, name)) > 0xFF:
                self.bad(key, f"{name!r}: letters, digits and inner spaces the OLED's Latin-1 font can draw")
            elif (other := next((s for s, n in shown.items() if n.casefold() == name.casefold()), None)) is not None:
                self.bad(key, f"{name!r} is already the name of seat {other}")
            else:
                out[seat] = shown[seat] = name
        return out

    def lines_once(self, key: str, lines: list[int | None]) -> None:
        first: dict[int, int] = {}
        for i, line in enumerate(lines):
            if line is not None and first.setdefault(line, i) != i:
                self.bad(f"{key}[{i}]", f"line {line} is already {key}[{first[line]}]")

    def pins_once(self, matrix: list[tuple[int | None, str]], buttons: dict[str, Button],
                  display: Display | None) -> None:
        """No GPIO wired to two things; ``matrix`` is (pin, key) of each row and column on the Pi."""
        owners: dict[int, str] = {}
        uses = list(matrix)
        uses += [(b.pin, f"buttons.{b.name}.pin") for b in buttons.values()]
        if display is not None and display.driver != "dummy":
            uses += [(p, f"display (I2C bus {display.bus})") for p in I2C_PINS.get(display.bus, ())]
        for pin, key in uses:
            if pin is None:
                continue
            if pin in owners:
                self.bad(key, f"GPIO {pin} is already used by {owners[pin]}")
            else:
                owners[pin] = key

    def layout(self, path: Path, game: str | None, size: tuple[int, int] | None, buttons: dict[str, Button],
               locations: set[str] | None) -> dict[Cell, str]:
        """The layout's cells -> locations. Checks that depend on the matrix size are left out when the
        profile's matrix itself is broken: that is one problem, already named."""
        lfile = str(path)
        problems: list[Problem] = []
        data = read_toml(path, problems)
        if data is None:
            for p in problems:
                self.bad("board.layout", f"{p.file}: {p.message}")
            return {}
        for key in set(data) - {"game", "rows", "cols", "cells", "unused"}:
            self.bad(key, "unknown key (known: game, rows, cols, cells, unused)", lfile)
        if game is not None and data.get("game") != game:
            self.bad("game", f"layout is for {_short(data.get('game'))}, the profile for {game!r}", lfile)
        dims = [data.get(k) for k in ("rows", "cols")]
        for key, value in zip(("rows", "cols"), dims, strict=True):
            if not _is_int(value):
                self.bad(key, f"must be an integer, got {_short(value)}", lfile)
        if size is not None and all(_is_int(v) for v in dims) and tuple(dims) != size:
            self.bad("rows/cols", f"layout is {dims[0]}x{dims[1]}, the matrix {size[0]}x{size[1]}", lfile)
            size = None  # every cell would be reported again: the sizes disagree, say it once
        cells: dict[Cell, str] = {}
        taken: dict[Cell, str] = {b.cell: f"button {b.name}" for b in buttons.values() if b.cell is not None}
        raw = data.get("cells", {})
        if not self.bounded(raw, "cells", dict, "a table mapping each location to [row, col]", lfile):
            raw = {}
        for loc, value in raw.items():
            cell = self.cell(value, f"cells.{loc}", size, lfile)
            if cell is None:
                continue
            if cell in taken:
                self.bad(f"cells.{loc}", f"cell {list(cell)} is mapped twice (also {taken[cell]})", lfile)
                continue
            taken[cell] = loc
            cells[cell] = loc
        unused = data.get("unused", [])
        if self.bounded(unused, "unused", list, "a list of [row, col]", lfile):
            for i, value in enumerate(unused):
                cell = self.cell(value, f"unused[{i}]", size, lfile)
                if cell is not None:
                    taken.setdefault(cell, "unused")
        if locations is not None:
            for loc in sorted(locations - set(raw), key=_natural):
                self.bad(f"cells.{loc}", "location not mapped to any cell", lfile)
            for loc in sorted(set(raw) - locations, key=_natural):
                self.bad(f"cells.{loc}", f"not a location of {game}", lfile)
        if size is not None:
            for r in range(size[0]):
                for c in range(size[1]):
                    if (r, c) not in taken:
                        self.bad("cells", f"cell [{r}, {c}] is not mapped at all (map it or list it in unused)",
                                 lfile)
        return cells


def _short(value: object) -> str:
    """A value as the problem quotes it: a runaway list or string is not printed whole."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _natural(name: str) -> tuple[str, int]:
    head, _, tail = name.rpartition(":")
    return (head, int(tail)) if tail.isdigit() else (name, -1)
