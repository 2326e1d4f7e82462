"""Cannon Ball moves and their notation (``docs/rules/cannonball.md``, "Notation").

=========================  ===============================================================
``spin blue 7``            spin-off outcome (chance); ``spin 7`` any other spin (chance)
``march``                  choose a march (the spin follows)
``c3-d4``                  trooper step, a fort capture included
``b9=b11``                 bridge crossing (2 moves)
``C d4-g6``                cannon move: a fort step, a gate step, or a passed section move
``C d4-g6 +d5-g5 +e4-h6``  escorted cannon move; the escorts enter in the order written
``tnt b9`` / ``tnt gate west``  TNT on the b9 end of bridge b / under the west gate
``end``                    end the march
``open east``              open or close one of the mover's gates (the whole turn)
``shoot b odd``            odd/even action (``shoot``, ``rebuild``, ``storm``) and the call
``blew b``                 the bridge a trooper just crossed blew up (reported by players only)
=========================  ===============================================================

Moves are small immutable value objects; the frequent ones (steps, crossings, plain cannon moves) are
interned so move generation allocates nothing and membership tests hit the identity fast path.
"""

from __future__ import annotations

import re
from typing import Final

from engines.base import InvalidMoveError, Move
from engines.cannonball.board import BOX_INDEX, BOX_NAMES, GATE_INDEX, GATES, SIDES, SITE_ENDS, SITE_INDEX, SITES


class _Value(Move):
    """A move compared and hashed by its fields (``_fields()``), set once by its constructor.

    The hash is computed once (``_seal``): legality checks put every legal move of a position in a set.
    """

    __slots__ = ("_hash",)

    _hash: int

    def _fields(self) -> tuple[object, ...]:
        raise NotImplementedError

    def _seal(self) -> None:
        object.__setattr__(self, "_hash", hash((type(self).__name__, self._fields())))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Value) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return self._hash


class Spin(_Value):
    """A spinner outcome 1..12; ``side`` names the spinner during the spin-off, else ``None``."""

    __slots__ = ("number", "side")

    number: int
    side: int | None

    def __init__(self, number: int, side: int | None = None) -> None:
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "side", side)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.number, self.side)

    def __str__(self) -> str:
        return f"spin {self.number}" if self.side is None else f"spin {SIDES[self.side]} {self.number}"


class Word(_Value):
    """A decision spelled by one word: ``march`` and ``end``."""

    __slots__ = ("word",)

    word: str

    def __init__(self, word: str) -> None:
        object.__setattr__(self, "word", word)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.word,)

    def __str__(self) -> str:
        return self.word


class Step(_Value):
    """A trooper step to a neighbouring box (into an enemy's box only inside a fort: a capture)."""

    __slots__ = ("dst", "src")

    src: int
    dst: int

    def __init__(self, src: int, dst: int) -> None:
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "dst", dst)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.src, self.dst)

    def __str__(self) -> str:
        return f"{BOX_NAMES[self.src]}-{BOX_NAMES[self.dst]}"


