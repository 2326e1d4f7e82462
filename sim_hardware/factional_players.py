"""Scripted people at the simulated Factional Hannibal table: they move chits on the Honor tray and press
the buttons as the four players do while their HRC game goes on beside it.

No bot plays this game: what happens on the HRC map (a province changing hands, a battle, a die for a
deadlock, a card lost to an event) is drawn from the players' own generator among the events legal now,
biased so that a demo shows every kind -- battles shared, borrowed and leaderless, activations approved
and vetoed, rolls, a discard. Closed loop, as people are: each time their hands are free they look at the
table (the flow's phase, its question, its entry in progress, its fix-up list) and do one thing. With
``mistakes`` > 0 they also put a chit down on its new cell before lifting the old one and hesitate (two
chits in a row), knock a chit while entering a battle, or enter a battle's PCs wrong, see it on the
Honor board and take it back before entering it right; the table must guide them back each time.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from engines.factional import FACTIONS, PROVINCES, SIDES, Control, State, location
from engines.factional.table import factions_of, other_side, partner, side_of
from sim_hardware.hands import ScriptedPeople

LOOK_S = 0.3  # reading the screen before the next press
SETTLE_WAIT_S = 0.8  # a chit put down: the table reads it within its settle time
READ_S = 3.0  # the longest a message keeps the players from the question under it
HESITATE_S = 3.5  # longer than the grace period: the table speaks about a row with two chits
BATTLES = ("plain", "shared", "borrowed", "shared-borrowed", "leaderless-winner", "leaderless-loser")


class ScriptedFactionalTable(ScriptedPeople):
    """The four players; registered on the event loop as a source that acts and never emits events.

    ``flow`` is the controller's FactionalFlow, read as its screen would be (this package never imports
    the controller); ``bots`` is empty: no bot plays this game.
    """

    def _own_state(self) -> None:
        self.intent: list[str] | None = None  # an event being entered with the buttons, word by word
        self.expect: tuple[str, str | None] | None = None  # a chit moved: the province and its new holder
        self.retake: list[str] | None = None  # the event meant, once the wrong one entered is taken back
        self._wrong_seq: int | None = None  # the journal line of the wrong one
        self.made: Counter[str] = Counter()  # what happened, by kind: the demo's variety, and the tests'
        self._events_this_play = 0
        self._bumped = False
        self._intent_seq = -1
        self._unread_since: float | None = None  # since when the screen shows a message, not the question

    # -- one look at the table ------------------------------------------------------------------------

    def _look(self, game: State, phase: str, now: float) -> None:
        flow = self.flow
        if flow.display.current != flow.screen():
            self._unread_since = now if self._unread_since is None else self._unread_since
            if now - self._unread_since < READ_S:
                return  # a message is up (a province changed hands, the die): read it first
        self._unread_since = None
        if phase in ("setup", "fixup"):
            self._follow_fixups(now)
        elif phase == "duties":
            self._press("NEXT" if flow.page < len(flow.pages) - 1 else "OK", LOOK_S)
        elif phase == "deal":
            self._press("OK", LOOK_S)
        elif phase == "nobody":
            self._nobody()
        elif phase == "form":
            self._enter()
        elif phase == "confirm":
            self._press("OK" if self.intent == flow.words else "BACK", LOOK_S)
        elif phase == "undo":  # "Take back?": yes for the wrong event just entered, else no
            self._press("OK" if self.retake is not None and flow.seq == self._wrong_seq else "BACK", LOOK_S)
        elif phase == "board":
            self._board(flow.game)

    def _board(self, g: State) -> None:
        if self.expect is not None:
            province, holder = self.expect
            if g.control[province] != holder:
                return  # the chit is down: the table is reading it
            self.expect = None
        if self.intent is not None:
            if self.flow.seq == self._intent_seq:
                self._open(self.intent)  # not entered yet (left by a BACK): open it again
                return
            self.intent = None
            if self.retake is not None and self._wrong_seq is None:
                self._wrong_seq = self.flow.seq  # the wrong one is in: "that's not what happened"
        if self.retake is not None and self._wrong_seq is not None:
            if self.flow.seq == self._wrong_seq:
                self._press("BACK", LOOK_S)  # take it back (never during an activation: nothing starts then)
                return
            words, self.retake, self._wrong_seq = self.retake, None, None
            self._start(words)  # taken back: now the right one
            return
        if g.phase == "activation":
            veto = (self.made["veto"] == 0 and g.turn >= 3) or self.rng.random() < 0.3
            self.made["veto" if veto else "approve"] += 1
            self._press("BACK" if veto else "OK", LOOK_S)
        elif self._map_event(g):
            return
        elif g.phase == "reinforcements":
            self._events_this_play = 0
            self._press("OK", LOOK_S)
        elif g.phase == "initiative":
            faction = self.rng.choice(FACTIONS)
            self._press(f"faction:{faction}", LOOK_S)
        elif g.playing is None:
            self._start(["end", self.rng.choice(SIDES)])
        else:
            self._play(g)

    def _play(self, g: State) -> None:
        assert g.playing is not None
        self._events_this_play = 0
        faction = self.rng.choice([f for f in factions_of(g.playing) if g.cards[f]])
        activate = self.rng.random() < 0.2
        self.made["activate" if activate else "play"] += 1
        self._start(["play", faction, *(["activate"] if activate else [])])

    # -- what happens on the HRC map ------------------------------------------------------------------

    def _map_event(self, g: State) -> bool:
        """Now and then, between two plays, something happens on the map and is told to the table."""
        if self._events_this_play >= 2 or self.rng.random() > 0.3:
            return False
        self._events_this_play += 1
        holding = g.phase in ("initiative", "cards") and any(g.cards.values())
        roll = self.rng.random()
        if holding and (roll < 0.04 or (self.made["discard"] == 0 and g.turn >= 2)):
            faction = self.rng.choice([f for f in FACTIONS if g.cards[f]])
            self.made["discard"] += 1
            self._start(["discard", faction])
        elif roll < 0.12:
            self.made["roll"] += 1
            self._start(["roll"])
        elif roll < 0.5:
            words = self._battle()
            if self.mistakes and self.rng.random() < self.mistakes:
                self.mistakes_made += 1  # one PC too many entered: taken back, then entered right
                self.retake, words = words, [*words[:3], str(int(words[3]) + 1)]
            self._start(words)
        else:
            self._move_chit(g)
        return True

    def _battle(self) -> list[str]:
        """A battle of the kind seen least so far: every kind of ledger entry turns up in a game."""
        kind = min(BATTLES, key=lambda k: (self.made[f"battle {k}"], self.rng.random()))
        self.made[f"battle {kind}"] += 1
        winner = self.rng.choice(FACTIONS)
        loser = self.rng.choice(factions_of(other_side(side_of(winner))))
        pcs = str(self.rng.choice((0, 1, 2, 2, 3, 3, 4, 5, 7)))
        w = "none" if kind == "leaderless-winner" else winner + ("/shared" if "shared" in kind else "")
        lose = "none" if kind == "leaderless-loser" else loser + ("/borrowed" if "borrowed" in kind else "")
        return ["battle", w, lose, pcs]

    def _move_chit(self, g: State) -> None:
        """A province changes hands on the map: its chit goes to its new holder's cell, or off the tray."""
        province = self.rng.choice(list(PROVINCES))
        old = g.control[province]
        pick = self.rng.random()
        if old is None:
            new: str | None = self.rng.choice(FACTIONS)
        elif pick < 0.55:
            new = self.rng.choice(factions_of(other_side(side_of(old))))
        elif pick < 0.7 and old in FACTIONS:
            new = partner(old)
        elif pick < 0.88:
            new = self.rng.choice(SIDES)
        else:
            new = None
        if new == old:
            new = None
        self.made["control"] += 1
        broken = self.flow.referee.ignored
        if (old is not None and location(province, old) in broken) or (new is not None and location(province, new)
                                                                         in broken):
            self.expect = None  # a reed the players declared broken cannot see this chit: the menu says it
            self._start(str(Control(province, new)).split())
            return
        self.expect = (province, new)
        src = self.cells[location(province, old)] if old is not None else None
        dst = self.cells[location(province, new)] if new is not None else None
        if src is not None and dst is not None and self.rng.random() < self.mistakes:
            self.mistakes_made += 1  # put down first, lifted late: two chits in a row for a while
            self._act(HESITATE_S, lambda: self.board.place(dst), "put the chit on its new cell first")
            self.expect = None  # the table will say what to do
            return
        if src is not None:
            self._act(self.rng.uniform(0.3, 0.8), lambda: self.board.lift(src), f"lift the {province} chit")
        if dst is not None:
            self._act(SETTLE_WAIT_S, lambda: self.board.place(dst), f"put it on {new}")

    def _nobody(self) -> None:
        """"Nobody holds it now?": yes if that is what happened on the map, else the chit goes back."""
        flow = self.flow
        if self.expect == (flow.nobody, None):
            self.expect = None
            self._press("OK", LOOK_S)
            return
        holder = flow.game.control[flow.nobody]
        cell = self.cells[location(flow.nobody, holder)]
        self._act(SETTLE_WAIT_S, partial(self._set_count, cell, 1), "put the chit back")

    # -- entering an event with the buttons -------------------------------------------------------------

    def _start(self, words: list[str]) -> None:
        self.intent = words
        self._intent_seq = self.flow.seq
        self._bumped = False
        self._open(words)

    def _open(self, words: list[str]) -> None:
        if words[0] == "play":
            self._press(f"faction:{words[1]}", LOOK_S)  # the shortcut: who plays
        elif words[0] == "end" and self.flow.game.playing is None:
            self._press("OK", LOOK_S)
        else:
            self._press("NEXT", LOOK_S)  # the list of every event legal now

    def _enter(self) -> None:
        flow, intent = self.flow, self.intent
        words = list(flow.words)
        if intent is None or words != intent[:len(words)]:
            self._press("BACK", LOOK_S)  # not what is meant: a word back (or out of the entry)
            return
        if self.mistakes and not self._bumped and intent[0] == "battle" and len(words) == 2:
            self._bumped = True
            if self.rng.random() < self.mistakes:
                self._bump()
                return
        if flow.number is not None:
            want, have = int(intent[len(words)]), flow.number
            self._press("OK" if want == have else "NEXT" if want > have else "PREV", LOOK_S)
            return
        target = "" if len(words) == len(intent) else intent[len(words)]  # "": the entry is complete
        if flow.pending is None:
            target = target.split("/")[0]
            if target in FACTIONS and target in flow.options and self.rng.random() < 0.5:
                self._press(f"faction:{target}", LOOK_S)
                return
        if target not in flow.options:
            self.intent = self.retake = None  # the position moved on: think again
            self._press("BACK", LOOK_S)
            return
        self._select(flow.options.index(target))

    def _select(self, index: int) -> None:
        flow = self.flow
        if flow.selected == index:
            self._press("OK", LOOK_S)
            return
        forward = (index - flow.selected) % len(flow.options)
        self._press("NEXT" if forward <= len(flow.options) - forward else "PREV", 0.15)

    # -- the tray -----------------------------------------------------------------------------------------

    def _bump(self) -> None:
        """An elbow knocks a chit to the next cell of its row while a battle is being entered."""
        held = [p for p, h in self.flow.game.control.items() if h is not None]
        province = self.rng.choice(held)
        holder = self.flow.game.control[province]
        src = self.cells[location(province, holder)]
        dst = self.cells[location(province, other_side(side_of(holder)))]
        self.mistakes_made += 1
        self._act(0.2, lambda: self.board.lift(src), "knock a chit")
        self._act(0.5, lambda: self.board.place(dst), "it lands on another cell")

    def _follow_fixups(self, now: float) -> None:
        if not self._ignore_named_sensor(self.flow.notice, LOOK_S) and self._follow_list(self.flow.fixups, now):
            self.expect = None
