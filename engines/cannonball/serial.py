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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from engines.base import JsonDict, Move, read_bool, read_choice, read_int, read_object
from engines.cannonball.board import (
    BOX_INDEX,
    BOX_NAMES,
    ENEMY_GATES,
    GATE_INDEX,
    GATE_STATES,
    GATES,
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


class March(NamedTuple):
    """A march's bookkeeping as ``State.start_march`` names it: ``entered``, ``next_seq``, ``laid``,
    ``bridge_tnt``, ``gate_tnt``, ``crossed``."""

    entered: dict[int, int]
    next_seq: int
    laid: bool
    bridge_tnt: int
    gate_tnt: int
    crossed: int


@dataclass
class Fields:
    """A state's stored fields, as ``State.from_json`` gives them to the state it builds: the pieces by box
    (``State.place`` keeps the counts), and the march's bookkeeping when the JSON gives it (``None``: a march
    starts afresh, I-14)."""

    to_move: int
    pieces: dict[int, int]
    gates: list[int]
    bridges: int
    tnt: list[int]
    mines: dict[int, tuple[int, int]]
    winner_index: int | None
    drawn: bool
    turn: int
    turn_limit: int | None
    phase: str
    budget: int | None
    pending: Move | None
    spinoff: int | None
    march: March | None


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


def read(data: Mapping[str, Any]) -> Fields:
    """The fields ``data`` gives, or a ``ValueError`` naming the key at fault."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a Cannon Ball state is a JSON object, got {type(data).__name__}")
    missing, unknown = REQUIRED - set(data), set(data) - REQUIRED - OPTIONAL
    if missing or unknown:
        raise ValueError(f"keys: missing {sorted(missing)}, unknown {sorted(unknown)}")
    if data["game"] != "cannonball":
        raise ValueError(f"game: expected 'cannonball', got {data['game']!r}")
    to_move = _index(data["to_move"], SIDES, "to_move")
    pieces = _read_boxes(data["boxes"], TROOPERS)
    gates = [_index(v, GATE_STATES, f"gates.{g}") for g, v in read_object(data["gates"], "gates", GATES).items()]
    bridges = sum(1 << b for b, (site, v) in enumerate(read_object(data["bridges"], "bridges", SITES).items())
                  if _index(v, ("down", "up"), f"bridges.{site}"))
    tnt = [read_int(n, f"tnt.{side}", 0, TNT_CASES) for side, n in read_object(data["tnt"], "tnt", SIDES).items()]
    mines = _read_mines(data["mines"], bridges, tnt, TNT_CASES)
    winner = data["winner"]
    winner_index = None if winner is None else _index(winner, SIDES, "winner")
    drawn = read_bool(data["drawn"], "drawn")
    if drawn and winner_index is not None:
        raise ValueError("drawn: a drawn game has no winner")
    turn = read_int(data["turn"], "turn", 0)
    limit = data.get("turn_limit")
    turn_limit = None if limit is None else read_int(limit, "turn_limit", 1)
    over = winner_index is not None or drawn
    if turn_limit is not None and turn >= turn_limit and winner_index is None and not drawn:
        raise ValueError(f"turn: {turn} reached turn_limit {turn_limit} but the game is not drawn")
    budget = data["budget"]
    default_phase = "over" if over else "march" if budget is not None else "turn"
    phase = read_choice(data.get("phase", default_phase), PHASES, "phase")
    if (phase == "over") != over:
        raise ValueError(f"phase: {phase!r} but winner is {winner!r} and drawn is {drawn}")
    if budget is not None:
        budget = read_int(budget, "budget", 0, 12)
    if (budget is not None) != (phase == "march"):
        raise ValueError(f"budget: {budget!r} in phase {phase!r} (a number during a march only)")
    pending = _read_pending(data.get("pending"), phase)
    spinoff = _read_spinoff(data.get("spinoff"), phase, to_move)
    march = None
    if data.get("march") is not None:
        if phase != "march":
            raise ValueError(f"march: given in phase {phase!r}")
        march = _read_march(data["march"], to_move, pieces)
    return Fields(to_move, pieces, gates, bridges, tnt, mines, winner_index, drawn, turn, turn_limit, phase, budget,
                  pending, spinoff, march)


def _read_boxes(value: object, troopers: int) -> dict[int, int]:
    """Piece codes by box."""
    if not isinstance(value, Mapping):
        raise ValueError(f"boxes: expected an object of box -> [owner, kind], got {value!r}")
    pieces: dict[int, int] = {}
    for name, entry in value.items():
        if name not in BOX_INDEX:
            raise ValueError(f"boxes: {name!r} is not a box (a1..l19 without row 10)")
        if not (isinstance(entry, list | tuple) and len(entry) == 2):
            raise ValueError(f"boxes.{name}: expected [owner, kind], got {entry!r}")
        side = _index(entry[0], SIDES, f"boxes.{name}")
        kind = _index(entry[1], KINDS, f"boxes.{name}")
        pieces[BOX_INDEX[name]] = 1 + 2 * side + kind
    for side, name in enumerate(SIDES):
        n = sum(1 for c in pieces.values() if c == 1 + 2 * side)
        if n > troopers:
            raise ValueError(f"boxes: {name} has {n} troopers, more than {troopers}")
    n = sum(1 for c in pieces.values() if c in (2, 4))
    if n > 6:
        raise ValueError(f"boxes: {n} cannons, more than the six of the game")
    return pieces


def _read_mines(value: object, bridges: int, tnt: list[int], cases: int) -> dict[int, tuple[int, int]]:
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
        end = _box(entry["end"])
        if end is None or end not in SITE_ENDS[b]:
            raise ValueError(f"mines.{site}.end: expected an end box of bridge {site}, got {entry['end']!r}")
        if not bridges >> b & 1:
            raise ValueError(f"mines.{site}: TNT lies on a bridge that is down")
        if any(o == owner for o, _ in mines.values()):
            raise ValueError(f"mines: {SIDES[owner]} has two TNT cases on bridges (one is shot the next turn)")
        if tnt[owner] + 1 > cases:
            raise ValueError(f"mines.{site}: {SIDES[owner]} would have more than {cases} TNT cases")
        mines[b] = (owner, end)
    return mines


def _read_pending(value: object, phase: str) -> Move | None:
    if (value is not None) != (phase == "spin"):
        raise ValueError(f"pending: {value!r} in phase {phase!r} (a spin waits for a march or an action)")
    if value is None:
        return None
    move = parse(value) if isinstance(value, str) else None
    if move is not MARCH and not isinstance(move, Action):
        raise ValueError(f"pending: expected 'march' or an odd/even action, got {value!r}")
    return move


def _read_spinoff(value: object, phase: str, to_move: int) -> int | None:
    if value is None:
        if phase == "spin-off" and to_move != 0:
            raise ValueError("spinoff: gray spins only after blue's number is recorded")
        return None
    if phase != "spin-off" or not (isinstance(value, Mapping) and set(value) == {"blue"}):
        raise ValueError(f"spinoff: expected {{\"blue\": n}} during the spin-off only, got {value!r}")
    if to_move != 1:
        raise ValueError("spinoff: blue has spun, so gray is to move")
    return read_int(value["blue"], "spinoff.blue", 1, 12)


def _read_march(value: object, p: int, pieces: dict[int, int]) -> March:
    """The march's bookkeeping; ``p`` is the mover, ``pieces`` the piece codes by box."""
    if not (isinstance(value, Mapping) and set(value) == MARCH_KEYS):
        raise ValueError(f"march: expected the keys {sorted(MARCH_KEYS)}, got {value!r}")
    next_seq = read_int(value["next"], "march.next", 0)
    entered: dict[int, int] = {}
    names = value["entered"]
    if not isinstance(names, Mapping):
        raise ValueError(f"march.entered: expected an object of box -> order, got {names!r}")
    for name, seq in names.items():
        b = _box(name)
        if b is None or SECTION_OF[b] < 0 or not pieces.get(b) or (pieces[b] - 1) >> 1 != p:
            raise ValueError(f"march.entered: {name!r} is not a box of a section holding a piece of the mover")
        entered[b] = read_int(seq, f"march.entered.{name}", 0, next_seq - 1)
    if len(set(entered.values())) != len(entered):
        raise ValueError("march.entered: two pieces with the same entry order")
    laid = read_bool(value["tnt_laid"], "march.tnt_laid")
    tnt_end = _box(value["bridge_tnt"])
    if value["bridge_tnt"] is not None and (tnt_end is None or SITE_OF_END[tnt_end] < 0 or not laid):
        raise ValueError(f"march.bridge_tnt: expected the end box of a bridge TNT laid this march, "
                         f"got {value['bridge_tnt']!r}")
    gates = value["gate_tnt"]
    if not isinstance(gates, list) or any(g not in GATE_INDEX or GATE_INDEX[g] not in ENEMY_GATES[p] for g in gates):
        raise ValueError(f"march.gate_tnt: expected a list of the opponent's gates, got {gates!r}")
    gate_tnt = sum(1 << GATE_INDEX[g] for g in set(gates))
    if gate_tnt and not laid:
        raise ValueError("march.tnt_laid: false although TNT lies under a gate")
    landed = _box(value["crossed"])
    if value["crossed"] is not None and (landed is None or SITE_OF_END[landed] < 0 or pieces.get(landed) != 1 + 2 * p):
        raise ValueError(f"march.crossed: expected the end box where the mover's trooper landed, "
                         f"got {value['crossed']!r}")
    return March(entered, next_seq, laid, -1 if tnt_end is None else tnt_end, gate_tnt,
                 -1 if landed is None else landed)


def _box(value: object) -> int | None:
    """The box a JSON value names (``"c4"``), or ``None``."""
    return BOX_INDEX.get(value) if isinstance(value, str) else None


def _index(value: object, options: tuple[str, ...], key: str) -> int:
    """The position in ``options`` of the name ``value``: the state keeps sides, gate states and kinds by index."""
    return options.index(read_choice(value, options, key))