class Cross(Step):
    """A trooper crossing a bridge from one end box to the other (costs 2)."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{BOX_NAMES[self.src]}={BOX_NAMES[self.dst]}"


class CannonMove(_Value):
    """A cannon move; ``escorts`` are the two (from, to) trooper moves of an escorted move, else empty."""

    __slots__ = ("dst", "escorts", "src")

    src: int
    dst: int
    escorts: tuple[tuple[int, int], ...]

    def __init__(self, src: int, dst: int, escorts: tuple[tuple[int, int], ...] = ()) -> None:
        object.__setattr__(self, "src", src)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "escorts", escorts)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.src, self.dst, self.escorts)

    def __str__(self) -> str:
        text = f"C {BOX_NAMES[self.src]}-{BOX_NAMES[self.dst]}"
        return text + "".join(f" +{BOX_NAMES[a]}-{BOX_NAMES[b]}" for a, b in self.escorts)


class Tnt(_Value):
    """TNT laid on the end box ``end`` of a bridge, or (``end`` = -1) under the gate ``gate``."""

    __slots__ = ("end", "gate")

    end: int
    gate: int

    def __init__(self, end: int = -1, gate: int = -1) -> None:
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "gate", gate)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.end, self.gate)

    def __str__(self) -> str:
        return f"tnt gate {GATES[self.gate]}" if self.end < 0 else f"tnt {BOX_NAMES[self.end]}"


class GateMove(_Value):
    """Opening or closing one of the mover's gates: a whole turn."""

    __slots__ = ("close", "gate")

    close: bool
    gate: int

    def __init__(self, close: bool, gate: int) -> None:
        object.__setattr__(self, "close", close)
        object.__setattr__(self, "gate", gate)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.close, self.gate)

    def __str__(self) -> str:
        return f"{'close' if self.close else 'open'} {GATES[self.gate]}"


SHOOT: Final = "shoot"
REBUILD: Final = "rebuild"
STORM: Final = "storm"


class Action(_Value):
    """An odd/even action with its call; ``target`` is a site index (shoot, rebuild) or a gate (storm)."""

    __slots__ = ("kind", "odd", "target")

    kind: str
    target: int
    odd: bool

    def __init__(self, kind: str, target: int, odd: bool) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "odd", odd)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.kind, self.target, self.odd)

    def matches(self, number: int) -> bool:
        """The call matches when the spun number's parity equals it."""
        return (number % 2 == 1) == self.odd

    def __str__(self) -> str:
        name = GATES[self.target] if self.kind == STORM else SITES[self.target]
        return f"{self.kind} {name} {'odd' if self.odd else 'even'}"


class Blew(_Value):
    """The bridge at ``site`` blew up under the trooper that just crossed it."""

    __slots__ = ("site",)

    site: int

    def __init__(self, site: int) -> None:
        object.__setattr__(self, "site", site)
        self._seal()

    def _fields(self) -> tuple[object, ...]:
        return (self.site,)

    def __str__(self) -> str:
        return f"blew {SITES[self.site]}"


MARCH: Final = Word("march")
END: Final = Word("end")
SPINS: Final = tuple(Spin(n) for n in range(1, 13))
SPIN_OFF: Final = tuple(tuple(Spin(n, side) for n in range(1, 13)) for side in range(2))
BLEWS: Final = tuple(Blew(b) for b in range(len(SITES)))
_STEPS: dict[tuple[int, int], Step] = {}
_CANNON: dict[tuple[int, int], CannonMove] = {}


def step(src: int, dst: int) -> Step:
    """The shared trooper step object (crossings are ``Cross``)."""
    move = _STEPS.get((src, dst))
    if move is None:
        move = _STEPS[(src, dst)] = Step(src, dst)
    return move


def cannon(src: int, dst: int) -> CannonMove:
    """The shared escort-free cannon move object."""
    move = _CANNON.get((src, dst))
    if move is None:
        move = _CANNON[(src, dst)] = CannonMove(src, dst)
    return move


CROSSES: Final = {(a, b): Cross(a, b) for ends in SITE_ENDS for a, b in (ends, ends[::-1])}

_BOX = r"[a-l](?:1[1-9]|[1-9])"
_PATTERN = re.compile(
    rf"""\s*(?:
        spin\s+(?:(?P<side>blue|gray)\s+)?(?P<spin>\d{{1,2}})
      | (?P<word>march|end)
      | (?P<cannon>C\s+)?(?P<src>{_BOX})\s*(?P<sep>[-=])\s*(?P<dst>{_BOX})
            (?P<escorts>(?:\s*\+\s*{_BOX}\s*-\s*{_BOX})*)
      | tnt\s+(?:gate\s+(?P<tnt_gate>\w+)|(?P<tnt_end>{_BOX}))
      | (?P<gate_verb>open|close)\s+(?P<gate>\w+)
      | (?P<action>shoot|rebuild|storm)\s+(?P<target>\w+)\s+(?P<call>odd|even)
      | blew\s+(?P<blew>\w+)
    )\s*""",
    re.VERBOSE,
)
_ESCORT = re.compile(rf"\+\s*({_BOX})\s*-\s*({_BOX})")


