"""Factional Hannibal on the simulated table, end to end: the tests move chits on the Honor tray (magnets on
its reeds, read by the simulated Pico over its serial line) and press the buttons (the Pi's own pins) as
people do, and read what people read: the screen and the journal."""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import check_golden

from controller import journal
from controller.cli import main
from controller.demo import run_demo
from controller.dice import Dice
from controller.flows.factional import FactionalFlow, Phase
from controller.journal import read
from controller.screen import Screen
from controller.table import Table, build_table, load_backend, profile_for
from engines.factional import location, new_game
from firmware_bridge.firmware import pico
from hw_config.profile import PROFILES

TICK = 0.01  # the simulated profile's loop turns 100 times a second


class FactionalTable:
    def __init__(self, path: Path, seed: int = 0, profile: str = "factional-sim") -> None:
        self.profile = profile_for(profile)
        self.hw = load_backend(self.profile, seed=seed)
        self.board = self.hw.board
        self.journal_path = path
        self.shown: list[tuple[Screen, str]] = []  # each screen, with the journal's last move when it went up
        self.table: Table = build_table(self.profile, self.hw, path, Dice(random.Random(seed)), seed=seed,
                                        echo=lambda s: self.shown.append((s, self.last_move())))
        self.table.flow.start()
        self.run(0.2)

    @property
    def flow(self) -> FactionalFlow:
        flow = self.table.flow
        assert isinstance(flow, FactionalFlow)
        return flow

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / TICK)):
            self.table.loop.tick()
            self.hw.clock.advance(TICK)

    def close(self) -> None:
        self.table.journal.close()
        self.hw.close()  # the link's reader thread and the pty

    def press(self, button: str, times: int = 1) -> None:
        pin = self.profile.buttons[button].pin
        assert pin is not None
        for _ in range(times):
            self.board.press_pin(pin)
            self.run(0.08)
            self.board.release_pin(pin)
            self.run(0.3)

    def cell(self, province: str, holder: str) -> tuple[int, int]:
        return self.profile.locations[location(province, holder)]

    def lift(self, province: str, holder: str) -> None:
        self.board.lift(self.cell(province, holder))
        self.run(0.5)

    def put(self, province: str, holder: str) -> None:
        self.board.place(self.cell(province, holder))
        self.run(0.6)

    def set_up(self) -> None:
        """Every held province's chit on its holder's cell, as the position (new or resumed) says."""
        for loc in self.flow.game.occupancy():
            self.board.place(self.profile.locations[loc])
        self.run(0.6)

    def pick(self, label: str) -> None:
        """A menu: NEXT until ``label`` is highlighted, then OK (reading the screen)."""
        for _ in range(12):
            if f"> {label}" in self.text:
                self.press("OK")
                return
            self.press("NEXT")
        raise AssertionError(f"{label} is not offered: {self.text}")

    def to_card_play(self, first: str) -> None:
        self.press("OK")  # reinforcements done
        self.press("OK")  # the duties read
        self.press("OK")  # the cards dealt
        self.press(f"faction:{first}")  # the initiative, by a faction button of that side

    def wait_message(self) -> None:
        self.run(1.6)  # a message stays up for the profile's message time

    @property
    def text(self) -> str:
        current = self.table.display.current
        return current.text() if current else ""

    @property
    def phase(self) -> Phase:
        return self.flow.phase

    def moves(self) -> list[str]:
        return [entry.move for entry in read(self.journal_path).entries]  # the moves; notes are no moves

    def replayed(self) -> dict[str, Any]:
        """The journal on disk replayed from the start, takebacks and all: the position it ends in."""
        return journal.replay(journal.read(self.journal_path))[-1].to_json()

    def last_move(self) -> str:
        lines = self.journal_path.read_text().splitlines() if self.journal_path.exists() else []
        return json.loads(lines[-1]).get("move", "") if len(lines) > 1 else ""


@pytest.fixture
def bare(tmp_path: Path) -> Iterator[FactionalTable]:
    """A new game on an empty tray."""
    t = FactionalTable(tmp_path / "f.jsonl")
    yield t
    t.close()


