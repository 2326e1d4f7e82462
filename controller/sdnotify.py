"""systemd's notify protocol in a few lines of standard library: READY, WATCHDOG, STATUS.

Without ``NOTIFY_SOCKET`` (a demo, a test, a terminal) every call is a no-op, so the same loop runs
everywhere. Watchdog pings are rate-limited to a quarter of ``WATCHDOG_USEC``: the loop turns at the scan
rate, far more often than systemd needs to hear from it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

from controller.clock import Clock


class Notifier:
    def __init__(self, clock: Clock, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.clock = clock
        address = env.get("NOTIFY_SOCKET", "")
        self._address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        self._interval = int(usec) / 4e6 if usec.isdigit() and int(usec) > 0 else None
        self._last_ping = float("-inf")
        self._status = ""
        self._sock: socket.socket | None = None
        self.ready_sent = False

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def _send(self, message: str) -> None:
        if not self._address:
            return
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sock.sendto(message.encode(), self._address)
        except OSError:
            pass  # systemd went away (shutdown): nothing to tell, nothing to fail

    def ready(self) -> None:
        if not self.ready_sent:
            self.ready_sent = True
            self._send("READY=1")

    def status(self, text: str) -> None:
        if text != self._status:
            self._status = text
            self._send(f"STATUS={text}")

    def tick(self) -> None:
        """Called on every loop turn: a watchdog ping when one is due."""
        if self._interval is None:
            return
        now = self.clock.now()
        if now - self._last_ping >= self._interval:
            self._last_ping = now
            self._send("WATCHDOG=1")
