"""The one exception a stop request becomes, so every command can leave the table tidy on its way out."""

from __future__ import annotations

import signal
from types import FrameType


class StopRequested(BaseException):
    """SIGTERM (``systemctl stop``) or SIGINT (Ctrl-C): close the journal, say "Stopped", exit 0.

    A ``BaseException``, as ``KeyboardInterrupt`` is: the signal lands wherever the main thread is, and a guard
    that keeps a failing part from stopping the game (``except Exception`` around a view of the table, such as
    the OLED's drawing) must not swallow the stop with it."""


ASKED: list[str] = []
"""The stops signalled in this process: a library may swallow the exception where the signal lands (the
``transitions`` machine catches every ``BaseException`` of its finalize callbacks, and logs it), so the loop
asks again (``stop_asked``) at each turn."""


def raise_stop(signum: int, frame: FrameType | None) -> None:
    """Signal handler: unwind from wherever the loop is, through every ``finally`` on the way."""
    ASKED.append(signal.Signals(signum).name)
    raise StopRequested(ASKED[-1])


def stop_asked() -> None:
    """Raise the stop a signal asked for, if one did and the exception was swallowed on its way."""
    if ASKED:
        raise StopRequested(ASKED[-1])
