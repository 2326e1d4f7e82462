"""``boardkeeper play GAME --sim``: a game on the simulated table typed at a terminal, against bots.

You are the person at the table: you lift and place pieces and press buttons by typing; bots play the
other seats physically, as in the demo; the screen is printed whenever it changes. Locations are typed
as the screen names them (``17``, ``yellow.0``) or in full (``pos:17``); any button of the profile is a
command by its own name (``roll``, ``ok``, ``tap:rome:yellow.0``). Every mistake is one line.

The terminal is a view of the table state, as the OLED and the web page are: it prints only what your
seat may read (``TableState.seen_by``), so a screen private to another seat (their hand, their bet) is
printed as the public screen has it: whose it is, and "look away".
"""

from __future__ import annotations

import os
import random
import select
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from controller.dice import Dice
from controller.events import Event
from controller.flows import Flow
from controller.move_match import label
from controller.screen import Screen
from controller.stop import StopRequested
from controller.table import Table, build_table, keep_finished_aside, load_backend, scripted_players, stop_table
from controller.table_state import TableState, public_move
from engines.bots import HeuristicBot
from engines.registry import get_game, load_ref

if TYPE_CHECKING:
    from hw_config.remote import Remote

HELP = """commands (LOC: a location as the screen names it, e.g. {example}):
  lift LOC [N]     take N pieces (default 1) off LOC
  place LOC [N]    put N pieces on LOC
  move LOC LOC [N] lift from the first, then place on the second
  {buttons}    press that button
  hold BUTTON      keep it down a while (hold next: what the codes on the screen mean)
  fix              do what the screen's fix-up list says (e.g. set up the board)
  board            draw the board again (it is drawn whenever a piece moves or should)
  wait [S]         let S seconds pass (default 1)
  help | quit      quit keeps the game: it resumes on the next start"""

PROMPT = "> "
LONGEST, HEAD = 16, 12  # a list printed whole up to LONGEST lines, else by its first HEAD
IDLE_S = 0.05  # with a web page on: how often the table looks for a seat's decision while the person types


class Mistake(ValueError):
    """Something typed that cannot be done: said in one line, and the game goes on."""


