"""The honor ledger and turn conductor as a state machine of table events.

Phases: ``reinforcements`` -> ``reinforced`` -> ``initiative`` -> ``initiative S`` -> ``cards`` (with
``activation`` while a partner's answer is due) -> the next turn's ``reinforcements``; after turn 9's card
play the phase stays ``cards`` with nobody to play. ``over`` after ``end``. ``control``, ``battle``,
``roll`` and ``end`` may come in any phase; a ``roll`` makes a die due (``rolling``), which changes
neither the phase nor whose play it is once the die is in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engines.base import (
    IllegalMoveError,
    JsonDict,
    Move,
    read_bool,
    read_choice,
    read_int,
    read_maybe,
    read_object,
)
from engines.factional.honor import battle_gains, honor, ranking, recompute_dominance, reinforcement_duties
from engines.factional.menu import Events, Field
from engines.factional.moves import (
    APPROVE,
    DICE,
    REINFORCED,
    ROLL,
    VETO,
    Answer,
    Battle,
    Control,
    Die,
    Discard,
    End,
    Initiative,
    Play,
    Reinforced,
    Roll,
    battle_problem,
    parse,
)
from engines.factional.table import (
    FACTIONS,
    HOLDERS,
    LAST_TURN,
    MAX_HAND,
    PROVINCES,
    SIDES,
    START_DOMINANT,
    cards_dealt,
    factions_of,
    location,
    other_side,
    partner,
    side_of,
)

PLAYERS: Final = FACTIONS
PHASES: Final = ("reinforcements", "initiative", "cards", "activation", "over")
HOLDING: Final = ("initiative", "cards", "activation")
"""Phases in which cards are held, so a ``discard`` can happen."""
CONTROLS: Final = tuple(Control(p, h) for p in PROVINCES for h in (*HOLDERS, None))
PLACE_RETURNS: Final = (1.0, 1 / 3, -1 / 3, -1.0)
"""``returns()`` by place, first to fourth: zero-sum and ordered, as a search over the ranking needs."""


class State:
    """A Factional Hannibal position; see the module docstring for the order of phases."""

    game: Final = "factional"
    players: Final = PLAYERS

    def __init__(self) -> None:
        self.turn = 1
        self.phase = "reinforcements"
        self.control: dict[str, str | None] = {p: start for p, (_, start) in PROVINCES.items()}
        self.ledger: dict[str, int] = {f: 0 for f in FACTIONS}
        self.dominant: dict[str, str] = dict(START_DOMINANT)
        self.cards: dict[str, int] = {f: 0 for f in FACTIONS}
        self.playing: str | None = None  # the side to play during cards and activation
        self.asking: str | None = None  # the faction whose activation awaits its partner's answer
        self.rolling = False  # a die is due
        self._winner: str | None = None

    # -- who decides ------------------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        """The dominant faction naming who plays a card, or the partner answering an activation; ``None``
        for the table's decisions (``reinforced``, ``initiative``, after turn 9), a due die, and the end."""
        if self.rolling:
            return None
        if self.phase == "cards" and self.playing is not None:
            return self.dominant[self.playing]
        if self.phase == "activation" and self.asking is not None:
            return partner(self.asking)
        return None

    @property
    def winner(self) -> str | None:
        """The winning side (``rome`` or ``carthage``) once the game is over; ``ranking()`` orders factions."""
        return self._winner

    def is_over(self) -> bool:
        return self.phase == "over"

    def is_chance(self) -> bool:
        return self.rolling

    def is_table_decision(self) -> bool:
        """Nobody's seat decides now but the game goes on: the table enters the next event."""
        return self.current_player is None and not self.rolling and not self.is_over()

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return [(d, 1 / len(DICE)) for d in DICE] if self.rolling else []

    def honor(self) -> dict[str, int]:
        """Every faction's Honor now: province Honor plus ledger Honor."""
        return honor(self.control, self.ledger)

    def scores(self) -> dict[str, int]:
        return self.honor()

    def ranking(self) -> list[str]:
        """The four factions first to fourth once the game is over, else ``[]``."""
        if self._winner is None:
            return []
        return ranking(self._winner, self.honor(), self.dominant)

    def returns(self) -> dict[str, float]:
        """0 for everyone until the end, then 1, 1/3, -1/3, -1 by place."""
        places = self.ranking()
        return {f: PLACE_RETURNS[places.index(f)] if places else 0.0 for f in FACTIONS}

    def duties(self) -> list[tuple[str, str]]:
        """The reinforcement duties of rules 9, 18 and 20 under the current dominance and control."""
        return reinforcement_duties(self.control, self.dominant)

    def side_cards(self, side: str) -> int:
        return sum(self.cards[f] for f in factions_of(side))

    # -- legal events -----------------------------------------------------------------------------------

    def legal_moves(self) -> Events:
        """Never empty until the game is over; the die outcomes while a die is due."""
        if self.is_over():
            return Events((), battles=False)
        if self.rolling:
            return Events(DICE, battles=False)
        fixed: list[Move] = []
        if self.phase == "reinforcements":
            fixed.append(REINFORCED)
        elif self.phase == "initiative":
            fixed += [Initiative(s) for s in SIDES]
        elif self.phase == "activation":
            fixed += [APPROVE, VETO]
        elif self.playing is not None:
            fixed += [Play(f, activate) for f in factions_of(self.playing) if self.cards[f]
                      for activate in (False, True)]
        if self.phase in HOLDING:
            fixed += [Discard(f) for f in FACTIONS if self.cards[f]]
        fixed += [ROLL, *(End(s) for s in SIDES), *CONTROLS]
        return Events(fixed, battles=True)

    def next_field(self, prefix: Sequence[str]) -> Field:
        """For a menu building an event word by word: see ``menu.Events.next_field``."""
        return self.legal_moves().next_field(prefix)

    def parse_move(self, text: str) -> Move:
        move = parse(text)
        problem = self.problem(move)
        if problem is not None:
            raise IllegalMoveError(f"{move}: {problem} ({self.describe()})")
        return move

    def problem(self, move: Move) -> str | None:
        """Why ``move`` is not legal now, in words; ``None`` if it is."""
        if self.is_over():
            return "the game is over"
        if self.rolling:
            return None if isinstance(move, Die) else "a die is due: enter die 1 to 6 first"
        if isinstance(move, Die):
            return "no die was asked for (roll first)"
        if isinstance(move, Reinforced):
            return None if self.phase == "reinforcements" else f"turn {self.turn}'s reinforcements are over"
        if isinstance(move, Initiative):
            return None if self.phase == "initiative" else "the initiative is entered once a turn, after reinforced"
        if isinstance(move, Play):
            return self._play_problem(move)
        if isinstance(move, Answer):
            return None if self.phase == "activation" else "no activation was asked"
        if isinstance(move, Discard):
            if self.phase not in HOLDING:
                return "no cards are held now"
            return None if self.cards[move.faction] else f"{move.faction} has no card left"
        if isinstance(move, Battle):
            return battle_problem(move)
        if isinstance(move, (Control, Roll, End)):
            return None
        return f"not a Factional Hannibal event: {move!r}"

    def _play_problem(self, move: Play) -> str | None:
        if self.phase != "cards":
            return f"no card is played in the {self.phase} phase"
        if self.playing is None:
            return "turn 9's card play is over"
        if side_of(move.faction) != self.playing:
            return f"it is {self.playing}'s play"
        return None if self.cards[move.faction] else f"{move.faction} has no card left"

    def describe(self) -> str:
        """What the game waits for, in words (error messages, screens)."""
        if self.is_over():
            return f"game over, {self._winner} won"
        if self.rolling:
            return "a die is due"
        turn = f"turn {self.turn}"
        if self.phase == "reinforcements":
            return f"{turn}, reinforcement phase"
        if self.phase == "initiative":
            return f"{turn}, initiative to enter"
        if self.phase == "activation" and self.asking is not None:
            return f"{turn}, {partner(self.asking)} to approve or veto {self.asking}'s activation"
        if self.playing is None:
            return f"{turn}, card play over"
        return f"{turn}, {self.playing} to play ({self.dominant[self.playing]} names the faction)"

    # -- applying ---------------------------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        problem = self.problem(move)
        if problem is not None:
            raise IllegalMoveError(f"{move}: {problem} ({self.describe()})")
        if isinstance(move, Die):
            self.rolling = False
        elif isinstance(move, Roll):
            self.rolling = True
        elif isinstance(move, Control):
            self.control[move.province] = move.holder
        elif isinstance(move, Battle):
            for faction, gain in battle_gains(move).items():
                self.ledger[faction] += gain
        elif isinstance(move, End):
            self.phase, self._winner = "over", move.side
        elif isinstance(move, Reinforced):
            self.dominant = recompute_dominance(self.honor(), self.dominant)
            self.cards = {f: cards_dealt(self.turn) for f in FACTIONS}
            self.phase = "initiative"
        elif isinstance(move, Initiative):
            self.phase = "cards"
            if self.side_cards(move.side):
                self.playing = move.side
            else:  # I-5: every card of that side was discarded before the initiative
                self._pass_play(move.side)
        elif isinstance(move, Play):
            self.cards[move.faction] -= 1
            if move.activate:
                self.phase, self.asking = "activation", move.faction
            else:
                self._pass_play(side_of(move.faction))
        elif isinstance(move, Answer):
            assert self.asking is not None
            side = side_of(self.asking)
            self.phase, self.asking = "cards", None
            self._pass_play(side)
        elif isinstance(move, Discard):
            self.cards[move.faction] -= 1
            if self.phase == "cards" and self.playing is not None and not self.side_cards(self.playing):
                self._pass_play(self.playing)

    def _pass_play(self, side: str) -> None:
        """After a side's play: the other side if it has cards, else the same side, else the turn ends."""
        for nxt in (other_side(side), side):
            if self.side_cards(nxt):
                self.playing = nxt
                return
        self.playing = None
        if self.turn < LAST_TURN:
            self.turn += 1
            self.phase = "reinforcements"

    # -- the board --------------------------------------------------------------------------------------

    def occupancy(self) -> dict[str, tuple[str, int]]:
        """The Honor tray: each held province's chit in its holder's cell; unheld chits are off the tray."""
        return {location(p, h): (h, 1) for p, h in self.control.items() if h is not None}

    # -- identity, copying and serialising --------------------------------------------------------------

    def key(self) -> tuple[object, ...]:
        return (self.turn, self.phase, tuple(self.control.values()), tuple(self.ledger.values()),
                tuple(self.dominant.values()), tuple(self.cards.values()), self.playing, self.asking,
                self.rolling, self._winner)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def clone(self) -> State:
        out = State.__new__(State)
        out.turn, out.phase = self.turn, self.phase
        out.control, out.ledger = dict(self.control), dict(self.ledger)
        out.dominant, out.cards = dict(self.dominant), dict(self.cards)
        out.playing, out.asking, out.rolling, out._winner = self.playing, self.asking, self.rolling, self._winner
        return out

    def to_json(self) -> JsonDict:
        """The digest's keys, plus ``playing`` (the side to play), ``asking`` (the faction awaiting an
        answer) and ``rolling`` (a die is due), without which a position could not be resumed."""
        return {
            "game": self.game,
            "turn": self.turn,
            "phase": self.phase,
            "control": dict(self.control),
            "ledger": dict(self.ledger),
            "honor": self.honor(),
            "dominant": dict(self.dominant),
            "cards": dict(self.cards),
            "to_move": self.current_player,
            "winner": self._winner,
            "ranking": self.ranking(),
            "playing": self.playing,
            "asking": self.asking,
            "rolling": self.rolling,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state, rejecting anything missing, unknown or inconsistent, by key."""
        data = read_object(data, "state", tuple(cls().to_json()))
        if data["game"] != cls.game:
            raise ValueError(f"game: expected {cls.game!r}, got {data['game']!r}")
        s = cls()
        s.turn = read_int(data["turn"], "turn", 1, LAST_TURN)
        s.phase = read_choice(data["phase"], PHASES, "phase")
        s.control = {p: read_maybe(h, HOLDERS, f"control.{p}")
                     for p, h in read_object(data["control"], "control", tuple(PROVINCES)).items()}
        s.ledger = {f: read_int(v, f"ledger.{f}") for f, v in read_object(data["ledger"], "ledger", FACTIONS).items()}
        s.dominant = {side: read_choice(f, factions_of(side), f"dominant.{side}")
                      for side, f in read_object(data["dominant"], "dominant", SIDES).items()}
        s.cards = {f: read_int(v, f"cards.{f}", 0, MAX_HAND)
                   for f, v in read_object(data["cards"], "cards", FACTIONS).items()}
        s._winner = read_maybe(data["winner"], SIDES, "winner")
        s.playing = read_maybe(data["playing"], SIDES, "playing")
        s.asking = read_maybe(data["asking"], FACTIONS, "asking")
        s.rolling = read_bool(data["rolling"], "rolling")
        _check_consistency(s)
        derived = s.to_json()
        for key in ("honor", "to_move", "ranking"):
            if data[key] != derived[key]:
                raise ValueError(f"{key}: recorded {data[key]!r} but the state gives {derived[key]!r}")
        return s


def _check_consistency(s: State) -> None:
    """What a hand edit or a torn write could break, and the rules never produce."""
    if (s.phase == "over") != (s._winner is not None):
        raise ValueError("winner: set exactly when the phase is 'over'")
    if s.phase == "over":
        if s.rolling:
            raise ValueError("rolling: no die is due once the game is over")
        return
    if any(n > cards_dealt(s.turn) for n in s.cards.values()):
        raise ValueError(f"cards: more than the {cards_dealt(s.turn)} dealt on turn {s.turn}")
    if (s.phase == "activation") != (s.asking is not None):
        raise ValueError("asking: set exactly in the activation phase")
    if s.phase == "reinforcements" and any(s.cards.values()):
        raise ValueError("cards: none are held during the reinforcement phase")
    if s.phase in ("reinforcements", "initiative") and s.playing is not None:
        raise ValueError(f"playing: no side plays in the {s.phase} phase")
    if s.phase == "activation" and s.asking is not None and s.playing != side_of(s.asking):
        raise ValueError("playing: must be the side of the faction asking for an activation")
    if s.phase == "cards":
        if s.playing is None and (s.turn < LAST_TURN or any(s.cards.values())):
            raise ValueError("playing: a side must play while cards are held (or before turn 9 ends)")
        if s.playing is not None and not s.side_cards(s.playing):
            raise ValueError(f"cards: {s.playing} is to play but has no card left")


def new_game() -> State:
    """Turn 1's reinforcement phase with the start position (the variant has no options)."""
    return State()
