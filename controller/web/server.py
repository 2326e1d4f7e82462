"""The web page's routes (aiohttp): read-only, but for a seat's own decision on its page and the table's
settings.

====================================  ====================================================================
``/``                                 the table, live
``/games``                            the journals: a replay to step through, downloads
``/selftest``                         the board's matrix, each cell lit while it reads closed; a self-test's report
``/settings``                         seat names, the table's bots (``controller.settings``): a change needs the PIN
``/seat/SEAT?code=CODE``              one seat's own page (its private screen); a wrong code is refused
``/s/CODE``                           to the page of the seat whose code it is (the OLED's QR code)
``/api/state``, ``/api/events``       the public state as JSON, and pushed as Server-Sent Events
``/api/seat/SEAT/state``, ``/events``  the same for one seat, with its code
``POST /api/seat/SEAT/decide``        the seat's decision (``{"move": "bet p1 noiro"}``), with its code
``/api/board/GAME.svg``               a game's board with an anchor per location (``controller.web.board``)
``/api/matrix``                       the board's wiring: each location's matrix cell (``controller.web.matrix``)
``/api/settings``, ``POST`` too       the settings, and a change (``{"pin": ..., "names": ..., "bots": ...}``)
``/api/journals``, ``/api/journals/NAME``  the journal folder's games, and one replayed position by position
``/journals/NAME.jsonl``, ``.txt``    a journal to download, and its readable move list
====================================  ====================================================================

Every stream sends the whole state on connect and then the newest one whenever it changed, at most one each
``GAP_S`` (a state is a few kilobytes, so a browser that reconnects after the table restarted needs nothing
else), and a ``ping`` event every ``PING_S`` so a page can tell a dead connection from a quiet game. The
responses allow no other origin's scripts (``Content-Security-Policy``) and leak no seat code in a
``Referer``.

The changes a page can make need a code, and come only from this page's own origin (a browser says its
``Origin`` and ``Sec-Fetch-Site``; JSON cannot be posted from another site without a preflight, which this
server never grants). The table's settings need the table's PIN (``controller.web.settings_desk``). A seat's
decision needs that seat's code, is a short line of the game's notation, and is judged by the game's own loop
exactly as the same decision made with the table's buttons: the answer is the flow's, taken or refused with
one line why.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.export import move_list
from controller.web import journals
from controller.web.board import board_for
from controller.web.codes import SeatCodes
from controller.web.handover import Published
from controller.web.public import public_state, seat_state
from controller.web.settings_desk import Refused, SettingsDesk
from engines.registry import game_names, get_game

STATIC = Path(__file__).resolve().parent / "static"
PING_S = 10.0
GAP_S = 0.05  # at most 20 states a second to a browser: a fast demo must not keep a phone redrawing flat out
RETRY_MS = 1000  # how soon a browser reconnects after the stream broke
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; base-uri 'none'; "
                               "frame-ancestors 'none'; form-action 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
DECIDE_S = 5.0  # how long a decision waits for the game's loop to judge it
MOVE_CHARS = 80  # a decision is a line of notation: anything longer is no move
SETTINGS_BYTES = 2048  # seven seats' names and bots, with room to spare
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Submit = Callable[[str, str], "asyncio.Future[str | None]"]


class Busy(Exception):
    """Too many decisions wait for the game's loop: the page is told to try again."""


