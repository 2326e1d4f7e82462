"""``boardkeeper watch URL/CODE``: a game of two tables followed live at the terminal, read-only.

The spectator subscribes to the game's lines on the broker like a table, without a seat: it publishes no
presence (the tables must not take it for a far table) and answers no request. It asks both tables for
their lines from the first one on, so a game joined late is shown from its start; each line is printed
once, in seq order (the ``Sync`` core, as at a table: a line signed for this game only, duplicates and
reordering undone), and the spectator ends when a line's state says the game is over. It cannot move: it
holds no seat and publishes no line.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from controller.remote.sync import Line, Sync
from engines.registry import get_game
from hw_config.remote import Remote

ASK_S = 2.0  # nothing new for this long (real seconds): ask the tables for their lines again


def over(state: Mapping[str, Any]) -> str | None:
    """The result, if ``state`` (a journal line's) is a finished game; None while it goes on."""
    info = get_game(str(state.get("game")))
    position = type(info.new_game(**info.options(sim=True))).from_json(state)
    if not position.is_over():
        return None
    returns = position.returns()
    best = max(returns.values())
    return ", ".join(seat for seat, value in returns.items() if value == best) if best > 0 else "nobody"


def watch(remote: Remote, say: Callable[[str], None] = print, *, until: Callable[[], bool] = lambda: False,
          link_factory: Callable[..., Any] | None = None) -> int:
    """Follow the game until it ends (exit 0), or ``until()`` says to stop."""
    if link_factory is None:
        from controller.remote.link import Link  # paho-mqtt: the optional dependency "remote"

        link_factory = Link
    result: list[str] = []

    def show(line: Line) -> None:
        say(f"{line['seq']:>4}  {line['player']:<10} {line['move']}")
        won = over(line["state"])
        if won is not None:
            result.append(won)

    sync = Sync(show, lambda state: True)
    link = link_factory(remote, f"watch-{secrets.token_hex(3)}", expecting=lambda: sync.next_seq, watcher=True)
    say(f"watching game {remote.code} on {remote.host}:{remote.port} (Ctrl-C to stop)")
    link.start()
    asked = time.monotonic()
    try:
        while not result and not until() and link.far_stop is None:
            lines = link.take(timeout=0.2)
            for line in lines:
                sync.offer(line)
            if (sync.missing() or not lines) and time.monotonic() - asked >= ASK_S:
                asked = time.monotonic()
                link.want(sync.next_seq)
    finally:
        link.close()
    if link.far_stop is not None:
        say(f"play stopped at {link.far_stop}")
        return 1
    if result:
        say(f"game over: {result[0]} won" if result[0] != "nobody" else "game over: a draw")
    return 0