def parse(text: str) -> Move:
    """Turn notation into a move; ``InvalidMoveError`` names what is wrong with the text."""
    m = _PATTERN.fullmatch(text)
    if m is None:
        raise InvalidMoveError(f"not Cannon Ball notation: {text!r} (e.g. march, c3-d4, b9=b11, C d4-g6, "
                               "tnt b9, end, open east, shoot b odd, spin 7)")
    if m["spin"] is not None:
        number = int(m["spin"])
        if not 1 <= number <= 12:
            raise InvalidMoveError(f"the spinner shows 1 to 12: {text!r}")
        return SPINS[number - 1] if m["side"] is None else SPIN_OFF[SIDES.index(m["side"])][number - 1]
    if m["word"] is not None:
        return MARCH if m["word"] == "march" else END
    if m["src"] is not None:
        return _parse_piece_move(m, text)
    if m["tnt_end"] is not None:
        end = _box(m["tnt_end"], text)
        if not any(end in ends for ends in SITE_ENDS):
            raise InvalidMoveError(f"{m['tnt_end']} is not the end box of a bridge: {text!r}")
        return Tnt(end=end)
    if m["tnt_gate"] is not None:
        return Tnt(gate=_gate(m["tnt_gate"], text))
    if m["gate"] is not None:
        return GateMove(m["gate_verb"] == "close", _gate(m["gate"], text))
    if m["action"] is not None:
        kind = m["action"]
        target = _gate(m["target"], text) if kind == STORM else _site(m["target"], text)
        return Action(kind, target, m["call"] == "odd")
    return BLEWS[_site(m["blew"], text)]


def _parse_piece_move(m: re.Match[str], text: str) -> Move:
    src, dst = _box(m["src"], text), _box(m["dst"], text)
    if src == dst:
        raise InvalidMoveError(f"a move must change box: {text!r}")
    escorts = tuple((_box(a, text), _box(b, text)) for a, b in _ESCORT.findall(m["escorts"]))
    if m["sep"] == "=":
        if m["cannon"] or escorts or (src, dst) not in CROSSES:
            raise InvalidMoveError(f"a crossing joins the two end boxes of one bridge: {text!r}")
        return CROSSES[(src, dst)]
    if not m["cannon"]:
        if escorts:
            raise InvalidMoveError(f"only a cannon has escorts (write C before it): {text!r}")
        return step(src, dst)
    if escorts and len(escorts) != 2:
        raise InvalidMoveError(f"an escorted cannon has exactly two escorts: {text!r}")
    boxes = [src, dst, *(b for pair in escorts for b in pair)]
    if len(set(boxes)) != len(boxes):
        raise InvalidMoveError(f"a cannon move names each box once: {text!r}")
    return CannonMove(src, dst, escorts) if escorts else cannon(src, dst)


def _box(name: str, text: str) -> int:
    try:
        return BOX_INDEX[name]
    except KeyError:
        raise InvalidMoveError(f"no box {name} (columns a-l, rows 1-19 without the river row 10): {text!r}") from None


def _gate(name: str, text: str) -> int:
    try:
        return GATE_INDEX[name]
    except KeyError:
        raise InvalidMoveError(f"no gate {name!r} (gates: {', '.join(GATES)}): {text!r}") from None


def _site(name: str, text: str) -> int:
    try:
        return SITE_INDEX[name]
    except KeyError:
        raise InvalidMoveError(f"no bridge site {name!r} (sites: {', '.join(SITES)}): {text!r}") from None
