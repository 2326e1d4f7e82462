"""The ``boardkeeper`` command line.

Every failure a user can cause (an unknown game, a bad profile, a broken journal, a bad option) ends in
one clear line on stderr and exit code 2, never a traceback. Subcommands import what they need when they
run: ``boardkeeper --help`` must be instant on a Pi Zero, so nothing here loads an engine, PIL, pyserial
or transitions at import time.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from controller.stop import ASKED, StopRequested, raise_stop
from engines.registry import BOT_KINDS, GameInfo, game_names, games, get_game
from firmware_bridge.limits import NOISE_LIMIT

MAX_SPEED = 10_000.0  # demo --speed: far beyond watching, and still a real-time pace

if TYPE_CHECKING:
    from engines.bots.match import Bot
    from hw_config.remote import Remote

log = logging.getLogger("boardkeeper")


class UsageError(Exception):
    """A problem with what the user asked for: printed as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr, like every other user error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("boardkeeper")
    except PackageNotFoundError:
        return "unknown"


def announce(game: str, profile: Path, journal: Path) -> None:
    """The first log line of every command that plays a game (``play``, ``play --sim``, ``demo``): which
    program, game, profile and journal, so a log read later says what was played where."""
    log.info("boardkeeper %s: %s on profile %s, journal %s", version(), game, profile, journal)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardkeeper", description="Game master for a sensor-equipped board.")
    parser.add_argument("--version", action="version", version=f"boardkeeper {version()}")
    parser.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="what reaches the log (journald when run as the service); default INFO")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    game_help = f"the game: {', '.join(game_names())} ('boardkeeper games' says more)"
    sub.add_parser("games", help="the games this table plays: players, what it senses, profiles")
    demo = sub.add_parser("demo", help="a whole bot game on the simulated board, headless")
    demo.add_argument("game", help=game_help)
    demo.add_argument("--seed", type=int, default=1, help="seeds the dice and the bots (default 1)")
    demo.add_argument("--journal", type=Path, help="journal file; an unfinished one is resumed (default: temporary)")
    demo.add_argument("--frames", type=Path, help="save every display frame as PNG in this folder")
    demo.add_argument("--seat", action="append", default=[], metavar="NAME=BOT",
                      help=f"the bot in a seat ({', '.join(BOT_KINDS)}; default heuristic); repeatable")
    demo.add_argument("--players", type=int, help="number of seats, where the game allows a range")
    demo.add_argument("--profile", help="simulated board profile (default: GAME-sim)")
    demo.add_argument("--mistakes", type=float, default=0.0, help="share of moves the players get wrong (0..1)")
    demo.add_argument("--quiet", action="store_true", help="print only the result, not every screen")
    demo.add_argument("--fault", action="append", default=[], metavar="KIND:LOC",
                      help="break a reed for the whole game: stuck:LOC (stuck closed) or dead:LOC (never closes); "
                           "LOC as the layout names it, e.g. stuck:pos:27 (repeatable)")
    demo.add_argument("--backend", choices=("direct", "bridge"), default="direct",
                      help="the board read by the Pi's pins (direct) or by the simulated MCU over serial (bridge)")
    demo.add_argument("--line-noise", type=float, default=0.0,
                      help=f"--backend bridge: share of bytes corrupted on the serial line (0..{NOISE_LIMIT})")
    demo.add_argument("--web", metavar="[HOST:]PORT", help="serve the table's web page there while the bots play, "
                      "and after the game until Ctrl-C")
    demo.add_argument("--speed", type=float, metavar="F", help="simulated seconds per real second, so a person can "
                      "watch (default 1 with --web, 100 with --remote, else as fast as it goes)")
    demo.add_argument("--remote", metavar="mqtt[s]://[USER:PASS@]HOST[:PORT]/CODE",
                      help="share the game with a far table over this MQTT broker: this table plays the --as seats, "
                      "the far table the others (run the far table's demo with the same seed and code)")
    demo.add_argument("--as", dest="own", action="append", default=[], metavar="SEAT",
                      help="with --remote: a seat this table plays (again for each)")
    play = sub.add_parser("play", help="play on the real board (or --sim: at the terminal against bots)")
    play.add_argument("game", nargs="?", help=game_help)
    play.add_argument("--menu", type=Path, metavar="DIR", help="the real table's own game menu on the OLED: the board "
                      "profiles installed in DIR, the last chosen remembered, an unfinished game offered first; "
                      "hold BACK after a game to come back to it")
    play.add_argument("--profile", help="board profile (default: GAME, or GAME-sim with --sim)")
    play.add_argument("--journal", type=Path, help="journal file (default: in the state directory); "
                      "an unfinished one is resumed")
    play.add_argument("--sim", action="store_true", help="the simulated table at the terminal, against bots")
    play.add_argument("--as", dest="humans", action="append", default=[], metavar="SEAT",
                      help="your seat (--sim; default: the first, or every seat of a game with no bots); repeatable: "
                      "hot-seat, one person for several seats, 'all' for every seat; with --remote: this table's "
                      "seats")
    play.add_argument("--players", type=int, help="number of seats, where the game allows a range")
    play.add_argument("--seed", type=int, help="seed the dice and bots (--sim only; default: random)")
    play.add_argument("--seat", action="append", default=[], metavar="NAME=BOT",
                      help=f"real table: the table plays this seat with a bot ({', '.join(BOT_KINDS)}) and says "
                      "how to move its pieces; repeatable")
    play.add_argument("--think-ms", type=int, metavar="N", help="the most an mcts seat thinks per decision, in "
                      "ms, so a slow Pi answers in time (real table; default: the profile's [bots] think_ms)")
    play.add_argument("--web", metavar="[HOST:]PORT", help="serve the table's web page on the local network (real "
                      "table; default: the profile's [web])")
    play.add_argument("--remote", metavar="mqtt[s]://[USER:PASS@]HOST[:PORT]/CODE",
                      help="share the game with a far table over this MQTT broker; this table (the real one, or "
                      "with --sim yours at the terminal) plays the --as seats, the far table the others")
    board = sub.add_parser("board", help="draw the game's board to print at scale and glue over the reeds")
    board.add_argument("game", help=game_help)
    board.add_argument("--out", type=Path, required=True, help="FILE.pdf (tiled on --paper, with crop marks), "
                       "FILE.svg (the print master) or FILE.png (with its DPI)")
    board.add_argument("--paper", choices=["a4", "letter"], default="a4", help="the PDF's pages (default: a4)")
    watch = sub.add_parser("watch", help="follow a game of two tables live, read-only (needs the [remote] extra)")
    watch.add_argument("url", metavar="mqtt[s]://[USER:PASS@]HOST[:PORT]/CODE")
    rep = sub.add_parser("replay", help="print a journal's game move by move with the screens it showed")
    rep.add_argument("journal", type=Path)
    export = sub.add_parser("export", help="a journal as a readable move list, the notation explained at its head")
    export.add_argument("journal", type=Path)
    export.add_argument("--out", type=Path, help="write it to this file (default: print it)")
    check = sub.add_parser("check-config", help="validate a board profile and its layout; exit 2 on any problem")
    check.add_argument("profile", help="a profile name (GAME, GAME-sim: see 'boardkeeper games') or a .toml path")
    check.add_argument("--wiring", action="store_true", help="print the wiring table: GPIO and header pin of each line")
    test = sub.add_parser("selftest", help="touch every cell and button: each is named as it closes; "
                          "a report of cells never seen, chattering or closed at start")
    test.add_argument("profile")
    test.add_argument("--seconds", type=float, help="end after this long (default: when BACK is held)")
    test.add_argument("--script", action="store_true", help="simulated profiles: scripted hands touch everything once")
    test.add_argument("--chatter", type=float, default=5.0, help="changes per second that count as chatter (default 5)")
    test.add_argument("--web", metavar="[HOST:]PORT", help="show the matrix on the web page's self-test view "
                      "(/selftest) as it goes, and the report after, until Ctrl-C")
    test.add_argument("--fault", action="append", default=[], metavar="KIND:LOC",
                      help="with --script: break a reed first, stuck:LOC or dead:LOC as demo --fault (repeatable)")
    test.add_argument("--speed", type=float, metavar="F", help="with --script: simulated seconds per real second, so "
                      "a person can watch (default 1 with --web, else as fast as it goes)")
    bench = sub.add_parser("bench", help="the benchmarks and their targets (from a source checkout): all of them, "
                           "or one by name (scan, engine, bots, frames, strength, ...); exit 1 naming each miss")
    bench.add_argument("name", nargs="?", help="one benchmark, as 'python -m bench.NAME' (default: all)")
    bench.add_argument("options", nargs=argparse.REMAINDER, help="that benchmark's own options (NAME --help)")
    return parser


