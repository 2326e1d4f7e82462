"""A greedy march planner: spend the spun moves one *macro* at a time, each the one that most improves
the position as it would stand if the march ended right after it.

Why macros rather than single steps: judged as if the march ended now, the first trooper into an enemy
section is always lost (a failed attack), and so is a trooper left beside a TNT it just laid. So an
attack's first entrant is followed by the shortest walks of more troopers into that section until the
attack succeeds, and a TNT by its layers walking out of the section, before the result is judged.
Why so few candidates: a march offers hundreds of steps and thousands of escorted cannon moves, and
bots plan every march of every game. A trooper's candidates are whole walks (its best reachable box
towards the enemy gates where the limit leaves room, and a short one), for the few troopers that gain
most per move; each cannon offers one landing per section; and where the mover's own troopers block
every way into an enemy gate section, a step deeper inside is tried with the walk it makes room for.
A bridge TNT is offered only where ``features.bridge_defences`` finds an enemy column coming over a
bridge the mover's own attack does not need, with the walks that bring its layers there first.

Plans are cached by state key, so a bot that asks for the next move after each step pays for one plan
per march.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Final

from engines.base import IllegalMoveError, Move
from engines.cannonball.board import (
    ENEMY_GATES,
    GATE_SECTION,
    NSEC,
    SECTION_BOXES,
    SECTION_OF,
    boxes_holding,
    section_neighbours,
    trooper_limit,
)
from engines.cannonball.distances import cannon_map, trooper_map
from engines.cannonball.features import bridge_defences, passable
from engines.cannonball.march import contested
from engines.cannonball.moves import END, CannonMove, Step, Tnt
from engines.cannonball.paths import Walks, free_troopers, nearest_walk, reachable, walk

if TYPE_CHECKING:
    from engines.cannonball.state import State

Evaluator = Callable[["State", str], float]

TOP_WALKS: Final = 8
CACHE_LIMIT: Final = 40_000
_CACHE: dict[tuple[object, ...], Move] = {}  # (evaluation, state key) -> next move


def next_move(state: State, evaluate: Evaluator) -> Move:
    """The next move of the planned march from ``state`` (``end`` when nothing improves it)."""
    key = (evaluate, *state.key())
    move = _CACHE.get(key)
    if move is None:
        if len(_CACHE) > CACHE_LIMIT:
            _CACHE.clear()
        plan = plan_march(state, evaluate)
        s = state.clone()
        for m in plan:
            _CACHE[(evaluate, *s.key())] = m
            s.apply(m)
        move = plan[0]
    return move


def plan_march(state: State, evaluate: Evaluator) -> list[Move]:
    """Macros while one improves the as-if-ended value, then ``end``. Macros are compared by their gain
    over the square root of the moves they spend: a long walk must gain more than a short one, but an
    attack that wipes out a stack is not passed over for a cheap step."""
    s = state.clone()
    player = s.players[s.to_move]
    plan: list[Move] = []
    value = evaluate(s, player)
    walks = Walks()
    while s.budget:
        best: tuple[float, float, list[Move], State] | None = None
        seen: set[object] = set()
        for macro, after in _macros(s, walks):
            key = after.key()
            if key in seen:
                continue
            seen.add(key)
            v = evaluate(after, player)
            spent = s.budget - (after.budget or 0)
            score = (v - value) / max(1, spent) ** 0.5
            if v > value + 1e-6 and (best is None or score > best[0]):
                best = (score, v, macro, after)
        if best is None:
            break
        _, value, macro, s = best
        plan += macro
    plan.append(END)
    return plan


def _macros(s: State, walks: Walks) -> Iterator[tuple[list[Move], State]]:
    """Every candidate, completed as the module docstring says, with the state it leads to."""
    goal = _goal(s)
    for move in _starts(s, goal):
        t = s.clone()
        t.apply(move)
        macro = [move]
        entered = _entered_section(move)
        if entered >= 0 and contested(t)[entered]:
            macro += _complete_attack(t, entered)
        elif isinstance(move, Tnt):
            macro += _walk_out(t, GATE_SECTION[move.gate], 2, goal)
        yield macro, t
    for moves in _walks(s, goal, walks):
        t = s.clone()
        yield _play(t, moves), t
    yield from _make_room(s)
    yield from _blow_bridges(s, goal)


def _blow_bridges(s: State, goal: tuple[int, ...]) -> Iterator[tuple[list[Move], State]]:
    """For each bridge end ``bridge_defences`` names: troopers walked in until one stands on the end and
    two in its section, the TNT, and every trooper of that section walked out (I-7 takes those left).
    The only bridge TNT the planner offers: elsewhere a bridge is an attack route of one side or of none,
    and blowing it costs a case and the next turn's shot for nothing."""
    for end in bridge_defences(s, s.to_move):
        t = s.clone()
        macro = _man_end(t, end)
        tnt = Tnt(end=end)
        if macro is None or tnt not in t.legal_moves():
            continue
        t.apply(tnt)
        yield [*macro, tnt, *_walk_out(t, SECTION_OF[end], 99, goal)], t


