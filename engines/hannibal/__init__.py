"""Hannibal (Parker Brothers, 1974): a two-player dice race with camps, stacks and sending.

Rules: ``docs/rules/hannibal.md`` (interpretations I-1..I-5 cited in ``state.py``).
``occupancy()`` names locations ``"pos:0"`` .. ``"pos:48"``.
"""

from engines.hannibal.legal import CAMPS
from engines.hannibal.moves import Roll, Step, parse
from engines.hannibal.state import LOCATIONS, PIECES, PLAYERS, State, is_camp, location, new_game

__all__ = ["CAMPS", "LOCATIONS", "PIECES", "PLAYERS", "Roll", "State", "Step", "is_camp", "location", "new_game",
           "parse"]
