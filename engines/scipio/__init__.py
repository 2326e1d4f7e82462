"""Scipio: Sworn Enemy of Hannibal -- command cards, formations, New Orders.

Rules: ``docs/rules/scipio.md`` (interpretations I-1..I-7 cited where used). Notation: ``moves.py``.
``occupancy()`` names locations ``"rome:yellow.0"`` .. ``"carthage:green.1"``.
"""

from engines.scipio.moves import Order, parse
from engines.scipio.rules import ARMIES, CARDS, DEFAULT_ORGANISATION, FIELDS, FORMATIONS, damage_plan
from engines.scipio.state import LOCATIONS, PLAYERS, State, location, new_game

__all__ = ["ARMIES", "CARDS", "DEFAULT_ORGANISATION", "FIELDS", "FORMATIONS", "LOCATIONS", "PLAYERS", "Order",
           "State", "damage_plan", "location", "new_game", "parse"]