class Terminal:
    """One person's hands and eyes at the simulated table."""

    def __init__(self, table: Any, hardware: Any, profile: Any, players: Any, bots: dict[str, Any],
                 out: Callable[[str], None]) -> None:
        self.table = table
        self.hw = hardware
        self.profile = profile
        self.players = players
        self.bots = bots
        self.out = out
        self.locations: dict[str, tuple[int, int]] = dict(profile.locations)
        labels: dict[str, list[str]] = {}
        for name in self.locations:
            labels.setdefault(label(name), []).append(name)  # as the screens name them
        self.labels = {short: names[0] for short, names in labels.items() if len(names) == 1}
        self.buttons = {name.lower(): name for name in profile.buttons}

    def help(self) -> str:
        example = ", ".join(list(self.labels)[:2] or list(self.locations)[:2])
        buttons = " | ".join(sorted(b for b in self.buttons if ":" not in b))
        named = sorted(b for b in self.buttons if ":" in b)
        more = f"\n  also by name: {' '.join(named[:6])}{' ...' if len(named) > 6 else ''}" if named else ""
        return HELP.format(example=example, buttons=buttons) + more

    def run(self, seconds: float) -> None:
        hz = self.profile.timing.scan_hz
        for _ in range(max(1, round(seconds * hz))):
            self.table.loop.tick()
            self.hw.clock.advance(1.0 / hz)

    def cell(self, text: str) -> tuple[int, int]:
        name = self.labels.get(text, text)
        if name not in self.locations:
            raise Mistake(f"no location {text!r} on this board")
        return self.locations[name]

    @staticmethod
    def count(words: list[str], at: int) -> int:
        if len(words) <= at:
            return 1
        try:
            n = int(words[at])
        except ValueError:
            raise Mistake(f"{words[at]!r} is not a number of pieces") from None
        if n < 1:
            raise Mistake(f"the number of pieces must be 1 or more, not {n}")
        return n

    def lift(self, text: str, n: int) -> None:
        cell = self.cell(text)
        have = self.hw.board.count(cell)
        if have < n:
            counted = self.table.flow.game.occupancy().get(self.labels.get(text, text), ("", 0))[1]
            hint = f" (the table counts {counted}: 'fix' makes the stack so)" if counted > have else ""
            raise Mistake(f"cannot lift {n} from {text}: {have or 'nothing'} there{hint}")
        self.hw.board.lift(cell, n)

    def do(self, words: list[str]) -> None:
        verb, args = words[0].lower(), words[1:]
        if verb in ("lift", "place"):
            if not args:
                raise Mistake(f"{verb} where? e.g. '{verb} {next(iter(self.labels), 'LOC')}'")
            n = self.count(args, 1)
            if verb == "lift":
                self.lift(args[0], n)
            else:
                self.hw.board.place(self.cell(args[0]), n)
            self.run(0.5)
        elif verb == "move":
            if len(args) < 2:
                raise Mistake("move from where to where? e.g. 'move A B'")
            n = self.count(args, 2)
            target = self.cell(args[1])
            self.lift(args[0], n)
            self.run(0.5)
            self.hw.board.place(target, n)
            self.run(0.5)
        elif verb in self.buttons:
            button = self.profile.buttons[self.buttons[verb]]
            self.press(button)
        elif verb == "hold":
            if not args or args[0].lower() not in self.buttons:
                raise Mistake(f"hold which button? e.g. 'hold next' (buttons: {', '.join(sorted(self.buttons))})")
            self.press(self.profile.buttons[self.buttons[args[0].lower()]], self.profile.timing.hold_s + 0.1)
        elif verb == "fix":
            self.fix()
        elif verb == "wait":
            try:
                self.run(float(args[0]) if args else 1.0)
            except ValueError:
                raise Mistake(f"wait how long? {args[0]!r} is not a number of seconds") from None
        else:
            raise Mistake(f"unknown command {verb!r}; type help")

    def press(self, button: Any, seconds: float = 0.1) -> None:
        board = self.hw.board
        if button.pin is not None:
            board.press_pin(button.pin)
            self.run(seconds)
            board.release_pin(button.pin)
        else:
            board.place(button.cell, 1)
            self.run(seconds)
            board.lift(button.cell, 1)
        self.run(0.5)

    def fix(self) -> None:
        """The screen's fix-up list, done by hand: ``lift 17``, ``put 2 on 12`` (a colour may be named); and
        every stack made as tall as the table counts it, which no sensor can tell (a piece entered onto a
        stack of one's own, chosen from the menu, that the hands never carried there)."""
        fixups = self.table.flow.fixups
        wrong = self.wrong_stacks()
        if not fixups and not wrong:
            raise Mistake("nothing to fix: the board matches")
        for instruction in fixups:
            words = instruction.split()
            target = self.cell(words[-1])
            have = self.hw.board.count(target)
            if words[0] == "lift":
                self.hw.board.lift(target, have)
            elif words[0] == "put":
                self.hw.board.place(target, max(0, int(words[1]) - have))
        for text, (cell, want) in self.wrong_stacks().items():
            have = self.hw.board.count(cell)
            if want > have:
                self.hw.board.place(cell, want - have)
            else:
                self.hw.board.lift(cell, have - want)
            self.out(f"(the stack on {text} made {want} high, as the table counts it)")
        self.run(0.5)

    def wrong_stacks(self) -> dict[str, tuple[tuple[int, int], int]]:
        """Where pieces stand, as the sensors agree, but not as many as the table counts: the place as the
        screen names it -> its cell and the count."""
        out: dict[str, tuple[tuple[int, int], int]] = {}
        for loc, (_, want) in self.table.flow.game.occupancy().items():
            cell = self.locations.get(loc)
            have = self.hw.board.count(cell) if cell is not None else 0
            if cell is not None and have and want and have != want:
                out[label(loc)] = (cell, want)
        return out

    def let_bots_play(self) -> None:
        """Run the table while the bots have something to do; stop when it is a person's turn, a fix-up is
        the person's to make, or nothing has happened for two seconds with no bot to move. The pawns a bot's
        tip moved are the bots' hands' to put right: the prompt does not come back while they move them."""
        flow = self.table.flow
        quiet = 0
        said = False
        for _ in range(900):
            if self.table.finished() or persons_to_fix(flow, self.table.journal, self.bots):
                return
            seq = flow.seq
            bot_turn = flow.game.current_player in self.bots
            busy = self.players is not None and not self.players.idle()
            if (bot_turn or busy) and not said:  # the prompt is held back: say for whom
                self.out(f"(waiting for the bots: {', '.join(seat_name(self.profile.seats, b) for b in self.bots)})")
                said = True
            self.run(1.0)
            bot_turn = flow.game.current_player in self.bots
            busy = self.players is not None and not self.players.idle()
            busy = busy or self.table.display.waiting  # a screen still waits behind a message (a spin's number)
            quiet = 0 if flow.seq != seq or bot_turn or busy else quiet + 1
            if quiet >= 2:
                return


class BoardView:
    """The board drawn as text from the table state (the game's ``board_view``): the pieces where the game
    says they stand, and ``!`` where a sensor disagrees. Drawn before the prompt whenever it changed."""

    def __init__(self, draw: Callable[[TableState], list[str]] | None) -> None:
        self.draw = draw or _occupancy_lines
        self.state: TableState | None = None
        self._drawn: tuple[object, ...] | None = None

    def see(self, state: TableState) -> None:
        self.state = state

    def lines(self, *, again: bool = False) -> list[str]:
        """The board's lines if it changed since last drawn (``again``: in any case); else none."""
        state = self.state
        if state is None:
            return []
        key = (dict(state.expected), state.sensed, state.ignored)
        if key == self._drawn and not again:
            return []
        self._drawn = key
        return ["", *self.draw(state)]


