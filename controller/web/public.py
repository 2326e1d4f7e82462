"""What the web page may show of the table state, as JSON: the public state for everyone, one seat's for its
own page.

Built from an explicit list of fields, never by dumping the snapshot: ``TableState.shown`` (the OLED's own
screen, a seat's secret entry included) and ``TableState.private`` never reach ``public_state``, and
``seat_state`` adds that one seat's private screen alone.

Beyond the screen, two fields of the table state can give away a secret of a game that hides information
(its registry entry's ``hidden``): the last journal lines (``deal p1 noiro:0``, ``bet p2 roujo``, ``org rome
6,5,...``, the shuffled order of Hannipe's horse cards) and the engine's counts of pieces (Scipio's
formations hold the organisation before both are revealed). The journal cannot tell a secret line from an
open one, and no engine says yet which of its moves are open, so until such a game ends the page names each
of the last moves by its seat and its kind (the notation's first word) only, and each place by whose piece
stands there without a count.

Public keys (``GET /api/state`` and each message of ``GET /api/events``):

==============  ===========================================================================================
``game``        the game's registry name; ``title`` its title
``seq``         journal lines so far; ``phase`` the flow's phase ("" before a game is attached)
``seats``       ``[{"seat", "name", "played_by"}]`` in seat order
``to_move``     the seat whose decision it is, or null; ``turn`` that seat's name ("" for none)
``over``        whether the game has ended; ``outcome`` who won, for people ("nobody yet")
``scores``      seat -> score, where the game keeps any
``pieces``      location -> ``[owner, count]`` as the engine says (count null where withheld)
``disagreeing`` locations whose sensor disagrees with the engine; ``ignored`` sensors declared broken
``dice``        the dice or spin the screen shows (0: a blank face)
``screen``      the public screen (``title``, ``headline``, ``lines``, ``selected`` (a menu's choice),
                ``marked`` (a question drawn highlighted), ``footer``, ``text``), or null
``fixups``      what the players are told to put right; ``notice`` the flow's notice
``recent``      the last journal lines, oldest first: ``[{"seq", "player", "move"}]``
``withheld``    whether ``recent`` and ``pieces`` are cut down as above (a game that hides information, until
                its end)
``link``        the board link's state where the board is read over serial, else null
``sensed``      locations whose sensors read closed (none while ``withheld``: a hidden formation is on pads)
``seen``        a self-test's locations seen working; ``report`` its report as it stands (final once ``over``)
==============  ===========================================================================================

A seat's keys (``GET /api/seat/SEAT/state?code=...`` and ``.../events``): ``seat``, ``name``, ``private``
(its own screen as above, or null), ``choices`` (the decisions it may make on its page now, in the game's
notation: ``POST /api/seat/SEAT/decide``), ``form`` (a decision too large for a button each, as a form: its
``title``, ``hint``, ``fields`` of ``label``/``choices``/``value``, and the ``move`` notation they fill, or null),
``to_move``, ``turn``, ``over``, ``outcome``, ``screen`` (the
public one).
"""

from __future__ import annotations

from typing import Any

from controller.screen import Screen
from controller.table_state import TableState, public_move


def screen_json(screen: Screen | None) -> dict[str, Any] | None:
    """A screen as the page draws it: the OLED's words, and its plain text for a reader."""
    if screen is None:
        return None
    return {"title": screen.title, "headline": screen.headline, "lines": list(screen.lines),
            "selected": screen.selected, "marked": screen.marked,
            "footer": screen.footer, "dice": list(screen.dice), "text": screen.text()}


def public_state(state: TableState, title: str, hidden: bool) -> dict[str, Any]:
    """Everything the public page shows; ``hidden``: the game hides information (see the module's note),
    until it ends, when the rules have revealed everything."""
    withheld = hidden and bool(state.seats) and not state.over  # no seats: no game on the table (a self-test)
    recent = [{"seq": line.seq, "player": line.player, "move": public_move(line, withheld)} for line in state.recent]
    pieces = {loc: [owner, None if withheld else n] for loc, (owner, n) in state.expected.items() if n > 0}
    return {
        "game": state.game, "title": title, "seq": state.seq, "phase": state.phase,
        "seats": [{"seat": s.seat, "name": s.name, "played_by": s.played_by} for s in state.seats],
        "to_move": state.to_move, "turn": state.name(state.to_move) if state.to_move else "",
        "over": state.over, "outcome": state.outcome, "scores": dict(state.scores), "pieces": pieces,
        "disagreeing": sorted(state.disagreeing), "ignored": sorted(state.ignored), "dice": list(state.dice),
        "screen": screen_json(state.screen), "fixups": list(state.fixups), "notice": state.notice,
        "recent": recent, "withheld": withheld, "link": state.link,
        "sensed": [] if withheld else sorted(state.sensed), "seen": sorted(state.seen), "report": list(state.report),
    }


def seat_state(state: TableState, seat: str) -> dict[str, Any]:
    """What ``seat``'s own page shows: its private screen, and enough of the public state to know whose turn
    it is."""
    return {
        "seat": seat, "name": state.name(seat), "private": screen_json(state.private.get(seat)),
        "choices": list(state.choices.get(seat, ())), "form": state.forms.get(seat),
        "to_move": state.to_move, "turn": state.name(state.to_move) if state.to_move else "",
        "over": state.over, "outcome": state.outcome, "screen": screen_json(state.screen),
    }
