"""The web page in a real browser: Debian's headless Chromium, driven by Playwright, watching demo tables
served by ``boardkeeper demo GAME --web 127.0.0.1:PORT`` (a process of their own, stopped with SIGTERM).

The table page shows the board and follows the journal as it grows, fits a phone held upright, and comes
back by itself after the table restarts; a Hannipe seat's page shows its own hand, which neither the public
page, another seat's page, the public stream nor the log ever shows. Screenshots at phone size go to
``$BOARDKEEPER_SCREENSHOTS`` if set, else to the test's own folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import DemoTable, free_port

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists():
    pytest.skip("headless Chromium is not installed: apt-get install -y chromium (as root; "
                ".ci/install-chromium.sh does it)", allow_module_level=True)

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402  (only where Chromium is)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for the module, on a fresh profile of its own."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=ARGS, viewport=PHONE)
        assert context.browser is not None
        yield context.browser
        context.close()


@pytest.fixture(scope="module")
def hannibal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoTable, Path]]:
    """A Hannibal demo at 200 times the speed of play, serving its page; its journal alone in its folder."""
    journal = tmp_path_factory.mktemp("hannibal") / "hannibal.jsonl"
    table = DemoTable("hannibal", free_port(), journal, speed=200)
    yield table, journal
    assert table.stop() == 0  # served on after the game until SIGTERM, and then exited cleanly


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BOARDKEEPER_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _page(browser: Browser) -> Page:
    """A new tab at phone size, whose console errors (a script failing, a Content-Security-Policy violation)
    fail the test (``_clean``)."""
    page = browser.contexts[0].new_page()
    page.set_viewport_size(PHONE)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    setattr(page, "errors", errors)  # noqa: B010
    return page


def _clean(page: Page, allowed: tuple[str, ...] = ()) -> None:
    """No error in the page's console but those ``allowed`` (the browser's own line on a refused load or a
    stream cut by the table stopping)."""
    errors = [e for e in getattr(page, "errors") if not any(a in e for a in allowed)]  # noqa: B009
    assert not errors, errors


def _wait(page: Page, condition: str, timeout: float) -> None:
    """Until the JavaScript expression ``condition`` is true in ``page``. Asked from outside the page (the
    page allows no script of its own to be evaluated from a string, so Playwright's wait_for_function cannot)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(condition):
        assert time.monotonic() < deadline, f"not within {timeout} s: {condition}"
        time.sleep(0.02)


def _seq(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.seq || '-1'"))


def _journaled(journal: Path) -> int:
    """Move lines in the journal now (its header and notes are no moves)."""
    return sum(1 for line in journal.read_text().splitlines() if line.startswith('{"seq"'))


def _pieces_drawn(page: Page) -> dict[str, str]:
    """Each place with a piece on the page's board -> what its title says of it."""
    result: dict[str, str] = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('g.place.held')]"
        ".map(g => [g.dataset.loc, g.querySelector('title').textContent]))")
    return result


def _listen(table: DemoTable, stream: list[bytes], done: threading.Event) -> threading.Thread:
    """The public stream, as any browser on the network gets it, every byte kept in ``stream`` until ``done``."""
    def listen() -> None:
        with urllib.request.urlopen(f"{table.url}api/events", timeout=30) as answer:
            while not done.is_set():
                chunk = answer.read1(65536)
                if not chunk:
                    break
                stream.append(chunk)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    return listener


def _quit(table: DemoTable, pages: tuple[Page, ...], done: threading.Event, listener: threading.Thread) -> None:
    """The end of a person's game at the terminal with pages open on it: the stream's listener stopped, the
    pages closed, ``quit`` typed (the game is kept; exit 0)."""
    done.set()
    for page in pages:
        page.close()
    table.type("quit")
    assert table.process.wait(timeout=20) == 0
    listener.join(timeout=5)


