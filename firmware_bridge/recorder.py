"""The flight recorder: the last frames in and out, written to the log when the protocol goes wrong.

A damaged frame on its own says little; the frames around it (was it right after a reconnect, a burst
of deltas, a retry?) say what happened. Keeping them costs a bounded deque.
"""

from __future__ import annotations

import logging
from collections import deque

log = logging.getLogger("boardkeeper.bridge")


class Recorder:
    def __init__(self, size: int = 64) -> None:
        self.entries: deque[tuple[float, str, str]] = deque(maxlen=size)
        self.dumps = 0

    def note(self, at: float, direction: str, what: str) -> None:
        """``direction``: "in" (from the MCU), "out" (to it) or "--" (a link event)."""
        self.entries.append((at, direction, what))

    def dump(self, reason: str) -> None:
        """Into the log at INFO: on a noisy line errors are expected and healed, so they are not warnings;
        the link logs a warning of its own when it gives up on the board."""
        self.dumps += 1
        lines = [f"{at:12.3f} {direction:>3} {what}" for at, direction, what in self.entries]
        log.info("board link: %s; last %d frames:\n%s", reason, len(lines), "\n".join(lines))
