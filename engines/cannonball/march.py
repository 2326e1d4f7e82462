"""A march: its legal steps, playing them, the attack test and the end-of-march resolution.

Rules: ``docs/rules/cannonball.md`` ("March steps", "Sections, attacks and limits"). Choices the digest
leaves open are documented in the package docstring as I-11 onwards and cited here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engines.base import Move
from engines.cannonball.board import (
    BOXES,
    CLOSED,
    ENEMY_GATES,
    GATE_LINKS,
    GATE_OUTSIDE,
    GATE_SECTION,
    NEIGHBOURS,
    NSEC,
    OPEN,
    SECTION_BOXES,
    SECTION_NEIGHBOURS,
    SECTION_OF,
    SITE_ENDS,
    SITE_OF_END,
    far_end,
    section_neighbours,
    trooper_limit,
)
from engines.cannonball.movelist import EscortBlock, MoveList
from engines.cannonball.moves import BLEWS, CROSSES, END, Blew, CannonMove, Cross, Step, Tnt, cannon, step

if TYPE_CHECKING:
    from engines.cannonball.state import State

_STEP: Final = tuple({j: step(i, j) for j in (*NEIGHBOURS[i], *(b for _, b in GATE_LINKS[i]))} for i in range(BOXES))
# per box, (neighbour, move there) pairs: generation filters these instead of building moves
_TROOPER_NEAR: Final = tuple(tuple((j, _STEP[i][j]) for j in NEIGHBOURS[i]) for i in range(BOXES))
_TROOPER_WITHIN: Final = tuple(tuple((j, _STEP[i][j]) for j in SECTION_NEIGHBOURS[i]) for i in range(BOXES))
_CANNON_NEAR: Final = tuple(tuple((j, cannon(i, j)) for j in NEIGHBOURS[i]) for i in range(BOXES))
_GATE_MOVES: Final = tuple(tuple((g, j, _STEP[i][j], cannon(i, j)) for g, j in GATE_LINKS[i]) for i in range(BOXES))
_TNT_END: Final = {e: Tnt(end=e) for ends in SITE_ENDS for e in ends}
_TNT_GATE: Final = tuple(Tnt(gate=g) for g in range(len(GATE_SECTION)))


# -- generating --------------------------------------------------------------------------------------------


def contested(s: State) -> list[bool]:
    """Sections holding pieces of both sides: an attack in progress, which no piece inside may leave."""
    t, c = s.troops, s.cannons
    return [bool((t[k] or c[k]) and (t[k + NSEC] or c[k + NSEC])) for k in range(NSEC)]


def generate(s: State) -> MoveList:
    """Every legal step of the mover with ``s.budget`` moves left; ``end`` always, ``blew`` after a crossing."""
    assert s.budget is not None
    moves: list[Move] = []
    blocks: list[EscortBlock] = []
    if s.budget > 0:
        _piece_moves(s, moves, blocks)
        _tnt_moves(s, moves)
    moves.append(END)
    if s.crossed >= 0:  # I-17
        moves.append(BLEWS[SITE_OF_END[s.crossed]])
    return MoveList(moves, blocks)


def _piece_moves(s: State, out: list[Move], blocks: list[EscortBlock]) -> None:
    p = s.to_move
    board, gates, bridges = s.board, s.gates, s.bridges
    mine_t, mine_c = 1 + 2 * p, 2 + 2 * p
    base = NSEC * p
    busy = contested(s)
    can_cross = s.budget is not None and s.budget >= 2
    for i, code in enumerate(board):
        if code != mine_t and code != mine_c:
            continue
        sec = SECTION_OF[i]
        if sec >= 0 and busy[sec]:  # may move only within the contested section (a cannon cannot)
            if code == mine_t:
                out += [m for j, m in _TROOPER_WITHIN[i] if not board[j]]
            continue
        if code == mine_t and sec < 0:  # in a fort: an enemy's box may be entered, to remove it
            out += [m for j, m in _TROOPER_NEAR[i] if not board[j] or (board[j] - 1) >> 1 != p]
        elif code == mine_t:
            out += [m for j, m in _TROOPER_NEAR[i] if not board[j]]
            site = SITE_OF_END[i]
            if can_cross and site >= 0 and bridges >> site & 1 and not board[far_end(site, i)]:
                out.append(CROSSES[(i, far_end(site, i))])
        elif sec < 0:
            out += [m for j, m in _CANNON_NEAR[i] if not board[j]]
        for g, j, trooper_move, cannon_move in _GATE_MOVES[i]:
            if gates[g] != CLOSED and not board[j]:
                out.append(trooper_move if code == mine_t else cannon_move)
        if code == mine_c and sec >= 0 and s.troops[base + sec] >= 2:
            sources = tuple(b for b in SECTION_BOXES[sec] if board[b] == mine_t)
            for t in section_neighbours(sec, bridges):
                empties = tuple(b for b in SECTION_BOXES[t] if not board[b])
                if s.troops[base + t] >= 2:  # passed between two sections holding two troopers each
                    out += [cannon(i, d) for d in empties]
                blocks.append(EscortBlock(i, sources, empties))


def allows_step(s: State, move: Step) -> bool:
    """``move in generate(s)`` for a trooper step or crossing, read off the rules of ``_piece_moves`` for
    the one trooper instead of generating every move: bots play thousands of hypothetical steps, and
    generating the whole list to check each one was most of what a step cost them."""
    i, j = move.src, move.dst
    p = s.to_move
    board = s.board
    if not s.budget or not 0 <= i < BOXES or board[i] != 1 + 2 * p:
        return False
    sec = SECTION_OF[i]
    busy = sec >= 0 and contested(s)[sec]
    if type(move) is Cross:
        site = SITE_OF_END[i]
        return (sec >= 0 and not busy and s.budget >= 2 and site >= 0 and bool(s.bridges >> site & 1)
                and j == far_end(site, i) and not board[j])
    if busy:
        return j in SECTION_NEIGHBOURS[i] and not board[j]
    if j in NEIGHBOURS[i] and (not board[j] or (sec < 0 and (board[j] - 1) >> 1 != p)):
        return True
    return any(n == j and s.gates[g] != CLOSED and not board[j] for g, n in GATE_LINKS[i])


def _tnt_moves(s: State, out: list[Move]) -> None:
    p = s.to_move
    if not s.tnt[p]:
        return
    board, mine_t, base = s.board, 1 + 2 * p, NSEC * p
    if not s.laid:  # I-11: one TNT case a march at most before a bridge TNT
        for site, ends in enumerate(SITE_ENDS):
            if s.bridges >> site & 1 and site not in s.mines:
                out.extend(_TNT_END[e] for e in ends if board[e] == mine_t and s.troops[base + SECTION_OF[e]] >= 2)
    for g in ENEMY_GATES[p]:
        if (s.gates[g] == CLOSED and not s.gate_tnt >> g & 1 and s.troops[base + GATE_SECTION[g]] >= 5
                and any(board[b] == mine_t for b in GATE_OUTSIDE[g])):
            out.append(_TNT_GATE[g])


# -- playing -----------------------------------------------------------------------------------------------


def play(s: State, move: Move) -> None:
    """Play a legal march step (``State.apply`` checked it). Every step forgets the last crossing
    (``State.spend``), and ending the march ends the turn, which starts the next march's bookkeeping."""
    if move is END:
        end_march(s)
    elif isinstance(move, Blew):
        s.remove(s.crossed)
        s.blow(move.site)
        end_march(s)
    elif isinstance(move, Tnt):
        s.lay(move)
    elif isinstance(move, Step):
        _step(s, move)
    else:
        assert isinstance(move, CannonMove)
        _cannon(s, move)


