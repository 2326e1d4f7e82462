"""The Hannibal (1974) rules: position, legal steps, and turn bookkeeping.

The specification is ``docs/rules/hannibal.md``; where it and the original text (seed 000) differ,
the digest's interpretations win and are cited here as I-n:

- I-1: a step uses one die or, while both are unused, the total; a step must be made whenever one is
  legal, one step at a time (no rule to maximise dice use).
- I-2: stack moves go backward to the previous two camps too.
- I-3: pieces arriving home ignore opposing pieces on their own base camp.
- I-4: entries use one die each, never the total, and may send a lone piece on a track space.
- I-5: a roll that allows no step passes the turn at once, even on a double.

The board is a list of 49 signed counts (+ yellow, - blue): the hot loops of bots and benchmarks
run over it, so it is kept flat rather than as objects per position. Beside it, bit masks of each
player's squares and of the stacks, from which ``engines.hannibal.legal`` works out every legal piece
move at once; ``legal_moves()`` hands those out as a sequence that builds a move only when it is read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from engines.base import IllegalMoveError, JsonDict, Move, read_bool, read_choice, read_int, read_object
from engines.hannibal.legal import CAMP_MASK, CAMPS, LAYOUTS, SIGN, LegalSteps
from engines.hannibal.moves import (
    LAST,
    PIECE,
    POSITIONS,
    ROLL_OUTCOMES,
    STACK,
    STACK_MOVES,
    Roll,
    Step,
    parse,
)

PLAYERS: Final = ("yellow", "blue")
PIECES: Final = 12
BASE: Final = (0, LAST)  # each player's own base camp; the other's is their goal
_START: Final = ((0, 6, 12), (48, 42, 36))
_ALL: Final = (1 << POSITIONS) - 1
_GOAL_BIT: Final = (1 << BASE[1], 1 << BASE[0])


_NOT_GOAL: Final = (~_GOAL_BIT[0], ~_GOAL_BIT[1])
_CAMPS_IN: Final = {sum(1 << c for c in chosen): chosen
                    for chosen in (tuple(c for i, c in enumerate(CAMPS) if m >> i & 1) for m in range(1 << len(CAMPS)))}
_STACK_TARGETS: Final = [[tuple((src + sign * k, STACK_MOVES[src][src + sign * k]) for k in (6, 12, -6, -12)
                               if 0 <= src + sign * k <= LAST) for src in range(POSITIONS)] for sign in SIGN]
_ROLLS: Final[list[Move]] = [r for r, _ in ROLL_OUTCOMES]


LOCATIONS: Final = tuple(f"pos:{pos}" for pos in range(POSITIONS))


def is_camp(pos: int) -> bool:
    return pos % 6 == 0


def location(pos: int) -> str:
    """The location name used by ``occupancy()`` and board layouts."""
    return f"pos:{pos}"


class State:
    """A Hannibal position, between rolls (a chance node) or with unused dice to step with."""

    game: Final = "hannibal"
    players: Final = PLAYERS

    __slots__ = ("_bits", "_board", "_doubles", "_home", "_layout", "_multi", "_occ", "_tail", "_to_move", "_waiting",
                 "_winner")

    def __init__(self, *, first: str = "yellow") -> None:
        self._board = [0] * POSITIONS
        self._occ = [0, 0]  # bit masks of the positions each player occupies
        self._multi = 0  # bit mask of the positions holding two or more pieces
        for p, positions in enumerate(_START):
            for pos in positions:
                self._put(pos, 4 * SIGN[p])
        self._to_move = PLAYERS.index(read_choice(first, PLAYERS, "first"))
        self._layout = LAYOUTS[self._to_move][()]  # the unused dice, with their tables (engines.hannibal.legal)
        self._doubles = False
        self._waiting = [0, 0]
        self._home = [0, 0]
        self._winner: int | None = None
        self._bits = 0  # the legal piece moves (engines.hannibal.legal), valid while _tail is not None
        self._tail: tuple[Step, ...] | None = ()  # the legal stack moves or entries; None: not worked out yet

    # -- reading the position -------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        if self._winner is not None or not self._layout.dice:
            return None
        return PLAYERS[self._to_move]

    @property
    def to_move(self) -> str:
        """Whose turn it is, also at a chance node (who rolls next)."""
        return PLAYERS[self._to_move]

    @property
    def winner(self) -> str | None:
        return None if self._winner is None else PLAYERS[self._winner]

    @property
    def dice(self) -> tuple[int, ...]:
        """The unused dice of the current roll, smaller first; empty when a roll is due."""
        return self._layout.dice

    @property
    def doubles(self) -> bool:
        return self._doubles

    @property
    def signed_counts(self) -> tuple[int, ...]:
        """Count per position, positive for yellow and negative for blue: a compact view for evaluators."""
        return tuple(self._board)

    def key(self) -> tuple[object, ...]:
        """A hashable summary, equal exactly when the states are equal (bots deduplicate with it)."""
        return (tuple(self._board), self._to_move, self._layout.dice, self._doubles,
                tuple(self._waiting), tuple(self._home), self._winner)

    def waiting(self, player: str) -> int:
        return self._waiting[PLAYERS.index(player)]

    def home(self, player: str) -> int:
        return self._home[PLAYERS.index(player)]

    def at(self, pos: int) -> tuple[str, int] | None:
        """Owner and count on a position, or ``None`` when it is empty."""
        v = self._board[pos]
        if v == 0:
            return None
        return (PLAYERS[0], v) if v > 0 else (PLAYERS[1], -v)

    def is_over(self) -> bool:
        return self._winner is not None

    def is_chance(self) -> bool:
        return self._winner is None and not self._layout.dice

    def roller(self) -> str | None:
        """Whose roll is due (the table signs a roll, and a takeback at the roll prompt, with that seat)."""
        return self.to_move if self.is_chance() else None

    def returns(self) -> dict[str, float]:
        if self._winner is None:
            return {p: 0.0 for p in PLAYERS}
        return {p: 1.0 if i == self._winner else 0.0 for i, p in enumerate(PLAYERS)}

    def occupancy(self) -> dict[str, tuple[str, int]]:
        """What the board shows: ``"pos:N"`` -> (owner, count) for occupied positions only.

        Waiting and home pieces are off the board and so not listed.
        """
        return {location(pos): owner for pos, owner in self._occupied()}

    def _occupied(self) -> Iterator[tuple[int, tuple[str, int]]]:
        for pos in range(POSITIONS):
            owner = self.at(pos)
            if owner is not None:
                yield pos, owner

    # -- moves ------------------------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if not self.is_chance():
            return []
        return list(ROLL_OUTCOMES)

    def legal_moves(self) -> Sequence[Move]:
        """Every legal move now: the 21 rolls at a chance node, else every legal single step (a
        ``LegalSteps``: counted and indexed without building the moves nobody reads)."""
        if self._layout.dice:  # a player's turn (a won game has no dice left)
            tail = self._tail
            if tail is None:
                tail = self._generate()
            return LegalSteps(self._bits, tail, self._layout)
        return _ROLLS[:] if self._winner is None else []

    def _generate(self) -> tuple[Step, ...]:
        """Work out the legal steps: every piece move at once as the bits of ``engines.hannibal.legal``,
        then the few stack moves or entries one by one, after them.

        A single piece may land anywhere except on opposing camps and opposing stacks on track spaces;
        its own goal always takes it home (I-3). Moves come distance by distance, forward before backward,
        each by ascending landing square, then stack moves: random bots pick by index, so this order is
        part of what makes a seed replay the same game.
        """
        p = self._to_move
        occ = self._occ
        own = occ[p]
        layout = self._layout
        blocked = occ[1 - p] & (self._multi | CAMP_MASK) & _NOT_GOAL[p]
        if self._waiting[p]:  # I-4: one die per entry, never the total
            self._bits = 0
            tail = self._tail = tuple(entry for bit, entry in layout.entries if not blocked & bit)
            return tail
        self._bits = (own * layout.spread) & ((_ALL ^ blocked) * layout.window) & layout.allowed
        stacks = own & self._multi & CAMP_MASK
        if not stacks:
            self._tail = ()
            return ()
        board = self._board
        sign = SIGN[p]
        sizes = layout.stack_sizes
        tail = ()
        for src in _CAMPS_IN[stacks]:
            count = board[src] * sign
            if sizes >> count & 1:  # I-2: to either of the next two camps, either way
                goal = BASE[1 - p]
                tail += tuple(move for dst, move in _STACK_TARGETS[p][src] if dst == goal or -board[dst] * sign < count)
        self._tail = tail
        return tail

    def apply(self, move: Move) -> None:
        """Roll or step. Written out in one piece, without helper calls, and keeping the bit masks in
        step with the board: it runs once per step of every playout of the bots."""
        if move.__class__ is Step:
            tail = self._tail
            if tail is None:
                tail = self._generate()
            p = self._to_move
            bit = self._layout.bit_of.get(move)
            if not (self._bits >> bit & 1 if bit is not None else move in tail):
                raise IllegalMoveError(f"{move} is not a legal step now ({self._describe_turn()})")
            sign = SIGN[p]
            board = self._board
            occ = self._occ
            src, dst, kind = move.src, move.dst, move.kind
            used = force = 1
            if kind is PIECE:
                left = board[src] - sign
                board[src] = left
                if left == 0:
                    occ[p] ^= 1 << src
                elif left == sign:  # a stack of two is down to one
                    self._multi &= ~(1 << src)
                used = move.dist
            elif kind is STACK:
                used = force = board[src] * sign
                board[src] = 0
                occ[p] ^= 1 << src
                self._multi &= ~(1 << src)
            else:
                self._waiting[p] -= 1
                used = move.dist
            if dst == BASE[1 - p]:  # I-3: home free, whatever stands on the opponent's base camp
                home = self._home
                home[p] += force
                if home[p] == PIECES:
                    self._winner = p
                    self._layout = LAYOUTS[p][()]
                    self._doubles = False
                    self._bits = 0
                    self._tail = ()
                    return
            else:
                bit = 1 << dst
                here = board[dst] * sign  # negative: opposing pieces, which are sent to wait
                if here < 0:
                    self._waiting[1 - p] -= here
                    occ[1 - p] ^= bit
                    here = 0
                here += force
                board[dst] = here * sign
                occ[p] |= bit
                if here >= 2:  # (one piece lands only where no opposing stack stands: no stack bit to clear)
                    self._multi |= bit
            layout = self._layout = self._layout.after[used]
            if layout.dice:
                self._generate()
                if self._bits or self._tail:
                    return
            self._bits = 0  # the turn ends: no dice left, or no step for them (I-1)
            self._tail = ()
            if self._doubles:
                self._doubles = False
                self._layout = LAYOUTS[p][()]
            else:
                self._to_move = 1 - p
                self._layout = LAYOUTS[1 - p][()]
        elif isinstance(move, Roll):
            if self._layout.dice or self._winner is not None:
                raise IllegalMoveError(f"{move}: no roll is due, {self.to_move} has dice {self._layout.dice}")
            self._layout = LAYOUTS[self._to_move][(move.low, move.high)]
            self._doubles = move.low == move.high
            self._generate()
            if not (self._bits or self._tail):  # I-5: no step at all passes the turn, even on a double
                self._doubles = False
                self._to_move = 1 - self._to_move
                self._layout = LAYOUTS[self._to_move][()]
            return
        else:
            raise IllegalMoveError(f"{move} is not a legal step now ({self._describe_turn()})")

    def _put(self, pos: int, value: int) -> None:
        """Set a count and keep the bit masks that move generation reads in step with it."""
        self._board[pos] = value
        bit = 1 << pos
        keep = ~bit
        occ = self._occ
        occ[0] = (occ[0] & keep) | (bit if value > 0 else 0)
        occ[1] = (occ[1] & keep) | (bit if value < 0 else 0)
        self._multi = (self._multi & keep) | (bit if value >= 2 or value <= -2 else 0)

    def _describe_turn(self) -> str:
        if self._winner is not None:
            return f"the game is over, {PLAYERS[self._winner]} won"
        if not self._layout.dice:
            return f"{self.to_move} must roll first"
        return f"{self.to_move} to move with dice {', '.join(map(str, self._layout.dice))}"

    def parse_move(self, text: str) -> Move:
        move = parse(text)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not legal now ({self._describe_turn()})")
        return move

    # -- copying and serialising ------------------------------------------------------------------------

    def clone(self) -> State:
        other = State.__new__(State)
        other._board = self._board[:]
        other._to_move = self._to_move
        other._layout = self._layout
        other._occ = self._occ[:]
        other._multi = self._multi
        other._doubles = self._doubles
        other._waiting = self._waiting[:]
        other._home = self._home[:]
        other._winner = self._winner
        other._bits = self._bits
        other._tail = self._tail
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def to_json(self) -> JsonDict:
        return {
            "game": self.game,
            "to_move": self.to_move,
            "dice": list(self._layout.dice),
            "doubles": self._doubles,
            "board": {str(pos): [owner, n] for pos, (owner, n) in self._occupied()},
            "waiting": dict(zip(PLAYERS, self._waiting, strict=True)),
            "home": dict(zip(PLAYERS, self._home, strict=True)),
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state, rejecting anything inconsistent (journals can be hand-edited or torn)."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a Hannibal state is a JSON object, got {type(data).__name__}")
        if data.get("game", "hannibal") != "hannibal":
            raise ValueError(f"game: expected 'hannibal', got {data.get('game')!r}")
        s = cls.__new__(cls)
        s._to_move = PLAYERS.index(read_choice(data.get("to_move"), PLAYERS, "to_move"))
        dice = _read_dice(data.get("dice"))
        doubles = read_bool(data.get("doubles", False), "doubles")
        if doubles and (len(dice) == 0 or len(set(dice)) != 1):
            raise ValueError(f"doubles: true but the dice are {dice}")
        s._doubles = doubles
        s._board = [0] * POSITIONS
        s._occ = [0, 0]
        s._multi = 0
        for pos, value in enumerate(_read_board(data.get("board"))):
            s._put(pos, value)
        s._waiting = _read_pair(data.get("waiting"), "waiting")
        s._home = _read_pair(data.get("home"), "home")
        for i, p in enumerate(PLAYERS):
            on_board = sum(v * SIGN[i] for v in s._board if v * SIGN[i] > 0)
            total = on_board + s._waiting[i] + s._home[i]
            if total != PIECES:
                raise ValueError(f"{p} has {total} pieces (board {on_board}, waiting {s._waiting[i]}, "
                                 f"home {s._home[i]}); expected {PIECES}")
        winner = data.get("winner")
        s._winner = None if winner is None else PLAYERS.index(read_choice(winner, PLAYERS, "winner"))
        if s._winner is not None and s._home[s._winner] != PIECES:
            raise ValueError(f"winner: {winner} has only {s._home[s._winner]} pieces home")
        if s._winner is not None and dice:
            raise ValueError(f"dice: the game is over but dice {dice} are unused")
        if s._winner is None and PIECES in s._home:
            raise ValueError("home: a player has all pieces home but winner is null")
        s._bits = 0
        s._tail = None if dice and s._winner is None else ()
        s._layout = LAYOUTS[s._to_move][dice]
        return s

    def __repr__(self) -> str:
        return f"<hannibal.State {self.to_json()}>"


def _read_dice(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > 2:
        raise ValueError(f"dice: expected a list of at most two dice, got {value!r}")
    return tuple(sorted(read_int(d, f"dice[{i}]", 1, 6) for i, d in enumerate(value)))


def _read_board(value: object) -> list[int]:
    if not isinstance(value, Mapping):
        raise ValueError(f"board: expected an object of position -> [owner, count], got {value!r}")
    board = [0] * POSITIONS
    for key, entry in value.items():
        if not (isinstance(key, str) and key.isdigit() and 0 <= int(key) <= LAST):
            raise ValueError(f"board: {key!r} is not a position 0..{LAST}")
        if not (isinstance(entry, list | tuple) and len(entry) == 2):
            raise ValueError(f"board.{key}: expected [owner, count], got {entry!r}")
        i = PLAYERS.index(read_choice(entry[0], PLAYERS, f"board.{key}"))
        count = read_int(entry[1], f"board.{key}", 1, PIECES)
        pos = int(key)
        if pos == BASE[1 - i]:
            raise ValueError(f"board.{key}: {PLAYERS[i]} pieces on their goal would be home")
        board[pos] = count * SIGN[i]
    return board


def _read_pair(value: object, key: str) -> list[int]:
    """Pieces per player, in PLAYERS order."""
    return [read_int(n, f"{key}.{p}", 0, PIECES) for p, n in read_object(value, key, PLAYERS).items()]


def new_game(*, first: str = "yellow") -> State:
    """A new game at its set-up position, ``first`` to roll (a controller may hold a roll-off first)."""
    return State(first=first)
