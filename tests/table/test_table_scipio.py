"""Scipio on the simulated table, end to end: the tests press the buttons and move the tokens (magnets on
the formation reeds) as people do, and read what people read: the screen and the journal on disk."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from support import ROOT_DIR, check_golden

from controller import journal
from controller.cli import main
from controller.demo import run_demo
from controller.dice import Dice
from controller.flows import scipio_screens as screens
from controller.flows.scipio import Phase, ScipioFlow
from controller.screen import render
from controller.table import Table, build_table, profile_for
from engines.scipio import FORMATIONS, State, location
from hw_config import Profile
from sim_hardware.backend import create

TICK = 0.005
SIM_PROFILE = ROOT_DIR / "hw_config" / "profiles" / "scipio-sim.toml"


def without_pads(tmp_path: Path) -> Path:
    """The simulated profile with the card pads taken out (their matrix cells left unused): secret cards
    then go through the menu behind the look-away screen."""
    layout = tmp_path / "scipio-layout.toml"
    unused = ", ".join(f"[{r}, {c}]" for r in (4, 5) for c in range(6))
    layout.write_text((SIM_PROFILE.parents[1] / "layouts" / "scipio.toml").read_text().replace(
        "[cells]", f"unused = [{unused}]\n\n[cells]"))
    text = "\n".join(line for line in SIM_PROFILE.read_text().splitlines() if not line.startswith('"card:'))
    path = tmp_path / "scipio-nopads.toml"
    path.write_text(text.replace('layout = "scipio"', 'layout = "scipio-layout.toml"'))
    return path


class ScipioTable:
    def __init__(self, path: Path, profile: str | Path = "scipio-sim", seed: int = 0) -> None:
        self.profile: Profile = profile_for(str(profile))
        self.hw = create(self.profile, seed=seed)
        self.board = self.hw.board
        self.journal_path = path
        self.table: Table = build_table(self.profile, self.hw, path, Dice(random.Random(seed)), seed=seed)
        self.table.flow.start()
        self.run(0.2)

    @property
    def flow(self) -> ScipioFlow:
        flow = self.table.flow
        assert isinstance(flow, ScipioFlow)
        return flow

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / TICK)):
            self.table.loop.tick()
            self.hw.clock.advance(TICK)

    def press(self, button: str, times: int = 1) -> None:
        spec = self.profile.buttons[button]
        for _ in range(times):
            if spec.pin is not None:
                self.board.press_pin(spec.pin)
                self.run(0.08)
                self.board.release_pin(spec.pin)
            else:
                assert spec.cell is not None
                self.board.pressed.add(spec.cell)
                self.run(0.08)
                self.board.pressed.discard(spec.cell)
            self.run(0.2)

    def cell(self, army: str, formation: str) -> tuple[int, int]:
        return self.profile.locations[f"{army}:{formation}"]

    @property
    def text(self) -> str:
        current = self.table.display.current
        return current.text() if current else ""

    @property
    def phase(self) -> Phase:
        return self.flow.phase

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.journal_path.read_text().splitlines()]

    def moves(self) -> list[str]:
        return [line["move"] for line in self.lines()[1:]]

    def organise_default(self) -> None:
        """Both armies take the offered organisation: look-away screen OK, then OK through the formations."""
        for _ in range(2):
            self.press("OK")  # the other army looks away
            self.press("OK", len(FORMATIONS))

    def set_up_tokens(self) -> None:
        game = self.flow.game
        for army in ("rome", "carthage"):
            for i, f in enumerate(FORMATIONS):
                self.board.place(self.cell(army, f), game.formation(army, i))
        self.run(0.3)
        self.press("OK")
        self.run(2.0)  # the tiles stay on screen for the message time

    def place_on_pad(self, army: str, cards: tuple[int, int, int]) -> None:
        for c in cards:
            self.press(f"card:{army}:{c}")
        self.press("OK")

    def put_tokens(self, leave_empty: str = "") -> None:
        """Put every formation's tokens back as the engine counts them (after a restart), but one."""
        game = self.flow.game
        for army in ("rome", "carthage"):
            for i, f in enumerate(FORMATIONS):
                cell = self.cell(army, f)
                self.board.lift(cell, self.board.count(cell))
                if location(army, i) != leave_empty:
                    self.board.place(cell, game.formation(army, i))
        self.run(0.3)


