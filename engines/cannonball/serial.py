"""``State.to_json`` and the strict reader behind ``State.from_json``.

The digest's keys (``game``, ``to_move``, ``budget``, ``boxes``, ``gates``, ``bridges``, ``tnt``,
``mines``, ``winner``, ``drawn``, ``turn``) are required. The engine's own keys (``phase``, ``pending``,
``spinoff``, ``march``, ``turn_limit``) may be left out of a hand-made position (I-14): the phase is then
inferred (over with a winner or a draw, a march with a budget, else a turn choice) and a march starts
with nothing entered, no TNT laid and no crossing. Anything else is checked and named on error:
journals can be hand-edited or torn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from engines.base import JsonDict, read_bool, read_choice, read_int, read_object
from engines.cannonball.board import (
    BOX_INDEX,
    BOX_NAMES,
    ENEMY_GATES,
    GATE_INDEX,
    GATE_STATES,
    GATES,
    NSEC,
    PHASES,
    SECTION_OF,
    SIDES,
    SITE_ENDS,
    SITE_INDEX,
    SITE_OF_END,
    SITES,
    TNT_CASES,
    TROOPERS,
)
from engines.cannonball.moves import MARCH, Action, parse

if TYPE_CHECKING:
    from engines.cannonball.state import State

KINDS: Final = ("trooper", "cannon")
REQUIRED: Final = frozenset({"game", "to_move", "budget", "boxes", "gates", "bridges", "tnt", "mines", "winner",
                             "drawn", "turn"})
OPTIONAL: Final = frozenset({"phase", "pending", "spinoff", "march", "turn_limit"})
MARCH_KEYS: Final = frozenset({"entered", "next", "tnt_laid", "bridge_tnt", "gate_tnt", "crossed"})


def to_json(s: State) -> JsonDict:
    marching = s.phase == "march"
    return {
        "game": s.game,
        "phase": s.phase,
        "to_move": SIDES[s.to_move],
        "budget": s.budget,
        "pending": None if s.pending is None else str(s.pending),
        "spinoff": None if s.spinoff is None else {"blue": s.spinoff},
        "boxes": {BOX_NAMES[i]: [SIDES[(c - 1) >> 1], KINDS[1 - (c & 1)]] for i, c in enumerate(s.board) if c},
        "gates": {g: GATE_STATES[s.gates[i]] for i, g in enumerate(GATES)},
        "bridges": {site: "up" if s.bridges >> b & 1 else "down" for b, site in enumerate(SITES)},
        "tnt": {side: s.tnt[i] for i, side in enumerate(SIDES)},
        "mines": {SITES[b]: {"owner": SIDES[o], "end": BOX_NAMES[e]} for b, (o, e) in sorted(s.mines.items())},
        "march": {
            "entered": {BOX_NAMES[b]: seq for b, seq in sorted(s.entered.items())},
            "next": s.next_seq,
            "tnt_laid": s.laid,
            "bridge_tnt": None if s.bridge_tnt < 0 else BOX_NAMES[s.bridge_tnt],
            "gate_tnt": [g for i, g in enumerate(GATES) if s.gate_tnt >> i & 1],
            "crossed": None if s.crossed < 0 else BOX_NAMES[s.crossed],
        } if marching else None,
        "winner": s.winner,
        "drawn": s.drawn,
        "turn": s.turn,
        "turn_limit": s.turn_limit,
    }


def read_into(s: State, data: Mapping[str, Any]) -> None:
    """Fill the blank state ``s`` from ``data`` or raise ``ValueError`` naming the key at fault."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a Cannon Ball state is a JSON object, got {type(data).__name__}")
    missing, unknown = REQUIRED - set(data), set(data) - REQUIRED - OPTIONAL
    if missing or unknown:
        raise ValueError(f"keys: missing {sorted(missing)}, unknown {sorted(unknown)}")
    if data["game"] != "cannonball":
        raise ValueError(f"game: expected 'cannonball', got {data['game']!r}")
    s.to_move = _index(data["to_move"], SIDES, "to_move")
    s.board = [0] * len(BOX_NAMES)
    s.troops = [0] * (2 * NSEC)
    s.cannons = [0] * (2 * NSEC)
    s.start_march(None)
    _read_boxes(s, data["boxes"], TROOPERS)
    s.gates = [_index(v, GATE_STATES, f"gates.{g}") for g, v in read_object(data["gates"], "gates", GATES).items()]
    s.bridges = sum(1 << b for b, (site, v) in enumerate(read_object(data["bridges"], "bridges", SITES).items())
                    if _index(v, ("down", "up"), f"bridges.{site}"))
    s.tnt = [read_int(n, f"tnt.{side}", 0, TNT_CASES) for side, n in read_object(data["tnt"], "tnt", SIDES).items()]
    s.mines = _read_mines(s, data["mines"], TNT_CASES)
    winner = data["winner"]
    s.winner_index = None if winner is None else _index(winner, SIDES, "winner")
    s.drawn = read_bool(data["drawn"], "drawn")
    if s.drawn and s.winner_index is not None:
        raise ValueError("drawn: a drawn game has no winner")
    s.turn = read_int(data["turn"], "turn", 0)
    limit = data.get("turn_limit")
    s.turn_limit = None if limit is None else read_int(limit, "turn_limit", 1)
    over = s.winner_index is not None or s.drawn
    if s.turn_limit is not None and s.turn >= s.turn_limit and s.winner_index is None and not s.drawn:
        raise ValueError(f"turn: {s.turn} reached turn_limit {s.turn_limit} but the game is not drawn")
    budget = data["budget"]
    default_phase = "over" if over else "march" if budget is not None else "turn"
    phase = data.get("phase", default_phase)
    s.phase = read_choice(phase, PHASES, "phase")
    if (s.phase == "over") != over:
        raise ValueError(f"phase: {s.phase!r} but winner is {winner!r} and drawn is {s.drawn}")
    s.budget = None if budget is None else read_int(budget, "budget", 0, 12)
    if (s.budget is not None) != (s.phase == "march"):
        raise ValueError(f"budget: {budget!r} in phase {s.phase!r} (a number during a march only)")
    _read_pending(s, data.get("pending"))
    _read_spinoff(s, data.get("spinoff"))
    if data.get("march") is not None:
        if s.phase != "march":
            raise ValueError(f"march: given in phase {s.phase!r}")
        _read_march(s, data["march"])


