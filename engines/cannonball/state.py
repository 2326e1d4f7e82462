"""The Cannon Ball position and its turn cycle: spin-off, turn choice, spins, odd/even actions, turn end.

The march itself (steps, attacks, the end-of-march resolution) lives in ``march.py``; this module owns
what happens between marches and the win checks every turn ends with. Fields are plain attributes so
the march, evaluation and planner modules of this package read them without copies, but only this
module sets them: the march, the JSON reader (``serial.py``) and the evaluation change a position
through its methods here (``move_piece``, ``spend``, ``lay``, ``blow``, ``shoot``, ``destroy_gate``...),
so what keeps the counts in step with the board is written once.

Piece codes on ``board``: 0 empty, 1 blue trooper, 2 blue cannon, 3 gray trooper, 4 gray cannon
(``1 + 2 * side + is_cannon``). ``troops`` and ``cannons`` count pieces per side and section
(``16 * side + section``), kept in step with ``board`` so the attack test and the limits never scan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engines.base import IllegalMoveError, JsonDict, Move
from engines.cannonball import march, serial
from engines.cannonball.board import (
    BOX_NAMES,
    BOXES,
    CLOSED,
    DESTROYED,
    ENEMY_GATES,
    FLAGS,
    FORT_BOXES,
    GATE_OWNER,
    GATE_SECTION,
    GATES,
    HOME,
    NSEC,
    OPEN,
    OWN_GATES,
    PHASES,
    SECTION_BOXES,
    SECTION_OF,
    SIDES,
    SITE_ENDS,
    SITE_OF_END,
    SITE_OWNER,
    SITES,
    STARS,
    TNT_CASES,
)
from engines.cannonball.movelist import MoveList
from engines.cannonball.moves import (
    END,
    MARCH,
    REBUILD,
    SHOOT,
    SPIN_OFF,
    SPINS,
    STORM,
    Action,
    GateMove,
    Spin,
    Step,
    Tnt,
    parse,
)

PLAYERS: Final = SIDES
SPIN_OFF_PHASE, TURN, SPIN, MARCHING, OVER = PHASES

LOCATIONS: Final = (tuple(f"box:{n}" for n in BOX_NAMES) + tuple(f"bridge:{s}" for s in SITES)
                    + tuple(f"gate:{g}" for g in GATES))

_ACTIONS: Final = {(kind, t, odd): Action(kind, t, odd) for kind in (SHOOT, REBUILD, STORM)
                   for t in range(len(GATES) if kind == STORM else len(SITES)) for odd in (True, False)}
_GATE_MOVES: Final = {(close, g): GateMove(close, g) for close in (True, False) for g in range(len(GATES))}
_OUTCOMES: Final = [(m, 1 / 12) for m in SPINS]
_SPIN_OFF_OUTCOMES: Final = tuple([(m, 1 / 12) for m in row] for row in SPIN_OFF)


def trooper(side: int) -> int:
    return 1 + 2 * side


def cannon_code(side: int) -> int:
    return 2 + 2 * side


class State:
    """A Cannon Ball position: see the module docstring for the fields' encoding."""

    game: Final = "cannonball"
    players: Final = PLAYERS

    __slots__ = ("_legal", "board", "bridge_tnt", "bridges", "budget", "cannons", "crossed", "drawn", "entered",
                 "gate_tnt", "gates", "laid", "mines", "next_seq", "pending", "phase", "spinoff", "tnt",
                 "to_move", "troops", "turn", "turn_limit", "winner_index")

    board: list[int]
    troops: list[int]
    cannons: list[int]
    gates: list[int]
    bridges: int
    tnt: list[int]
    mines: dict[int, tuple[int, int]]
    to_move: int
    phase: str
    budget: int | None
    pending: Move | None
    spinoff: int | None
    entered: dict[int, int]
    next_seq: int
    laid: bool
    bridge_tnt: int
    gate_tnt: int
    crossed: int
    winner_index: int | None
    drawn: bool
    turn: int
    turn_limit: int | None
    _legal: MoveList | None

    def __init__(self, *, turn_limit: int | None = None) -> None:
        if turn_limit is not None and (not isinstance(turn_limit, int) or isinstance(turn_limit, bool)
                                       or turn_limit < 1):
            raise ValueError(f"turn_limit: expected a positive whole number or None, got {turn_limit!r}")
        self.board = [0] * BOXES
        self.troops = [0] * (2 * NSEC)
        self.cannons = [0] * (2 * NSEC)
        for side in range(2):
            for i in FORT_BOXES[side]:
                if i in STARS[side]:
                    self.board[i] = cannon_code(side)
                elif i != FLAGS[side]:
                    self.board[i] = trooper(side)
        self.gates = [OPEN] * len(GATES)  # the players start by removing their gates
        self.bridges = (1 << len(SITES)) - 1  # bit set: the bridge stands
        self.tnt = [TNT_CASES, TNT_CASES]
        self.mines = {}  # site -> (owner, end box)
        self.to_move = 0
        self.phase = SPIN_OFF_PHASE
        self.pending = None  # MARCH or an Action waiting for its spin
        self.spinoff = None  # blue's spin-off number while gray's is due
        self.winner_index = None
        self.drawn = False
        self.turn = 0
        self.turn_limit = turn_limit
        self.start_march(None)
        self._legal = None

    def start_march(self, budget: int | None) -> None:
        """Reset the bookkeeping one march keeps: who entered which section when, TNT laid, the crossing
        (``budget`` ``None`` outside a march)."""
        self.budget = budget
        self.entered = {}  # box -> entry order, for pieces that entered their section this march
        self.next_seq = 0
        self.laid = False
        self.bridge_tnt = -1  # end box of the bridge TNT laid this march (I-7)
        self.gate_tnt = 0  # bit mask of the gates with TNT under them this march
        self.crossed = -1  # landing box of a crossing that was the last move (``blew`` is possible)

    # -- reading the position ---------------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        return SIDES[self.to_move] if self.phase in (TURN, MARCHING) else None

    @property
    def winner(self) -> str | None:
        return None if self.winner_index is None else SIDES[self.winner_index]

    def is_over(self) -> bool:
        return self.phase == OVER

    def is_chance(self) -> bool:
        return self.phase in (SPIN_OFF_PHASE, SPIN)

    def roller(self) -> str | None:
        """Whose spin is due (the table whose seat it is spins, with a far table): the side to move, each side
        in turn in the spin-off."""
        return SIDES[self.to_move] if self.is_chance() else None

    def returns(self) -> dict[str, float]:
        if self.drawn:  # I-19
            return {p: 0.5 for p in PLAYERS}
        return {p: float(i == self.winner_index) for i, p in enumerate(PLAYERS)}

    def at(self, name: str) -> tuple[str, str] | None:
        """Owner and kind ("trooper" or "cannon") on a box, or ``None`` when it is empty."""
        code = self.board[BOX_NAMES.index(name)]
        return None if code == 0 else (SIDES[(code - 1) >> 1], "trooper" if code & 1 else "cannon")

    def kinds(self) -> dict[str, str]:
        """The boxes holding a cannon (a trooper and a cannon look alike to a reed, not to the players), and
        the standing bridges and closed gates, so a set-up list says ``put 1 gray bridge on b``, not ``on b``; and
        each destroyed gate (no piece: its slot stays empty for good), so a view can tell it from an open one."""
        out = {f"box:{BOX_NAMES[i]}": "cannon" for i, c in enumerate(self.board) if c and not c & 1}
        out.update({f"bridge:{site}": "bridge" for b, site in enumerate(SITES) if self.bridges >> b & 1})
        out.update({f"gate:{gate}": "gate" for g, gate in enumerate(GATES) if self.gates[g] == CLOSED})
        out.update({f"gate:{gate}": "destroyed" for g, gate in enumerate(GATES) if self.gates[g] == DESTROYED})
        return out

    def occupancy(self) -> dict[str, tuple[str, int]]:
        """Every occupied box, every standing bridge (its magnet) and every closed gate (the gate stands
        in its slot; an open or destroyed gate is off the board), with the owner of each (I-16)."""
        out = {f"box:{BOX_NAMES[i]}": (SIDES[(c - 1) >> 1], 1) for i, c in enumerate(self.board) if c}
        for b, site in enumerate(SITES):
            if self.bridges >> b & 1:
                out[f"bridge:{site}"] = (SIDES[SITE_OWNER[b]], 1)
        for g, gate in enumerate(GATES):
            if self.gates[g] == CLOSED:
                out[f"gate:{gate}"] = (SIDES[GATE_OWNER[g]], 1)
        return out

    def key(self) -> tuple[object, ...]:
        """A hashable summary, equal exactly when the states are equal (bots deduplicate with it and keep what
        they worked out by it: the board as bytes takes an eighth of a tuple's memory)."""
        return (bytes(self.board), tuple(self.gates), self.bridges, tuple(self.tnt), tuple(sorted(self.mines.items())),
                self.to_move, self.phase, self.budget, self.pending, self.spinoff,
                tuple(sorted(self.entered.items())), self.next_seq, self.laid, self.bridge_tnt, self.gate_tnt,
                self.crossed, self.winner_index, self.drawn, self.turn, self.turn_limit)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # -- moves ------------------------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.phase == SPIN:
            return list(_OUTCOMES)
        if self.phase == SPIN_OFF_PHASE:
            return list(_SPIN_OFF_OUTCOMES[self.to_move])
        return []

    def legal_moves(self) -> MoveList:
        """Every legal move now: the spins at a chance node, the turn choices, or the march steps."""
        if self._legal is None:
            if self.phase == MARCHING:
                self._legal = march.generate(self)
            elif self.phase == TURN:
                self._legal = MoveList(self._choices())
            elif self.is_chance():
                self._legal = MoveList([m for m, _ in self.chance_outcomes()])
            else:
                self._legal = MoveList([])
        return self._legal

    def _choices(self) -> list[Move]:
        """The turn types open to the mover; a TNT laid last march leaves only its shot."""
        p = self.to_move
        for site, (owner, _) in sorted(self.mines.items()):
            if owner == p:
                return [_ACTIONS[(SHOOT, site, True)], _ACTIONS[(SHOOT, site, False)]]
        out: list[Move] = [MARCH]
        for g in OWN_GATES[p]:
            if self.gates[g] != DESTROYED:  # I-19: close an open gate, open a closed one
                out.append(_GATE_MOVES[(self.gates[g] == OPEN, g)])
        base = NSEC * p
        for site, ends in enumerate(SITE_ENDS):
            if not self.bridges >> site & 1 and any(self.troops[base + SECTION_OF[e]] >= 3 for e in ends):
                out += [_ACTIONS[(REBUILD, site, True)], _ACTIONS[(REBUILD, site, False)]]
        for g in ENEMY_GATES[p]:
            sec = GATE_SECTION[g]
            if self.gates[g] != DESTROYED and self.cannons[base + sec] >= 1 and self.troops[base + sec] >= 3:  # I-18
                out += [_ACTIONS[(STORM, g, True)], _ACTIONS[(STORM, g, False)]]
        return out

    def apply(self, move: Move) -> None:
        if not self._allows(move):
            raise IllegalMoveError(f"{move} is not legal now ({self.describe()})")
        self._legal = None
        if self.phase == MARCHING:
            march.play(self, move)
        elif self.phase == TURN:
            if move is MARCH:
                self.phase, self.pending = SPIN, MARCH
            elif isinstance(move, GateMove):
                self.gates[move.gate] = CLOSED if move.close else OPEN
                self.end_turn()
            else:
                self.phase, self.pending = SPIN, move
        elif isinstance(move, Spin):
            self._spin(move.number)

    def _allows(self, move: Move) -> bool:
        """``move in self.legal_moves()``, without generating the moves where a march step alone can be
        checked: ``end`` is always legal in a march, and a trooper step by its own rule (bots play many
        hypothetical marches, step by step)."""
        if self.phase == MARCHING and self._legal is None:
            if move is END:
                return True
            if isinstance(move, Step):
                return march.allows_step(self, move)
        return move in self.legal_moves()

    def _spin(self, number: int) -> None:
        if self.phase == SPIN_OFF_PHASE:
            if self.spinoff is None:
                self.spinoff, self.to_move = number, 1
            elif number == self.spinoff:  # a tie: both spin again, blue first
                self.spinoff, self.to_move = None, 0
            else:  # I-5: the higher spinner's first turn is a march of his number
                self.to_move = 0 if self.spinoff > number else 1
                first = max(self.spinoff, number)
                self.spinoff = None
                self.phase = MARCHING
                self.start_march(first)
        elif self.pending is MARCH:
            self.pending = None
            self.phase = MARCHING
            self.start_march(number)
        else:
            assert isinstance(self.pending, Action)
            self._resolve(self.pending, number)

    def _resolve(self, action: Action, number: int) -> None:
        match = action.matches(number)
        if action.kind == SHOOT:
            self.shoot(action.target, match)
        elif action.kind == REBUILD:
            if match:
                self.bridges |= 1 << action.target
        elif match:
            self.destroy_gate(action.target)
        self.end_turn()

    def end_turn(self) -> None:
        """The checks every turn ends with (deserted fort, I-10 included), then the turn count and limit."""
        p = self.to_move
        if self.winner_index is None:
            if self.deserted(1 - p):
                self.winner_index = p
            elif self.deserted(p):
                self.winner_index = 1 - p
        self.turn += 1
        if self.winner_index is None and self.turn_limit is not None and self.turn >= self.turn_limit:
            self.drawn = True
        self.pending = None
        self.start_march(None)
        if self.winner_index is not None or self.drawn:
            self.phase = OVER  # I-15: ``to_move`` stays with the side whose turn ended the game
        else:
            self.phase, self.to_move = TURN, 1 - p

    def deserted(self, side: int) -> bool:
        """No trooper of ``side`` in its fort or its gate sections (a side with none at all included)."""
        code = trooper(side)
        board = self.board
        return not any(board[b] == code for b in HOME[side])

    # -- changing the position: the parts of ``apply`` (the march's included) -------------------------------
    # ``apply`` forgets the cached legal moves before it calls them; the evaluation calls ``shoot`` and ``blow``
    # on clones it only measures.

    def remove(self, b: int) -> None:
        """Take the piece on box ``b`` off the board."""
        code = self.board[b]
        self.board[b] = 0
        sec = SECTION_OF[b]
        if sec >= 0:
            (self.troops if code & 1 else self.cannons)[NSEC * ((code - 1) >> 1) + sec] -= 1
        self.entered.pop(b, None)

    def place(self, b: int, code: int) -> None:
        """Put a piece on the empty box ``b`` (building positions and capturing cannons)."""
        self.board[b] = code
        sec = SECTION_OF[b]
        if sec >= 0:
            (self.troops if code & 1 else self.cannons)[NSEC * ((code - 1) >> 1) + sec] += 1

    def move_piece(self, src: int, dst: int) -> int:
        """Move one piece, keeping the counts and the entry order; returns the section it entered, or -1."""
        board = self.board
        code = board[src]
        board[src] = 0
        board[dst] = code
        counts = self.troops if code & 1 else self.cannons
        base = NSEC * ((code - 1) >> 1)
        ss, ds = SECTION_OF[src], SECTION_OF[dst]
        if ss >= 0:
            counts[base + ss] -= 1
        seq = self.entered.pop(src, None)
        if ds < 0:
            return -1
        counts[base + ds] += 1
        if ds != ss:
            self.entered[dst] = self.next_seq
            self.next_seq += 1
            return ds
        if seq is not None:  # a move within the section is no entry: it keeps its place in the order
            self.entered[dst] = seq
        return -1

    def spend(self, moves: int, crossed: int = -1) -> None:
        """A march step's cost taken from the budget; ``crossed``: the box a crossing landed on, where ``blew``
        may follow (-1: the step was no crossing)."""
        assert self.budget is not None
        self.budget -= moves
        self.crossed = crossed

    def lay(self, move: Tnt) -> None:
        """The mover lays a TNT case, one move of the march: on a bridge end (shot next turn) or under an
        enemy gate."""
        p = self.to_move
        self.tnt[p] -= 1
        self.laid = True
        self.spend(1)
        if move.end >= 0:
            self.mines[SITE_OF_END[move.end]] = (p, move.end)
            self.bridge_tnt = move.end
        else:
            self.gate_tnt |= 1 << move.gate

    def blow(self, site: int) -> None:
        """The bridge at ``site`` goes down, with any TNT on it."""
        self.bridges &= ~(1 << site)
        self.mines.pop(site, None)

    def shoot(self, site: int, hit: bool) -> None:
        """The TNT on ``site`` is shot: a hit blows its bridge and every piece in the section of its end."""
        _, end = self.mines.pop(site)
        if hit:
            self.blow(site)
            for b in SECTION_BOXES[SECTION_OF[end]]:
                if self.board[b]:
                    self.remove(b)

    def destroy_gate(self, g: int) -> None:
        """Gate ``g`` is destroyed (a storm, or TNT under it as a march ends): the mover wins."""
        self.gates[g] = DESTROYED
        self.win()

    def win(self) -> None:
        """The mover wins; ``end_turn`` still ends the turn."""
        self.winner_index = self.to_move

    def describe(self) -> str:
        side = SIDES[self.to_move]
        if self.phase == OVER:
            return "the game is over, " + ("drawn" if self.drawn else f"{self.winner} won")
        if self.phase == SPIN_OFF_PHASE:
            return f"spin-off: {side} spins"
        if self.phase == SPIN:
            return f"{side} spins for {self.pending}"
        if self.phase == TURN:
            return f"{side} chooses a turn"
        return f"{side} marches with {self.budget} moves left"

    def parse_move(self, text: str) -> Move:
        move = parse(text)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not legal now ({self.describe()})")
        return move

    # -- copying and serialising ------------------------------------------------------------------------

    def clone(self) -> State:
        other = State.__new__(State)
        other.board = self.board[:]
        other.troops = self.troops[:]
        other.cannons = self.cannons[:]
        other.gates = self.gates[:]
        other.bridges = self.bridges
        other.tnt = self.tnt[:]
        other.mines = dict(self.mines)
        other.to_move = self.to_move
        other.phase = self.phase
        other.budget = self.budget
        other.pending = self.pending
        other.spinoff = self.spinoff
        other.entered = dict(self.entered)
        other.next_seq = self.next_seq
        other.laid = self.laid
        other.bridge_tnt = self.bridge_tnt
        other.gate_tnt = self.gate_tnt
        other.crossed = self.crossed
        other.winner_index = self.winner_index
        other.drawn = self.drawn
        other.turn = self.turn
        other.turn_limit = self.turn_limit
        other._legal = self._legal  # never mutated in place, so sharing is safe
        return other

    def to_json(self) -> JsonDict:
        return serial.to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state, rejecting anything inconsistent (journals can be hand-edited or torn)."""
        f = serial.read(data)
        s = cls.__new__(cls)
        s.board, s.troops, s.cannons = [0] * BOXES, [0] * (2 * NSEC), [0] * (2 * NSEC)
        for b, code in f.pieces.items():
            s.place(b, code)
        s.to_move, s.gates, s.bridges, s.tnt, s.mines = f.to_move, f.gates, f.bridges, f.tnt, f.mines
        s.winner_index, s.drawn, s.turn, s.turn_limit = f.winner_index, f.drawn, f.turn, f.turn_limit
        s.phase, s.pending, s.spinoff = f.phase, f.pending, f.spinoff
        s.start_march(f.budget)
        if f.march is not None:
            s.entered, s.next_seq, s.laid, s.bridge_tnt, s.gate_tnt, s.crossed = f.march
        s._legal = None
        if s.phase == TURN and s.pending is not None:
            raise ValueError("pending: only a spin waits for a declared march or action")
        if s.phase == SPIN:
            chooser = s.clone()
            chooser.phase, chooser.pending = TURN, None
            if s.pending not in chooser.legal_moves():
                raise ValueError(f"pending: {s.pending} could not have been chosen in this position")
        return s

    def __repr__(self) -> str:
        return f"<cannonball.State {self.to_json()}>"


def new_game(*, turn_limit: int | None = None) -> State:
    """A new game at the set-up position, the spin-off due (blue spins first).

    ``turn_limit``: when ``turn`` (completed turns) reaches it without a winner, the game ends drawn.
    """
    return State(turn_limit=turn_limit)