def _state(table: DemoTable) -> dict[str, object]:
    """The public state, once the table has one (503 while it starts: a resumed game is replayed first)."""
    deadline = time.monotonic() + 15
    while True:
        try:
            with urllib.request.urlopen(f"{table.url}api/state", timeout=10) as answer:
                state: dict[str, object] = json.loads(answer.read())
                return state
        except urllib.error.HTTPError as e:
            if e.code != 503 or time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_the_table_page_follows_the_game_on_a_phone(browser: Browser, hannibal: tuple[DemoTable, Path],
                                                    shots: Path) -> None:
    table, journal = hannibal
    page = _page(browser)
    try:
        page.goto(table.url)
        _wait(page, "document.body.dataset.connected === 'yes' && !!document.querySelector('g.place.held')", 15)
        assert page.locator("svg.board").get_attribute("data-source") == "printable"
        assert page.locator("g.place").count() == 49
        first = _seq(page)
        for _ in range(3):  # the page keeps up with the journal as it grows: within a second of each line
            written = _journaled(journal)
            _wait(page, f"Number(document.body.dataset.seq) >= {written}", 1)
            time.sleep(0.1)
        assert _seq(page) > first
        page.screenshot(path=str(shots / "table-hannibal-phone.png"))
        width = page.evaluate("document.documentElement.scrollWidth")
        board = page.locator("svg.board").bounding_box()
        assert width <= PHONE["width"] and board is not None and board["width"] <= PHONE["width"]
        assert board["height"] > 300  # the board, not a sliver of it
        _wait(page, "document.getElementById('turn').textContent.startsWith('Game over')", 40)
        final = _state(table)
        drawn = _pieces_drawn(page)
        pieces = final["pieces"]
        assert isinstance(pieces, dict)
        assert set(drawn) == set(pieces) and all(drawn[loc].startswith(f"{loc}: {owner} x{n}")
                                                 for loc, (owner, n) in pieces.items())
        assert page.locator("#recent li").first.text_content() == (
            f"{final['recent'][-1]['player']} {final['recent'][-1]['move']}")  # type: ignore[index]
        page.screenshot(path=str(shots / "table-hannibal-over-phone.png"), full_page=True)
        _clean(page)
    finally:
        page.close()


def test_the_page_reconnects_by_itself_after_the_table_restarts(browser: Browser, tmp_path: Path,
                                                               shots: Path) -> None:
    journal = tmp_path / "cannonball.jsonl"
    port = free_port()
    table = DemoTable("cannonball", port, journal, speed=20)
    page = _page(browser)
    try:
        page.goto(table.url)
        _wait(page, "document.body.dataset.connected === 'yes' && Number(document.body.dataset.seq) > 0", 15)
        page.screenshot(path=str(shots / "table-cannonball-phone.png"))
        assert table.stop() == 0
        _wait(page, "document.body.dataset.connected === 'no'", 5)
        assert page.locator("#status").text_content() == "reconnecting..."
        before = _seq(page)
        time.sleep(1.5)  # the page keeps trying while the table is away
        table = DemoTable("cannonball", port, journal, speed=20)  # the same game, resumed from its journal
        _wait(page, "document.body.dataset.connected === 'yes'", 10)
        assert page.locator("#status").text_content() == "live"
        seq = _state(table)["seq"]
        assert isinstance(seq, int) and seq >= before
        _wait(page, f"Number(document.body.dataset.seq) >= {seq}", 5)  # the new table's state, drawn
        assert page.locator("g.place.held").count() > 0
        _clean(page, ("net::ERR_CONNECTION_REFUSED", "net::ERR_INCOMPLETE_CHUNKED_ENCODING"))
    finally:
        page.close()
        assert table.stop() == 0