def _occupancy_lines(state: TableState) -> list[str]:
    """A game without a board view of its own: where the pieces are, a location a line."""
    wrong = state.disagreeing
    return [f"{loc}: {owner} {n}{' !' if loc in wrong else ''}" for loc, (owner, n) in sorted(state.expected.items())]


def _hands_off(flow: Flow, journal: Any, bots: Mapping[str, Any], poll: Callable[[float], Iterable[Event]],
               now: float) -> Iterable[Event]:
    """The bots' hands, except where the board is the person's to put right: while it is set up (with
    ``fix``, one command for the whole list, so the list is never found half done by hands that started on
    their own), and while a fix-up list is up that no bot's move left (the person's own wrong move is theirs
    to put right, with ``fix`` or by hand)."""
    return [] if persons_to_fix(flow, journal, bots) else poll(now)


def persons_to_fix(flow: Flow, journal: Any, bots: Mapping[str, Any]) -> bool:
    """The board is the person's to put right: at set-up, or a fix-up list up that no bot's move left -- the
    removals a bot's move caused are its hands' to make, a piece misplaced on the person's own turn is the
    person's (the bots' hands must not tidy it away unseen)."""
    if flow.phase.value == "setup":
        return True
    if not flow.fixups:
        return False
    last = journal.recent[-1] if journal.recent else None
    if last is None or last[1] not in bots:
        return True
    return not flow.referee.restoring and flow.game.current_player not in bots


def shortened(screen: Screen) -> str:
    """A screen as the terminal prints it: a list longer than ``LONGEST`` lines (Cannon Ball's set-up, 78) by
    its head and how many more, since it is printed again at each piece put or lifted; a menu whole."""
    if screen.selected is not None or len(screen.lines) <= LONGEST:
        return screen.text()
    rest = len(screen.lines) - HEAD
    return replace(screen, lines=(*screen.lines[:HEAD], f"... and {rest} more ('fix' does them all)")).text()


def seat_name(names: Mapping[str, str], seat: str) -> str:
    """A seat as the terminal names it: the profile's name for it, else the seat capitalized as the screens
    do (``gray`` -> ``Gray``; ``p2`` stays ``p2``)."""
    given = names.get(seat, seat)
    return given if given != seat else seat.capitalize() if seat.isalpha() else seat