def _man_end(t: State, end: int) -> list[Move] | None:
    """Walk the mover's troopers so that one stands on the bridge end ``end`` and at least two in its
    section, as a bridge TNT needs; ``None`` when the budget does not stretch that far."""
    code = 1 + 2 * t.to_move
    sec = SECTION_OF[end]
    boxes = set(SECTION_BOXES[sec])
    played: list[Move] = []
    if t.board[end] != code:
        moves = _walk_within(t, sec, end) or nearest_walk(t, {end}, t.budget or 0)
        if moves is None or len(_play(t, moves)) < len(moves):
            return None
        played += moves
    while t.troops[NSEC * t.to_move + sec] < 2:
        moves = nearest_walk(t, boxes, t.budget or 0)
        if moves is None or len(_play(t, moves)) < len(moves):
            return None
        played += moves
    return played


def _walk_within(t: State, sec: int, dst: int) -> list[Move] | None:
    """The cheapest walk within the budget of one of the mover's troopers already in ``sec`` to the empty
    box ``dst`` there, if any (``nearest_walk`` only brings troopers in from outside)."""
    code = 1 + 2 * t.to_move
    best: tuple[int, list[Move]] | None = None
    for b in SECTION_BOXES[sec]:
        if t.board[b] == code:
            prev = reachable(t, b, t.budget or 0)
            if dst in prev and (best is None or prev[dst][0] < best[0]):
                best = prev[dst][0], walk(prev, dst)
    return None if best is None else best[1]


def _make_room(s: State) -> Iterator[tuple[list[Move], State]]:
    """When the mover's own troopers block every way into an enemy gate section they hold, a step
    deeper inside it followed by a walk in: worth nothing alone, so no single-step greedy finds it, yet
    it is how the fifth trooper gets in."""
    p = s.to_move
    code = 1 + 2 * p
    budget = s.budget or 0
    for g in ENEMY_GATES[p]:
        sec = GATE_SECTION[g]
        boxes = set(SECTION_BOXES[sec])
        if budget < 2 or contested(s)[sec] or not 0 < s.troops[NSEC * p + sec] < trooper_limit(sec) \
                or nearest_walk(s, boxes, budget) is not None:
            continue
        for move in s.legal_moves().simple:
            if isinstance(move, Step) and s.board[move.src] == code and move.src in boxes and move.dst in boxes:
                t = s.clone()
                t.apply(move)
                walk_in = nearest_walk(t, boxes, budget - 1)
                if walk_in is not None:
                    yield [move, *_play(t, walk_in)], t


def _entered_section(move: Move) -> int:
    if isinstance(move, Step | CannonMove) and SECTION_OF[move.dst] != SECTION_OF[move.src]:
        return SECTION_OF[move.dst]
    return -1


def _goal(s: State) -> tuple[int, ...]:
    """Per box, the mover's trooper distance to the nearer enemy gate section."""
    p = s.to_move
    maps = [trooper_map(p, GATE_SECTION[g], s.bridges, passable(s, p)) for g in ENEMY_GATES[p]]
    return tuple(map(min, *maps))


def _starts(s: State, goal: tuple[int, ...]) -> list[Move]:
    """Single moves worth judging: every gate TNT, attack start and fort capture, the cannon moves towards
    the goal (one landing per section), one escorted move per cannon and section."""
    p = s.to_move
    board = s.board
    enemy = NSEC * (1 - p)
    out: list[Move] = []
    for move in s.legal_moves().simple:
        if isinstance(move, Tnt):
            if move.end < 0:  # a bridge TNT is planned with its walks, by ``_blow_bridges``
                out.append(move)
        elif isinstance(move, CannonMove):
            if _cannon_worth(s, move, goal):
                out.append(move)
        elif isinstance(move, Step):
            sec = SECTION_OF[move.dst]
            if board[move.dst] or (sec >= 0 and sec != SECTION_OF[move.src]
                                   and (s.troops[enemy + sec] or s.cannons[enemy + sec])):
                out.append(move)
    return out + _escorted(s, goal)