def run_bench(name: str | None, options: list[str]) -> int:
    """``python -m bench[.NAME] OPTIONS`` from the checkout, its exit code passed on. The benchmarks live beside
    the packages in a source checkout and are not installed (they need the sources and, for the backgammon
    comparison, the ``[bench]`` extra), so an installed copy without them says where to get them. A child
    process, as ``python -m`` runs them: some start their own worker processes, which import their main
    module again."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    folder = root / "bench"
    if not (folder / "__main__.py").is_file():
        raise UsageError(f"the benchmarks come with a source checkout; none beside this install ({root})")
    names = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    if name is not None and name not in names:
        raise UsageError(f"no benchmark {name!r}; there are: {', '.join(names)}")
    module = "bench" if name is None else f"bench.{name}"
    return subprocess.run([sys.executable, "-m", module, *options], cwd=root, check=False).returncode


def game_info(name: str) -> GameInfo:
    try:
        return get_game(name)
    except KeyError as e:
        raise UsageError(str(e.args[0])) from None


def list_games() -> int:
    for info in games():
        seats = (f"{info.min_players}-{info.max_players} players" if info.min_players != info.max_players
                 else " vs ".join(info.players))
        bots = ", ".join(info.bots) if info.bots else "none (people only)"
        print(f"{info.name:11s} {info.title}\n{'':12s}players: {seats}; senses: {', '.join(info.sensing)}; "
              f"bots: {bots}\n{'':12s}profiles: {', '.join(info.profiles) or '-'}")
    return 0


def profile_for(name: str) -> Any:
    from controller.table import profile_for as load

    return load(name)


_SIMULATED = ("sim", "sim-bridge")


def game_profile(info: GameInfo, name: str, *, simulated: str | None) -> Any:
    """The profile ``name``, refused in one line when it is another game's or the wrong kind of board:
    ``simulated`` names what needs a simulated one ("a demo", "--sim"), ``None`` asks for a real board."""
    profile = profile_for(name)
    if profile.game != info.name:
        raise UsageError(f"profile {profile.path} is for {profile.game}, not {info.name}")
    if simulated is not None and profile.backend not in _SIMULATED:
        raise UsageError(f"profile {profile.path} is a real board; {simulated} needs a simulated one "
                         f"({info.name}-sim)")
    if simulated is None and profile.backend in _SIMULATED:
        raise UsageError(f"profile {profile.path} is simulated; use --sim or a real profile")
    return profile


def check_config(profile: str, wiring: bool) -> int:
    from controller.table import known_profiles
    from hw_config import ConfigError

    try:
        p = profile_for(profile)
    except ConfigError as e:
        for problem in e.problems[:20]:
            print(f"error: {problem}", file=sys.stderr)
        more = len(e.problems) - 20
        if more > 0:
            print(f"... and {more} more", file=sys.stderr)
        if any(pr.key == "-" and "no such file" in pr.message for pr in e.problems):
            print(f"known profiles: {', '.join(known_profiles())}", file=sys.stderr)
        print(f"{len(e.problems)} problem(s); nothing started", file=sys.stderr)
        return 2
    buttons = ", ".join(f"{b.name}=GPIO{b.pin}" if b.pin is not None else f"{b.name}=cell{list(b.cell or ())}"
                        for b in p.buttons.values())
    print(f"{p.path}: OK -- {p.name}: game {p.game}, backend {p.backend} ({p.pin_factory}), "
          f"{len(p.rows)}x{len(p.cols)} matrix with {len(p.cells)} locations, buttons {buttons}, "
          f"display {p.display.driver} {p.display.width}x{p.display.height}"
          + (f", board over serial {p.serial.url} at {p.serial.baud} baud" if p.serial else "")
          + (f", LEDs under {len(p.leds.at)} locations" if p.leds else "")
          + (f", web page on {p.web.host}:{p.web.port}" if p.web.enabled else "")
          + (f", shared game on {_broker(p.remote.url)}" if p.remote else ""))
    if wiring:
        from controller.wiring import wiring_table

        print("\n".join(wiring_table(p)))
    return 0


def _bots(info: GameInfo, seats: tuple[str, ...], given: list[str]) -> dict[str, str]:
    """The bot kind of each seat given as ``NAME=BOT`` (only those seats; a seat given twice: the last)."""
    out: dict[str, str] = {}
    for item in given:
        name, sep, bot = item.partition("=")
        if not sep or name not in seats:
            raise UsageError(f"--seat {item}: expected NAME=BOT with NAME one of {', '.join(seats)}")
        if bot not in info.bots:
            raise UsageError(f"--seat {item}: {info.name} bots are {', '.join(info.bots) or 'none'}")
        out[name] = bot
    return out


def _remote_seats(info: GameInfo, seats: Sequence[str], url: str | None,
                  own: Sequence[str]) -> tuple[Remote | None, frozenset[str]]:
    """``--remote URL --as SEAT ...``: the broker and game, and the seats the far table plays."""
    if url is None:
        if own:
            raise UsageError("--as names this table's seats in a game shared with a far table: give --remote too")
        return None, frozenset()
    from urllib.parse import urlsplit

    from controller.remote.play import shares
    from hw_config.remote import RemoteUrlError, parse_url

    if not shares(info):
        able = ", ".join(g.name for g in games() if shares(g))
        raise UsageError(f"--remote: {info.name} cannot be played with a far table yet ({able} can; see the "
                         "README's \"Two tables, one game\")")
    try:
        remote = parse_url(url, new_code=new_game_code)
    except RemoteUrlError as e:
        raise UsageError(str(e)) from None
    if not urlsplit(url.strip()).path.strip("/"):  # a new game: the far table joins with its code
        log.info("new shared game: the far table joins with --remote %s/%s (the code is on the screen too)",
                 url.rstrip("/"), remote.code)
    unknown = [seat for seat in own if seat not in seats]
    if not own or unknown:
        raise UsageError(f"--remote: name this table's seats with --as ({', '.join(seats)})"
                         + (f"; {', '.join(unknown)} is no seat of {info.name}" if unknown else ""))
    far = frozenset(seats) - set(own)
    if not far:
        raise UsageError("--remote: every seat is this table's; leave at least one to the far table")
    return remote, far


def new_game_code() -> str:
    """A new shared game's code: random, typed from the screen (no look-alike letters), long enough that the
    signing key derived from it is not guessed from a captured line (8 of 31 letters: 40 bits)."""
    import secrets

    from controller.web.codes import ALPHABET

    return "".join(secrets.choice(ALPHABET) for _ in range(8))


def _broker(url: str) -> str:
    """HOST:PORT of a shared game's broker (never its user or password), as ``install.sh`` reads it."""
    from hw_config.remote import parse_url

    remote = parse_url(url)
    return f"{remote.host}:{remote.port}"


