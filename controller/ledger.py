"""The ledger: the position and its record, kept together by one rule, journal first.

Every flow changes its position only here. A step is journaled (written and fsynced, with the position
after it) before it becomes the position, so a power cut never loses a step nor draws a chance outcome
again; the steps since the last chance outcome are kept (position before, notation) because they may
still be taken back, and a takeback is journaled as an ``undo`` line before the position goes back. A
flow says only who signs each line and what its screens make of the result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from controller.journal import UNDO, Journal, JournalWriteError
from engines.base import GameState, Hidden, Move

S = TypeVar("S", bound=GameState)


def save_line(journal: Journal, player: str, move: str, state: dict[str, object],
              log: Callable[[str], None], *, entered: bool = False) -> str | None:
    """Journal one line (fsynced) before its effect is shown. If storage fails, the fault goes to ``log``
    and the notice the screen must show comes back ("NOT SAVED: disk full"): the caller applies nothing."""
    try:
        journal.append(player, move, state, entered=entered)
    except JournalWriteError as e:
        log(e.strerror or str(e))
        return e.notice
    return None


class Sealing(Protocol):
    """Secret choices held back from the journal until every seat of their decision has sealed its own (remote
    play: ``controller.remote.seals.Sealer``)."""

    def view(self, real: GameState, seq: int) -> GameState: ...

    def hold(self, real: GameState, seq: int, move: Move, player: str) -> tuple[bool, str | None]: ...

    def due(self, real: GameState, seq: int) -> Move | None: ...


class Hiding(Protocol):
    """Secrets a table keeps from the far table (``engines.base.Hidden``; remote play:
    ``controller.remote.dealer.Dealer``): a move whose announcement hides it is kept there before the journal
    gets the announcement."""

    def keep(self, seq: int, player: str, move: Move, said: Move, decision: bool) -> str | None: ...


class Ledger(Generic[S]):
    """``real`` is the position the journal holds; ``steps`` the steps since the last chance outcome (position
    before, notation), from the journal on a resume: what may still be taken back. ``game`` is the position the
    flow plays on: the real one, unless ``sealing`` holds secret choices back (then its ``view``)."""

    def __init__(self, game: S, journal: Journal, steps: list[tuple[S, str]], log: Callable[[str], None]) -> None:
        self.real = game
        self.journal = journal
        self.steps = steps
        self.log = log
        self.sealing: Sealing | None = None
        self.hiding: Hiding | None = None

    @property
    def game(self) -> S:
        if self.sealing is None:
            return self.real
        return self.sealing.view(self.real, self.journal.seq)  # type: ignore[return-value]  # a position of S

    def due(self) -> Move | None:
        """A sealed choice of this table's that is the next line now (``sealing``), if any."""
        return None if self.sealing is None else self.sealing.due(self.real, self.journal.seq)

    def record(self, move: Move, player: str, *, entered: bool = False) -> str | None:
        """Journal ``move``, signed by ``player``, then make it the position (``entered``: a chance outcome
        the players keyed in from their own dice or spinner). None when done; else the notice the screen
        must show, and nothing changed. A choice ``sealing`` holds back is kept there instead (None: sealed)."""
        if self.sealing is not None:
            held, failed = self.sealing.hold(self.real, self.journal.seq, move, player)
            if held:
                return failed
        before = self.real
        after = before.clone()
        after.apply(move)
        said, state = move, after
        if self.hiding is not None and isinstance(before, Hidden):  # the journal gets what every seat may know
            said, state = before.announce(move), after.public()
            if said != move:
                failed = self.hiding.keep(self.journal.seq + 1, player, move, said, not before.is_chance())
                if failed is not None:
                    return failed
        failed = save_line(self.journal, player, str(said), state.to_json(), self.log, entered=entered)
        if failed is not None:
            return failed
        if before.is_chance():
            self.steps.clear()  # a chance outcome is never taken back, nor anything before it
        else:
            self.steps.append((before, str(move)))
        self.real = after
        return None

    def take_back(self, player: str) -> str | None:
        """Journal ``undo`` (the position before the last step), signed by ``player``, then go back to it.
        None when done; else the notice the screen must show, and nothing changed."""
        previous, _ = self.steps[-1]
        shown = previous.public() if self.hiding is not None and isinstance(previous, Hidden) else previous
        failed = save_line(self.journal, player, UNDO, shown.to_json(), self.log)
        if failed is not None:
            return failed
        self.steps.pop()
        self.real = previous
        return None

    @property
    def last(self) -> tuple[S, str] | None:
        """The last step that may still be taken back (position before, notation), if any."""
        return self.steps[-1] if self.steps else None
