"""The console script's entry point: a stop that lands while the program is still starting is quiet.

``boardkeeper`` imports the CLI, the game registry and whatever a command needs before ``controller.cli.main``
can install its handlers; Ctrl-C or ``systemctl stop`` landing in that time printed a KeyboardInterrupt
traceback (an import half done). This module imports nothing of the project, so its handlers are in place
from the first line of ours on; the CLI replaces them with its own once it runs. (A signal landing in
Python's own start-up, before any line of ours, is beyond any program's reach.)
"""

from __future__ import annotations

import signal
import sys
from types import FrameType


def _stopped(signum: int, frame: FrameType | None) -> None:
    print(f"stopped by {signal.Signals(signum).name} while starting", file=sys.stderr)
    raise SystemExit(0)


def main() -> int:
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, _stopped)
    from controller.cli import main as run

    return run()