@pytest.fixture
def table(bare: FactionalTable) -> FactionalTable:
    """A new game, its tray set up."""
    assert bare.phase is Phase.SETUP and "+Apulia R.Copper" in bare.text
    bare.set_up()
    assert bare.phase is Phase.BOARD and "T1 reinforcements" in bare.text
    return bare




def test_a_chit_moved_on_the_tray_is_a_control_event_with_its_honor_change(table: FactionalTable) -> None:
    table.lift("latium", "rome-silver")
    assert table.moves() == []  # a chit in the hand is no event yet
    table.put("latium", "carthage-copper")
    assert table.moves() == ["control latium carthage-copper"]
    assert "Latium (5 HP)" in table.text and "now Carth Copper" in table.text
    assert "Rome Silver   8 >  3" in table.text and "Carth Copper  9 > 14" in table.text
    table.lift("carthage", "carthage-copper")
    table.run(3.0)  # off the tray for the grace period: nobody holds it now?
    assert table.phase is Phase.NOBODY and "Carthage held by" in table.text
    table.press("OK")
    assert table.moves()[-1] == "control carthage none" and "Carth Copper 14 >  9" in table.text


def test_a_row_with_two_chits_is_guided_back_and_nothing_is_applied(table: FactionalTable) -> None:
    table.put("latium", "carthage-copper")  # the new cell first, the old chit still down
    table.run(3.0)
    assert table.phase is Phase.FIXUP and "Latium: 2 chits" in table.text and "-Latium C.Copper" in table.text
    assert table.flow.fixups == ("lift latium:carthage-copper",) and table.moves() == []
    table.press("faction:rome-silver")  # no event is entered while the tray is wrong
    table.lift("latium", "carthage-copper")
    assert table.phase is Phase.BOARD and table.moves() == []
    table.put("latium", "carthage-copper")
    table.lift("latium", "rome-silver")  # the old chit lifted last: a lift proves a move once quiet
    table.run(0.5)
    assert table.moves() == []
    table.run(2.5)
    assert table.moves() == ["control latium carthage-copper"]


def test_a_chit_moved_during_an_entry_is_put_back_and_the_entry_goes_on(table: FactionalTable) -> None:
    table.press("NEXT")
    table.pick("Battle")
    table.press("faction:rome-copper")
    table.lift("sicilia", "rome-copper")
    table.put("sicilia", "carthage-silver")
    table.run(3.0)
    assert table.phase is Phase.FIXUP and "chit moved mid-entry" in table.text
    assert "-Sicilia C.Silver" in table.text and "+Sicilia R.Copper" in table.text
    table.lift("sicilia", "carthage-silver")
    table.put("sicilia", "rome-copper")
    assert table.phase is Phase.FORM and table.moves() == []
    assert table.flow.words == ["battle"] and "Won with P. Scipio?" in table.text  # where the entry was


def test_a_battle_shows_the_honor_change_before_ok(table: FactionalTable) -> None:
    table.press("NEXT")
    table.pick("Battle")
    assert "Battle: who won?" in table.text
    table.press("faction:rome-silver")
    assert "Won with T. Longus?" in table.text
    table.pick("yes: Honor shared")
    table.press("faction:carthage-copper")
    table.pick("yes: it loses PCs")
    assert "PCs: 0" in table.text and "no Honor changes" in table.text
    table.press("NEXT", 5)
    table.press("PREV")
    assert "PCs: 4" in table.text
    for line in ("Rome Silver   8 > 10", "Rome Copper   6 >  8", "Carth Copper  9 >  5"):
        assert line in table.text
    assert table.moves() == []  # shown, not yet entered
    table.press("OK")
    assert table.moves() == ["battle rome-silver/shared carthage-copper/borrowed 4"]
    assert table.phase is Phase.BOARD and "*Carth Copper  5  0c" in table.text


