"""The web page as a view of the table: a server on its own thread with its own asyncio loop.

The game loop only calls ``see`` (the table-state observer), which hands the snapshot over and returns at
once (``controller.web.handover``); everything the page costs (JSON, streams, replays of journals) is paid on
the page's thread. A browser that hangs, or fifty of them, can slow the page, never the game.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.display import Display
from controller.events import Event, SeatDecision
from controller.loop import EventLoop
from controller.screen import Screen
from controller.table import Table
from controller.table_state import TableState
from controller.web.activation import handed_socket
from controller.web.board import board_for
from controller.web.codes import SeatCodes
from controller.web.handover import Handover, Published
from controller.web.server import Busy, Pages
from controller.web.settings_desk import SettingsDesk

log = logging.getLogger("boardkeeper")

SHUTDOWN_S = 1.0  # open streams are ended at once on stop; this bounds any other request still running
START_S = 30.0
EVERYWHERE = ("0.0.0.0", "::")  # addresses that listen on every interface
PENDING_MAX = 16
"""Decisions from seats' pages waiting for the game's loop: a flood of requests is refused (``Busy``) beyond
this, so it can never grow the queue the game's loop drains."""


class WebView:
    """Serves the page at ``host``:``port`` for ``game``'s table, listing the journals in ``folder``; ``matrix``
    is its board's wiring, for the self-test view."""

    def __init__(self, host: str, port: int, game: str, folder: Path | None,
                 matrix: Mapping[str, Any] | None = None) -> None:
        self.host = host
        self.port = port
        self.game = game
        self.folder = folder
        self.matrix = matrix  # the board's wiring for the self-test view (``controller.web.matrix``)
        self.handed = False  # listening on a socket systemd made (``controller.web.activation``)
        self.desk: SettingsDesk | None = None  # the settings page's, where the table takes settings (``play``)
        self.codes = SeatCodes()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handover: Handover | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self._pending: deque[tuple[str, str, Callable[[str | None], None]]] = deque()

    @property
    def url(self) -> str:
        """Where a browser finds the page: on every interface, by this machine's name on the local network
        (``tablepi.local``, which a Raspberry Pi answers over mDNS), as no browser can open 0.0.0.0."""
        host = f"{socket.gethostname()}.local" if self.host in EVERYWHERE else self.host
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}/"

    def start(self) -> None:
        """Listen, on the page's own thread; returns once it does. ``OSError`` if it cannot (the port is
        taken, the address is not this machine's)."""
        ready = threading.Event()
        failed: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(ready, failed), name="web", daemon=True)
        self._thread.start()
        ready.wait(START_S)
        if failed:
            self._thread.join()
            raise failed[0]
        log.info("web: the table's page is at %s%s", self.url,
                 " (listening on the socket systemd handed over)" if self.handed else "")

    def see(self, state: TableState) -> None:
        """The table-state observer: hands the snapshot over, never waits."""
        if self._handover is not None:
            self._handover.put(state)

    def new_game(self, seats: Sequence[str]) -> Mapping[str, str]:
        """New seat codes for a new game (those of the game before stop working), each seat's page said in
        the log, which is where the players find it until the OLED shows it."""
        codes = self.codes.deal(seats)
        for seat, code in codes.items():
            log.info("web: seat %s's own page: %sseat/%s?code=%s", seat, self.url, seat, code)
        if self.desk is not None:
            log.info("web: the table's PIN for its settings (%ssettings): %s", self.url, self.codes.pin)
        return codes

    def attach(self, table: Table) -> None:
        """Put the page on a demo's table: it watches the table state, takes the seats' decisions, and the
        game's seats get codes."""
        self.serve(table.feed, table.loop, table.display)
        self.new_game(table.flow.game.players)

    def serve(self, feed: Any, loop: EventLoop, display: Display) -> None:
        """Watch the table state of ``feed``, hand the seats' decisions to the game's ``loop`` as events
        (``SeatDecision``) for whichever game is on the table, and show the phones' codes on the ``display``
        while PREV is held."""
        feed.watch(self.see)
        loop.add_source(self._decisions)
        display.pages["PREV"] = self.join_pages

    def join_pages(self, screen: Screen) -> list[Screen]:
        """A page per seat of the game: its code, and a QR code of its page's address that a phone's camera
        opens (``/s/CODE``: short, so the code fits a small QR code the OLED draws two pixels a module)."""
        import segno  # the [web] extra: only with the page on

        pages = [Screen("Settings PIN", (self.codes.pin, "opens the page's", "settings"), footer="NEXT: phones")] \
            if self.desk is not None else []
        for n, (seat, code) in enumerate(self.codes.current.items(), 1):
            matrix = segno.make(f"{self.url}s/{code}", error="l", micro=False).matrix
            rows = tuple("".join("1" if module else "0" for module in row) for row in matrix)
            pages.append(Screen(seat, (code, "scan it or", "type it on", "the page"),
                                footer=f"{n}/{len(self.codes.current)} NEXT", picture=rows))
        return pages or [Screen("Phones", ("no game yet",), footer="OK: back")]

    def _decisions(self, now: float) -> list[Event]:
        """The loop's source: the decisions the seats' pages sent since the last turn (on the game's thread)."""
        out: list[Event] = []
        while self._pending:
            seat, move, reply = self._pending.popleft()
            out.append(SeatDecision(seat, move, now, reply))
        return out

    def _submit(self, seat: str, move: str) -> asyncio.Future[str | None]:
        """On the page's thread: queue a seat's decision for the game's loop; the future gets its answer."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str | None] = loop.create_future()
        if len(self._pending) >= PENDING_MAX:
            raise Busy("too many decisions are waiting for the table: try again in a moment")

        def settle(why: str | None) -> None:
            if not answer.done():
                answer.set_result(why)

        def reply(why: str | None) -> None:  # on the game's thread
            loop.call_soon_threadsafe(settle, why)

        self._pending.append((seat, move, reply))
        return answer

    def stop(self) -> None:
        """Close every stream and the listening socket, and end the page's thread."""
        loop, stopped, thread = self._loop, self._stopped, self._thread
        if self._handover is not None:
            self._handover.close()
        if loop is not None and stopped is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopped.set)
        if thread is not None:
            thread.join(SHUTDOWN_S + 5.0)

    def _run(self, ready: threading.Event, failed: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._serve(ready, failed, loop))
        finally:
            loop.close()

    async def _serve(self, ready: threading.Event, failed: list[BaseException],
                     loop: asyncio.AbstractEventLoop) -> None:
        published = Published()
        pages = Pages(published, self.codes, self.folder, self._submit, lambda: self.matrix, lambda: self.desk)
        runner = web.AppRunner(pages.app(), access_log=None, shutdown_timeout=SHUTDOWN_S)
        try:
            await runner.setup()
            handed = handed_socket()
            if handed is not None:  # made by systemd (boardkeeper-web.socket): the service has no network
                self.host, self.port = handed.getsockname()[:2]
                self.handed = True
                await web.SockSite(runner, handed).start()
            else:
                await web.TCPSite(runner, self.host, self.port).start()
            board_for(self.game)  # drawn once, before the first browser asks for it
        except BaseException as e:  # told to the starting thread, which raises it there
            failed.append(e)
            ready.set()
            await runner.cleanup()
            return
        self._stopped = asyncio.Event()
        self._handover = Handover(loop, published.publish)
        self._loop = loop
        ready.set()
        try:
            await self._stopped.wait()
        finally:
            await runner.cleanup()