def test_a_seat_sees_its_secrets_and_no_one_else_does(browser: Browser, tmp_path: Path, shots: Path) -> None:
    """Hannipe with dealt tip cards: p1's page shows p1's hand and bet; the public page, p2's page, every byte
    of the public stream and the log never show p1's hand; a wrong code is refused."""
    table = DemoTable("hannipe", free_port(), tmp_path / "hannipe.jsonl", speed=15)
    codes = {seat: table.code(seat) for seat in ("p1", "p2")}
    stream: list[bytes] = []
    done = threading.Event()
    listener = _listen(table, stream, done)
    mine, theirs, public = _page(browser), _page(browser), _page(browser)
    hands: set[str] = set()
    try:
        mine.goto(f"{table.url}seat/p1?code={codes['p1']}")
        theirs.goto(f"{table.url}seat/p2?code={codes['p2']}")
        public.goto(table.url)
        for page in (mine, theirs, public):
            _wait(page, "document.body.dataset.connected === 'yes'", 15)
        _wait(mine, "document.querySelectorAll('#private .line').length >= 2", 15)
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:  # the hand changes as cards are played: look at each one
            title, *lines = mine.evaluate("[...document.querySelectorAll('#private .title, #private .line')]"
                                          ".map(e => e.textContent)")
            assert title.startswith("p1")  # its secrets, or its own secret entry (a tip) while the OLED shows it
            if title == "p1: your secrets" and len(lines) > 1 and len(lines[1]) >= 5:  # a hand of two cards or more
                assert lines[0].startswith(("bet: ", "no bet yet"))
                hand = lines[1]
                hands.add(hand)
                if hand not in theirs.locator("#private .line").all_text_contents():
                    assert hand not in (theirs.locator("#private").text_content() or "")
                body = public.evaluate("document.body.innerText + document.body.innerHTML")
                assert hand not in body and "p1: your secrets" not in body
            time.sleep(0.25)
        assert hands, "p1's page never showed a hand"
        assert "p1: your secrets" not in (theirs.locator("body").text_content() or "")
        mine.screenshot(path=str(shots / "seat-hannipe-phone.png"))
        public.screenshot(path=str(shots / "table-hannipe-phone.png"), full_page=True)
        wrong = _page(browser)
        answer = wrong.goto(f"{table.url}seat/p1?code={codes['p2']}")
        assert answer is not None and answer.status == 403
        assert (wrong.locator("body").text_content() or "").strip() == "seat p1: wrong code"
        wrong.close()
        for page in (mine, theirs, public):
            _clean(page)
    finally:
        done.set()
        for page in (mine, theirs, public):
            page.close()
        assert table.stop() == 0
        listener.join(timeout=5)
    wire = b"".join(stream).decode()
    assert wire.count("data: {") >= 10
    log = "".join(table.log)
    for hand in hands:
        assert hand not in wire and hand not in log


def test_a_seat_bets_from_its_page_and_no_one_else_sees_the_bet(browser: Browser, tmp_path: Path,
                                                                  shots: Path) -> None:
    """``play hannipe --sim --web``: the person at the terminal holds p1, bots p2 and p3. p1 bets from its phone:
    the table takes it at once (the bots play on, no command typed), the journal has it, p1's page shows it; p2's
    page, the public page, every byte of the public stream and the terminal's output never name it."""
    table = DemoTable("hannipe", free_port(), tmp_path / "hannipe.jsonl", speed=1,
                      command=("play", "hannipe", "--sim", "--players", "3", "--seed", "3"))
    codes = {seat: table.code(seat) for seat in ("p1", "p2")}
    stream: list[bytes] = []
    done = threading.Event()
    listener = _listen(table, stream, done)
    mine, theirs, public = _page(browser), _page(browser), _page(browser)
    try:
        table.type("fix")  # the pawns on row 1: p1 is asked for its bet
        mine.goto(f"{table.url}seat/p1?code={codes['p1']}")
        theirs.goto(f"{table.url}seat/p2?code={codes['p2']}")
        public.goto(table.url)
        _wait(mine, "document.querySelectorAll('#choices button').length === 6", 15)
        assert theirs.locator("#decide").is_hidden() and public.locator("#choices").count() == 0
        mine.screenshot(path=str(shots / "seat-hannipe-bet-phone.png"))
        started = time.monotonic()
        mine.locator("#choices button[data-move='bet p1 vertige']").click()
        _wait(mine, "document.getElementById('answer').textContent.startsWith('Taken: bet vertige')", 10)
        answered = time.monotonic() - started
        _wait(mine, "document.querySelector('#private .line').textContent === 'bet: Vertige'", 10)
        _wait(mine, "document.getElementById('decide').hidden", 10)  # nothing more for p1 to decide now
        table.wait_for("p1 has bet")  # the terminal went on at once: the bots bet, the first card is turned
        table.wait_for("card 1/", timeout=15)
        assert '"move":"bet p1 vertige"' in (tmp_path / "hannipe.jsonl").read_text()
        for page in (theirs, public):
            body = page.evaluate("document.body.innerText + document.body.innerHTML")
            assert "bet: Vertige" not in body and "bet p1 vertige" not in body
        for page in (mine, theirs, public):
            _clean(page)
    finally:
        _quit(table, (mine, theirs, public), done, listener)
    assert answered < 2.0, answered
    wire, out = b"".join(stream).decode(), "".join(table.log)
    assert wire.count("data: {") >= 3
    for secret in ("bet p1 vertige", "bet: Vertige"):
        assert secret not in wire and secret not in out


