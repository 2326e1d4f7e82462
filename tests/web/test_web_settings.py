"""The settings page's server side, on the real table's own path (``play_games`` on a simulated board, as
``boardkeeper play`` runs it on a Pi): the PIN read off the OLED while PREV is held opens the settings; a
wrong PIN, another site, a name too long and a bot the game cannot seat are refused with one line; saved
settings seat the next new game (names on the screens, the bots in the journal's header), and a file broken
on the card is said in the log and not used."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support import ROOT_DIR
from web_helpers import free_port

from controller.cli import play_games, web_view
from controller.journal import saved_seats
from controller.settings import Settings
from controller.stop import StopRequested
from controller.table import build_io, load_backend, profile_for
from engines.registry import get_game

Step = Iterator[float]


def _post(url: str, body: object, origin: str | None = None) -> tuple[int, str]:
    headers = {"Content-Type": "application/json", **({"Origin": origin} if origin else {})}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


class Script:
    """A loop source that runs a generator of waits (simulated seconds) on the game's thread: what a person
    does at the table and on the page, one step after another; at its end the service is stopped."""

    def __init__(self, steps: Callable[[Any], Step]) -> None:
        self.steps = steps
        self.until = 0.0
        self.running: Step | None = None

    def attach(self, io: Any) -> None:
        self.running = self.steps(io)
        io.loop.add_source(self.poll)

    def poll(self, now: float) -> list[object]:
        if now >= self.until and self.running is not None:
            try:
                self.until = now + next(self.running)
            except StopIteration:
                raise StopRequested("SIGTERM") from None
        return []


def _play(state: Path, steps: Callable[[Any], Step]) -> Any:
    """One run of the real table's games on the simulated Hannibal board, its page on, until ``steps`` end."""
    info = get_game("hannibal")
    profile = profile_for("hannibal-sim")
    io = build_io(profile, load_backend(profile))
    seats = info.seats(None)
    web = web_view(f"127.0.0.1:{free_port()}", profile, state, (info, seats, Settings(profile.seats, {}, None)))
    web.serve(io.feed, io.loop, io.display)
    setattr(io, "url", web.url)  # noqa: B010  (the steps' way to the page)
    Script(steps).attach(io)
    try:
        with pytest.raises(StopRequested):
            play_games(io, info, state / "hannibal.jsonl", options=info.options(sim=False), seats=seats, bots={},
                       given=[], think_ms=None, web=web)
    finally:
        web.stop()
    return io


def test_settings_need_the_pin_the_oled_shows_and_seat_the_next_game(tmp_path: Path) -> None:
    said: dict[str, Any] = {}

    def first(io: Any) -> Step:
        yield 1.0
        url = f"{io.url}api/settings"
        said["before"] = _get(url)
        prev = io.profile.buttons["PREV"].pin
        io.hardware.board.press_pin(prev)
        yield io.profile.timing.hold_s + 0.3
        io.hardware.board.release_pin(prev)
        yield 0.3
        shown = io.display.current
        said["oled"] = shown
        pin = shown.lines[0]
        wanted = {"names": {"yellow": "Anna", "blue": "Bo"}, "bots": {"yellow": "person", "blue": "heuristic"},
                  "think_ms": None}
        said["wrong"] = _post(url, {"pin": "ZZZZZZ", **wanted})
        said["forged"] = _post(url, {"pin": pin, **wanted}, origin="http://evil.example")
        said["long"] = _post(url, {"pin": pin, **wanted, "names": {"yellow": "Alexandra"}})
        said["kind"] = _post(url, {"pin": pin, **wanted, "bots": {"blue": "oracle"}})
        said["nobody"] = _post(url, {"pin": pin, **wanted, "bots": {"yellow": "random", "blue": "random"}})
        said["good"] = _post(url, {"pin": pin.lower(), **wanted})
        said["after"] = _get(url)

    _play(tmp_path, first)
    assert said["before"]["seats"] == [{"seat": "yellow", "name": "", "bot": "person"},
                                       {"seat": "blue", "name": "", "bot": "person"}]
    assert said["before"]["kinds"] == ["person", "random", "heuristic", "mcts"] and not said["before"]["saved"]
    oled = said["oled"]
    assert oled.title == "Settings PIN" and len(oled.lines[0]) == 6, oled
    assert said["wrong"] == (403, "wrong PIN: hold PREV on the table to see it\n")
    assert said["forged"][0] == 403 and "this table's own page" in said["forged"][1]
    assert said["long"] == (400, "seats.yellow: 'Alexandra' is 9 characters; at most 5 fit the screen\n")
    assert said["kind"][0] == 400 and "'oracle'" in said["kind"][1]
    assert said["nobody"] == (400, "at least one seat must be a person's: the table plays with people\n")
    assert said["good"][0] == 200 and json.loads(said["good"][1])["saved"] is True
    assert said["after"]["saved"] and said["after"]["seats"][1] == {"seat": "blue", "name": "Bo", "bot": "heuristic"}
    # the game in play kept its seats: people only, as it began
    assert saved_seats(tmp_path / "hannibal.jsonl") == {}

    (tmp_path / "hannibal.jsonl").unlink()  # the next game is a new one
    state: dict[str, Any] = {}

    def second(io: Any) -> Step:
        yield 1.0
        state.update(_get(f"{io.url}api/state"))

    _play(tmp_path, second)
    assert state["seats"] == [{"seat": "yellow", "name": "Anna", "played_by": "person"},
                              {"seat": "blue", "name": "Bo", "played_by": "bot:heuristic"}], state["seats"]
    assert saved_seats(tmp_path / "hannibal.jsonl") == {"blue": "heuristic"}  # a resume seats the bot again