def test_an_activation_asks_the_partner_who_vetoes(table: FactionalTable) -> None:
    table.to_card_play("carthage-silver")
    assert "T1 Carthage to play" in table.text and "T1 Carth: who plays?" in table.text
    assert table.moves() == ["reinforced", "initiative carthage"]
    table.press("faction:rome-silver")
    assert "not Rome's play" in table.text
    table.press("faction:carthage-copper")
    table.pick("activate Hannibal")
    assert "Copper asks to" in table.text and "activate Hannibal." in table.text and "Silver answers:" in table.text
    table.press("BACK")
    assert table.moves()[-2:] == ["play carthage-copper activate", "veto"]
    assert "T1 Rome to play" in table.text and "*Carth Copper  9  3c" in table.text


def test_the_die_is_journaled_before_it_is_shown(table: FactionalTable) -> None:
    table.press("NEXT")
    table.pick("Roll the die")
    die = table.moves()[-1]
    assert table.moves()[-2:] == ["roll", die] and die.startswith("die ")
    shown = [(screen, last) for screen, last in table.shown if screen.dice]
    assert len(shown) == 1 and shown[0][1] == die and f"rolled {die[4:]}" in shown[0][0].text()


def test_a_profile_for_own_dice_asks_for_the_die(tmp_path: Path) -> None:
    profile = tmp_path / "own-die.toml"
    profile.write_text((PROFILES / "factional-sim.toml").read_text() + "\n[chance]\nby_hand = true\n")
    t = FactionalTable(tmp_path / "j.jsonl", profile=str(profile))
    try:
        t.set_up()
        t.press("NEXT")
        t.pick("Roll the die")
        assert t.phase is Phase.DIE and "Die: 1" in t.text and t.moves()[-1] == "roll"  # the table draws nothing
        for _ in range(3):
            t.press("NEXT")
        t.press("OK")
        last = json.loads(t.journal_path.read_text().splitlines()[-1])
        assert last["move"] == "die 4" and last["entered"] is True
        assert any("rolled 4" in screen.text() for screen, _ in t.shown)
    finally:
        t.close()


def test_golden_honor_board_and_ranking(table: FactionalTable) -> None:
    table.lift("celtiberia", "carthage-silver")
    table.put("celtiberia", "carthage-copper")
    table.to_card_play("rome-copper")
    table.wait_message()
    assert table.phase is Phase.BOARD and "T1 Rome to play" in table.text
    check_golden("factional_honor_board", table.hw.display_device.image.copy())
    table.press("NEXT")
    table.pick("Game over")
    table.pick("Carthage")
    assert "Carthage won the war?" in table.text and table.moves()[-1] == "initiative rome"
    table.press("OK")
    assert table.moves()[-1] == "end carthage" and table.phase is Phase.OVER
    assert "First Among Equals" in table.text and "1 Carth Copper  10" in table.text
    check_golden("factional_ranking", table.hw.display_device.image.copy())


def test_a_dead_sensor_is_named_and_ignored_on_the_players_word(bare: FactionalTable) -> None:
    t = bare
    dead = t.cell("latium", "rome-silver")
    t.board.stuck_open.add(dead)
    t.set_up()
    assert t.phase is Phase.SETUP and t.flow.fixups == ("put 1 rome-silver on latium:rome-silver",)
    t.run(20.0)
    assert "stuck? OK: ignore it" in t.text and "+Latium R.Silver" in t.text
    t.press("OK")
    assert t.phase is Phase.BOARD and "T1 reinforcements" in t.text
    t.lift("latium", "rome-silver")  # a chit on a dead reed moved on: seen where it lands
    t.put("latium", "rome-copper")
    assert t.moves() == ["control latium rome-copper"]


