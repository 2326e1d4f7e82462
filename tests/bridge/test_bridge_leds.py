"""The LEDs under the board light the move to make (issue 27, item 5): the set-up, a bot's step, a wrong
move, through a reboot of the board's microcontroller, and the self-test. The strip is read from the
frames the firmware's own ``Leds`` wrote to the simulated strip (MicroPython's neopixel, stood in for),
mapped back to locations by the profile's ``[leds]``, whose strip runs along the track and not in the
matrix's order: the tests look at the board's lights as the players would, and follow them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hannibal_harness import Harness, Scripted, yellow_turn

from controller.flows.hannibal import Phase
from controller.selftest import run_selftest
from controller.table import profile_for
from engines.hannibal import new_game
from firmware_bridge.codec import Colour
from firmware_bridge.firmware import pico
from sim_hardware.mcu import SimMcu, Strip

PROFILE = "hannibal-bridge-sim"


def test_the_profile_lays_the_strip_along_the_track_not_the_matrix() -> None:
    profile = profile_for(PROFILE)
    assert profile.leds is not None
    assert profile.leds.at["pos:36"] == 36 and profile.locations["pos:36"] == (5, 5)  # matrix order: 40


def test_set_up_lights_every_box_to_fill_and_each_goes_out_as_it_is_filled(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", profile=PROFILE, set_up=False)
    t.run(0.5)
    start = new_game().occupancy()
    assert t.phase is Phase.SETUP
    assert t.lights == {loc.removeprefix("pos:"): "put" for loc in start}
    first, (_, n) = next(iter(start.items()))
    t.place(int(first.removeprefix("pos:")), n)
    assert first.removeprefix("pos:") not in t.lights and len(t.lights) == len(start) - 1
    for loc, (_, n) in list(start.items())[1:]:
        t.board.place(t.cell(loc), n)
    t.run(1.0)
    assert t.phase is Phase.ROLL and t.lights == {}


def test_a_bots_steps_are_lit_and_followed_by_the_lights_alone(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", profile=PROFILE, bots={"blue": Scripted("36-30", "30-26")})
    yellow_turn(t)
    assert t.lights == {}  # the players' own moves need no lights
    t.roll(4, 6)
    t.run(2.0)
    assert t.text.splitlines()[0] == "Blue plays 36-30"
    assert t.lights == {"36": "lift", "30": "put"}  # 36 keeps a stack: its reed cannot say, the light does
    t.move(17, 18)  # yellow's piece instead: lit too once the grace period is over
    t.run(3.5)
    assert t.lights == {"36": "lift", "30": "put", "18": "lift", "17": "put"}
    t.move(18, 17)
    assert t.lights == {"36": "lift", "30": "put"}
    t.move(36, 30)
    t.run(2.0)
    assert t.text.splitlines()[0] == "Blue plays 30-26" and t.lights == {"30": "lift", "26": "put"}
    t.move(30, 26)
    assert t.phase is Phase.ROLL and t.lights == {} and t.moves()[-2:] == ["36-30", "30-26"]


def test_a_step_the_sensors_cannot_see_is_lit_until_ok(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", profile=PROFILE, bots={"blue": Scripted("42-36", "36-34")})
    yellow_turn(t)
    t.roll(2, 6)
    t.run(2.0)
    assert "then press OK" in t.text and t.lights == {"42": "lift", "36": "put"}
    t.move(42, 36)  # stack to stack: the reeds do not change, the players' OK says it is done
    t.press("OK")
    t.run(2.0)
    assert "Blue plays 36-34" in t.text and t.lights == {"36": "lift", "34": "put"}


def test_a_rebooted_board_lights_the_move_again(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl", profile=PROFILE, bots={"blue": Scripted("36-30", "30-26")})
    yellow_turn(t)
    t.roll(4, 6)
    t.run(2.0)
    assert t.lights == {"36": "lift", "30": "put"}
    mcu: SimMcu = t.hw.mcu
    mcu.disconnect()
    t.run(0.5)
    mcu.plug_in()
    t.run(0.01)
    assert t.lights == {}  # a booting firmware puts its strip out
    t.run(2.5)
    assert t.lights == {"36": "lift", "30": "put"}


def test_the_self_test_lights_each_cell_while_its_sensor_reads_closed(capsys: pytest.CaptureFixture[str]) -> None:
    profile = profile_for(PROFILE)
    assert profile.leds is not None
    strips: list[Strip] = []
    code = run_selftest(profile, seconds=None, script=True, chatter_hz=8.0,
                        faults=lambda hw: strips.append(hw.mcu.strip))
    assert code == 0, capsys.readouterr().out
    frames = strips[0].frames
    seen = {i for frame in frames for i, rgb in enumerate(frame) if rgb != (0, 0, 0)}
    assert seen == set(profile.leds.at.values())  # every box's LED lit once, by its place on the strip
    assert {rgb for frame in frames for rgb in frame} == {(0, 0, 0), pico.PALETTE[Colour.SEEN]}
    assert max(sum(rgb != (0, 0, 0) for rgb in frame) for frame in frames) <= 2  # only the cells being touched
