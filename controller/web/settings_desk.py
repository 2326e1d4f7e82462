"""The settings page's side of the server (``/settings``, ``/api/settings``): what it shows, and a change,
which needs the table's PIN (on the OLED: hold PREV). On a table with a game menu (several boards installed),
also the board its menu opens on next.

A change is checked by ``controller.settings`` as the file is, and saved there; the table reads it when the
next game is put on it. Guessing the PIN is slowed: after ``TRIES`` wrong ones, every change is refused for
``LOCKED_S``, whoever asks (a PIN of six characters of 31 then takes years to find).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.menu import choose_next, chosen_last
from controller.settings import PERSON, Settings, check, load, save
from controller.web.codes import SeatCodes
from engines.registry import GameInfo
from hw_config.profile import SEAT_NAME_CHARS, THINK_MS_RANGE

TRIES = 5
LOCKED_S = 60.0
APPLIES = "The names from the next game put on the table, the bots from the next new game (a game in play keeps " \
          "the bots it began with); the game to play next when the table's menu is shown again (a game saved " \
          "unfinished is offered first)."


class Refused(Exception):
    """A change not made: the HTTP status and one line why."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


class SettingsDesk:
    """One game's settings at one table: ``seats`` as the table seats them, ``defaults`` what the profile and
    the command line give where nothing was saved, kept in ``folder``."""

    def __init__(self, info: GameInfo, seats: tuple[str, ...], defaults: Settings, folder: Path, codes: SeatCodes,
                 now: Callable[[], float] = time.monotonic, boards: Sequence[tuple[str, str]] = ()) -> None:
        self.info = info
        self.seats = seats
        self.defaults = defaults
        self.folder = folder
        self.codes = codes
        self.now = now
        self.boards = tuple(boards)  # a table's game menu: each board's profile file name and what it plays
        self._wrong: list[float] = []

    def current(self) -> dict[str, Any]:
        """What the page shows and offers: the saved settings (else the defaults), and the choices."""
        saved = load(self.folder, self.info, self.seats)
        shown = saved or self.defaults
        return {
            "game": self.info.name, "title": self.info.title, "saved": saved is not None, "applies": APPLIES,
            "seats": [{"seat": seat, "name": shown.names.get(seat, ""), "bot": shown.bots.get(seat, PERSON)}
                      for seat in self.seats],
            "think_ms": shown.think_ms, "think_range": list(THINK_MS_RANGE), "name_chars": SEAT_NAME_CHARS,
            "kinds": [PERSON, *(self.info.bots if self.info.table_bots else ())],
            "boards": [{"file": name, "title": title} for name, title in self.boards],
            "next": chosen_last(self.folder) or (self.boards[0][0] if self.boards else ""),
        }

    def change(self, body: object) -> dict[str, Any]:
        """Check the PIN, then the settings; save them. ``Refused`` with the status and the reason."""
        if not isinstance(body, dict) or not isinstance(body.get("pin"), str):
            raise Refused(400, 'send {"pin": "...", "names": {...}, "bots": {...}, "think_ms": ...}')
        moment = self.now()
        self._wrong = [t for t in self._wrong if moment - t < LOCKED_S]
        if len(self._wrong) >= TRIES:
            wait = LOCKED_S - (moment - self._wrong[0])
            raise Refused(429, f"too many wrong PINs: try again in {wait:.0f} s")
        if not self.codes.pin_opens(body["pin"]):
            self._wrong.append(moment)
            raise Refused(403, "wrong PIN: hold PREV on the table to see it")
        following = body.get("next")
        if following is not None and following not in {name for name, _ in self.boards}:
            raise Refused(400, f"next: {str(following)[:40]!r} is no board of this table's menu")
        try:
            settings = check({k: v for k, v in body.items() if k not in ("pin", "next")}, self.info, self.seats)
        except ValueError as e:
            raise Refused(400, str(e)) from None
        try:
            save(self.folder, self.info.name, settings)
            if following is not None:
                choose_next(following, self.folder)
        except OSError as e:
            raise Refused(507, f"the table cannot save its settings: {e.strerror or e}") from None
        return {"saved": True, "applies": APPLIES}