def _cannon_worth(s: State, move: CannonMove, goal: tuple[int, ...]) -> bool:
    p = s.to_move
    maps = [cannon_map(p, GATE_SECTION[g], s.bridges, passable(s, p)) for g in ENEMY_GATES[p]]
    if SECTION_OF[move.src] < 0 or SECTION_OF[move.dst] < 0:
        return min(m[move.dst] for m in maps) <= min(m[move.src] for m in maps)
    sec = SECTION_OF[move.dst]
    landing = min((b for b in SECTION_BOXES[sec] if not s.board[b]), key=lambda b: (goal[b], b))
    return move.dst == landing


def _escorted(s: State, goal: tuple[int, ...]) -> list[Move]:
    """One escorted move per cannon and neighbouring section: the cannon and its escorts to the empty
    boxes nearest the goal, the escorts being the two troopers furthest behind (the third stays)."""
    p = s.to_move
    board = s.board
    code = 1 + 2 * p
    out: list[Move] = []
    busy = contested(s)
    legal = s.legal_moves()
    for src in boxes_holding(bytes(board), code + 1):
        sec = SECTION_OF[src]
        if sec < 0 or busy[sec] or s.troops[NSEC * p + sec] < 2:
            continue
        escorts = sorted((b for b in SECTION_BOXES[sec] if board[b] == code), key=lambda b: (-goal[b], b))[:2]
        for t in section_neighbours(sec, s.bridges):
            empties = sorted((b for b in SECTION_BOXES[t] if not board[b]), key=lambda b: (goal[b], b))
            if len(empties) < 3:
                continue
            move = CannonMove(src, empties[0], ((escorts[0], empties[1]), (escorts[1], empties[2])))
            if move in legal:
                out.append(move)
    return out


def _walks(s: State, goal: tuple[int, ...], walks: Walks) -> list[list[Move]]:
    """For the troopers that can gain most: the walk towards the goal ending where the limit leaves
    room, and a short one (two moves at most)."""
    p = s.to_move
    budget = s.budget or 0
    mine = NSEC * p
    full = [s.troops[mine + sec] >= trooper_limit(sec) for sec in range(NSEC)]
    ranked: list[tuple[float, int, dict[int, tuple[int, int]]]] = []
    sources = free_troopers(s)
    for src, prev in zip(sources, walks.reachable_from(s, sources, budget), strict=True):
        home, start = SECTION_OF[src], goal[src]
        top = short = _NONE
        for b, (cost, _) in prev.items():
            gain = start - goal[b]
            if gain <= 0:
                continue
            sec = SECTION_OF[b]
            if sec >= 0 and sec != home and full[sec]:
                continue
            walk_to = (gain, -cost, -b)
            if walk_to > top:
                top = walk_to
            if cost <= 2 and walk_to > short:
                short = walk_to
        for gain, neg_cost, neg_b in (top, short):
            if gain:  # the short one may be the same walk: both are ranked
                ranked.append((gain / -neg_cost, -neg_b, prev))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    return [walk(prev, b) for _, b, prev in ranked[:TOP_WALKS]]


_NONE: Final = (0, 0, 0)


def _play(t: State, moves: list[Move]) -> list[Move]:
    """Apply ``moves`` while they stay legal; the ones played."""
    done = []
    for m in moves:
        try:
            t.apply(m)
        except IllegalMoveError:
            break
        done.append(m)
    return done


def _complete_attack(t: State, sec: int) -> list[Move]:
    """Walk more troopers into the contested ``sec`` until the attack succeeds or no walk fits."""
    played: list[Move] = []
    while t.budget and contested(t)[sec]:
        moves = nearest_walk(t, set(SECTION_BOXES[sec]), t.budget)
        if moves is None:
            break
        done = _play(t, moves)
        played += done
        if len(done) < len(moves):
            break
    return played


def _walk_out(t: State, sec: int, count: int, goal: tuple[int, ...]) -> list[Move]:
    """Walk up to ``count`` of the mover's troopers out of ``sec`` (after laying TNT there), each by the
    cheapest walk to a box outside it."""
    code = 1 + 2 * t.to_move
    played: list[Move] = []
    for b in sorted((b for b in SECTION_BOXES[sec] if t.board[b] == code), key=lambda b: (goal[b], b)):
        if count <= 0 or not t.budget:
            break
        prev = reachable(t, b, t.budget)
        outside = [(cost, goal[d], d) for d, (cost, _) in prev.items() if SECTION_OF[d] != sec]
        if outside:
            played += _play(t, walk(prev, min(outside)[2]))
            count -= 1
    return played
