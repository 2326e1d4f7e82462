"""The bots' hooks for Cannon Ball: a position evaluation and the candidate moves to search.

``evaluate`` is zero-sum and in trooper-ish units (a trooper 8, a cannon 30, a win 1000). It is built
around the race the rules set: the chance that the side to move wins with its next turn (a formation
reaching an open gate, five troopers with TNT at a closed one, a storm), discounted by the other side's
chance right after; then how close each side's best formation is, material, the exposure of pieces to
an attack the enemy can make next, home guards against a deserted fort, and the tempo of moving next.
A state waiting for a spin is judged by its outcomes (odd/even actions) or as its mover's turn (a
march); a state in mid-march as if the march ended now, since that is what its pieces would face.

``candidates`` keeps searches affordable: a march offers thousands of step sequences (escorted cannons
alone multiply into thousands of moves), so bots get the next move of the march planner
(``planner.py``) and ``end``; at a turn choice, every choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engines.base import Move
from engines.cannonball.board import ENEMY_GATES, OPEN
from engines.cannonball.features import crossing_column, exposure, measure, win_chance
from engines.cannonball.moves import END, SPINS, Action
from engines.cannonball.planner import next_move
from engines.cannonball.state import MARCHING, OVER, SPIN, SPIN_OFF_PHASE, TURN, State

WIN: Final = 1000.0
TROOPER: Final = 8.0
CANNON: Final = 30.0
TNT_CASE: Final = 1.0
SHAPE: Final = 160.0
PROGRESS: Final = 0.3
RACE: Final = 700.0
REPLY: Final = 0.7  # how much of the next side's winning chance survives the mover's turn
TEMPO: Final = 6.0
HOME_SHORT: Final = (80.0, 25.0, 6.0, 0.0)  # penalty for 0, 1, 2, 3+ troopers guarding the fort
EXPOSED_MOVER: Final = 0.3  # the mover can still save exposed pieces
EXPOSED_WAITING: Final = 0.8  # pieces of the side that just moved are at the enemy's mercy
STOPPED: Final = 0.5  # troopers' worth a TNT not yet shot takes from each trooper of the column it stops


def evaluate(state: State, player: str) -> float:
    """How good ``state`` is for ``player`` (positive: better than for the opponent)."""
    if state.phase == OVER:
        return 0.0 if state.winner is None else WIN if state.winner == player else -WIN
    if state.phase == SPIN and isinstance(state.pending, Action):
        return sum(evaluate(_after(state, spin), player) for spin in SPINS[:2]) / 2
    if state.phase == MARCHING:
        return evaluate(_after(state, END), player)
    if state.phase == SPIN_OFF_PHASE:
        return 0.0
    if state.mines:
        site = min(state.mines)
        shots = (evaluate(_shot(state, site, True), player) + evaluate(_shot(state, site, False), player)) / 2
        return shots + _stopped(state, site, player)
    value = _mover_value(state)
    return value if player == state.players[state.to_move] else -value


def _after(state: State, move: Move) -> State:
    after = state.clone()
    after.apply(move)
    return after


def _shot(state: State, site: int, hit: bool) -> State:
    """The position once the TNT on ``site`` is shot, with the turn left as it is."""
    out = state.clone()
    out.shoot(site, hit)
    return out


def _stopped(state: State, site: int, player: str) -> float:
    """What the TNT on ``site`` is worth before its shot beyond the shot itself, while the enemy of its
    owner is still to march: every trooper of the column it stops (``crossing_column``) either crosses
    into the end the shot blows, or waits a turn. Once the enemy has marched the shot's outcomes say it
    all, so the TNT's owner to move (about to shoot) gets nothing here."""
    owner, end = state.mines[site]
    if owner == state.to_move:
        return 0.0
    value = TROOPER * STOPPED * crossing_column(state, owner, site, end)
    return value if player == state.players[owner] else -value


def _mover_value(s: State) -> float:
    """The value for the side to move at a turn choice or a march spin, kept by position: a bot meets the
    same position again and again (a march planner ends many marches alike, a search judges the plans'
    ends the planner judged, and a spun number's march the other numbers' marches)."""
    key = s.key()
    value = _JUDGED.get(key)
    if value is None:
        if len(_JUDGED) >= JUDGED_LIMIT:
            _JUDGED.clear()
        value = _JUDGED[key] = _judge(s)
    return value


JUDGED_LIMIT: Final = 8192
_JUDGED: dict[tuple[object, ...], float] = {}


def _judge(s: State) -> float:
    """``_mover_value`` worked out: both sides measured."""
    assert s.phase in (TURN, SPIN)
    x = s.to_move
    y = 1 - x
    mx, my = measure(s, x), measure(s, y)
    wx, wy = win_chance(s, x, mx), win_chance(s, y, my)
    race = RACE * (wx - (1 - wx) * REPLY * wy)
    static = _side_value(s, x, mx.need, mx.progress, mx.home, len(mx.troopers), len(mx.cannons)) \
        - _side_value(s, y, my.need, my.progress, my.home, len(my.troopers), len(my.cannons))
    exposed = TROOPER * (EXPOSED_WAITING * exposure(s, y) - EXPOSED_MOVER * exposure(s, x))
    return race + static + exposed + TEMPO


def _side_value(s: State, side: int, need: tuple[int, ...], progress: int, home: int, troopers: int,
                cannons: int) -> float:
    shape = 0.0
    for i, g in enumerate(ENEMY_GATES[side]):
        n = need[i] + (0 if s.gates[g] == OPEN else 2)
        shape = max(shape, 1.0 / (1.0 + (n / 8.0) ** 2))
    return (TROOPER * troopers + CANNON * cannons + TNT_CASE * s.tnt[side] + SHAPE * shape - PROGRESS * progress
            - HOME_SHORT[min(home, 3)])


def candidates(state: State) -> Sequence[Move]:
    """The planner's next move and ``end`` in a march; every choice at a turn choice."""
    if state.phase != MARCHING:
        return state.legal_moves()
    move = next_move(state, evaluate)
    return [move] if move is END else [move, END]
