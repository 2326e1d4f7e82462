"""``boardkeeper play GAME --sim``: a game on the simulated table typed at a terminal, against a bot.

You are the person at the table: you lift and place magnets and press buttons by typing; the bot plays
the other seat physically, as in the demo; the screen is printed whenever it changes.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from controller.dice import Dice
from controller.flows.hannibal import HannibalFlow
from controller.screen import Screen
from controller.table import build_table, load_backend, profile_for, scripted_players
from engines.bots import HeuristicBot

HELP = """commands (positions are 0..48):
  lift P [N]      take N pieces (default 1) off position P
  place P [N]     put N pieces on position P
  move P Q [N]    lift from P, then place on Q
  roll | ok | next | prev | back    press that button
  fix             do what the screen's fix-up list says (e.g. set up the board)
  wait [S]        let S seconds pass (default 1)
  help | quit"""


def run_terminal(journal: Path, *, human: str = "yellow", seed: int | None = None, stdin: TextIO = sys.stdin,
                 out: Callable[[str], None] = print) -> int:
    prof = profile_for("hannibal-sim")
    hw = load_backend(prof, seed=seed or 0)
    rng = random.Random(seed)

    def show(screen: Screen) -> None:
        out("\n" + screen.text())

    table = build_table(prof, hw, journal, Dice(rng if seed is not None else None), seed=seed, echo=show)
    flow = table.flow
    assert isinstance(flow, HannibalFlow), "the terminal game plays Hannibal"
    bot_seat = "blue" if human == "yellow" else "yellow"
    bots = {bot_seat: HeuristicBot(random.Random(seed))}
    players = scripted_players("hannibal")(hw.board, prof, table.flow, bots, rng)
    table.loop.add_source(players.poll)
    cells = prof.locations

    def run(seconds: float) -> None:
        for _ in range(max(1, round(seconds * prof.timing.scan_hz))):
            table.loop.tick()
            hw.clock.advance(1.0 / prof.timing.scan_hz)

    def cell(text: str) -> tuple[int, int]:
        key = f"pos:{int(text)}"
        if key not in cells:
            raise ValueError(f"no position {text}")
        return cells[key]

    table.flow.start()
    run(0.5)
    out(HELP)
    for raw in stdin:
        words = raw.split()
        if not words:
            continue
        verb, args = words[0].lower(), words[1:]
        try:
            if verb == "quit":
                break
            if verb == "help":
                out(HELP)
            elif verb in ("lift", "place"):
                n = int(args[1]) if len(args) > 1 else 1
                (hw.board.lift if verb == "lift" else hw.board.place)(cell(args[0]), n)
                run(0.5)
            elif verb == "move":
                n = int(args[2]) if len(args) > 2 else 1
                hw.board.lift(cell(args[0]), n)
                run(0.5)
                hw.board.place(cell(args[1]), n)
                run(0.5)
            elif verb in ("roll", "ok", "next", "prev", "back"):
                pin = prof.buttons[verb.upper()].pin
                assert pin is not None
                hw.board.press_pin(pin)
                run(0.1)
                hw.board.release_pin(pin)
                run(0.5)
            elif verb == "fix":
                for instruction in flow.fixups:
                    action, *rest = instruction.split()
                    target = cell(rest[-1])
                    if action == "lift":
                        hw.board.lift(target, hw.board.count(target))
                    else:
                        hw.board.place(target, max(0, int(rest[0]) - hw.board.count(target)))
                run(0.5)
            elif verb == "wait":
                run(float(args[0]) if args else 1.0)
            else:
                out(f"unknown command {verb!r}; type help")
            for _ in range(600):  # the bot's turn: let it play (it never fixes the board for you)
                if flow.game.to_move != bot_seat or table.finished() or flow.fixups:
                    break
                run(1.0)
        except (ValueError, IndexError) as e:
            out(f"cannot do that: {e}")
        if table.finished():
            out(f"game over: {table.flow.game.winner} wins")
            break
    table.journal.close()
    return 0

