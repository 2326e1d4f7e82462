"""The one exception a stop request becomes, so every command can leave the table tidy on its way out."""

from __future__ import annotations

import signal
from types import FrameType


class StopRequested(BaseException):
    """SIGTERM (``systemctl stop``) or SIGINT (Ctrl-C): close the journal, say "Stopped", exit 0.

    A ``BaseException``, as ``KeyboardInterrupt`` is: the signal lands wherever the main thread is, and a guard
    that keeps a failing part from stopping the game (``except Exception`` around a view of the table, such as
    the OLED's drawing) must not swallow the stop with it."""


def raise_stop(signum: int, frame: FrameType | None) -> None:
    """Signal handler: unwind from wherever the loop is, through every ``finally`` on the way."""
    raise StopRequested(signal.Signals(signum).name)
