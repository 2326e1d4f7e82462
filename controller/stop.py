"""The one exception a stop request becomes, so every command can leave the table tidy on its way out."""

from __future__ import annotations

import signal
from types import FrameType


class StopRequested(Exception):
    """SIGTERM (``systemctl stop``) or SIGINT (Ctrl-C): close the journal, say "Stopped", exit 0."""


def raise_stop(signum: int, frame: FrameType | None) -> None:
    """Signal handler: unwind from wherever the loop is, through every ``finally`` on the way."""
    raise StopRequested(signal.Signals(signum).name)