def _step(s: State, move: Step) -> None:
    if s.board[move.dst]:  # a capture inside a fort
        s.remove(move.dst)
    entered = s.move_piece(move.src, move.dst)
    if isinstance(move, Cross):
        s.spend(2, crossed=move.dst)
    else:
        s.spend(1)
    if entered >= 0:
        _attack(s, entered)


def _cannon(s: State, move: CannonMove) -> None:
    """The cannon enters first, then its escorts in the order written; the attack test runs once, after
    the whole move (I-12)."""
    entered = s.move_piece(move.src, move.dst)
    for src, dst in move.escorts:
        s.move_piece(src, dst)
    s.spend(1)
    if entered >= 0:
        _attack(s, entered)


def attack_succeeds(t: int, c: int, a: int, k: int) -> bool:
    """``t`` troopers and ``c`` cannons defending against ``a`` troopers and ``k`` cannons attacking."""
    if t == 0:
        return c > 0 and a >= 1
    if c == 0:
        return a >= t + 1 or (k > 0 and a >= 2)
    return k > 0 and a >= t + 1


def _attack(s: State, sec: int) -> None:
    """The test after a step into ``sec`` (every piece of the mover there attacks, I-18): on success the
    defenders go, an unprotected cannon is taken."""
    p = s.to_move
    mine, theirs = NSEC * p + sec, NSEC * (1 - p) + sec
    t, c = s.troops[theirs], s.cannons[theirs]
    if not (t or c) or not attack_succeeds(t, c, s.troops[mine], s.cannons[mine]):
        return
    board = s.board
    for b in SECTION_BOXES[sec]:
        code = board[b]
        if code and (code - 1) >> 1 != p:
            s.remove(b)
            if t == 0:  # captured where it stands, counting as the earliest there (I-9)
                s.place(b, 2 + 2 * p)


