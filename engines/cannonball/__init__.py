"""Cannon Ball (Helen of Toy, 1968) on our designed battlefield.

Rules: ``shared/rules/cannonball.md`` (I-1..I-10 there). Where the digest leaves a real gap, this engine
chooses as follows (cited as I-n in the modules that apply them):

- I-11: "has laid none yet this march" counts both kinds of TNT: a bridge TNT may not follow a gate TNT
  in the same march (a gate TNT may follow a bridge TNT).
- I-12: an escorted cannon move is one step: the cannon and then its escorts land on boxes empty before
  the move, and the attack test runs once, after all three have entered.
- I-13: among pieces over a limit that did not enter the section this march (captured cannons
  included), the one on the higher box index (row, then column) is removed first.
- I-14: ``from_json`` requires the digest's keys; the engine's own bookkeeping keys may be left out
  (see ``serial.py``).

Notation: ``moves.py``. ``occupancy()`` names ``box:c4`` for an occupied box, ``bridge:b`` for a standing
bridge and ``gate:east`` for a closed gate, each with its owner and count 1 (``LOCATIONS`` lists all 226).
"""

from engines.cannonball.board import BOX_NAMES, GATES, SECTIONS, SIDES, SITES, box
from engines.cannonball.moves import parse
from engines.cannonball.state import LOCATIONS, PLAYERS, State, new_game

__all__ = ["BOX_NAMES", "GATES", "LOCATIONS", "PLAYERS", "SECTIONS", "SIDES", "SITES", "State", "box", "new_game",
           "parse"]