def _read_boxes(s: State, value: object, troopers: int) -> None:
    if not isinstance(value, Mapping):
        raise ValueError(f"boxes: expected an object of box -> [owner, kind], got {value!r}")
    for name, entry in value.items():
        if name not in BOX_INDEX:
            raise ValueError(f"boxes: {name!r} is not a box (a1..l19 without row 10)")
        if not (isinstance(entry, list | tuple) and len(entry) == 2):
            raise ValueError(f"boxes.{name}: expected [owner, kind], got {entry!r}")
        side = _index(entry[0], SIDES, f"boxes.{name}")
        kind = _index(entry[1], KINDS, f"boxes.{name}")
        s.place(BOX_INDEX[name], 1 + 2 * side + kind)
    for side, name in enumerate(SIDES):
        n = sum(1 for c in s.board if c == 1 + 2 * side)
        if n > troopers:
            raise ValueError(f"boxes: {name} has {n} troopers, more than {troopers}")
    n = sum(1 for c in s.board if c in (2, 4))
    if n > 6:
        raise ValueError(f"boxes: {n} cannons, more than the six of the game")


def _read_mines(s: State, value: object, cases: int) -> dict[int, tuple[int, int]]:
    if not isinstance(value, Mapping):
        raise ValueError(f"mines: expected an object of site -> {{owner, end}}, got {value!r}")
    mines: dict[int, tuple[int, int]] = {}
    for site, entry in value.items():
        if site not in SITE_INDEX:
            raise ValueError(f"mines: {site!r} is not a bridge site ({', '.join(SITES)})")
        b = SITE_INDEX[site]
        if not (isinstance(entry, Mapping) and set(entry) == {"owner", "end"}):
            raise ValueError(f"mines.{site}: expected {{\"owner\", \"end\"}}, got {entry!r}")
        owner = _index(entry["owner"], SIDES, f"mines.{site}.owner")
        end = BOX_INDEX.get(entry["end"]) if isinstance(entry["end"], str) else None
        if end is None or end not in SITE_ENDS[b]:
            raise ValueError(f"mines.{site}.end: expected an end box of bridge {site}, got {entry['end']!r}")
        if not s.bridges >> b & 1:
            raise ValueError(f"mines.{site}: TNT lies on a bridge that is down")
        if any(o == owner for o, _ in mines.values()):
            raise ValueError(f"mines: {SIDES[owner]} has two TNT cases on bridges (one is shot the next turn)")
        if s.tnt[owner] + 1 > cases:
            raise ValueError(f"mines.{site}: {SIDES[owner]} would have more than {cases} TNT cases")
        mines[b] = (owner, end)
    return mines


