"""Games as plugins: the generic modules know no game, every game is reached through its registry entry,
and the same seed still gives the same journal, byte for byte, as before the platform was made generic."""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import GOLDEN_DIR, ROOT_DIR

from controller.cli import main
from controller.demo import run_demo
from controller.journal import read
from engines.registry import games, get_game

ROOT = ROOT_DIR
GOLDEN = GOLDEN_DIR / "journals"


def _game_modules() -> set[Path]:
    """The modules a registry entry names (flows, screens, scripted players, printable boards): a game's own files."""
    out = set()
    for info in games():
        for ref in (info.flow, info.screen, info.scripted, info.printable):
            if ref is not None:
                out.add(ROOT / (ref.partition(":")[0].replace(".", "/") + ".py"))
    return out


def _code_without_comments(path: Path) -> str:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):  # docstrings may explain with an example game; code may not name one
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0] = ast.Pass()
    return ast.unparse(tree)


def test_generic_modules_name_no_game_and_test_no_game_class() -> None:
    own = _game_modules()
    names = [g.name for g in games()]
    generic = [p for folder in ("controller", "sim_hardware") for p in (ROOT / folder).rglob("*.py")
               if p not in own and "firmware" not in p.parts]
    assert len(generic) > 20 and own
    for path in generic:
        code = _code_without_comments(path)
        for name in names:
            assert not re.search(rf"\b{name}\b", code, re.IGNORECASE), f"{path.relative_to(ROOT)} names {name}"
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                assert not (parts[0] == "engines" and len(parts) > 1 and parts[1] in names), \
                    f"{path.relative_to(ROOT)} imports {node.module}"


def test_every_registry_reference_resolves() -> None:
    from engines.registry import load_ref

    for info in games():
        for ref in (info.flow, info.screen, info.scripted, info.evaluator, info.candidates):
            if ref is not None:
                assert callable(load_ref(ref)), ref
        assert info.flow is None or info.name in info.profiles  # a game on the table ships its board profile
        for profile in info.profiles:
            assert (ROOT / "hw_config" / "profiles" / f"{profile}.toml").is_file(), profile


def test_help_imports_no_engine_pil_serial_or_transitions() -> None:
    code = ("import sys, contextlib, io\nfrom controller.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try: main(['--help'])\n    except SystemExit: pass\n"
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('PIL', 'serial', 'transitions', 'luma', "
            "'gpiozero') or (m.startswith('engines.') and m not in ('engines.base', 'engines.registry'))]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game,seed", [("hannibal", 3), ("scipio", 2)])
def test_same_seed_same_journal_as_before_the_refactor(tmp_path: Path, game: str, seed: int) -> None:
    journal = tmp_path / "j.jsonl"
    run_demo(seed, journal, game=game)
    assert journal.read_text().splitlines()[1:] == (GOLDEN / f"{game}-{seed}.jsonl").read_text().splitlines()


def test_version_and_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and re.fullmatch(r"boardkeeper \d+\.\d+\.\d+\n", capsys.readouterr().out)
    assert main(["games"]) == 0
    listing = capsys.readouterr().out
    for info in games():
        assert info.name in listing and info.title in listing
    assert "yellow vs blue" in listing and "hannibal-sim" in listing


def test_demo_seats_pick_the_bots_and_bad_seats_are_one_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "j.jsonl"
    assert main(["demo", "hannibal", "--seed", "4", "--seat", "blue=random", "--quiet", "--journal",
                 str(journal)]) == 0
    assert read(journal).finished
    for bad, says in ((["--seat", "green=random"], "NAME one of yellow, blue"),
                      (["--seat", "blue=genius"], "bots are random, heuristic, mcts"),
                      (["--players", "3"], "hannibal is for 2 players, not 3"),
                      (["--profile", "scipio-sim"], "scipio-sim.toml is for scipio, not hannibal"),
                      (["--profile", "hannibal"], "hannibal.toml is a real board; a demo needs a simulated one"),
                      (["--profile", str(tmp_path / "nope.toml")], "nope.toml: no such file")):
        assert main(["demo", "hannibal", "--quiet", *bad]) == 2
        err = capsys.readouterr().err
        assert says in err and err.count("\n") == 1, err


def test_play_sim_plays_the_game_asked_for(tmp_path: Path) -> None:
    journal = tmp_path / "s.jsonl"
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "scipio", "--sim", "--seed", "2",
                             "--journal", str(journal)], input="ok\nok\nquit\n", cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Rome: organise" in result.stdout and f"game saved in {journal}" in result.stdout
    assert json.loads(journal.read_text().splitlines()[0])["game"] == "scipio"


def test_play_sim_prints_none_of_the_bots_secret_entries(tmp_path: Path) -> None:
    """Scipio's organisation and cards are entered behind "look away": at a terminal nobody can look away,
    so the bot's entry screens are replaced by one line, and the person's own are shown."""
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "scipio", "--sim", "--seed", "2",
                             "--journal", str(tmp_path / "s.jsonl")], input="ok\n" * 30 + "quit\n", cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Rome: organise\n  Y0>" in out  # the person's own entry, cursor on the first formation
    assert "Carthage: organise\n  Y0" not in out and "Carthage: secret\n  everyone but Carthage" in out


