"""The Scipio game flow: secret entries, the reveal, damage on the formation buttons, New Orders.

Phases (a ``transitions`` machine, Enum states, queued, no auto transitions)::

    ENTRY (organisation / cards, hidden) --both in--> BOARD (tokens on the formations) | REVEAL | OVER
    REVEAL --OK--> DAMAGE (one field at a time, strike order) --counted + OK--> DAMAGE | MENU | ENTRY
    MENU (draw or pass, each New Orders effect) --OK--> MENU | ENTRY | DAMAGE | OVER
    any phase --a formation reads other than the engine counts--> MISMATCH --reads right / OK--> (back)
    FAR (a far table's army decides or draws) --its line--> REVEAL | FOLLOW (set its tokens) --OK--> (next)

BOARD comes once at set-up and again first thing after a restart (the tokens may have been moved while
the table was off, and reeds read nothing until the first scan): every formation must read full and the
players confirm the counts on the screen before play goes on, at whatever step the journal stopped; a
reveal that was the journal's last line is shown again.

Scipio's reeds say only "empty or not" (one per formation), so they check the engine's counts rather
than make moves: every decision comes from buttons. They are judged by the sensed-board loop every sensed
game shares (``controller.sensed``), as a board that must stand still: a formation that should hold tokens
and reads empty, or one that should be empty and reads full (a token left on a destroyed formation), stops
play at once (no settle or grace time: nothing here is a move in progress) until it is put right or the
players vouch for the tokens with OK (the reed is ignored from then on, a journal note says so).

With a far table (``--remote``), the far army's lines come from there: this table waits (FAR), and after a far
move that changed formations the players set the tokens (FOLLOW). The tiles and cards are drawn by the table
I-7 names. The organisations and cards of each phase are sealed (``controller.remote.seals``): this table's
army may decide before the far army has, on the position the ledger shows it, and its choice is journaled
once both seals are in (``play_sealed``).

Shuffles and draws come from the dice source and are journaled before they are shown. The flow never
decides a rule: moves are parsed and applied by the engine, and each is journaled (fsynced) before the
screen shows its effect.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

from controller.events import ButtonEvent, CellChanged, Event, Press
from controller.flows import FlowContext
from controller.flows import scipio_screens as screens
from controller.journal import read
from controller.referee import Stage
from controller.screen import Screen
from controller.sensed import SensedBoard, SensedFlow, ignore_sensor
from engines.base import IllegalMoveError, InvalidMoveError, Move
from engines.scipio import DEFAULT_ORGANISATION, FIELDS, FORMATIONS, Order, State, location, parse
from engines.scipio.rules import TOKENS, field_formations

TAP = "tap:"  # formation buttons: "tap:rome:yellow.0" takes one token off that formation
CARD = "card:"  # pad buttons: "card:rome:7" plays Rome's 7
MISMATCH_GUARD_S = 0.7  # presses this soon after a mismatch appears were meant for the screen before


class Phase(Enum):
    ENTRY = "entry"
    BOARD = "board"
    REVEAL = "reveal"
    DAMAGE = "damage"
    MENU = "menu"
    MISMATCH = "mismatch"
    FAR = "far"
    FOLLOW = "follow"
    OVER = "over"


_PLAY = [Phase.ENTRY, Phase.BOARD, Phase.REVEAL, Phase.DAMAGE, Phase.MENU, Phase.MISMATCH, Phase.FAR, Phase.FOLLOW]
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "ask_entry", "source": _PLAY, "dest": Phase.ENTRY},
    {"trigger": "ask_board", "source": [Phase.ENTRY, Phase.MISMATCH, Phase.FAR], "dest": Phase.BOARD},
    {"trigger": "reveal", "source": [Phase.ENTRY, Phase.BOARD, Phase.MISMATCH, Phase.FAR], "dest": Phase.REVEAL},
    {"trigger": "ask_far", "source": _PLAY, "dest": Phase.FAR},
    {"trigger": "ask_follow", "source": _PLAY, "dest": Phase.FOLLOW},
    {"trigger": "ask_damage", "source": _PLAY, "dest": Phase.DAMAGE},
    {"trigger": "ask_menu", "source": _PLAY, "dest": Phase.MENU},
    {"trigger": "mismatch", "source": _PLAY, "dest": Phase.MISMATCH},
    {"trigger": "finish", "source": _PLAY, "dest": Phase.OVER},
]


class ScipioFlow(SensedFlow[State]):
    """Consumes events from the loop; owns the engine state, the journal and what the screen says.

    ``pads`` says whether the profile has per-army card pads; without them secret cards are entered on
    the menu behind a "look away" screen.
    """

    STATE = State
    FAR_PLAY = True
    state: Phase  # set by the transitions machine
    ask_entry: Callable[[], bool]
    ask_board: Callable[[], bool]
    reveal: Callable[[], bool]
    ask_damage: Callable[[], bool]
    ask_menu: Callable[[], bool]
    mismatch: Callable[[], bool]
    finish: Callable[[], bool]
    ask_far: Callable[[], bool]
    ask_follow: Callable[[], bool]

    def __init__(self, context: FlowContext) -> None:
        super().__init__(context)
        self.pads = any(name.startswith(CARD) for name in context.profile.buttons)  # card pads, where wired
        # settle and grace times do not apply: nothing here is judged as a move, the reeds only stand still
        self.board = SensedBoard(self, self.loop, lambda: self.game, settle_s=0.0, grace_s=0.0, log=self._log,
                                 journal=self.journal)
        self.referee = self.board.referee
        self.board_set = False  # the reeds were judged against the engine since this flow started
        self.notice = ""
        self.hidden_open = False  # the hand-off screen was acknowledged: the entry is on screen
        self.values: list[int] = []
        self.cursor = 0
        self.counts = [0, 0]  # tokens counted off the damaged field's two formations
        self.taps: list[int] = []  # which of the two, in order, so BACK can undo the last
        self.candidates: tuple[Move, ...] = ()
        self.selected = 0
        self.revealed: dict[str, dict[str, int]] = {}
        self.revealed_at = (self.game.round, self.game.phase)  # the engine moves on at once when nothing is damaged
        self._back_to: Phase | None = None
        self._mismatch_at = 0.0  # when a reed last changed: a mismatch screen is that young
        self._pressed_at = 0.0
        self._named_at = 0.0  # when the set-up check last named the formations that read empty
        self.followed: tuple[str, str, tuple[tuple[str, int, int], ...]] = ("", "", ())  # a far move's tokens
        self.start_machine(Phase, TRANSITIONS, Phase.ENTRY)

    @property
    def ignored(self) -> set[str]:
        """Reeds the players declared broken (the referee's)."""
        return self.referee.ignored

    @property
    def missing(self) -> tuple[str, ...]:
        """Formations that hold tokens but read empty."""
        return self.referee.missing()

    @property
    def extra(self) -> tuple[str, ...]:
        """Formations the engine says are empty that read full: tokens left on them."""
        return tuple(sorted(self.referee.seen() - self.referee.expected()))

    @property
    def fixups(self) -> tuple[str, ...]:
        """What the players must put right, by whole location (``rome:yellow.0``: two armies share the formation
        names): tokens on the formations that read empty, none on those that should be empty. At the set-up
        (and a resume's check) each formation's whole count, as the organisation says."""
        if self.state is Phase.BOARD:
            counts = self.game.occupancy()
            return tuple(f"put {counts[loc][1]} on {loc}" for loc in self.missing) + \
                tuple(f"lift {loc}" for loc in self.extra)
        if self.state is not Phase.MISMATCH:
            return ()
        return tuple(f"put 1 on {loc}" for loc in self.missing) + tuple(f"lift {loc}" for loc in self.extra)

    def start(self) -> None:
        self._recall_reveal()
        self._advance()

    def _recall_reveal(self) -> None:
        """A resumed journal whose last two lines are both armies' cards ends on a reveal the players may
        not have seen: the engine has already moved on (and after a round without damage holds the cards
        no more), so they are read back from the journal."""
        if self.journal.seq < 2:
            return
        entries = read(self.journal.path).entries[-2:]
        moves = [parse(e.move) for e in entries if e.move.startswith("place ")]
        if [m.army for m in moves] == ["rome", "carthage"]:
            self.revealed = {m.army: dict(zip(FIELDS, m.nums, strict=True)) for m in moves}
            before = State.from_json(entries[0].state)
            self.revealed_at = (before.round, before.phase)

    # -- events -------------------------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, CellChanged) and event.location is not None:
            self._mismatch_at = event.at
        elif isinstance(event, ButtonEvent) and event.kind is Press.PRESS:
            if self.state is Phase.MISMATCH and event.at - self._mismatch_at < MISMATCH_GUARD_S:
                return  # pressed for the screen before: never let it declare a reed broken
            self._pressed_at = event.at
        super().handle(event)

    # -- the reeds, as the sensed-board loop asks ---------------------------------------------------------

    def board_stage(self) -> Stage | None:
        """Judged once the tokens are on the table and until the end; the set-up check is a set-up."""
        if (not self.board_set and self.state is not Phase.BOARD) or self.game.is_over():
            return None
        return {Phase.BOARD: Stage.SETUP, Phase.MISMATCH: Stage.FIXUP}.get(self.state, Stage.PLAY)

    def moves_allowed(self) -> bool:
        return False  # the reeds never make a move

    def board_right(self) -> None:
        if self.state is Phase.MISMATCH:
            self._leave_mismatch()
        elif self.state is Phase.BOARD:
            self._board_changed()

    def misplaced(self) -> bool:
        self._back_to = self.state
        wrong = [f"{loc} reads empty" for loc in self.missing] + [f"{loc} holds tokens" for loc in self.extra]
        self._log(f"mismatch: {', '.join(wrong)}")
        return self.mismatch()

    def cancel(self) -> bool:
        return False  # no question is ever about the board

    def commit(self, move: Move) -> None:
        raise AssertionError(f"the reeds proved {move}, but they prove no move")

    def offer(self, candidates: tuple[Move, ...], unseen: bool) -> None:
        raise AssertionError("the reeds offer no moves")

    def takeback_offered(self) -> bool:
        return False  # "empty or not" never stands for an earlier position

    def _board_changed(self) -> None:
        """At the set-up check the screen follows the reeds: a new list of empty ones is named afresh."""
        if self.notice.startswith("empty: "):  # the list changed: OK names the new one first
            self.notice = ""
        self.redraw()

    # -- the buttons ----------------------------------------------------------------------------------------

    def press(self, button: str) -> None:
        phase = self.state
        if phase is Phase.MISMATCH:
            if button == "OK":  # the players vouch for the tokens: those reeds are broken
                self._ignore((*self.missing, *self.extra))
                self.board.judge(settled=True)
        elif phase is Phase.ENTRY:
            self._entry_button(button)
        elif phase is Phase.BOARD:
            if button == "OK":
                self._board_ok()
        elif phase is Phase.REVEAL:
            if button == "OK":
                self.revealed = {}
                self._advance()
        elif phase is Phase.FOLLOW:
            if button == "OK":  # the players set the far army's tokens
                self.followed = ("", "", ())
                self._advance()
        elif phase is Phase.DAMAGE:
            self._damage_button(button)
        elif phase is Phase.MENU:
            self._menu_button(button)

    def _board_ok(self) -> None:
        """The players say the tokens are set. A formation still reading empty is named first; OK again on
        the same list, once it has been up long enough to read, is the players' word that those reeds are
        broken (else a dead reed would keep a saved game from ever resuming)."""
        empty = "empty: " + " ".join(self.missing)
        if self.missing and (self.notice != empty or self._pressed_at - self._named_at < MISMATCH_GUARD_S):
            self._named_at = self._pressed_at  # a hasty press restarts the wait
            self.notice = empty
            self.redraw()
            return
        if self.missing:
            self._ignore(self.missing)
        self.board_set = True
        self.notice = ""
        if self.revealed:
            self.reveal()
        else:
            self._advance()

    # -- what comes next ----------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Take the engine to its next decision (drawing chance outcomes on the way) and ask for it."""
        while True:
            g = self.game
            if g.is_over():
                self.finish()
                return
            if not self.board_set and all(t is not None for t in g.troops.values()):
                self.ask_board()
                self.board.judge(settled=True)
                return
            if not g.is_chance() or self.far_turn():
                break
            move = self.dice.roll(g)
            if not self._apply(move):
                return
            self._announce(move)
        self.notice = ""
        self.board.judge(settled=True)
        if self.state is Phase.MISMATCH:
            return  # the tokens first: play goes on where it was once they are right
        step = self.game.step
        due = self.ledger.due()
        if due is not None:  # this army's sealed choice: every seal is in, so it is journaled now
            self._commit_move(due, self.ledger.real.current_player)
        elif self.far_turn():
            self.ask_far()
        elif step in ("org", "place"):
            self._open_entry()
        elif step == "remove":
            self.counts, self.taps = [0, 0], []
            self.ask_damage()
        else:
            self.candidates = tuple(self.game.legal_moves())
            self.selected = 0
            self.ask_menu()

    def _announce(self, move: Move) -> None:
        """A shuffle or a draw, held on screen long enough to read."""
        assert isinstance(move, Order)
        if move.kind == "tiles":
            screen = Screen(f"Round {self.game.round}: tiles", (screens.tiles_line(self.game),),
                            footer="strike order")
        else:
            drawer = screens.NAMES[self.game.drawer or "rome"]
            screen = Screen("New Orders", (f"{drawer} draws:", screens.CARD_NAMES[move.name]), footer="")
        self.display.show(screen, hold=True)

    def _open_entry(self) -> None:
        g = self.game
        player = g.current_player
        assert player is not None
        self.hidden_open = False
        self.cursor = 0
        if g.step == "org":
            self.values = list(DEFAULT_ORGANISATION)
        else:
            self.values = [] if self.pads else sorted(g.hands[player])[:3]
        self.ask_entry()

    # -- a seat's own page -----------------------------------------------------------------------------------

    def _page_asks(self, seat: str) -> bool:
        """The seat's organisation or cards are asked for now, and a person at this table plays it."""
        g = self.game
        return (self.state is Phase.ENTRY and g.current_player == seat and g.step in ("org", "place")
                and seat not in self.context.bots and seat not in self.context.far)

    def form(self, seat: str) -> Mapping[str, Any] | None:
        """The organisation (six formations, 34 tokens) or the three cards of a phase, as a form on the seat's
        own page: the same decision the OLED's entry makes, from the hand only the seat sees there."""
        if not self._page_asks(seat):
            return None
        g = self.game
        if g.step == "org":
            return {"title": "Your organisation", "hint": f"{TOKENS} tokens in all, 1 to 29 on each formation",
                    "fields": [{"label": f"{screens.SHORT[formation]} ({formation.partition('.')[0]})",
                                "choices": [str(n) for n in range(1, 30)], "value": str(count)}
                               for formation, count in zip(FORMATIONS, DEFAULT_ORGANISATION, strict=True)],
                    "move": f"org {seat} " + ",".join(f"{{{i}}}" for i in range(len(DEFAULT_ORGANISATION)))}
        hand = sorted(g.hands[seat])
        return {"title": f"Your cards, round {g.round} phase {g.phase}", "hint": "a different card on each field",
                "fields": [{"label": field.capitalize(), "choices": [str(c) for c in hand], "value": str(hand[i])}
                           for i, field in enumerate(FIELDS)],
                "move": f"place {seat} Y{{0}} P{{1}} G{{2}}"}

    def decide(self, seat: str, move: str) -> str | None:
        """An organisation or cards sent from the seat's own page: no one need look away, and the entry on the
        table is skipped; the same line is journaled, and the table moves on as after the entry's last OK."""
        g, name = self.game, screens.NAMES.get(seat, seat)
        if g.is_over():
            return "the game is over"
        if seat in self.context.bots or seat in self.context.far:
            return f"{name} is not played at this table by a person"
        if not self._page_asks(seat):
            return f"it is not {name}'s organisation or cards now"
        try:
            action = g.parse_move(move)
        except (InvalidMoveError, IllegalMoveError) as e:
            return str(e) if g.step == "place" else f"{e}: {TOKENS} tokens in all, 1 to 29 on each formation"
        if not isinstance(action, Order) or action.army != seat:
            return f"only {name}'s own organisation or cards are sent from this page"
        return None if self._commit_move(action) else f"not saved: {self.notice or 'the journal could not be written'}"

    # -- secret entries -----------------------------------------------------------------------------------

    def _entry_button(self, button: str) -> None:
        g = self.game
        player = g.current_player
        assert player is not None
        if self.pads and g.step == "place":
            self._pad_button(player, button)
            return
        if not self.hidden_open:
            if button == "OK":
                self.hidden_open = True
                self.redraw()
            return
        self._edit(player, button)

    def _pad_button(self, player: str, button: str) -> None:
        """Cards pressed on the army's own pad, in field order Y, P, G; BACK takes the last one back."""
        self.notice = ""
        if button.startswith(CARD):
            _, army, value = button.split(":")
            if army != player:
                self.notice = f"that is {screens.NAMES[army]}'s pad"
            elif int(value) not in self.game.hands[player] or int(value) in self.values:
                self.notice = f"{value} is not in your hand"
            elif len(self.values) < 3:
                self.values.append(int(value))
        elif button == "BACK" and self.values:
            self.values.pop()
        elif button == "OK" and len(self.values) == 3:
            self._commit(_placement(player, self.values))
            return
        self.redraw()

    def _edit(self, player: str, button: str) -> None:
        """The menu entry of a secret choice: NEXT/PREV change the value under the cursor, OK moves on
        and after the last value commits, BACK steps back (from the first value, to the look-away screen).

        A card offers every card of the hand not already on an earlier field: the fields still to come
        must not hold a card back (yellow could never get the 3 purple was showing), and moving on puts
        the next field on a card still free."""
        v, organisation = self.values, self.game.step == "org"
        hand = sorted(self.game.hands[player])
        if button in ("NEXT", "PREV"):
            step = 1 if button == "NEXT" else -1
            if organisation:
                v[self.cursor] = min(29, max(1, v[self.cursor] + step))
            else:
                free = [c for c in hand if c not in v[:self.cursor]]
                v[self.cursor] = free[(free.index(v[self.cursor]) + step) % len(free)]
        elif button == "BACK":
            if self.cursor:
                self.cursor -= 1
            else:
                self.hidden_open = False
        elif button == "OK":
            if self.cursor < len(v) - 1:
                self.cursor += 1
                if not organisation and v[self.cursor] in v[:self.cursor]:
                    v[self.cursor] = next(c for c in hand if c not in v[:self.cursor])
            elif organisation and sum(v) != 34:
                self.notice = f"34 tokens, not {sum(v)}"
            else:
                self._commit(f"org {player} {','.join(map(str, v))}" if organisation else _placement(player, v))
                return
        self.redraw()

    # -- damage -------------------------------------------------------------------------------------------

    def _damage_button(self, button: str) -> None:
        field, army, amount, _ = self.game.plan[0]
        pair = field_formations(field)
        taps = {f"{TAP}{location(army, i)}": k for k, i in enumerate(pair)}
        self.notice = ""
        if button in taps:
            k = taps[button]
            if sum(self.counts) >= amount:
                self.notice = f"only {amount} to take"
            elif self.counts[k] + 1 >= self.game.formation(army, pair[k]):
                self.notice = "keep 1 there"
            else:
                self.counts[k] += 1
                self.taps.append(k)
        elif button.startswith(TAP):
            self.notice = f"{field}: {screens.NAMES[army]}'s buttons"
        elif button == "BACK" and self.taps:
            self.counts[self.taps.pop()] -= 1
        elif button in ("NEXT", "PREV"):
            splits = [m.nums for m in self.game.legal_moves() if isinstance(m, Order)]
            at = splits.index(tuple(self.counts)) if tuple(self.counts) in splits else -1
            self.counts = list(splits[(at + (1 if button == "NEXT" else -1)) % len(splits)])
            self.taps = [0] * self.counts[0] + [1] * self.counts[1]
        elif button == "OK":
            if sum(self.counts) == amount:
                self._commit(f"remove {army} {field} {self.counts[0]},{self.counts[1]}")
                return
            self.notice = f"take {amount - sum(self.counts)} more"
        self.redraw()

    # -- menus --------------------------------------------------------------------------------------------

    def _menu_button(self, button: str) -> None:
        if button in ("NEXT", "PREV"):
            self.selected = (self.selected + (1 if button == "NEXT" else -1)) % len(self.candidates)
            self.redraw()
        elif button == "OK":
            self._commit(str(self.candidates[self.selected]))

    # -- the board ----------------------------------------------------------------------------------------

    def _ignore(self, locations: tuple[str, ...]) -> None:
        """The players vouch for the tokens: each reed is ignored, as in every sensed game (a journal note)."""
        for reed in locations:
            ignore_sensor(self.referee, self.journal, self._log, reed)

    def _leave_mismatch(self) -> None:
        back = self._back_to
        self._back_to = None
        triggers: Mapping[Phase | None, Callable[[], bool]] = {
            Phase.ENTRY: self.ask_entry, Phase.DAMAGE: self.ask_damage, Phase.MENU: self.ask_menu,
            Phase.REVEAL: self.reveal, Phase.BOARD: self.ask_board, Phase.FOLLOW: self.ask_follow}
        trigger = triggers.get(back)
        if trigger is None:
            self._advance()
        else:
            trigger()

    # -- committing ---------------------------------------------------------------------------------------

    def _commit(self, text: str) -> None:
        self._commit_move(self.game.parse_move(text))

    def _commit_move(self, move: Move, player: str | None = None) -> bool:
        """Journal a decision (``player``: the far army's, else whoever the position asks) and show where it
        leads: a reveal once both armies' cards are in, else the next decision. True if journaled or sealed."""
        g = self.game
        cards: dict[str, dict[str, int]] = {}
        if isinstance(move, Order) and move.kind == "place":  # taken before the engine moves on
            cards = {a: dict(p) for a, p in g.placed.items() if p is not None}
            cards[move.army] = dict(zip(FIELDS, move.nums, strict=True))
        at, seq = (g.round, g.phase), self.journal.seq
        if not self._apply(move, player):
            return False
        self.notice = ""
        if self.journal.seq == seq:  # sealed, not journaled: the far army's seal or line comes first
            self._advance()
            return True
        if len(cards) == 2 and not self.game.is_over():  # a reveal that ends the game goes to the result
            self.revealed, self.revealed_at = cards, at
            self.reveal()
            return True
        if isinstance(move, Order) and move.kind == "org" and self.game.step == "tiles":
            self.notice = "organisations revealed"
        self._advance()
        return True

    def _apply(self, move: Move, player: str | None = None) -> bool:
        """Journal first (fsynced), then make it the position: a power cut never loses or re-draws."""
        return self.saved(self.ledger.record(move, player or self.game.current_player or "chance"))

    # -- a far table's army ------------------------------------------------------------------------------------

    def far_ready(self) -> bool:
        """A far line is taken while this table waits for it, its players done with the last one's tokens."""
        return self.state is Phase.FAR

    def apply_far(self, move: Move, player: str, entered: bool) -> None:
        """The far army's decision or draw, as if made here: a draw is announced, cards revealed, and after a
        move that changed formations the players set the tokens before play goes on (FOLLOW)."""
        g = self.game
        if g.is_chance():  # signed "chance" as the drawing table signed it
            if self._apply(move):
                self._announce(move)
                self._advance()
            return
        if not self.board_set or (isinstance(move, Order) and move.kind in ("org", "place")):
            self._commit_move(move, player)  # no tokens move: the set-up check or the reveal comes next
            return
        before = g.occupancy()
        if not self._apply(move, player):
            return
        changed = tuple((loc, before[loc][1], now[1]) for loc, now in sorted(self.game.occupancy().items())
                        if before[loc][1] != now[1])
        if not changed or self.game.is_over():
            self._advance()
            return
        self.followed = (screens.NAMES[player], str(move), changed)
        self.ask_follow()
        self.board.judge(settled=True)

    def play_sealed(self) -> None:
        """The far army's seal came while this table waited: this army's sealed choice is the next line now."""
        due = self.ledger.due()
        if due is not None and self.state is Phase.FAR:
            self._commit_move(due, self.ledger.real.current_player)  # the seat whose line it is, not the view's

    # -- screens ------------------------------------------------------------------------------------------

    def redraw(self) -> None:
        """The result is drawn at once even while a message is held: it outranks the message's minimum time
        (``Table.finished`` would wait for a result held behind one, but the players need not)."""
        self.display.show(self.screen(), hold=self.state is Phase.OVER)

    def screen(self) -> Screen:
        g, phase = self.game, self.state
        if phase is Phase.OVER:
            return screens.position_screen(g)
        if phase is Phase.MISMATCH:
            lines = (*(f"{loc} reads empty" for loc in self.missing), *(f"{loc} not empty" for loc in self.extra))[:2]
            return Screen("Board mismatch!", (*lines, "tokens as counted", "OK: sensor broken"),
                          footer="play waits")
        if phase is Phase.BOARD:
            empty = f"{len(self.missing)} formation{'s' if len(self.missing) > 1 else ''} empty"
            lines = (screens.troops_line(g, "rome"), screens.troops_line(g, "carthage"),
                     self.notice or (empty if self.missing else "all set: OK"))
            first = g.step == "tiles" and g.round == 1
            footer = "OK again: reed broken" if self.notice.startswith("empty: ") else "then OK"
            return Screen("Place the tokens" if first else "Resume: tokens", lines, footer=footer)
        if phase is Phase.REVEAL:
            return screens.reveal_screen(g, self.revealed, self.revealed_at)
        if phase is Phase.FAR:
            return screens.far_screen(g, self.notice)
        if phase is Phase.FOLLOW:
            return screens.follow_screen(g, *self.followed)
        if phase is Phase.DAMAGE:
            return screens.damage_screen(g, self.counts, self.notice)
        if phase is Phase.MENU:
            who = screens.NAMES.get(g.current_player or "", "")
            title = {"offer": f"{who}: New Orders?", "opportune_draw": f"{who}: draw again?",
                     "deserter": f"{who}: pick deserter"}.get(g.step, f"{who}: {g.step.replace('_', ' ')}")
            return screens.menu_screen(title, [str(m) for m in self.candidates], self.selected)
        player = g.current_player or "rome"
        what = "organise" if g.step == "org" else "cards"
        if self.pads and g.step == "place":
            return screens.pad_screen(player, len(self.values), self.notice)
        if not self.hidden_open:
            return screens.handoff_screen(player, what)
        if g.step == "org":
            return screens.organisation_screen(player, self.values, self.cursor, self.notice)
        return screens.placement_screen(player, self.values, self.cursor, self.notice)



def _placement(army: str, cards: list[int]) -> str:
    """The notation of an army's cards in field order: ``place rome Y7 P2 G4``."""
    return f"place {army} " + " ".join(f"{f[0].upper()}{c}" for f, c in zip(FIELDS, cards, strict=True))


def create(context: FlowContext) -> ScipioFlow:
    """The registry's flow factory."""
    return ScipioFlow(context)
