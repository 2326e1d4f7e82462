"""The LEDs under the board as a view of the table state: they light the cells of the move to make.

When the table asks the players to put the board right (a set-up, a fix-up list: a bot's move, a far
table's move, a takeback, a wrong move), each cell the players must touch is lit: magenta where a piece
must be lifted, green where one must be put. Those are the cells whose sensor disagrees with the position
(each goes out as its sensor comes right) and, since a reed under a stack stays closed when one piece of
it leaves, the occupied cells whose pieces the position changed since the board last stood right (out
when the whole board is right). During the self-test each cell is lit white while its sensor reads closed,
so a builder sees which LED answers which reed. Like the OLED, the view decides nothing and reads only the
state.

The strip is on the board's microcontroller (``[leds]`` in the profile says where each LED lies), so the
LEDs go over the link; a rebooted microcontroller starts dark, and is sent every lit LED again.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.move_match import Occupancy
from controller.referee import Stage
from controller.sensed import STAGES
from controller.table_state import TableState
from firmware_bridge.codec import LED, Colour, led_body
from firmware_bridge.link import Link

SELFTEST = "selftest"  # the table state's phase while the self-test runs
FOLLOWING = frozenset(phase for phase, stage in STAGES.items() if stage in (Stage.SETUP, Stage.FIXUP))

def lights(state: TableState, settled: Occupancy) -> dict[str, Colour]:
    """Each location to light, and how; ``settled`` is the position the board last stood right in."""
    if state.phase == SELFTEST:
        return dict.fromkeys(state.sensed, Colour.SEEN)
    if not following(state):
        return {}
    out = {loc: Colour.LIFT if loc in state.sensed else Colour.PUT for loc in state.disagreeing}
    for loc, (owner, n) in state.expected.items():
        was_owner, was = settled.get(loc, ("", 0))
        if n and was and (owner, n) != (was_owner, was):  # its reed stays closed: only the pieces differ
            out[loc] = Colour.LIFT if owner == was_owner and n < was else Colour.PUT
    return out


def following(state: TableState) -> bool:
    """The table waits for the players to put the board right (set it up, fix it, follow a move that did not
    come from the board, even one whose sensors cannot see it: "then press OK")."""
    return bool(state.fixups) or state.phase in FOLLOWING


class LinkStrip:
    """The strip on the board's microcontroller: each LED's colour sent when it changes (a later colour of
    the same LED supersedes one not yet acknowledged), and every lit one again after the microcontroller
    greets anew."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.lit: dict[int, Colour] = {}
        self._greetings = link.stats.greetings

    def show(self, want: Mapping[int, Colour]) -> None:
        for index in sorted(set(self.lit) | set(want)):
            colour = want.get(index, Colour.OFF)
            if self.lit.get(index, Colour.OFF) != colour:
                self._send(index, colour)
        self.lit = {i: c for i, c in want.items() if c is not Colour.OFF}

    def tick(self) -> None:
        """After each loop turn: a hello may be a rebooted microcontroller, whose strip is dark."""
        if self.link.stats.greetings != self._greetings:
            self._greetings = self.link.stats.greetings
            for index, colour in sorted(self.lit.items()):
                self._send(index, colour)

    def _send(self, index: int, colour: Colour) -> None:
        self.link.send(LED, led_body(index, colour), key=(LED, index))


class LedView:
    """Feeds the strip from the table state; ``at`` is each location's LED (the profile's ``[leds]``)."""

    def __init__(self, strip: LinkStrip, at: Mapping[str, int]) -> None:
        self.strip = strip
        self.at = at
        self.settled: Occupancy = {}

    def see(self, state: TableState) -> None:
        if not following(state):
            self.settled = state.expected
        lit = lights(state, self.settled)
        self.strip.show({self.at[loc]: colour for loc, colour in lit.items() if loc in self.at})