def test_the_tray_is_on_the_picos_own_pins_and_the_buttons_on_the_pis(capsys: pytest.CaptureFixture[str]) -> None:
    """15 x 8 = 120 cells on 23 lines, exactly the Pico's free GP pins: no shift registers; the simulated
    table is the real one but for the backend (its selftest below reads every cell through that wiring)."""
    real, sim = profile_for("factional"), profile_for("factional-sim")
    assert (real.backend, sim.backend) == ("bridge", "sim-bridge") and real.serial is not None
    assert (len(real.rows), len(real.cols)) == (15, 8) and len(real.rows) + len(real.cols) == len(pico.FREE_PINS)
    assert pico.direct(len(real.rows), len(real.cols)) and len(real.cells) == 120
    assert real.buttons == sim.buttons and all(b.pin is not None for b in real.buttons.values())
    assert (real.rows, real.cols, real.cells) == (sim.rows, sim.cols, sim.cells)
    assert main(["check-config", "factional", "--wiring"]) == 0
    out = capsys.readouterr().out
    assert "matrix 15x8: read by the microcontroller on /dev/serial0" in out and "TXD GPIO14 header pin 8" in out
    assert "faction:carthage-copper: GPIO21 header pin 40" in out and "matrix cell" not in out


def test_selftest_names_all_120_tray_cells_and_the_8_buttons(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "factional-sim", "--script"]) == 0
    out = capsys.readouterr().out
    assert "cells seen working: 120/120" in out and "buttons pressed: 8/8" in out



# -- taking back -------------------------------------------------------------------------------------------

def _battle(table: FactionalTable, winner: str, loser: str, pcs: int) -> None:
    """A battle entered with the buttons, neither side with its partner's Full General."""
    table.press("NEXT")
    table.pick("Battle")
    table.press(f"faction:{winner}")
    table.pick("no: its own")
    table.press(f"faction:{loser}")
    table.pick("no: its own")
    table.press("NEXT", pcs)
    table.press("OK")


def test_a_battle_entered_wrongly_is_taken_back_and_the_right_one_entered(table: FactionalTable) -> None:
    _battle(table, "rome-silver", "carthage-copper", 3)  # Carthage won it, in truth
    assert table.moves() == ["battle rome-silver carthage-copper 3"] and "Rome Silver  11" in table.text
    table.press("BACK")
    assert table.phase is Phase.UNDO and "Take back?" in table.text and "R.Silver won, 3 PCs" in table.text
    assert "Rome Silver  11 >  8" in table.text and table.moves()[-1].startswith("battle")
    table.press("OK")
    assert table.moves()[-1] == "undo" and table.phase is Phase.BOARD
    assert "Taken back" in table.text and table.flow.game.to_json() == new_game().to_json()
    table.wait_message()
    assert "Rome Silver   8" in table.text and "T1 reinforcements" in table.text
    _battle(table, "carthage-copper", "rome-silver", 3)
    right = new_game()
    right.apply(right.parse_move("battle carthage-copper rome-silver 3"))
    assert table.flow.game.to_json() == right.to_json() == table.replayed()


def test_a_chit_on_the_wrong_cell_is_taken_back_and_guided_back_first(table: FactionalTable) -> None:
    table.lift("latium", "rome-silver")
    table.put("latium", "carthage-silver")  # meant for Copper
    assert table.moves() == ["control latium carthage-silver"]
    table.press("BACK")
    table.wait_message()
    assert table.phase is Phase.UNDO and "Latium > C.Silver" in table.text and "Rome Silver   3 >  8" in table.text
    table.press("OK")
    assert table.moves()[-1] == "undo" and table.phase is Phase.FIXUP
    assert table.flow.fixups == ("lift latium:carthage-silver", "put 1 rome-silver on latium:rome-silver")
    table.lift("latium", "carthage-silver")
    table.put("latium", "carthage-copper")  # straight on to the right cell: not read until the tray is back
    table.run(3.5)
    assert table.phase is Phase.FIXUP and table.moves()[-1] == "undo"
    assert table.flow.fixups == ("lift latium:carthage-copper", "put 1 rome-silver on latium:rome-silver")
    table.wait_message()
    assert "-Latium C.Copper" in table.text and "+Latium R.Silver" in table.text
    table.lift("latium", "carthage-copper")
    table.put("latium", "rome-silver")
    assert table.phase is Phase.BOARD and table.flow.game.to_json() == new_game().to_json()
    table.lift("latium", "rome-silver")
    table.put("latium", "carthage-copper")
    assert table.moves()[-3:] == ["control latium carthage-silver", "undo", "control latium carthage-copper"]
    assert table.flow.game.control["latium"] == "carthage-copper" and table.replayed() == table.flow.game.to_json()


