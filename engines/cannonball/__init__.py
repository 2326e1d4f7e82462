"""Cannon Ball (Helen of Toy, 1968) on our designed battlefield.

Rules: ``docs/rules/cannonball.md`` (I-1..I-10 there). Where the digest leaves a real gap, this engine
chooses as follows (cited as I-n in the modules that apply them):

- I-11: "has laid none yet this march" counts both kinds of TNT: a bridge TNT may not follow a gate TNT
  in the same march (a gate TNT may follow a bridge TNT, one per gate).
- I-12: an escorted cannon move is one step: the cannon and then its escorts land on boxes that were
  empty before the move, and the attack test runs once, after all three have entered.
- I-13: among pieces over a limit that did not enter the section this march (captured cannons
  included), the one on the higher box index (row, then column) is removed first.
- I-14: ``from_json`` requires the digest's keys; the engine's own keys (``phase``, ``pending``,
  ``spinoff``, ``march``, ``turn_limit``) may be left out, see ``serial.py``.
- I-15: ``to_move`` names the spinner during the spin-off, the mover during his turn and his spins, and
  once the game is over the side whose turn ended it.
- I-16: ``occupancy()``: ``box:c4`` for an occupied box, ``bridge:b`` while that bridge stands (its
  magnet; owner per I-2), ``gate:east`` while that gate is closed (it stands in its slot; open and
  destroyed gates are off the board); count 1 each. ``LOCATIONS`` lists all 226.
- I-17: ``blew <site>`` is a legal move right after a crossing (the table must be able to match a bridge
  that vanished), so it is in ``legal_moves()``; the bots' candidates never offer it.
- I-18: the attack test counts all the mover's pieces in the section (whether or not they entered this
  march); TNT may be laid on a bridge end in a contested section (the digest names no such bar); a storm
  may be called on an open gate too (the digest only bars a destroyed one).
- I-19: a gate turn toggles: ``close`` an open gate, ``open`` a closed one. A drawn game returns 0.5 to
  each side.

Notation: ``moves.py``. Bots' hooks: ``heuristic.py`` (evaluation, candidates) over ``planner.py``.
"""

from engines.cannonball.board import BOX_NAMES, GATES, SECTIONS, SIDES, SITES, box
from engines.cannonball.moves import parse
from engines.cannonball.state import LOCATIONS, PLAYERS, State, new_game

__all__ = ["BOX_NAMES", "GATES", "LOCATIONS", "PLAYERS", "SECTIONS", "SIDES", "SITES", "State", "box", "new_game",
           "parse"]