def test_the_games_page_steps_through_a_finished_game(browser: Browser, hannibal: tuple[DemoTable, Path],
                                                     shots: Path) -> None:
    """The finished journal in the table's folder: replayed move by move on the board, with downloads."""
    table, journal = hannibal
    table.wait_for("the game is over", 60)
    page = _page(browser)
    try:
        page.goto(f"{table.url}games#{journal.name}")
        _wait(page, "document.body.dataset.step === '0'", 15)
        moves = _journaled(journal)
        assert page.locator("#moves li").count() == moves
        assert page.locator("g.place.held").count() == 6  # the start: each side's three stacks of four
        page.click("#last")
        assert page.evaluate("document.body.dataset.step") == str(moves)
        page.click("#prev")
        assert (page.locator("#where").text_content() or "").startswith(f"after move {moves - 1}: ")
        page.screenshot(path=str(shots / "games-hannibal-phone.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        with urllib.request.urlopen(page.locator("#text").evaluate("a => a.href"), timeout=10) as answer:
            assert answer.read().decode().endswith("result: yellow\n")
        _clean(page)
    finally:
        page.close()


def test_the_selftest_page_lights_each_cell_and_shows_the_report(browser: Browser, shots: Path) -> None:
    """``selftest PROFILE --script --web``: the page draws the profile's matrix, each cell lit while its reed is
    closed and ticked once seen working; at the end the report, as the command prints it, and the dead reed
    marked where it is wired."""
    table = DemoTable("hannibal", free_port(), None, speed=0, command=(
        "selftest", "hannibal-sim", "--script", "--speed", "6", "--fault", "dead:pos:17"))
    page = _page(browser)
    try:
        page.goto(f"{table.url}selftest")
        _wait(page, "document.querySelectorAll('#matrix td.cell').length === 49", 15)
        lit, ticks = 0, []
        deadline = time.monotonic() + 40
        while page.evaluate("document.body.dataset.done") != "yes":
            assert time.monotonic() < deadline, "the self-test did not end on the page"
            lit = max(lit, page.locator("#matrix td.closed").count())
            ticks.append(int(page.evaluate("document.body.dataset.seen || '0'")))
            time.sleep(0.05)
        assert lit >= 1, "no cell was ever seen lit while it was touched"
        assert len(set(ticks)) > 3 and ticks == sorted(ticks), ticks  # the ticks came one by one, as touched
        assert page.locator("#matrix td.seen").count() == 48
        never = page.locator("#matrix td.never")
        assert never.count() == 1 and never.text_content() == "17" and never.get_attribute("title") == "pos:17 (r2 c3)"
        report = page.locator("#report li").all_text_contents()
        assert report == ["cells seen working: 48/49", "buttons pressed: 5/5",
                          "never seen closing (1): pos:17 (r2 c3)"], report
        assert "never seen closing (1): pos:17 (r2 c3)" in "".join(table.log)  # as the command printed it
        page.screenshot(path=str(shots / "selftest-hannibal-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        _clean(page)
    finally:
        page.close()
        assert table.stop() == 1  # served until SIGTERM; its exit says the board is not sound


def test_the_settings_page_saves_with_the_pin_and_refuses_without(browser: Browser, tmp_path: Path,
                                                                 shots: Path) -> None:
    """The settings page of a table that takes settings (``play``'s page): a wrong PIN is refused on the page
    with the table's one line, the PIN saves, and the page reads the saved settings back."""
    from controller.cli import web_view
    from controller.settings import Settings
    from controller.table import profile_for
    from engines.registry import get_game

    info, profile = get_game("hannibal"), profile_for("hannibal-sim")
    web = web_view(f"127.0.0.1:{free_port()}", profile, tmp_path, (info, info.seats(None), Settings({}, {}, None)))
    page = _page(browser)
    try:
        page.goto(f"{web.url}settings")
        _wait(page, "!document.getElementById('settings').hidden", 15)
        page.fill("input[name=name-yellow]", "Anna")
        page.select_option("select[name=bot-blue]", "mcts")
        page.fill("#think", "800")
        page.fill("#pin", "WRONG1")
        page.click("#save")
        _wait(page, "document.getElementById('answer').dataset.taken === 'no'", 10)
        assert page.text_content("#answer") == "wrong PIN: hold PREV on the table to see it"
        page.fill("#pin", web.codes.pin.lower())
        page.click("#save")
        _wait(page, "document.getElementById('answer').dataset.taken === 'yes'", 10)
        page.screenshot(path=str(shots / "settings-hannibal-phone.png"), full_page=True)
        page.reload()
        _wait(page, "!document.getElementById('settings').hidden", 15)
        assert page.input_value("input[name=name-yellow]") == "Anna" and page.input_value("#think") == "800"
        assert page.input_value("select[name=bot-blue]") == "mcts"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        _clean(page, ("403",))  # the browser's own line on the refused save
    finally:
        page.close()
        web.stop()


def test_scipio_armies_send_their_organisation_and_cards_from_their_pages(browser: Browser, tmp_path: Path,
                                                                        shots: Path) -> None:
    """``play scipio --sim --as all --web``: each army fills its organisation in on its own page (a total other
    than 34 refused with the table's reason), then Rome its three cards; Carthage's page, the public page and
    the public stream never show Rome's organisation before the rules reveal it, nor its cards before
    Carthage has placed its own."""
    journal = tmp_path / "scipio.jsonl"
    table = DemoTable("scipio", free_port(), journal, speed=1,
                      command=("play", "scipio", "--sim", "--as", "all", "--seed", "2"))
    codes = {seat: table.code(seat) for seat in ("rome", "carthage")}
    stream: list[bytes] = []
    done = threading.Event()
    listener = _listen(table, stream, done)
    rome, carthage, public = _page(browser), _page(browser), _page(browser)

    def fill(page: Page, values: list[str]) -> None:
        for i, value in enumerate(values):
            page.select_option(f"#formfields select[name=f{i}]", value)
        page.click("#formsend")

    try:
        rome.goto(f"{table.url}seat/rome?code={codes['rome']}")
        carthage.goto(f"{table.url}seat/carthage?code={codes['carthage']}")
        public.goto(table.url)
        _wait(rome, "document.querySelectorAll('#formfields select').length === 6", 15)
        assert carthage.locator("#decide").is_hidden()
        fill(rome, ["9", "9", "9", "9", "9", "9"])
        _wait(rome, "document.getElementById('answer').dataset.taken === 'no'", 10)
        assert "34 tokens in all" in (rome.text_content("#answer") or "")
        fill(rome, ["7", "5", "6", "5", "6", "5"])
        _wait(rome, "document.getElementById('answer').textContent === 'Taken: org 7,5,6,5,6,5'", 10)
        for page in (carthage, public):  # Rome's organisation stays Rome's until both are in
            assert "7,5,6,5,6,5" not in page.evaluate("document.body.innerText + document.body.innerHTML")
        _wait(carthage, "document.querySelectorAll('#formfields select').length === 6", 15)
        fill(carthage, ["6", "6", "6", "6", "5", "5"])
        _wait(carthage, "document.getElementById('answer').textContent === 'Taken: org 6,6,6,6,5,5'", 10)
        table.wait_for("Place the tokens")
        table.type("fix")  # the tokens on the formations, as the organisations say
        table.type("ok")
        _wait(rome, "document.querySelectorAll('#formfields select').length === 3", 20)
        rome.screenshot(path=str(shots / "seat-scipio-cards-phone.png"), full_page=True)
        public.screenshot(path=str(shots / "table-scipio-phone.png"), full_page=True)
        fill(rome, ["7", "2", "4"])
        _wait(rome, "document.getElementById('answer').textContent === 'Taken: place Y7 P2 G4'", 10)
        _wait(carthage, "document.querySelectorAll('#formfields select').length === 3", 15)
        for page in (carthage, public):
            body = page.evaluate("document.body.innerText + document.body.innerHTML")
            assert "Y7 P2 G4" not in body
        lines = [json.loads(line)["move"] for line in journal.read_text().splitlines()[1:] if '"seq"' in line]
        assert lines[:2] == ["org rome 7,5,6,5,6,5", "org carthage 6,6,6,6,5,5"] and "place rome Y7 P2 G4" in lines
        for page in (rome, carthage, public):
            _clean(page, ("409",))  # the browser's own line on the refused organisation
    finally:
        _quit(table, (rome, carthage, public), done, listener)
    wire = b"".join(stream).decode()
    assert "Y7 P2 G4" not in wire and "org rome 7,5,6,5,6,5" not in wire.split('"over":true')[0]


def test_the_factional_tray_is_drawn_with_its_honor_board(browser: Browser, tmp_path: Path, shots: Path) -> None:
    """A Factional demo's table page: the Honor tray's provinces with their chits, the Honor standings in the
    scores, at phone size."""
    table = DemoTable("factional", free_port(), tmp_path / "factional.jsonl", speed=50)
    page = _page(browser)
    try:
        page.goto(table.url)
        _wait(page, "Number(document.body.dataset.seq || '-1') >= 3", 60)
        _wait(page, "document.querySelectorAll('g.place.held').length >= 10", 15)
        assert page.locator("#scores tr").count() == 4  # the four factions' Honor
        page.screenshot(path=str(shots / "table-factional-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        _clean(page)
    finally:
        page.close()
        assert table.stop() == 0


@pytest.mark.parametrize("game", ["hannibal", "scipio", "hannipe", "cannonball", "factional"])
def test_each_games_journal_self_test_and_settings_pages(browser: Browser, tmp_path: Path, shots: Path,
                                                        game: str) -> None:
    """The pages every game shares, for each game, at phone size: a journal of it stepped through on the games
    page (a whole game where it hides information until its end, else part of one), its board's self-test run
    by scripted hands, and its settings."""
    from controller.cli import web_view
    from controller.demo import DemoTooLongError, run_demo
    from controller.settings import Settings
    from controller.table import profile_for
    from engines.registry import get_game

    info, profile = get_game(game), profile_for(f"{game}-sim")
    journal = tmp_path / f"{game}.jsonl"
    with contextlib.suppress(DemoTooLongError):  # a game that hides nothing is shown unfinished: a minute will do
        run_demo(2, journal, game=game, max_seconds=3600 if info.hidden else 60)
    web = web_view(f"127.0.0.1:{free_port()}", profile, tmp_path, (info, info.seats(None), Settings({}, {}, None)))
    selftest = DemoTable(game, free_port(), None, speed=0, command=(
        "selftest", f"{game}-sim", "--script", "--speed", "60"))
    page = _page(browser)
    try:
        page.goto(f"{web.url}games#{journal.name}")
        _wait(page, "document.body.dataset.step === '0'", 30)
        page.click("#last")
        assert int(page.evaluate("document.body.dataset.step")) == page.locator("#moves li").count() > 0
        page.screenshot(path=str(shots / f"games-{game}-phone.png"))
        page.goto(f"{web.url}settings")
        _wait(page, "!document.getElementById('settings').hidden", 15)
        assert page.locator("#seatrows tr").count() == len(info.seats(None))
        page.screenshot(path=str(shots / f"settings-{game}-phone.png"), full_page=True)
        page.goto(f"{selftest.url}selftest")
        _wait(page, "document.body.dataset.done === 'yes'", 90)
        assert page.locator("#matrix td.seen").count() == len(profile.cells)
        page.screenshot(path=str(shots / f"selftest-{game}-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # a wide matrix scrolls
        _clean(page)
    finally:
        page.close()
        web.stop()
        assert selftest.stop() == 0