def _write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def run_terminal(journal: Path, *, profile: Any, humans: Sequence[str], seats: tuple[str, ...],
                 seed: int | None = None,
                 options: dict[str, Any] | None = None, stdin: TextIO | None = None,
                 write: Callable[[str], None] = _write, views: Sequence[Callable[[Table], None]] = (),
                 remote: Remote | None = None) -> int:
    """Play ``profile``'s game (a simulated profile) in the ``humans`` seats (one, several: hot-seat, or all),
    the other ``seats`` by bots, or with ``remote`` by the far table of that game. ``views`` are attached to the
    table before the game starts (the web page)."""
    game = profile.game
    stdin = stdin or sys.stdin  # read at the call: a test or a caller may have replaced it

    def out(text: str) -> None:
        write(text + "\n")

    *_, aside = keep_finished_aside(journal)
    if aside is not None:
        out(f"the game in {journal} is over; kept as {aside.name}, starting a new one")
    prof = profile
    hw = load_backend(prof, seed=seed or 0)
    far = frozenset(seat for seat in seats if seat not in humans) if remote is not None else frozenset()
    rng = random.Random(seed if not far else f"{seed}:{sorted(far)}")  # the far table draws with the same seed

    shown = [0]
    last: list[Screen | None] = [None]
    held: list[str] = []  # while ``fix`` works down a checklist, each screen waits for the next one
    told = [0]  # the journal lines said so far
    bot_seats = frozenset(seat for seat in seats if seat not in humans and seat not in far)
    hidden = get_game(game).hidden

    def see(state: TableState) -> None:
        """Print each journal line the person did not make (a bot's step, a far seat's, a spin) as it is
        journaled, as anyone may read it; then the screen as the person's seat may read it (``seen_by``: a
        bot's secret entry only as "look away"), when it changed; a checklist ``fix`` works down is printed as
        it ends, not per piece."""
        for line in state.recent:
            if line.seq > told[0] and line.player not in humans:
                out(f"  ({'' if line.player == 'chance' else seat_name(prof.seats, line.player) + ': '}"
                    f"{public_move(line, hidden and not state.over)})")
        told[0] = max([told[0], *(line.seq for line in state.recent)])
        screen = state.seen_by(*humans)
        if screen is None or screen == last[0]:
            return
        if screen.selected is not None and state.to_move in bot_seats:  # a bot's own menu: its choice is narrated
            return
        last[0] = screen
        shown[0] += 1
        text = shortened(screen)
        if held:
            if held[0] and held[0].split("\n", 1)[0] != text.split("\n", 1)[0]:
                out("\n" + held[0])  # another screen: the one held is worth reading after all
            held[0] = text
        else:
            out("\n" + text)

    table = build_table(prof, hw, journal, Dice(rng if seed is not None else None), seed=seed, options=options,
                        far=far)
    table.feed.watch(see)
    for attach in views:
        attach(table)
    shared = None
    if remote is not None:
        from controller.remote.play import join  # paho-mqtt: only with a far table

        shared = join(table, remote, humans)
    bots = {seat: HeuristicBot(random.Random(f"{seed}:{seat}")) for seat in bot_seats}
    players = scripted_players(game)(hw.board, prof, table.flow, bots, rng) if bots else None
    if players is not None:
        players.patient = True  # a person reads each screen: the bots' hands wait for it, as people would
    if players is not None:  # hands for the bots' seats; a person playing every seat needs none
        table.loop.add_source(partial(_hands_off, table.flow, table.journal, bots, players.poll))
    term = Terminal(table, hw, prof, players, bots, out)
    view = get_game(game).board_view
    board = BoardView(load_ref(view) if view is not None else None)
    table.feed.watch(board.see)
    table.flow.start()
    term.run(0.5)
    term.let_bots_play()
    out(term.help())

    typed = bytearray()

    def read_line() -> str:
        """The person's next line. With a web page on, the table goes on meanwhile, so a seat's decision made
        on its phone is taken as it comes (the bots answer it, the screen and the board are printed again),
        not at the person's next command; the simulated time stands still while it waits. The line is then
        read from the file itself, unbuffered, so no typed line waits unseen in a buffer. A far table's lines
        are taken the same way, as they come."""
        try:
            fd = stdin.fileno() if views or shared is not None else -1
        except (OSError, ValueError):  # a stream with no file under it (a test's text)
            fd = -1
        if fd < 0:
            return stdin.readline()
        while b"\n" not in typed:
            if select.select([fd], [], [], IDLE_S)[0]:
                chunk = os.read(fd, 4096)
                if not chunk:  # the end of the input: its last line, if unfinished
                    last = typed.decode(errors="replace")
                    typed.clear()
                    return last
                typed.extend(chunk)
                continue
            seq = table.journal.seq
            if shared is not None:
                term.run(IDLE_S)  # a far table plays in real time: this table's clock runs too while it waits
            else:
                table.loop.tick()  # the simulated time stands still while the person types
            if table.finished() or (shared is not None and shared.stopped is not None):
                return ""  # the far table's last line, or play stopped: no command is waited for
            if table.journal.seq != seq:
                term.let_bots_play()
                for line in board.lines():
                    out(line)
                write(PROMPT)
        head, _, rest = typed.partition(b"\n")
        typed[:] = rest
        return head.decode(errors="replace") + "\n"

    try:
        while not table.finished() and (shared is None or shared.stopped is None):
            for line in board.lines():
                out(line)
            write(PROMPT)
            raw = read_line()
            if not raw:
                break
            words = raw.split()
            if not words:
                continue
            if words[0].lower() == "quit":
                break
            if words[0].lower() == "help":
                out(term.help())
                continue
            if words[0].lower() == "board":
                out("\n".join(board.lines(again=True)))
                continue
            before = shown[0]
            if words[0].lower() == "fix":
                held.append("")
            try:
                term.do(words)
            except Mistake as e:
                out(f"cannot do that: {e}")
                continue
            finally:
                if held and (text := held.pop()):
                    out("\n" + text)
            term.let_bots_play()
            again = table.feed.current.seen_by(*humans) if table.feed.current is not None else None
            if shown[0] == before and again is not None:  # unchanged: show it again anyway
                out("\n" + again.text())
    except StopRequested:
        stop_table(table)
        raise
    finally:
        if shared is not None:
            from controller.remote.play import LINGER_S

            shared.link.close(linger_s=LINGER_S if table.finished() else 0.0)
        table.journal.close()
    if shared is not None and shared.stopped is not None:
        out(f"remote play stopped: {shared.stopped}; the game is saved in {journal}")
        return 1
    if table.finished():
        for line in board.lines(again=True):  # the board as the game ended (a gate fallen, the last removals)
            out(line)
        table.log_over()
        out(f"game over: {table.outcome()}")
    else:
        out(f"game saved in {journal}; 'boardkeeper play {game} --sim --journal {journal}' resumes it")
    return 0