def test_a_chit_put_back_where_it_stood_offers_to_take_the_event_back(table: FactionalTable) -> None:
    table.lift("latium", "rome-silver")
    table.put("latium", "carthage-silver")
    table.wait_message()
    assert table.moves() == ["control latium carthage-silver"]
    table.lift("latium", "carthage-silver")
    table.put("latium", "rome-silver")  # put back as before the event
    assert table.phase is Phase.UNDO and "Latium > C.Silver" in table.text
    table.press("OK")
    assert table.moves()[-1] == "undo" and table.phase is Phase.BOARD  # the tray already shows it: no fix-up
    assert table.flow.game.to_json() == new_game().to_json() == table.replayed()


def test_no_at_the_offer_reads_the_chit_put_back_as_a_control_event(table: FactionalTable) -> None:
    table.lift("latium", "rome-silver")
    table.put("latium", "carthage-silver")
    table.wait_message()
    table.lift("latium", "carthage-silver")
    table.put("latium", "rome-silver")
    assert table.phase is Phase.UNDO
    table.press("BACK")  # Rome took Latium back on the map: an event of its own
    assert table.moves() == ["control latium carthage-silver", "control latium rome-silver"]
    assert table.flow.game.control["latium"] == "rome-silver" and table.replayed() == table.flow.game.to_json()


def test_a_wrong_activation_is_taken_back_from_the_event_list(table: FactionalTable) -> None:
    table.to_card_play("carthage-silver")
    table.press("faction:carthage-copper")  # Silver was to play, and without asking
    table.pick("activate Hannibal")
    assert "activate Hannibal." in table.text  # BACK here is the partner's veto: the list has the takeback
    table.press("NEXT")
    table.pick("Take back last")
    assert table.phase is Phase.UNDO and "Copper asks Hannibal" in table.text
    table.press("OK")
    table.wait_message()
    assert table.moves()[-2:] == ["play carthage-copper activate", "undo"] and "T1 Carthage to play" in table.text
    table.press("faction:carthage-silver")
    table.pick("play a card")
    assert table.moves()[-1] == "play carthage-silver" and table.flow.game.cards["carthage-copper"] == 4
    assert table.flow.game.cards["carthage-silver"] == 3 and table.replayed() == table.flow.game.to_json()


def test_events_are_taken_back_one_by_one_but_never_the_die(table: FactionalTable) -> None:
    table.to_card_play("rome-copper")
    for line in ("Initiative: Rome", "Reinforcements done"):
        lines = len(table.moves())
        table.press("BACK")
        assert table.phase is Phase.UNDO and line in table.text
        table.press("BACK")  # not this one after all: the question goes, nothing is journaled
        assert table.phase is Phase.BOARD and len(table.moves()) == lines
        table.press("BACK")
        table.press("OK")
        table.wait_message()  # "Taken back" and what it gave back
    assert table.moves()[-2:] == ["undo", "undo"] and table.flow.game.to_json() == new_game().to_json()
    table.press("BACK")
    assert "nothing to take back" in table.text and table.phase is Phase.BOARD
    _battle(table, "rome-copper", "carthage-silver", 1)
    table.press("NEXT")
    table.pick("Roll the die")
    assert table.moves()[-2] == "roll"
    table.wait_message()
    table.press("BACK")  # neither the die nor the battle before it
    assert "nothing to take back" in table.text and table.moves()[-1].startswith("die ")
    assert table.replayed() == table.flow.game.to_json()