def watch_game(url: str) -> int:
    """``watch URL/CODE``: the game's lines as they are played, until it ends (Ctrl-C stops it sooner)."""
    from controller.remote.watch import watch
    from hw_config.remote import RemoteUrlError, parse_url

    try:
        remote = parse_url(url)
    except RemoteUrlError as e:
        raise UsageError(str(e)) from None
    return watch(remote, lambda text: print(text, flush=True))


def demo(args: argparse.Namespace) -> int:
    import tempfile

    from controller.demo import DemoStalledError, DemoTooLongError, RemoteStoppedError, run_demo, sensor_fault
    from controller.screen import Screen

    info = game_info(args.game)
    if info.scripted is None:
        raise UsageError(f"{info.name} has no simulated table yet: play it with 'boardkeeper play {info.name}'")
    if not 0.0 <= args.mistakes <= 1.0:
        raise UsageError(f"--mistakes must be between 0 and 1, got {args.mistakes}")
    if not 0.0 <= args.line_noise <= NOISE_LIMIT:
        raise UsageError(f"--line-noise must be between 0 and {NOISE_LIMIT} (the most the board link is shown to "
                         f"carry a game through), got {args.line_noise}")
    profile = args.profile or f"{info.name}-sim"
    # some games' own table is read over serial
    bridge = game_profile(info, profile, simulated="a demo").backend == "sim-bridge"
    if args.backend == "bridge" and not bridge:
        if args.profile is not None or f"{info.name}-bridge-sim" not in info.profiles:
            raise UsageError(f"--backend bridge: no bridge profile for {info.name} yet")
        profile, bridge = f"{info.name}-bridge-sim", True
    if args.line_noise and not bridge:
        raise UsageError("--line-noise is for a board read over serial (--backend bridge): this one has no "
                         "serial line")
    try:
        seats = info.seats(args.players)
        options = info.options(sim=True, players=args.players)
        locations = game_profile(info, profile, simulated="a demo").locations
        for spec in args.fault:
            sensor_fault(spec, locations)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.seat and not info.bots:
        raise UsageError(f"{info.name} has no bots: its scripted players play every seat")
    bots = dict.fromkeys(seats, "heuristic") | _bots(info, seats, args.seat) if info.bots else {}
    remote, far = _remote_seats(info, seats, args.remote, args.own)
    if remote is not None:
        options = {**options, **info.remote_options}
    speed = args.speed if args.speed is not None else 1.0 if args.web is not None else None
    if speed is not None and not 0.0 < speed <= MAX_SPEED:
        raise UsageError(f"--speed must be above 0 and at most {MAX_SPEED:g}, got {speed:g}")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.journal or Path(tmp) / "demo.jsonl"
        web = web_view(args.web, game_profile(info, profile, simulated="a demo"), path.parent) \
            if args.web is not None else None

        def echo(screen: Screen) -> None:
            if not args.quiet:
                print(screen.text(), end="\n\n")

        announce(info.name, game_profile(info, profile, simulated="a demo").path, path)
        try:
            result = run_demo(args.seed, path, game=info.name, frames=args.frames, seats=bots,
                              mistakes=args.mistakes, echo=echo, profile=profile, options=options,
                              line_noise=args.line_noise if bridge else None, sensor_faults=args.fault,
                              views=[web.attach] if web is not None else [], speed=speed, remote=remote, far=far)
            table = result.table
            print(f"winner: {result.outcome}  journal lines: {table.journal.seq}  "
                  f"simulated time: {result.sim_seconds / 60:.1f} min  frames: {table.oled.frames}"
                  + (f"  journal: {args.journal}" if args.journal else ""), flush=True)
            if web is not None:
                log.info("the game is over; the page stays at %s until Ctrl-C", web.url)
                while True:
                    time.sleep(3600)
        except (DemoTooLongError, DemoStalledError, RemoteStoppedError) as e:
            raise UsageError(str(e)) from None
        finally:
            if web is not None:
                web.stop()
    return 0


