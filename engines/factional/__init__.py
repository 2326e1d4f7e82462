"""Factional Hannibal: the honor ledger and turn conductor of a four-player Hannibal: Rome vs Carthage.

Rules: ``docs/rules/factional.md`` (its I-1..I-3 are applied in ``honor.py``). The map and the
battles stay on the players' own HRC board; this engine keeps who holds which province, every
faction's Honor, dominance, whose card play it is, the cards left, activation requests, the die and the
final ranking. Notation: ``moves.py``. No bot plays it: the registry entry has no evaluator.

Seats and the table. The players are the four factions. ``current_player`` is the dominant faction of
the side to play during card play (it names who plays), the partner who must answer an activation, and
``None`` otherwise. A caller tells the three ``None`` cases apart with ``is_over()`` (nothing is legal),
``is_chance()`` (a die is due: ``chance_outcomes()``) and, failing both, a **table decision**
(``is_table_decision()``: ``reinforced``, ``initiative``, ``end`` after turn 9...): ``legal_moves()``
is never empty until the game is over. ``control``, ``battle``, ``roll``, ``discard`` and ``end`` are
table events too, legal whoever's seat decides the card play. ``winner`` is the winning side;
``ranking()`` orders the factions (``TABLE_DECISIONS`` tells generic code both things).

Menus. ``legal_moves()`` is a sequence over shared tuples (no list built per call).
``state.next_field(words)`` tells a button menu which words may follow those entered (provinces,
holders, factions), whether a number may (a battle's PCs) and whether OK can apply the event already.
``state.problem(move)`` says in words why an event is not legal now; ``state.duties()`` lists the
reinforcement duties; ``scores()`` is everyone's Honor.

Choices where the digest is silent (the digest's own are I-1..I-3):

- **I-4** While a die is due, ``current_player`` and ``to_move`` are null and the phase is unchanged;
  ``to_json`` says so with the extra key ``rolling``.
- **I-5** ``initiative S`` when every card of S was discarded during the initiative phase passes the
  play as after a card (to the other side, else the turn ends).
- **I-6** A ``discard`` during ``activation`` only lowers the count: the answer then passes the play.
- **I-7** ``veto`` passes the play exactly as ``approve`` does (the bookkeeping rule): to the other
  side if it has cards, else the vetoing side plays on.
- **I-8** ``legal_moves()`` lists battles with 0..``LISTED_PCS`` (12) PCs; any larger count is just as
  legal through ``parse_move``, ``apply`` and ``next_field``.
- **I-9** ``to_json`` adds ``playing`` (the side to play), ``asking`` (the faction awaiting its
  partner's answer) and ``rolling``; ``from_json`` rejects missing and unknown keys and a recorded
  ``honor``, ``to_move`` or ``ranking`` that the rest of the state does not give. ``end`` freezes
  ``playing`` and ``asking`` with the rest.
- **I-10** Events are read case-insensitively; a battle's loser written without ``/borrowed`` and a
  leaderless force change no ledger (the PCs removed reach Honor through ``control`` events).
- **I-11** ``returns()`` is 0 for everyone until the end, then 1, 1/3, -1/3, -1 by place.

``occupancy()`` names locations ``"tray:<province>:<holder>"`` (``LOCATIONS``: 20 provinces x 6
holders); a province held by nobody is off the tray.
"""

from typing import Final

from engines.factional.menu import LISTED_PCS, Events, Field
from engines.factional.moves import (
    Answer,
    Battle,
    Control,
    Die,
    Discard,
    End,
    Initiative,
    Play,
    Reinforced,
    Roll,
    parse,
)
from engines.factional.state import PLAYERS, State, new_game
from engines.factional.table import FACTIONS, HOLDERS, LOCATIONS, PROVINCES, SIDES, location

OWNERS: Final = HOLDERS
"""Every owner ``occupancy()`` can report: a faction, or a side for a jointly held province."""
TABLE_DECISIONS: Final = True
"""Some decisions have no seat (``current_player`` is ``None`` while neither over nor chance) and the
result is a ``ranking()`` of the four factions, not one winning player."""

__all__ = ["FACTIONS", "HOLDERS", "LISTED_PCS", "LOCATIONS", "OWNERS", "PLAYERS", "PROVINCES", "SIDES",
           "TABLE_DECISIONS", "Answer", "Battle", "Control", "Die", "Discard", "End", "Events", "Field",
           "Initiative", "Play", "Reinforced", "Roll", "State", "location", "new_game", "parse"]