def test_play_sim_honours_the_bridge_profile(tmp_path: Path) -> None:
    journal = tmp_path / "h.jsonl"
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "hannibal", "--sim", "--seed", "3",
                             "--profile", "hannibal-bridge-sim", "--journal", str(journal)],
                            input="fix\nwait 2\nroll\nquit\n", cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(x) for x in journal.read_text().splitlines()]
    assert lines[0]["game"] == "hannibal" and lines[1]["move"].startswith("R")  # the board set up over the link


def test_play_sim_leaves_the_set_up_whole_to_the_person(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "hannibal", "--sim", "--seed", "3",
                             "--journal", str(tmp_path / "h.jsonl")], input="wait 5\nfix\nquit\n", cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    waited, fixed = result.stdout.split("> ")[1:3]
    assert waited.count("put 4 ") == 6  # the bots' hands did not start on it: the whole list is still there
    assert "Yellow: press ROLL" in fixed  # one command sets it all up


def test_check_config_wiring_names_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "hannibal", "--wiring"]) == 0
    out = capsys.readouterr().out
    assert "row 0: GPIO5  header pin 29" in out and "col 6: GPIO24 header pin 18" in out
    assert "ROLL: GPIO17 header pin 11" in out and "I2C bus 1 address 0x3C, SDA GPIO2  header pin 3" in out


def test_selftest_names_a_dead_and_a_chattering_cell(capsys: pytest.CaptureFixture[str]) -> None:
    from controller.selftest import run_selftest
    from controller.table import profile_for

    profile = profile_for("hannibal-sim")
    dead, noisy = (0, 3), (2, 2)

    def faults(hardware: object) -> None:
        board = hardware.board  # type: ignore[attr-defined]
        board.stuck_open.add(dead)
        board.add_chatter(noisy, 600.0)

    assert run_selftest(profile, seconds=None, script=True, chatter_hz=5, faults=faults) == 1
    out = capsys.readouterr().out
    dead_name, noisy_name = profile.cells[dead], profile.cells[noisy]
    assert f"{dead_name} (r0 c3)" in out.split("never seen closing")[1].splitlines()[0]
    assert f"{noisy_name} (r2 c2)" in out.split("chattering")[1].splitlines()[0]
    assert f"{profile.cells[(1, 1)]} (r1 c1) closed" in out  # each touch named as it happens


def test_selftest_of_a_sound_board_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "scipio-sim", "--script"]) == 0
    out = capsys.readouterr().out
    total = len(get_game("scipio").locations())
    assert f"cells seen working: {total}/{total}" in out and "never seen" not in out


def test_terminal_mistakes_are_one_line_each(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "controller.cli", "play", "hannibal", "--sim", "--seed", "3",
                             "--journal", str(tmp_path / "j.jsonl")], cwd=ROOT, capture_output=True, text=True,
                            input="place 3 -2\nlift 40\nlift\nmove 1\nwait soon\nplace x\nquit\n", timeout=300)
    said = [line for line in result.stdout.splitlines() if "cannot do that" in line]
    assert len(said) == 6, result.stdout
    assert "Traceback" not in result.stdout + result.stderr and "index out of range" not in result.stdout
    assert io.StringIO(result.stdout).read().count("> ") >= 7


def test_the_games_come_from_the_entry_points() -> None:
    from importlib.metadata import entry_points

    names = {point.name for point in entry_points(group="boardkeeper.games")}
    assert {"hannibal", "scipio", "factional", "hannipe", "cannonball"} <= names
    assert [g.name for g in games()][:5] == ["hannibal", "scipio", "factional", "hannipe", "cannonball"]


def test_a_game_in_its_own_installed_package_is_listed(tmp_path: Path) -> None:
    """A distribution that declares a ``boardkeeper.games`` entry point is found without editing this one."""
    (tmp_path / "race_plugin.py").write_text(
        "from engines.registry import GameInfo\n"
        "GAME = GameInfo(name='race', title='A 1x8 race', players=('red', 'green'), min_players=2, max_players=2,\n"
        "                chance=True, hidden=False, sensing=('matrix',), module='race_plugin', bots=('random',),\n"
        "                short=True)\n")
    info = tmp_path / "race_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: race-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[boardkeeper.games]\nrace = race_plugin:GAME\n")
    out = subprocess.run([sys.executable, "-m", "controller.cli", "games"], cwd=ROOT, capture_output=True, text=True,
                         env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)}, check=True)
    assert "race        A 1x8 race" in out.stdout and "hannibal" in out.stdout


@pytest.mark.parametrize(("change", "says"), [
    ({"bots": ("random", "heuristic")}, "evaluator: heuristic and mcts bots need the game's evaluation"),
    ({"min_players": 3}, "1 <= min <= max <= 2 seats"),
    ({"flow": "race.flow"}, "flow 'race.flow': a 'module:attr' reference"),
    ({"test_seeds": ()}, "test_seeds: at least one seed"),
    ({"bots": ("genius",)}, "bots: unknown kinds genius"),
])
def test_a_broken_entry_is_refused_naming_the_field(change: dict[str, object], says: str) -> None:
    from engines.registry import GameInfo, PluginError, register

    entry = {"name": "race", "title": "race", "players": ("red", "green"), "min_players": 2, "max_players": 2,
             "chance": True, "hidden": False, "sensing": ("matrix",), "module": "race", "bots": ("random",)}
    with pytest.raises(PluginError, match="game 'race': ") as refused:
        register(GameInfo(**{**entry, **change}))  # type: ignore[arg-type]
    assert says in str(refused.value)
    assert "race" not in [g.name for g in games()]