def web_view(given: str | None, profile: Any, folder: Path,
             settings: tuple[GameInfo, tuple[str, ...], Any] | None = None) -> Any:
    """The table's web page (``controller.web``), listening, if ``--web`` asks for it (``given``) or else the
    profile's ``[web] enabled`` does; ``None`` if neither. Imported only then: aiohttp is the ``[web]`` extra.
    ``settings``: the game, its seats and the settings the table has where none are saved, for a table that
    takes settings from its page (kept in ``folder``)."""
    from hw_config.web import parse_address

    if given is None and not profile.web.enabled:
        return None
    try:
        host, port = parse_address(given, profile.web.host) if given is not None else \
            (profile.web.host, profile.web.port)
    except ValueError as e:
        raise UsageError(f"--web {e}") from None
    try:
        from controller.web.matrix import matrix_json
        from controller.web.view import WebView
    except ImportError as e:
        raise UsageError(f"the web page needs {e.name or 'aiohttp'}: pip install 'boardkeeper[web]'") from None
    view = WebView(host, port, profile.game, folder, matrix_json(profile))
    if settings is not None:
        from controller.web.settings_desk import SettingsDesk

        view.desk = SettingsDesk(*settings, folder, view.codes)
    try:
        view.start()
    except OSError as e:
        raise UsageError(f"the web page cannot listen on {host}:{port}: {e.strerror or e}") from None
    return view