def _read_pending(s: State, value: object) -> None:
    if (value is not None) != (s.phase == "spin"):
        raise ValueError(f"pending: {value!r} in phase {s.phase!r} (a spin waits for a march or an action)")
    s.pending = None
    if value is not None:
        move = parse(value) if isinstance(value, str) else None
        if move is not MARCH and not isinstance(move, Action):
            raise ValueError(f"pending: expected 'march' or an odd/even action, got {value!r}")
        s.pending = move


def _read_spinoff(s: State, value: object) -> None:
    s.spinoff = None
    if value is None:
        if s.phase == "spin-off" and s.to_move != 0:
            raise ValueError("spinoff: gray spins only after blue's number is recorded")
        return
    if s.phase != "spin-off" or not (isinstance(value, Mapping) and set(value) == {"blue"}):
        raise ValueError(f"spinoff: expected {{\"blue\": n}} during the spin-off only, got {value!r}")
    if s.to_move != 1:
        raise ValueError("spinoff: blue has spun, so gray is to move")
    s.spinoff = read_int(value["blue"], "spinoff.blue", 1, 12)


def _read_march(s: State, value: object) -> None:
    if not (isinstance(value, Mapping) and set(value) == MARCH_KEYS):
        raise ValueError(f"march: expected the keys {sorted(MARCH_KEYS)}, got {value!r}")
    p = s.to_move
    s.next_seq = read_int(value["next"], "march.next", 0)
    entered = value["entered"]
    if not isinstance(entered, Mapping):
        raise ValueError(f"march.entered: expected an object of box -> order, got {entered!r}")
    for name, seq in entered.items():
        b = BOX_INDEX.get(name)
        if b is None or SECTION_OF[b] < 0 or not s.board[b] or (s.board[b] - 1) >> 1 != p:
            raise ValueError(f"march.entered: {name!r} is not a box of a section holding a piece of the mover")
        s.entered[b] = read_int(seq, f"march.entered.{name}", 0, s.next_seq - 1)
    if len(set(s.entered.values())) != len(s.entered):
        raise ValueError("march.entered: two pieces with the same entry order")
    s.laid = read_bool(value["tnt_laid"], "march.tnt_laid")
    tnt_end = value["bridge_tnt"]
    if tnt_end is not None:
        end = BOX_INDEX.get(tnt_end) if isinstance(tnt_end, str) else None
        if end is None or SITE_OF_END[end] < 0 or not s.laid:
            raise ValueError(f"march.bridge_tnt: expected the end box of a bridge TNT laid this march, got {tnt_end!r}")
        s.bridge_tnt = end
    gates = value["gate_tnt"]
    if not isinstance(gates, list) or any(g not in GATE_INDEX or GATE_INDEX[g] not in ENEMY_GATES[p] for g in gates):
        raise ValueError(f"march.gate_tnt: expected a list of the opponent's gates, got {gates!r}")
    s.gate_tnt = sum(1 << GATE_INDEX[g] for g in set(gates))
    if s.gate_tnt and not s.laid:
        raise ValueError("march.tnt_laid: false although TNT lies under a gate")
    crossed = value["crossed"]
    if crossed is not None:
        b = BOX_INDEX.get(crossed) if isinstance(crossed, str) else None
        if b is None or SITE_OF_END[b] < 0 or s.board[b] != 1 + 2 * p:
            raise ValueError(f"march.crossed: expected the end box where the mover's trooper landed, got {crossed!r}")
        s.crossed = b


def _index(value: object, options: tuple[str, ...], key: str) -> int:
    """The position in ``options`` of the name ``value``: the state keeps sides, gate states and kinds by index."""
    return options.index(read_choice(value, options, key))
