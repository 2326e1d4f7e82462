"""Hannipe! (BlackRock Editions): 2 to 7 bettors back a horse, then push it with tip cards.

Rules: ``docs/rules/hannipe.md``; its interpretations I-1..I-7 are cited where used. Notation:
``moves.py``. Where the digest leaves a gap, the engine's choice is marked G-n:

- G-1: shared wins. ``winners`` lists every winning seat; ``winner`` is that seat when there is exactly one,
  else ``None``; ``returns()`` gives each of k winners 1/k and everyone else 0 (0 for all before the end).
- G-2: ``occupancy()`` reports ``lane:<horse>:<row>`` (row 1 = front line) for each starter with the horse
  as owner and count 1: pawns belong to no seat. Empty before a programme is drawn (between races); at game
  end the finished race stays on the mat. ``LOCATIONS`` lists all 36 names; ``OWNERS`` the owner names.
- G-3: ``legal_moves()`` at a chance node lists its outcomes, so a menu can offer them; ``parse_move`` and
  ``apply`` accept any outcome with a non-zero chance.
- G-4: notation is read ignoring case and extra blanks. Unknown seats (other than ``p1``..``p7``), horses,
  faces or programmes are ``InvalidMoveError``; a seat not at this table, a non-starter, a card no longer
  available, the wrong seat or the wrong kind of move now are ``IllegalMoveError``.
- G-5: the favori's protection covers tips only (the turned card itself is a gain); an ignored loss still
  uses up the tip card.
- G-6: ``determinize(player, rng)`` redraws the order of the horse cards not yet turned (nobody has seen
  it), the other seats' bets already placed (uniformly among the starters) and, with ``cards="deal"``, the
  other seats' hands from the cards ``player`` has not seen.
- G-7: with ``cards="table"`` a tip is legal if a card of that kind is still unplayed this race, as the
  digest says; the engine does not track which seat holds it.
- G-8: ``to_json()`` adds three keys to the digest's: ``shuffle`` (the whole horse-card order, turned or
  not), ``hands`` (seat -> sorted ``"horse:face"`` cards, ``null`` with ``cards="table"``) and ``played``
  (this race's tips as ``[seat, horse, face]`` in play order). ``from_json`` requires exactly these keys.
- G-9: ``new_game`` rejects a bad ``players`` or ``cards`` value with ``ValueError``; an unknown option name
  is a ``TypeError``, as with the other engines (the journal reports both as bad options).
- G-10: shared play (two tables, ``engines.base.Hidden``). A state may not know everything: ``shuffle ?``
  leaves the horse-card order unknown, so each turn names its horse (``turn vertige``); a far seat's cards
  are dealt as ``deal p3 ?`` and its tips are legal while an unknown card could be that one; every bet is
  ``sealed`` (``bet p3 ?`` where unknown), and after the last tip each sealed seat in seat order opens it
  (``reveal p3 roujo``, step ``reveal``), the payout following the last reveal. ``to_json()`` writes ``?``
  for what is unknown and adds ``sealed`` (seats); a state without ``sealed`` reads as none sealed.
  ``public()`` is the state as a spectator knows it; ``announce(move)`` the move as everyone may hear it.
"""

from engines.hannipe.data import COLOURS, FACES, HORSES, NAMES, PROGRAMMES
from engines.hannipe.moves import Action, parse
from engines.hannipe.state import LOCATIONS, State, location, new_game

OWNERS = HORSES
"""Who ``occupancy()`` names as owners (G-2): the horses, not the seats."""

__all__ = ["COLOURS", "FACES", "HORSES", "LOCATIONS", "NAMES", "OWNERS", "PROGRAMMES", "Action", "State",
           "location", "new_game", "parse"]