def test_too_many_wrong_pins_lock_the_settings_and_a_broken_file_is_not_used(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    said: list[tuple[int, str]] = []

    def guesses(io: Any) -> Step:
        yield 1.0
        for guess in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF"):
            said.append(_post(f"{io.url}api/settings", {"pin": guess, "names": {}}))

    (tmp_path / "settings.json").write_text('{"hannibal": {"names": {"yellow": "A very long name"}}}')
    state: dict[str, Any] = {}

    def look(io: Any) -> Step:
        yield from guesses(io)
        state.update(_get(f"{io.url}api/state"))

    with caplog.at_level(logging.WARNING):
        _play(tmp_path, look)
    assert [code for code, _ in said] == [403] * 5 + [429] and "too many wrong PINs" in said[-1][1]
    assert "settings.json: hannibal's settings are not used: seats.yellow" in caplog.text
    assert [s["name"] for s in state["seats"]] == ["yellow", "blue"]  # the profile's names, as if none were saved


def test_a_tables_game_menu_serves_its_page_and_the_settings_choose_the_next_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --menu DIR`` with two boards installed, one whose profile turns the page on: the page follows the
    menu and the board chosen (its matrix for the self-test view), the settings offer the installed boards, and
    the PIN off the OLED saves the one the menu opens on next."""
    folder = tmp_path / "etc"
    folder.mkdir()
    port = free_port()
    for name in ("hannibal-sim", "factional-sim"):
        text = (ROOT_DIR / "hw_config" / "profiles" / f"{name}.toml").read_text()
        if name == "hannibal-sim":
            text += f'\n[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n'
        (folder / f"{name}.toml").write_text(text)
    state = tmp_path / "state"
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    url = f"http://127.0.0.1:{port}/"
    said: dict[str, Any] = {}

    def steps(io: Any) -> Step:
        yield 1.0
        said["menu"] = _get(f"{url}api/state")["screen"]["title"]
        ok = io.profile.buttons["OK"].pin
        io.hardware.board.press_pin(ok)  # the menu opens on the first board: Factional's tray
        yield 0.2
        io.hardware.board.release_pin(ok)
        yield 2.0  # the board chosen is the one the menu showed on: its game is put on the table
        said["matrix"] = _get(f"{url}api/matrix")["board"]
        said["before"] = _get(f"{url}api/settings")
        prev = io.profile.buttons["PREV"].pin
        io.hardware.board.press_pin(prev)
        yield io.profile.timing.hold_s + 0.3
        io.hardware.board.release_pin(prev)
        yield 0.3
        pin = io.display.current.lines[0]
        said["bad"] = _post(f"{url}api/settings", {"pin": pin, "next": "chess.toml"})
        said["good"] = _post(f"{url}api/settings", {"pin": pin, "next": "hannibal-sim.toml"})

    from controller.cli import play_menu

    assert play_menu(folder, attach=Script(steps).attach) == 0
    assert said["menu"] == "Which board?"
    assert said["matrix"] == "Factional Hannibal Honor tray (simulated, tray over serial)", said["matrix"]
    boards = [b["file"] for b in said["before"]["boards"]]
    assert boards == ["factional-sim.toml", "hannibal-sim.toml"] and said["before"]["next"] == "factional-sim.toml"
    assert said["bad"] == (400, "next: 'chess.toml' is no board of this table's menu\n")
    assert said["good"][0] == 200 and (state / "menu-last").read_text() == "hannibal-sim.toml\n"