def state_dir() -> Path:
    """Where journals live: systemd's StateDirectory when run as the service, else the XDG state home."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "boardkeeper"


def think_budget(given: int | None, profile: Any) -> int | None:
    """A searching bot's time per decision at the real table: ``--think-ms``, else the profile's
    ``[bots] think_ms`` (``None``: the bots' fixed iteration count alone decides)."""
    from hw_config.profile import THINK_MS_RANGE

    if given is None:
        budget: int | None = profile.bots.think_ms
        return budget
    lo, hi = THINK_MS_RANGE
    if not lo <= given <= hi:
        raise UsageError(f"--think-ms must be from {lo} to {hi} ms, got {given}")
    return given


def table_bots(info: GameInfo, seats: tuple[str, ...], given: list[str], think_ms: int | None, profile: Any, *,
               clock: Callable[[], float] = time.monotonic, saved_search: bool = False) -> dict[str, Bot]:
    """The seats the real table plays itself (``--seat NAME=BOT``), each bot with its own generator and an
    mcts one with the think budget (``--think-ms``, else the profile's) read on ``clock``: the budget is
    what lets a slow Pi answer in time, so a flag that would change nothing is refused, not ignored --
    unless the saved game a resume plays began with an mcts seat (``saved_search``): the budget is its."""
    budget = think_budget(think_ms, profile)
    if given and not info.table_bots:
        raise UsageError(f"{info.name} cannot seat a bot at the real table yet: play it people only, or against "
                         f"bots with 'boardkeeper play {info.name} --sim'")
    kinds = _bots(info, seats, given)
    if "mcts" not in kinds.values() and not saved_search:
        if think_ms is not None:
            raise UsageError("--think-ms is for a searching bot at the table: seat one with --seat NAME=mcts")
        if budget is not None:
            log.info("the profile's [bots] think_ms = %d is unused: no seat is played by mcts", budget)
    from controller.demo import make_bot

    for seat, kind in kinds.items():
        if kind != "mcts":
            log.info("%s is played by %s", seat, kind)
        elif budget is None:
            log.info("%s is played by mcts, with its fixed search (no time budget)", seat)
        else:
            log.info("%s is played by mcts, thinking at most %d ms", seat, budget)
    return {seat: make_bot(kind, random.Random(), think_ms=budget, clock=clock) for seat, kind in kinds.items()}


def _saved_search(path: Path) -> bool:
    """Whether the game saved at ``path`` began with an mcts seat, which a resume plays again: after a power
    cut the service restarts with the same ``--think-ms`` and no ``--seat``. A header that cannot be read
    counts as no: ``resumed_bots`` reports it."""
    from controller.journal import JournalError, saved_seats

    try:
        return path.exists() and "mcts" in saved_seats(path).values()
    except JournalError:
        return False


def resumed_bots(info: GameInfo, seats: tuple[str, ...], path: Path, given: list[str], bots: dict[str, Bot],
                 think_ms: int | None, profile: Any) -> dict[str, Bot]:
    """The bots of a game resumed at the real table: those it began with, kept in its journal's header,
    unless ``--seat`` names others (then ``bots``, those already made for ``given``, said in the log). After a
    power cut the service restarts without ``--seat``, and a bot's seat must not silently become a person's;
    a header that cannot be read there is reported and people play, for the game itself must go on."""
    from controller.journal import JournalError, saved_seats

    try:
        saved = [f"{seat}={kind}" for seat, kind in saved_seats(path).items()]
    except JournalError as e:
        log.warning("%s: people play every seat not given with --seat", e)
        saved = []
    if given:
        if sorted(given) != sorted(saved):
            log.warning("--seat %s: the game began with %s; playing as --seat says", " ".join(given),
                        " ".join(saved) or "people only")
        return bots
    if saved:
        log.info("resumed with the bots the game began with: %s", " ".join(saved))
    try:
        return table_bots(info, seats, saved, think_ms, profile)
    except UsageError as e:
        log.warning("%s:1: the saved seats cannot be played (%s): people play every seat", path, e)
        return {}


def terminal_seats(asked: list[str], seats: tuple[str, ...], *, bots: bool, game: str) -> tuple[str, ...]:
    """The seats the person at the terminal plays (``--as``, repeatable; ``all``): by default the first, or
    every seat of a game no bot can play, whose seats nobody else could take."""
    chosen = seats if "all" in asked or (not asked and not bots) else tuple(dict.fromkeys(asked or seats[:1]))
    unknown = [seat for seat in chosen if seat not in seats]
    if unknown:
        raise UsageError(f"--as {unknown[0]}: the seats are {', '.join(seats)} (or all)")
    if not bots and len(chosen) < len(seats):
        raise UsageError(f"{game} has no bots: at the terminal you play every seat (--as all)")
    return chosen


def play(args: argparse.Namespace) -> int:
    if args.menu is not None:
        given = [flag for flag, value in (("GAME", args.game), ("--profile", args.profile), ("--journal", args.journal),
                                          ("--sim", args.sim), ("--as", args.humans), ("--players", args.players),
                                          ("--seed", args.seed), ("--seat", args.seat), ("--think-ms", args.think_ms),
                                          ("--web", args.web), ("--remote", args.remote)) if value]
        if given:
            raise UsageError(f"--menu plays the boards installed in {args.menu} with their profiles' settings: "
                             f"not with {', '.join(given)}")
        return play_menu(args.menu)
    if args.game is None:
        raise UsageError("play needs a GAME (boardkeeper games), or --menu DIR of board profiles")
    info = game_info(args.game)
    path = args.journal or state_dir() / f"{info.name}.jsonl"
    try:
        seats = info.seats(args.players)
        options = info.options(sim=args.sim, players=args.players)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.sim:
        from controller.terminal import run_terminal

        if args.think_ms is not None:
            raise UsageError("--think-ms is for the real table: the bots at the terminal use a fixed search")
        if args.seat:
            raise UsageError("--seat is for the real table: at the terminal you play one seat (--as), bots the rest")

        humans = terminal_seats(args.humans, seats, bots=bool(info.bots) or args.remote is not None, game=info.name)
        remote, _ = _remote_seats(info, seats, args.remote, list(humans) if args.remote is not None else [])
        if remote is not None:
            options = {**options, **info.remote_options}
        sim = game_profile(info, args.profile or f"{info.name}-sim", simulated="--sim")
        announce(info.name, sim.path, path)
        web = web_view(args.web, sim, path.parent) if args.web is not None else None
        try:
            return run_terminal(path, profile=sim, humans=humans, seats=seats, seed=args.seed, options=options,
                                views=[web.attach] if web is not None else [], remote=remote)
        finally:
            if web is not None:
                web.stop()
    if args.seed is not None:
        raise UsageError("--seed is for --sim only: the real table rolls with the system's entropy")
    if args.humans and args.remote is None:
        raise UsageError("--as is for --sim, or for --remote (this table's seats): at the real table everyone plays")
    from controller.table import build_io, load_backend, say_stopped

    profile = game_profile(info, args.profile or info.name, simulated=None)
    shared = profile.remote if args.remote is None else None  # the profile's [remote], unless the command says
    remote, far = _remote_seats(info, seats, shared.url if shared else args.remote,
                                list(shared.seats) if shared else args.humans)
    if far & {spec.partition("=")[0] for spec in args.seat}:
        raise UsageError("--seat: a bot plays a seat of this table; the far table's seats are played there")
    if remote is not None:
        options = {**options, **info.remote_options}
    bots = table_bots(info, seats, args.seat, args.think_ms, profile, saved_search=_saved_search(path))
    try:
        hardware = load_backend(profile)
    except RuntimeError as e:
        raise UsageError(str(e)) from None
    announce(info.name, profile.path, path)
    io = build_io(profile, hardware)
    from controller.settings import Settings

    defaults = Settings(profile.seats, _bots(info, seats, args.seat), think_budget(args.think_ms, profile))
    web = web_view(args.web, profile, path.parent, (info, seats, defaults) if remote is None else None)
    if web is not None:
        web.serve(io.feed, io.loop, io.display)
    try:
        play_games(io, info, path, options=options, seats=seats, bots=bots, given=args.seat, think_ms=args.think_ms,
                   web=web, remote=remote, far=far)
    except StopRequested as e:
        say_stopped(io.display, io.feed, io.oled)
        log.info("stopped by %s; the game is safe in %s", e, path)
    finally:
        if web is not None:
            web.stop()
    return 0


def play_games(io: Any, info: GameInfo, path: Path, *, options: dict[str, Any], seats: tuple[str, ...],
               bots: dict[str, Bot], given: list[str], think_ms: int | None, web: Any = None,
               menu: bool = False, remote: Remote | None = None, far: frozenset[str] = frozenset()) -> None:
    """The real table's games, one after another on ``io``: the saved one offered first (resumed with the bots
    it began with), then each new one when the players ask for it, seated as the web page's settings say where
    any are saved (``controller.settings``; else as the command line and profile say); with a game menu
    (``menu``) until they hold BACK after a game. A stop (``StopRequested``) leaves the game saved and
    "Stopped" on the OLED. With a far table (``remote``, which plays the seats ``far``) the one game its code
    names is played, then the command ends."""
    from dataclasses import replace

    from controller.demo import make_bot
    from controller.dice import Dice
    from controller.remote.play import LINGER_S, join
    from controller.settings import load as load_settings
    from controller.table import ask_resume, attach_game, await_next_game, stop_table

    profile = io.profile
    kinds = _bots(info, seats, given)
    resumed = ask_resume(io, path)
    while True:  # game after game: the service never has to be restarted to play again
        saved = load_settings(path.parent, info, seats) if remote is None else None  # from the page's /settings
        io.profile = replace(profile, seats=dict(saved.names)) if saved is not None else profile
        if resumed:  # seated as it began, whatever was saved since
            game_bots, game_kinds = resumed_bots(info, seats, path, given, bots, think_ms, profile), kinds
        elif saved is not None and not given:  # a new game, seated as the page's settings say
            game_kinds = dict(saved.bots)
            budget = saved.think_ms if saved.think_ms is not None else think_budget(think_ms, profile)
            game_bots = {seat: make_bot(kind, random.Random(), think_ms=budget) for seat, kind in game_kinds.items()}
        else:
            game_bots, game_kinds = bots, kinds
        resumed = False
        table = attach_game(io, path, Dice(), options=options, bots=game_bots, seats=game_kinds, far=far)
        if web is not None:
            web.new_game(table.flow.game.players)
        shared = join(table, remote, set(seats) - far) if remote is not None else None
        table.flow.start()
        try:
            table.loop.run(until=_game_ends(table, shared))
            if shared is not None:
                shared.link.close(linger_s=0.0 if shared.stopped else LINGER_S)
                if shared.stopped is not None:
                    raise UsageError(f"remote play stopped: {shared.stopped}; the game is saved in {path}")
            table.log_over()
            table.journal.close()
            if shared is not None or not await_next_game(io, path, menu=menu):
                return
        except StopRequested:
            if shared is not None:
                shared.link.close()
            stop_table(table)
            raise


def _game_ends(table: Any, shared: Any) -> Callable[[], bool]:
    """The loop's end: the game is over, or a far table's game stopped (``shared``: the remote play, if any)."""
    return lambda: bool(table.finished() or (shared is not None and shared.stopped is not None))


def play_menu(folder: Path, attach: Callable[[Any], None] | None = None) -> int:
    """``play --menu DIR``: the boards installed in ``folder`` on the OLED's menu; the chosen one's games, game
    after game, until the players hold BACK after one: the menu again. ``attach(io)`` is told of each board's
    parts as they are built (the web page could watch them; a test puts its hands on the simulated board)."""
    from controller.menu import choose_board, first_choice, installed_boards, saved_boards
    from controller.table import say_stopped

    boards = installed_boards(folder)
    if not boards:
        raise UsageError(f"--menu {folder}: no board profile there that checks out (boardkeeper check-config)")
    state = state_dir()
    state.mkdir(parents=True, exist_ok=True)
    current = boards[first_choice(boards, state, saved_boards(boards, state))]  # the one most likely plugged in
    lead = next((b for b in boards if b.web.enabled), None)  # the table's page, where a board's [web] turns it on
    web = web_view(None, lead, state) if lead is not None else None

    def take_up(board: Any) -> Any:
        io = _board_io(board, attach)
        if web is not None:
            from controller.web.matrix import matrix_json

            web.serve(io.feed, io.loop, io.display)
            web.matrix = matrix_json(board)
        return io

    io = None
    try:
        io = take_up(current)
        while True:
            chosen = choose_board(io, boards, state) if len(boards) > 1 else boards[0]
            if chosen is not current:
                io.close()
                io = take_up(chosen)
                current = chosen
            info = game_info(chosen.game)
            path = state / f"{info.name}.jsonl"
            announce(info.name, chosen.path, path)
            seats = info.seats(None)
            if web is not None:
                _menu_settings(web, info, seats, chosen, boards, state)
            play_games(io, info, path, options=info.options(sim=False), seats=seats,
                       bots=table_bots(info, seats, [], None, chosen, saved_search=_saved_search(path)),
                       given=[], think_ms=None, web=web, menu=len(boards) > 1)
            if len(boards) == 1:
                return 0
    except StopRequested as e:
        if io is not None:
            say_stopped(io.display, io.feed, io.oled)
        log.info("stopped by %s; every game is safe in %s", e, state)
    finally:
        if web is not None:
            web.stop()
    return 0


def _menu_settings(web: Any, info: GameInfo, seats: tuple[str, ...], board: Any, boards: list[Any],
                   state: Path) -> None:
    """The settings page of the board chosen from the menu: its game's seats, and the board to play next."""
    from controller.settings import Settings
    from controller.web.settings_desk import SettingsDesk

    choices = [(b.path.name, f"{game_info(b.game).title}: {b.name}") for b in boards]
    web.desk = SettingsDesk(info, seats, Settings(board.seats, {}, think_budget(None, board)), state, web.codes,
                            boards=choices)


def _board_io(board: Any, attach: Callable[[Any], None] | None) -> Any:
    """One installed board's parts, taken up (``attach`` told of them)."""
    from controller.table import build_io, load_backend

    try:
        hardware = load_backend(board)
    except RuntimeError as e:
        raise UsageError(f"{board.path}: {e}") from None
    io = build_io(board, hardware)
    if attach is not None:
        attach(io)
    return io


def export_journal(path: Path, out: Path | None) -> int:
    from controller.export import move_list

    text = move_list(path)
    if out is None:
        print(text, end="")
    else:
        out.write_text(text)
        print(f"{path.name}: {text.count(chr(10))} lines written to {out}")
    return 0


def replay_journal(path: Path) -> int:
    from controller import journal
    from controller.table import position_screen

    contents = journal.read(path)
    states = journal.replay(contents, path)
    header = contents.header
    print(f"{path}: {header['game']}, started {header.get('started', '?')}, seed {header.get('seed', '-')}"
          + ("  (torn last line ignored)" if contents.torn else ""))
    print(position_screen(states[0]).text(), end="\n\n")
    for entry, state in zip(contents.entries, states[1:], strict=True):
        print(f"{entry.seq:4d}  {entry.player:6s}  {entry.move}")
        print(position_screen(state).text(), end="\n\n")
    final = states[-1]
    print("finished: " + (f"{final.winner or 'nobody'} won" if contents.finished else "no (resumable)"))
    return 0


def print_board(game: str, out: Path, paper: str = "a4") -> int:
    from engines.registry import load_ref

    info = game_info(game)
    if info.printable is None:
        raise UsageError(f"{info.name} has no printable board")
    if out.suffix.lower() not in (".svg", ".png", ".pdf"):
        raise UsageError(f"--out {out}: give a .pdf, .svg or .png file name")
    load_ref(info.printable)(out, paper)
    pages = f" on {paper.upper()} pages (trim at the crop marks)" if out.suffix.lower() == ".pdf" else ""
    print(f"{out}: the {info.title} board, to print at 100 % scale{pages}")
    return 0


def selftest(args: argparse.Namespace) -> int:
    from controller.demo import break_reeds, sensor_fault
    from controller.selftest import run_selftest

    if args.seconds is not None and args.seconds <= 0:
        raise UsageError(f"--seconds must be positive, got {args.seconds}")
    profile = profile_for(args.profile)
    if args.script and profile.backend not in ("sim", "sim-bridge"):
        raise UsageError(f"--script needs a simulated profile ({args.profile}-sim?); {profile.name} is a real board")
    if args.fault and not args.script:
        raise UsageError("--fault breaks a reed of the simulated board: give --script too")
    try:
        broken = [sensor_fault(spec, profile.locations) for spec in args.fault]
    except ValueError as e:
        raise UsageError(str(e)) from None

    def faults(hardware: Any) -> None:
        break_reeds(hardware.board, broken)

    if args.speed is not None and not args.script:
        raise UsageError("--speed paces the scripted hands: give --script too (a person's hands keep their own pace)")
    speed = args.speed if args.speed is not None else 1.0 if args.web is not None and args.script else None
    if speed is not None and not 0.0 < speed <= MAX_SPEED:
        raise UsageError(f"--speed must be above 0 and at most {MAX_SPEED:g}, got {speed:g}")
    web = web_view(args.web, profile, state_dir()) if args.web is not None else None
    try:
        code = run_selftest(profile, seconds=args.seconds, script=args.script, chatter_hz=args.chatter,
                            faults=faults, web=web, speed=speed)
        if web is not None:
            log.info("the self-test is over; its report stays at %sselftest until Ctrl-C", web.url)
            try:
                while True:
                    time.sleep(3600)
            except StopRequested:
                pass
        return code
    except RuntimeError as e:  # the board's parts cannot be reached here (off a Pi, no display): one line
        raise UsageError(str(e)) from None
    finally:
        if web is not None:
            web.stop()


_PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


class _JournalFormatter(logging.Formatter):
    """Under systemd each line starts with its syslog priority (``<4>WARNING ...``): journald takes the prefix
    off and files the line at that priority, where without it every line is "info" and ``journalctl -p warning
    -u boardkeeper`` finds none of the table's faults (seen in the unit's boot test). journald stamps the time."""

    def format(self, record: logging.LogRecord) -> str:
        priority = next((p for level, p in _PRIORITIES if record.levelno >= level), 7)
        return f"<{priority}>{super().format(record)}"


def _under_journald() -> bool:
    return bool(os.environ.get("JOURNAL_STREAM"))


def _error(message: str) -> None:
    """A one-line error on stderr; under journald filed at priority "err", so ``journalctl -p err`` shows why
    the service did not start."""
    print(f"{'<3>' if _under_journald() else ''}error: {message}", file=sys.stderr)


def _configure_logging(level: str) -> None:
    """One line per event; under systemd (JOURNAL_STREAM set) journald stamps the time and files the level."""
    handler = logging.StreamHandler(sys.stderr)
    if _under_journald():
        handler.setFormatter(_JournalFormatter("%(levelname)s %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logging.basicConfig(level=getattr(logging, level), handlers=[handler])
    logging.getLogger("transitions").setLevel(max(logging.WARNING, getattr(logging, level)))  # a line per callback


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _configure_logging(args.log_level)
    from controller.journal import JournalError
    from hw_config import ConfigError

    ASKED.clear()  # a stop of an earlier run in this process (a test's) is not this one's
    old = {s: signal.signal(s, raise_stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        if args.command == "games":
            return list_games()
        if args.command == "demo":
            return demo(args)
        if args.command == "check-config":
            return check_config(args.profile, args.wiring)
        if args.command == "play":
            return play(args)
        if args.command == "export":
            return export_journal(args.journal, args.out)
        if args.command == "replay":
            return replay_journal(args.journal)
        if args.command == "watch":
            return watch_game(args.url)
        if args.command == "selftest":
            return selftest(args)
        if args.command == "board":
            return print_board(args.game, args.out, args.paper)
        if args.command == "bench":
            return run_bench(args.name, args.options)
    except StopRequested as e:  # outside a running table (a demo, a replay): nothing to save beyond the journal
        print(f"stopped by {e}", file=sys.stderr)
        return 0
    except (UsageError, JournalError, ConfigError) as e:
        _error(str(e))
        return 2
    except BrokenPipeError:  # output piped into head: not an error of ours; keep the exit quiet too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:  # a path the user gave that cannot be used (a file for --frames, a full disk)
        _error(f"{e.filename or ''}: {e.strerror or e}")
        return 2
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    return 2


if __name__ == "__main__":
    sys.exit(main())