class Pages:
    """The handlers, over the newest state (``published``), the seat codes and the journal folder."""

    def __init__(self, published: Published, codes: SeatCodes, folder: Path | None,
                 submit: Submit | None = None, matrix: Callable[[], Mapping[str, Any] | None] = lambda: None,
                 desk: Callable[[], SettingsDesk | None] = lambda: None) -> None:
        self.published = published
        self.codes = codes
        self.folder = folder
        self.submit = submit  # hands a seat's decision to the game's loop (None: no table takes any)
        # asked at each request: a table with a game menu changes boards, and with them both
        self.matrix = matrix  # the board's wiring (``controller.web.matrix``), for the self-test view
        self.desk = desk  # the table's settings (None: this table takes none, e.g. a demo's)
        self._public: tuple[int, bytes] = (-1, b"")

    def app(self) -> web.Application:
        app = web.Application()
        app.on_response_prepare.append(_headers)
        app.router.add_get("/", self.page("table.html"))
        app.router.add_get("/games", self.page("games.html"))
        app.router.add_get("/selftest", self.page("selftest.html"))
        app.router.add_get("/settings", self.page("settings.html"))
        app.router.add_get("/seat/{seat}", self.seat_page)
        app.router.add_get("/s/{code}", self.join)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/events", self.events)
        app.router.add_get("/api/seat/{seat}/state", self.seat_json)
        app.router.add_get("/api/seat/{seat}/events", self.seat_events)
        app.router.add_post("/api/seat/{seat}/decide", self.decide)
        app.router.add_get("/api/board/{game}.svg", self.board)
        app.router.add_get("/api/matrix", self.wiring)
        app.router.add_get("/api/settings", self.settings)
        app.router.add_post("/api/settings", self.change_settings)
        app.router.add_get("/api/journals", self.journal_list)
        app.router.add_get("/api/journals/{name}", self.journal_replay)
        app.router.add_get("/journals/{name}.jsonl", self.journal_file)
        app.router.add_get("/journals/{name}.txt", self.journal_text)
        app.on_shutdown.append(self._closing)
        return app

    # -- pages -------------------------------------------------------------------------------------------

    @staticmethod
    def page(name: str) -> Handler:
        async def handler(request: web.Request) -> web.StreamResponse:
            return web.FileResponse(STATIC / name)

        return handler

    async def join(self, request: web.Request) -> web.StreamResponse:
        """A seat's code alone (the QR code on the OLED, the form of the table page): to that seat's page."""
        code = request.match_info["code"].strip().upper()
        seat = next((seat for seat in self.codes.current if self.codes.opens(seat, code)), None)
        if seat is None:
            raise web.HTTPNotFound(text=f"no seat has the code {code[:12]!r} in this game\n")
        raise web.HTTPSeeOther(f"/seat/{seat}?code={code}")

    async def seat_page(self, request: web.Request) -> web.StreamResponse:
        self._seat(request)
        return web.FileResponse(STATIC / "seat.html", headers={"Cache-Control": "no-store"})

    # -- the live state ----------------------------------------------------------------------------------

    def public_bytes(self) -> bytes:
        """The newest public state as JSON, made once per version however many browsers read it."""
        version, body = self._public
        state = self.published.state
        if version != self.published.version and state is not None:
            info = get_game(state.game)
            body = json.dumps(public_state(state, info.title, info.hidden), separators=(",", ":")).encode()
            self._public = (self.published.version, body)
        return body

    async def state(self, request: web.Request) -> web.StreamResponse:
        if self.published.state is None:
            raise web.HTTPServiceUnavailable(text="the table is starting: try again in a moment\n")
        return web.Response(body=self.public_bytes(), content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, self.public_bytes)

    async def seat_json(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        state = self.published.state
        if state is None:
            raise web.HTTPServiceUnavailable(text="the table is starting: try again in a moment\n")
        return web.json_response(seat_state(state, seat), headers={"Cache-Control": "no-store"})

    async def seat_events(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request)
        code = request.query.get("code", "")

        def body() -> bytes:
            state = self.published.state
            return json.dumps(seat_state(state, seat), separators=(",", ":")).encode() if state else b""

        return await self._stream(request, body, lambda: self.codes.opens(seat, code))

    async def decide(self, request: web.Request) -> web.StreamResponse:
        """A seat's decision: its code, this page's own origin, a JSON ``{"move": NOTATION}``; answered
        ``{"taken": true}``, or 409 ``{"taken": false, "why": ...}`` with the table's reason."""
        _same_origin(request)
        seat = self._seat(request)
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text='send the decision as JSON: {"move": "..."}\n')
        if request.content_length is None or request.content_length > 4 * MOVE_CHARS:
            raise web.HTTPBadRequest(text=f"a decision is one line of at most {MOVE_CHARS} characters\n")
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text='not JSON: send {"move": "..."}\n') from None
        move = body.get("move") if isinstance(body, dict) else None
        if not isinstance(move, str) or not 0 < len(move) <= MOVE_CHARS or not (move.isascii() and move.isprintable()):
            raise web.HTTPBadRequest(text=f'"move": one line of the game\'s notation, at most {MOVE_CHARS} '
                                          "characters\n")
        if self.submit is None:
            raise web.HTTPServiceUnavailable(text="no game on the table takes decisions now\n")
        try:
            answer = self.submit(seat, move)
        except Busy as e:
            raise web.HTTPTooManyRequests(text=f"{e}\n") from None
        try:
            why = await asyncio.wait_for(answer, DECIDE_S)
        except TimeoutError:
            raise web.HTTPServiceUnavailable(text="the table did not answer in time: try again\n") from None
        if why is not None:
            return web.json_response({"taken": False, "why": why}, status=409, headers={"Cache-Control": "no-store"})
        return web.json_response({"taken": True}, headers={"Cache-Control": "no-store"})

    async def settings(self, request: web.Request) -> web.StreamResponse:
        desk = self.desk()
        if desk is None:
            raise web.HTTPNotFound(text="this table takes no settings from its page (a demo's table)\n")
        return web.json_response(desk.current(), headers={"Cache-Control": "no-store"})

    async def change_settings(self, request: web.Request) -> web.StreamResponse:
        """New settings with the table's PIN, from this page's own origin, as JSON; answered ``{"saved": true}``
        or an error status with one line why."""
        _same_origin(request)
        desk = self.desk()
        if desk is None:
            raise web.HTTPNotFound(text="this table takes no settings from its page (a demo's table)\n")
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text='send the settings as JSON: {"pin": "...", ...}\n')
        if request.content_length is None or request.content_length > SETTINGS_BYTES:
            raise web.HTTPBadRequest(text=f"settings are at most {SETTINGS_BYTES} bytes of JSON\n")
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text="not JSON\n") from None
        try:
            answer = desk.change(body)
        except Refused as e:
            return web.Response(text=f"{e}\n", status=e.status, headers={"Cache-Control": "no-store"})
        return web.json_response(answer, headers={"Cache-Control": "no-store"})

    async def _stream(self, request: web.Request, body: Callable[[], bytes],
                      still_open: Callable[[], bool] = lambda: True) -> web.StreamResponse:
        """Server-Sent Events: each newer state as one ``data`` line, until the browser goes, the server
        stops, or (a seat's stream) its code stops opening the seat because a new game dealt new ones."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        published = self.published
        clock = asyncio.get_running_loop().time
        seen, sent = -1, -GAP_S
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while not published.closing and still_open():
                if seen != published.version:
                    await asyncio.sleep(max(0.0, sent + GAP_S - clock()))  # whatever comes meanwhile goes as one
                    seen, sent = published.version, clock()
                    data = body()
                    if data:
                        await response.write(b"data: " + data + b"\n\n")
                elif not await published.wait(seen, PING_S):
                    await response.write(b"event: ping\ndata: {}\n\n")
        except (ConnectionError, RuntimeError):  # the browser went away (a closed transport raises either)
            pass
        return response

    def _seat(self, request: web.Request) -> str:
        """The seat a request names, if its code opens it: else refused with one line saying why."""
        seat = request.match_info["seat"]
        code = request.query.get("code", "")
        if seat not in self.codes.current:
            raise web.HTTPNotFound(text=f"no seat {seat!r} at this table now\n")
        if not code:
            raise web.HTTPForbidden(text=f"seat {seat}: its page needs the seat's code (?code=...)\n")
        if not self.codes.opens(seat, code):
            raise web.HTTPForbidden(text=f"seat {seat}: wrong code\n")
        return seat

    async def _closing(self, app: web.Application) -> None:
        self.published.close()

    # -- boards and journals -----------------------------------------------------------------------------

    async def board(self, request: web.Request) -> web.StreamResponse:
        game = request.match_info["game"]
        if game not in game_names():
            raise web.HTTPNotFound(text=f"no game {game!r}\n")
        return web.Response(text=board_for(game).svg(), content_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=3600"})

    async def wiring(self, request: web.Request) -> web.StreamResponse:
        matrix = self.matrix()
        if matrix is None:
            raise web.HTTPNotFound(text="this page was started without a board's wiring\n")
        return web.json_response(dict(matrix), headers={"Cache-Control": "no-store"})

    async def journal_list(self, request: web.Request) -> web.StreamResponse:
        listed = journals.listing(self.folder) if self.folder is not None else []
        return web.json_response({"folder": str(self.folder or ""), "journals": [j.json() for j in listed]},
                                 headers={"Cache-Control": "no-store"})

    async def journal_replay(self, request: web.Request) -> web.StreamResponse:
        """Replaying a long game takes a while (Cannon Ball's 700 lines: half a second here, more on a Pi):
        done beside the page's loop, so the live streams go on meanwhile."""
        path = self._journal(request)
        body = await asyncio.get_running_loop().run_in_executor(None, _replay_json, path)
        return web.Response(body=body, content_type="application/json", headers={"Cache-Control": "no-store"})

    async def journal_file(self, request: web.Request) -> web.StreamResponse:
        path = self._journal(request)
        return web.FileResponse(path, headers={"Content-Type": "application/x-ndjson",
                                               "Content-Disposition": f'attachment; filename="{path.name}"'})

    async def journal_text(self, request: web.Request) -> web.StreamResponse:
        path = self._journal(request)
        text = await asyncio.get_running_loop().run_in_executor(None, move_list, path)
        return web.Response(text=text, content_type="text/plain", charset="utf-8",
                            headers={"Content-Disposition": f'inline; filename="{path.stem}.txt"'})

    def _journal(self, request: web.Request) -> Path:
        """A journal the folder lists, by its name (the route drops ``.jsonl``/``.txt``), and open to all."""
        name = request.match_info["name"]
        name = name if name.endswith(".jsonl") else f"{name}.jsonl"
        found = journals.find(self.folder, name) if self.folder is not None else None
        if found is None:
            raise web.HTTPNotFound(text=f"no journal {name!r} in the journal folder\n")
        path, listed = found
        if listed.closed:
            raise web.HTTPForbidden(text=f"{name}: {listed.closed}\n")
        return path


def _replay_json(path: Path) -> bytes:
    return json.dumps(journals.replay_json(path), separators=(",", ":")).encode()


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, an error too, carries the headers that keep the page to itself."""
    response.headers.update(HEADERS)


def _same_origin(request: web.Request) -> None:
    """Refuse a change asked by another site's page: a browser names the page's origin in ``Origin`` and says
    ``Sec-Fetch-Site``; either one naming another site is refused (a program that sends neither is not a
    browser another site could drive)."""
    origin, site = request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site")
    if (origin is not None and origin != f"{request.scheme}://{request.host}") or site not in (None, "same-origin"):
        raise web.HTTPForbidden(text="refused: a change must come from this table's own page\n")