def test_a_resumed_game_takes_back_what_was_entered_before_the_restart(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    first = FactionalTable(path)
    first.set_up()
    first.to_card_play("carthage-copper")
    first.press("faction:carthage-silver")
    first.pick("play a card")
    _battle(first, "rome-silver", "carthage-silver", 2)
    first.press("BACK")
    first.press("OK")
    before = first.flow.game.to_json()
    first.close()  # the power goes off
    assert [json.loads(line)["move"] for line in path.read_text().splitlines()[1:]][-2:] == [
        "battle rome-silver carthage-silver 2", "undo"]
    again = FactionalTable(path)
    try:
        assert again.table.resumed and again.flow.game.to_json() == before
        again.set_up()
        assert again.phase is Phase.BOARD and "T1 Rome to play" in again.text
        again.press("BACK")
        assert again.phase is Phase.UNDO and "Silver plays" in again.text  # the play before the restart
        again.press("OK")
        assert again.moves()[-1] == "undo" and again.flow.game.cards["carthage-silver"] == 4
        assert again.flow.game.playing == "carthage" and again.replayed() == again.flow.game.to_json()
    finally:
        again.close()

# -- whole games -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path, Path, str]]:
    """One CLI demo for the tests below: its exit code, journal, frames and printed screens."""
    folder = tmp_path_factory.mktemp("demo")
    path, frames = folder / "demo.jsonl", folder / "frames"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["demo", "factional", "--seed", "3", "--journal", str(path), "--frames", str(frames)])
    yield code, path, frames, out.getvalue()


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_demo_plays_nine_turns_to_a_four_place_ranking(demo: tuple[int, Path, Path, str]) -> None:
    code, path, frames, out = demo
    assert code == 0
    last = _lines(path)[-1]
    assert last["move"].startswith("end ") and last["state"]["turn"] == 9
    assert sorted(last["state"]["ranking"]) == sorted(new_game().players)
    contents = journal.read(path)
    assert contents.finished and journal.replay(contents, path)[-1].ranking() == last["state"]["ranking"]
    assert f"winner: {last['state']['ranking'][0]}" in out and len(list(frames.glob("*.png"))) > 300


def test_the_demo_shows_every_kind_of_event(demo: tuple[int, Path, Path, str]) -> None:
    moves = [line["move"] for line in _lines(demo[1])[1:]]
    words = [m.split() for m in moves]
    for kind in ("reinforced", "initiative", "play", "approve", "veto", "roll", "die", "discard", "control"):
        assert any(w[0] == kind for w in words), kind
    battles = [w for w in words if w[0] == "battle"]
    assert any("/shared" in w[1] for w in battles) and any("/borrowed" in w[2] for w in battles)
    assert any(w[1] == "none" for w in battles) and any(w[2] == "none" for w in battles)
    assert any(w[0] == "play" and len(w) == 3 for w in words)
    assert sum(w[0] == "control" and w[2] == "none" for w in words) >= 1


def test_every_demo_screen_fits_the_oled(demo: tuple[int, Path, Path, str]) -> None:
    """21 characters a line (20 on the first two, beside where dice would be drawn; 17 beside a die), four
    lines over a footer or five without."""
    blocks = [b.split("\n") for b in demo[3].split("\n\n") if b and not b.startswith("winner:")]
    assert len(blocks) > 300
    for block in blocks:
        title, rest = block[0], block[1:]
        body = [line[2:] for line in rest if line[:2] in ("  ", "> ")]
        footer = [line for line in rest if line[:2] not in ("  ", "> ")]
        dice = "  [" in title
        assert len(title.split("  [")[0]) <= 21 and all(len(f) <= 21 for f in footer), block
        assert len(body) <= (4 if footer else 5), block
        for i, line in enumerate(body):
            assert len(line) <= ((17 if dice else 20) if i < 2 else 21), block


def test_resume_after_a_cut_journal_finishes_the_same_game(demo: tuple[int, Path, Path, str],
                                                           tmp_path: Path) -> None:
    lines = demo[1].read_text().splitlines(keepends=True)
    half = len(lines) * 2 // 3
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:half]) + lines[half][:30])  # torn mid-line by a power cut
    result = run_demo(3, cut, game="factional")
    assert result.table.resumed and cut.read_text().splitlines(keepends=True)[:half] == lines[:half]
    final = journal.replay(journal.read(cut))[-1]
    assert final.is_over() and len(final.ranking()) == 4