@pytest.fixture
def table(tmp_path: Path) -> ScipioTable:
    return ScipioTable(tmp_path / "scipio.jsonl")


@pytest.fixture(scope="module")
def game8(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The journal lines of a short random-bot game: damage, Opportune Move, Renowned General, a win."""
    path = tmp_path_factory.mktemp("demo") / "whole.jsonl"
    run_demo(8, path, game="scipio", seats={"rome": "random", "carthage": "random"})
    return path.read_bytes().splitlines(keepends=True)


def cut_after(lines: list[bytes], tmp_path: Path, move: str) -> Path:
    """The journal as a power cut after the first line whose move starts with ``move`` left it."""
    k = next(i for i, line in enumerate(lines) if json.loads(line).get("move", "").startswith(move)) + 1
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(lines[:k]))
    return path




def test_organisation_is_entered_behind_a_look_away_screen(tmp_path: Path) -> None:
    t = ScipioTable(tmp_path / "g.jsonl", without_pads(tmp_path))
    assert "Carthage, look away!" in t.text and "Y0" not in t.text  # nothing secret before OK
    t.press("OK")
    assert "Y0>6" in t.text
    t.press("NEXT")  # yellow.0: 7
    t.press("OK", 5)  # to green.1
    t.press("PREV")  # green.1: 5
    t.press("OK")
    assert t.moves() == ["org rome 7,5,6,5,6,5"]
    assert "Rome, look away!" in t.text
    t.press("OK")
    t.press("NEXT")  # 35 tokens: said at once, refused at the end
    assert "1 too many: lower one" in t.text
    t.press("OK", 6)
    assert "34 tokens, not 35" in t.text and len(t.moves()) == 1
    t.press("PREV")
    t.press("OK")
    assert t.moves()[-1] == "org carthage 7,5,6,5,6,5"  # the cursor stayed on green.1
    assert t.phase is Phase.BOARD and "R 7 5|6 5|6 5" in t.text and "C 7 5|6 5|6 5" in t.text


def test_cards_without_pads_any_card_of_the_hand_can_go_on_any_field(tmp_path: Path) -> None:
    t = ScipioTable(tmp_path / "g.jsonl", without_pads(tmp_path))
    t.organise_default()
    t.set_up_tokens()
    assert "Carthage, look away!" in t.text
    t.press("OK")
    assert "Y>2  P 3  G 4" in t.text
    t.press("NEXT")  # yellow takes the 3 purple was showing
    t.press("OK")
    assert "Y 3  P>2  G 4" in t.text  # purple moves on to a card still free
    t.press("NEXT", 2)  # 4, then 5: the 3 on yellow is skipped
    t.press("OK")
    t.press("PREV")  # green: from 4 down past the 3 on yellow to the 2
    t.press("OK")
    assert t.moves()[-1] == "place rome Y3 P5 G2"


def test_tokens_must_be_on_every_formation_before_play(table: ScipioTable) -> None:
    table.organise_default()
    table.board.place(table.cell("rome", "yellow.0"), 6)
    table.run(0.3)
    table.press("OK")
    assert table.phase is Phase.BOARD and "empty:" in table.text and "carthage:green.1" in table.text
    table.set_up_tokens()
    assert table.moves()[-1].startswith("tiles ")  # journaled before it was shown
    assert table.phase is Phase.ENTRY and "Rome: cards" in table.text


def test_cards_on_the_pads_stay_secret_until_both_are_in(table: ScipioTable) -> None:
    table.organise_default()
    table.set_up_tokens()
    table.press("card:carthage:7")
    assert "Carthage's pad" in table.text
    table.press("card:rome:7")
    table.press("card:rome:7")
    assert "7 is not in your hand" in table.text
    table.press("card:rome:3")
    table.press("BACK")
    table.press("card:rome:2")
    table.press("card:rome:4")
    assert "* * *" in table.text and "7" not in table.text.split("\n", 1)[1]
    table.press("OK")
    assert table.moves()[-1] == "place rome Y7 P2 G4"
    assert "Carthage: cards" in table.text
    table.place_on_pad("carthage", (3, 5, 2))
    assert table.phase is Phase.REVEAL
    assert "Y tile" in table.text and "R7 v C3" in table.text and "R2 v C5" in table.text


def test_damage_is_counted_on_the_formation_buttons_and_corrected_with_back(table: ScipioTable) -> None:
    table.organise_default()
    table.set_up_tokens()
    table.place_on_pad("rome", (7, 2, 4))
    table.place_on_pad("carthage", (3, 5, 2))
    game = table.flow.game
    field, army, amount, shield = game.plan[0]
    assert (army, shield) == ("carthage", True) or (army, shield) == ("rome", False)
    table.press("OK")  # reveal read: resolve
    assert table.phase is Phase.DAMAGE and f"{field.capitalize()}: damage" in table.text
    other_army = "rome" if army == "carthage" else "carthage"
    table.press(f"tap:{other_army}:{field}.0")
    assert "buttons" in table.text and f"taken 0 of {amount}" not in table.text
    table.press(f"tap:{army}:{field}.0")
    table.press(f"tap:{army}:{field}.0")
    table.press("BACK")
    table.press("OK")
    assert f"take {amount - 1} more" in table.text
    for _ in range(amount - 1):
        table.press(f"tap:{army}:{field}.1")
    table.press("OK")
    assert table.moves()[-1] == f"remove {army} {field} 1,{amount - 1}"
    after = table.flow.game
    assert [after.formation(army, FORMATIONS.index(f"{field}.{k}")) for k in (0, 1)] == [
        game.formation(army, FORMATIONS.index(f"{field}.0")) - 1,
        game.formation(army, FORMATIONS.index(f"{field}.1")) - (amount - 1)]


def test_a_formation_reed_opening_is_a_mismatch_and_play_waits(table: ScipioTable) -> None:
    table.organise_default()
    table.set_up_tokens()
    cell = table.cell("carthage", "purple.1")
    table.board.lift(cell, 5)
    table.run(0.3)
    assert table.phase is Phase.MISMATCH and "carthage:purple.1 reads empty" in table.text
    table.press("card:rome:7")  # nothing is taken while the board is wrong
    table.board.place(cell, 5)
    table.run(0.3)
    assert table.phase is Phase.ENTRY and table.flow.values == []
    table.board.lift(cell, 5)
    table.run(1.0)
    table.press("OK")  # the players vouch for the tokens: the reed is ignored from now on
    assert table.phase is Phase.ENTRY and "carthage:purple.1" in table.flow.ignored
    notes = [text for _, text in journal.read(table.journal_path).notes]  # the record says why, as everywhere
    assert notes == ["sensor carthage:purple.1 ignored on the players' word: stuck or dead"]


def test_golden_reveal_and_damage_screens(table: ScipioTable) -> None:
    table.organise_default()
    table.set_up_tokens()
    table.place_on_pad("rome", (7, 2, 4))
    table.place_on_pad("carthage", (3, 5, 2))
    check_golden("scipio_reveal", table.hw.display_device.image.copy())
    table.press("OK")
    field, army, _, _ = table.flow.game.plan[0]
    table.press(f"tap:{army}:{field}.0")
    check_golden("scipio_damage", table.hw.display_device.image.copy())


@pytest.mark.parametrize("seed", [3, 4])  # 4 ends on a reveal: the cards dealt damage nobody could take
def test_cli_demo_scipio_plays_a_whole_game(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, frames = tmp_path / "s.jsonl", tmp_path / "frames"
    assert main(["demo", "scipio", "--seed", str(seed), "--journal", str(path), "--frames", str(frames),
                 "--quiet"]) == 0
    last = json.loads(path.read_text().splitlines()[-1])
    assert last["state"]["winner"] in ("rome", "carthage")
    contents = journal.read(path)
    final = journal.replay(contents, path)[-1]
    assert contents.finished and final.winner == last["state"]["winner"]
    pngs = sorted(frames.glob("*.png"))
    assert len(pngs) > 20
    assert f"winner: {last['state']['winner']}" in capsys.readouterr().out
    assert isinstance(final, State)
    expected = render(screens.position_screen(final))
    assert f"{screens.NAMES[last['state']['winner']]} wins!" in screens.position_screen(final).title
    diff = ImageChops.difference(Image.open(pngs[-1]).convert("L"), expected.convert("L"))
    assert diff.getbbox() is None, "the last frame is not the result"


def test_demo_with_mistakes_catches_every_knocked_formation(tmp_path: Path) -> None:
    result = run_demo(5, tmp_path / "m.jsonl", game="scipio", mistakes=0.4)
    players = result.players
    assert players.knocked > 0 and players.mistakes_made > players.knocked  # slips on the buttons too
    assert result.table.flow.game.winner is not None and not result.table.flow.ignored
    assert journal.replay(journal.read(tmp_path / "m.jsonl"))[-1].is_over()


def test_resume_after_a_power_cut_finishes_the_same_journal(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    run_demo(4, whole, game="scipio")
    lines = whole.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[: len(lines) // 2]) + lines[len(lines) // 2][:25])  # torn mid-line
    result = run_demo(4, cut, game="scipio")
    assert result.table.resumed
    kept = cut.read_text().splitlines(keepends=True)
    assert kept[: len(lines) // 2] == lines[: len(lines) // 2]  # nothing journaled before the cut changed
    assert journal.replay(journal.read(cut))[-1].winner in ("rome", "carthage")


def test_a_reveal_without_damage_names_the_phase_the_cards_were_played_in(table: ScipioTable) -> None:
    table.organise_default()
    table.set_up_tokens()
    table.place_on_pad("rome", (7, 2, 4))
    table.place_on_pad("carthage", (7, 2, 4))  # every field a tie: the engine goes straight on to phase 2
    assert table.phase is Phase.REVEAL and table.flow.game.phase == 2
    assert table.text.startswith("Reveal R1 phase 1\n") and "no damage" in table.text
    table.press("OK")
    table.place_on_pad("rome", (3, 5, 6))
    table.place_on_pad("carthage", (3, 5, 6))  # and on to round 2
    assert table.text.startswith("Reveal R1 phase 2\n") and "R3 v C3" in table.text
    table.press("OK")
    table.run(2.0)
    assert table.moves()[-1].startswith("tiles ") and table.flow.game.round == 2 and "Rome: cards" in table.text


def test_a_reveal_that_ends_the_game_shows_the_winner_with_the_cards(table: ScipioTable) -> None:
    table.press("OK")  # Rome: yellow 1,1, the rest piled on green.1
    table.press("PREV", 5)
    table.press("OK")
    table.press("PREV", 4)
    table.press("OK", 4)
    table.press("NEXT", 9)
    table.press("OK")
    table.press("OK")  # Carthage: the default
    table.press("OK", len(FORMATIONS))
    assert table.moves() == ["org rome 1,1,6,5,6,15", "org carthage 6,5,6,5,6,6"]
    table.set_up_tokens()
    table.place_on_pad("rome", (2, 3, 4))
    table.place_on_pad("carthage", (5, 3, 4))  # yellow: a shield break on Rome's two tokens
    assert table.lines()[-1]["state"]["winner"] == "carthage"
    assert table.phase is Phase.OVER
    lines = table.text.split("\n")
    assert lines[0] == "Carthage wins!" and lines[1].endswith("R2 v C5")  # the cards that did it
    assert lines[-2:] == ["  Rome can't take 4", "in yellow: game over"]
    check_golden("scipio_over", table.hw.display_device.image.copy())


def test_a_restart_after_a_removal_has_the_tokens_put_back_then_asks_the_next_damage(
        game8: list[bytes], tmp_path: Path) -> None:
    t = ScipioTable(cut_after(game8, tmp_path, "remove"))  # a new table: every reed reads empty
    assert t.table.resumed and t.phase is Phase.BOARD
    assert t.text.startswith("Resume: tokens") and "12 formations empty" in t.text
    t.press("OK")  # nothing goes on while a formation reads empty
    assert t.phase is Phase.BOARD and "empty: carthage:green.0" in t.text
    t.press("OK")  # a second press too soon to have read the list declares nothing broken
    assert t.phase is Phase.BOARD and not t.flow.ignored
    t.put_tokens()
    assert "all set: OK" in t.text and t.phase is Phase.BOARD
    t.press("OK")
    assert t.phase is Phase.DAMAGE and "Green: damage" in t.text and "Carthage takes 1" in t.text
    t.press("tap:carthage:green.1")
    t.press("OK")
    assert t.moves()[-1] == "remove carthage green 0,1" and t.phase is Phase.MENU and "draw carthage" in t.text


def test_a_restart_after_a_new_orders_card_opens_its_menu(game8: list[bytes], tmp_path: Path) -> None:
    t = ScipioTable(cut_after(game8, tmp_path, "card general"))
    t.put_tokens()
    t.press("OK")
    assert t.phase is Phase.MENU and t.text.startswith("Carthage: general") and "tiles Y1 P2 G3" in t.text


def test_a_restart_right_after_the_cards_shows_the_reveal_again(game8: list[bytes], tmp_path: Path) -> None:
    t = ScipioTable(cut_after(game8, tmp_path, "place carthage"))
    t.put_tokens()
    t.press("OK")
    assert t.phase is Phase.REVEAL and t.text.startswith("Reveal R1 phase 1")
    assert "R4 v C4" in t.text and "R7 v C2" in t.text and "R5 v C3" in t.text
    t.press("OK")
    assert t.phase is Phase.DAMAGE and "Purple: damage" in t.text


def test_a_reveal_without_damage_cut_off_by_the_power_is_shown_after_the_restart(tmp_path: Path) -> None:
    """Without damage the engine's state no longer holds the round's cards: they come from the journal."""
    path = tmp_path / "g.jsonl"
    t = ScipioTable(path)
    t.organise_default()
    t.set_up_tokens()
    for cards in ((7, 2, 4), (3, 5, 6)):
        t.place_on_pad("rome", cards)
        t.place_on_pad("carthage", cards)
        if cards == (7, 2, 4):
            t.press("OK")
    assert t.text.startswith("Reveal R1 phase 2") and t.flow.game.step == "tiles"
    t.table.journal.close()  # the power goes before anyone presses OK
    again = ScipioTable(path, seed=1)
    again.put_tokens()
    again.press("OK")
    assert again.phase is Phase.REVEAL and again.text.startswith("Reveal R1 phase 2\n")
    assert "R3 v C3" in again.text and "no damage" in again.text
    again.press("OK")
    again.run(2.0)
    assert again.moves()[-1].startswith("tiles ") and "Rome: cards" in again.text


def test_a_dead_reed_at_the_restart_is_vouched_for_with_a_second_ok(game8: list[bytes], tmp_path: Path) -> None:
    t = ScipioTable(cut_after(game8, tmp_path, "remove"))
    t.put_tokens(leave_empty="rome:purple.1")  # the tokens are there, the reed stays open
    t.press("OK")
    assert t.phase is Phase.BOARD and "empty: rome:purple.1" in t.text and "OK again: reed broken" in t.text
    t.run(1.0)
    t.press("OK")  # the players' word: the reed is broken
    assert t.phase is Phase.DAMAGE and "rome:purple.1" in t.flow.ignored
    assert [text for _, text in journal.read(t.journal_path).notes] == [
        "sensor rome:purple.1 ignored on the players' word: stuck or dead"]


def test_location_names_match_the_layout() -> None:
    profile = profile_for("scipio-sim")
    assert set(profile.locations) == {location(a, i) for a in ("rome", "carthage") for i in range(6)}