# -- the end of a march ------------------------------------------------------------------------------------


def end_march(s: State) -> None:
    """Failed attacks, then I-7 losses, then limits, then the gate-TNT win, then the open-gate win."""
    p = s.to_move
    board = s.board
    mine_t = 1 + 2 * p
    for sec, busy in enumerate(contested(s)):
        if busy:
            for b in SECTION_BOXES[sec]:
                if b in s.entered:
                    s.remove(b)
    if s.bridge_tnt >= 0:
        for b in SECTION_BOXES[SECTION_OF[s.bridge_tnt]]:
            if board[b] == mine_t:
                s.remove(b)
    base = NSEC * p
    for sec, limit in enumerate(_LIMITS):  # most sections are within their limits: no call for them
        if s.troops[base + sec] > limit:
            _cut(s, sec, mine_t, s.troops[base + sec] - limit)
        if s.cannons[base + sec] > 1:
            _cut(s, sec, mine_t + 1, s.cannons[base + sec] - 1)
    for g in ENEMY_GATES[p]:
        if s.winner_index is None and s.gate_tnt >> g & 1 and s.troops[base + GATE_SECTION[g]] <= 3:
            s.destroy_gate(g)
    for g in ENEMY_GATES[p]:
        sec = base + GATE_SECTION[g]
        if s.winner_index is None and s.gates[g] == OPEN and (s.troops[sec] >= 5 or
                                                              (s.cannons[sec] and s.troops[sec] >= 3)):
            s.win()
    s.end_turn()


def _cut(s: State, sec: int, code: int, over: int) -> None:
    """Remove ``over`` pieces of kind ``code``, the last to enter first; pieces that did not enter count
    as the earliest, and among them the higher box goes first (I-13)."""
    boxes = sorted((b for b in SECTION_BOXES[sec] if s.board[b] == code), key=lambda b: (s.entered.get(b, -1), b))
    for b in boxes[len(boxes) - max(0, over):]:
        s.remove(b)


_LIMITS: Final = tuple(trooper_limit(sec) for sec in range(NSEC))
