"""From the game loop's thread to the page's: the newest table state, handed over without ever waiting.

The game loop must never block on a view, so its side only drops the snapshot in a slot and, if the page's
loop has not yet been asked to look, asks it once (``call_soon_threadsafe``). However many snapshots come
before the page's loop gets to it, it takes the newest: a slow page skips states, it never queues them.
On the page's side, ``Published`` keeps that newest state with a version number and wakes every open
stream at once.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from controller.table_state import TableState


class Handover:
    """The game side's end: ``put`` is the table-state observer; ``deliver`` runs on the page's loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[TableState], None]) -> None:
        self._loop = loop
        self._deliver = deliver
        self._lock = threading.Lock()
        self._state: TableState | None = None
        self._asked = False
        self._closed = False

    def put(self, state: TableState) -> None:
        """Newest wins: the slot is overwritten, and the page's loop is asked at most once per look."""
        with self._lock:
            self._state = state
            if self._asked or self._closed:
                return
            self._asked = True
        self._loop.call_soon_threadsafe(self._hand_over)

    def close(self) -> None:
        """The page is stopping: states still coming are dropped (its loop is about to be closed)."""
        with self._lock:
            self._closed = True

    def _hand_over(self) -> None:
        with self._lock:
            state, self._asked = self._state, False
        if state is not None:
            self._deliver(state)


class Published:
    """The newest state on the page's loop, numbered, and a wake-up for every stream waiting on it."""

    def __init__(self) -> None:
        self.state: TableState | None = None
        self.version = 0
        self.closing = False
        self._changed = asyncio.Event()

    def publish(self, state: TableState | None) -> None:
        self.state = state
        self.version += 1
        self._wake()

    def close(self) -> None:
        """The server stops: every stream ends now instead of at its next keep-alive."""
        self.closing = True
        self._wake()

    async def wait(self, seen: int, timeout: float) -> bool:
        """Until a version after ``seen`` is published (True) or ``timeout`` seconds pass (False)."""
        if self.version != seen or self.closing:
            return True
        changed = self._changed
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
