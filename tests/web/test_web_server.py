"""The web page's server without a browser: what the public state and a seat's state hold (no secret in
the first, only its own in the second), seat codes, the journals it serves, the boards it draws, the
handover from the game's thread, and the demo's real-time pace."""

from __future__ import annotations

import json
import math
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import free_port

from controller.demo import run_demo
from controller.realtime import RealTime
from controller.table_state import TableState
from controller.web.board import board_for, from_names
from controller.web.public import public_state, seat_state
from controller.web.view import WebView
from engines.registry import get_game
from hw_config import load_profile
from sim_hardware.clock import FakeClock


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.fixture(scope="module")
def hannipe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WebView, list[TableState], Path]]:
    """A whole Hannipe demo (dealt cards, four seats) with the page attached, every snapshot kept; a second,
    unfinished game's journal beside it."""
    folder = tmp_path_factory.mktemp("journals")
    view = WebView("127.0.0.1", free_port(), "hannipe", folder)
    view.start()
    seen: list[TableState] = []
    run_demo(1, folder / "done.jsonl", game="hannipe", views=[view.attach, lambda t: t.feed.watch(seen.append)])
    lines = (folder / "done.jsonl").read_text().splitlines(keepends=True)
    (folder / "playing.jsonl").write_text("".join(lines[:40]))
    yield view, seen, folder
    view.stop()


def test_no_secret_reaches_the_public_state_or_another_seat(
        hannipe: tuple[WebView, list[TableState], Path]) -> None:
    """Every snapshot of a whole game: no seat's hand (of two cards or more) is in the public JSON while the
    game is on, nor in another seat's, and the deal and the bets show only their kind."""
    _, seen, _ = hannipe
    checked = 0
    for state in seen:
        if state.over:
            continue
        public = json.dumps(public_state(state, "Hannipe!", hidden=True))
        hands = {seat: screen.lines[1] for seat, screen in state.private.items() if len(screen.lines) > 1}
        for seat, hand in hands.items():
            if len(hand) < 5:
                continue
            checked += 1
            assert hand not in public, (state.seq, seat, hand)
            for other in state.private:
                if other != seat and hands.get(other) != hand:
                    assert hand not in json.dumps(seat_state(state, other)), (state.seq, seat, other)
        moves = [line["move"] for line in public_state(state, "Hannipe!", hidden=True)["recent"]]
        assert all(" " not in move for move in moves), moves
    assert checked > 100


def test_a_seat_sees_its_own_secrets_and_a_wrong_code_is_refused(
        hannipe: tuple[WebView, list[TableState], Path]) -> None:
    view, seen, _ = hannipe
    base = view.url
    code = dict(view.codes.current)
    status, body = _get(f"{base}api/seat/p2/state?code={code['p2']}")
    assert status == 200
    assert json.loads(body)["private"]["title"] == seen[-1].private["p2"].title == "p2: your secrets"
    status, body = _get(f"{base}api/seat/p2/state?code={code['p2'].lower()}")
    assert status == 200  # typed in lower case on a phone: the same code
    for url, expected in ((f"api/seat/p2/state?code={code['p1']}", (403, "seat p2: wrong code\n")),
                          ("api/seat/p2/state", (403, "seat p2: its page needs the seat's code (?code=...)\n")),
                          (f"seat/p2?code={code['p3']}", (403, "seat p2: wrong code\n")),
                          (f"api/seat/p9/state?code={code['p1']}", (404, "no seat 'p9' at this table now\n"))):
        assert _get(base + url) == expected
    status, page = _get(f"{base}seat/p2?code={code['p2']}")
    assert status == 200 and "Only for you" in page
    old = code["p2"]
    view.new_game(["p1", "p2"])  # the next game: the old codes open nothing
    assert _get(f"{base}api/seat/p2/state?code={old}")[0] == 403


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.mark.parametrize(("headers", "body", "status", "said"), [
    ({"Origin": "http://evil.example"}, b'{"move": "bet p1 noiro"}', 403, "must come from this table's own page"),
    ({"Sec-Fetch-Site": "cross-site"}, b'{"move": "bet p1 noiro"}', 403, "must come from this table's own page"),
    ({"code": "WRONG1"}, b'{"move": "bet p1 noiro"}', 403, "seat p1: wrong code"),
    ({"Content-Type": "text/plain"}, b'{"move": "bet p1 noiro"}', 415, 'send the decision as JSON'),
    ({}, b"bet p1 noiro", 400, "not JSON"),
    ({}, b'["bet p1 noiro"]', 400, '"move": one line'),
    ({}, b'{"move": 5}', 400, '"move": one line'),
    ({}, b'{"move": "bet p1\\nnoiro"}', 400, '"move": one line'),
    ({}, b'{"move": "' + b"x" * 81 + b'"}', 400, '"move": one line'),
    ({}, b'{"move": "' + b"x" * 400 + b'"}', 400, "at most 80 characters"),
])
def test_a_decision_needs_the_seat_s_code_the_page_s_own_origin_and_one_line_of_json(
        hannipe: tuple[WebView, list[TableState], Path], headers: dict[str, str], body: bytes, status: int,
        said: str) -> None:
    """Each refused with its status and one line that says why, before anything reaches the table."""
    view, _, _ = hannipe
    code = headers.pop("code", view.codes.current["p1"])
    sent = {"Content-Type": "application/json", "Origin": view.url.rstrip("/"), "Sec-Fetch-Site": "same-origin",
            **headers}
    answer, text = _post(f"{view.url}api/seat/p1/decide?code={code}", body, sent)
    assert (answer, len(text.strip().splitlines())) == (status, 1) and said in text, (answer, text)


def test_a_flood_of_decisions_is_refused_beyond_what_waits_for_the_table(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose table takes no turn (no game's loop drains it): 16 decisions wait and are answered "did not
    answer in time"; the 17th is refused at once with 429, so a flood can never grow what the game's loop
    drains."""
    from controller.web import server

    monkeypatch.setattr(server, "DECIDE_S", 1.0)
    view = WebView("127.0.0.1", free_port(), "hannipe", tmp_path)
    view.start()
    code = view.codes.deal(["p1"])["p1"]
    url = f"{view.url}api/seat/p1/decide?code={code}"
    sent = {"Content-Type": "application/json", "Origin": view.url.rstrip("/")}
    answers: list[tuple[int, str]] = []
    try:
        waiting = [threading.Thread(target=lambda: answers.append(_post(url, b'{"move": "bet p1 noiro"}', sent)))
                   for _ in range(16)]
        for t in waiting:
            t.start()
        time.sleep(0.3)  # the 16 are queued (they wait a second for an answer that never comes)
        status, text = _post(url, b'{"move": "bet p1 noiro"}', sent)
        for t in waiting:
            t.join(10)
    finally:
        view.stop()
    assert (status, text.strip()) == (429, "too many decisions are waiting for the table: try again in a moment")
    assert len(answers) == 16 and {a for a, _ in answers} == {503}
    assert all("did not answer in time" in said for _, said in answers)


def test_the_public_state_and_its_headers(hannipe: tuple[WebView, list[TableState], Path]) -> None:
    view, seen, _ = hannipe
    with urllib.request.urlopen(f"{view.url}api/state", timeout=10) as answer:
        state = json.loads(answer.read())
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    assert state["over"] and state["outcome"] == seen[-1].outcome and state["seq"] == seen[-1].seq
    assert not state["withheld"] and state["recent"][-1]["move"] == seen[-1].recent[-1].move  # the end reveals


def test_the_games_page_serves_journals_by_name_and_keeps_a_hidden_game_closed_until_it_ends(
        hannipe: tuple[WebView, list[TableState], Path]) -> None:
    view, _, folder = hannipe
    listed = {j["name"]: j for j in json.loads(_get(f"{view.url}api/journals")[1])["journals"]}
    assert listed["done.jsonl"]["finished"] and not listed["done.jsonl"]["closed"]
    assert listed["playing.jsonl"]["closed"] == "in play: its secrets stay hidden until it ends"
    status, body = _get(f"{view.url}api/journals/done.jsonl")
    replay = json.loads(body)
    assert status == 200 and len(replay["steps"]) == listed["done.jsonl"]["moves"] + 1
    assert replay["steps"][1]["move"] == "programme 6" and replay["steps"][-1]["pieces"]
    status, text = _get(f"{view.url}journals/done.txt")
    assert status == 200 and "    1  chance   programme 6\n" in text and text.endswith("result: p3\n")
    status, raw = _get(f"{view.url}journals/done.jsonl")
    assert raw == (folder / "done.jsonl").read_text()
    for name in ("playing.jsonl", "playing.txt"):
        assert _get(f"{view.url}journals/{name}")[0] == 403
    assert _get(f"{view.url}api/journals/playing.jsonl")[0] == 403
    for bad in ("..%2Fdone.jsonl", "%2Fetc%2Fpasswd", "nothere.jsonl"):
        assert _get(f"{view.url}api/journals/{bad}")[0] == 404


@pytest.mark.parametrize("game", ["hannibal", "cannonball", "hannipe", "scipio", "factional"])
def test_a_game_with_a_printable_board_is_drawn_as_printed(game: str) -> None:
    """Every location found on the printable sheet, each piece inside its own square or box, no two pieces
    overlapping."""
    board = board_for(game)
    assert board.source == "printable" and set(board.anchors) == get_game(game).locations()
    assert 'class="reed' not in board.svg() and 'class="legend' not in board.svg()  # the builder's marks stay off
    points = list(board.anchors.values())
    assert min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:]) >= 2 * board.radius
    if game == "hannibal":  # the track's squares are 40 mm, the first at (20, 30)
        assert board.anchors["pos:0"] == (40.0, 50.0) and board.anchors["pos:7"] == (280.0, 90.0)
    elif game == "cannonball":
        assert 'class="box"' in board.svg() and board.anchors["bridge:k"] != board.anchors["box:k11"]
    elif game == "hannipe":  # the mat's pads are 40 mm, lanes down, rows 1 to 6 across
        noiro, cocotte, last = (board.anchors[f"lane:{h}:{r}"] for h, r in (("noiro", 1), ("cocotte", 1),
                                                                             ("noiro", 6)))
        assert cocotte[1] - noiro[1] == 5 * 40 and last[0] - noiro[0] == 5 * 40


def _wiring(game: str) -> dict[str, int]:
    """Each location's place in the game's wiring (row-major over its matrix), as the page orders them."""
    cells = load_profile(game).locations
    cols = max(c for _, c in cells.values()) + 1
    return {loc: r * cols + c for loc, (r, c) in cells.items()}


@pytest.mark.parametrize("game", ["hannipe", "scipio", "factional"])
def test_a_game_without_one_would_be_drawn_as_a_table_of_its_places(game: str) -> None:
    """The page's board for a game that ships no printable sheet: a table built from the names alone."""
    info = get_game(game)
    board = from_names(game, sorted(info.locations()), _wiring(game))
    assert board.source == "names" and set(board.anchors) == info.locations()
    rows = {y for _, y in board.anchors.values()}
    assert len(rows) == {"hannipe": 6, "scipio": 2, "factional": 20}[game]
    if game == "hannipe":  # lanes in the mat's order, rows 1 to 6 left to right
        assert board.anchors["lane:noiro:1"][1] < board.anchors["lane:cocotte:1"][1]
        assert board.anchors["lane:noiro:1"][0] < board.anchors["lane:noiro:6"][0]


def test_the_handover_never_waits_and_the_newest_state_wins(
        hannipe: tuple[WebView, list[TableState], Path]) -> None:
    """States put faster than the page's loop takes them: it gets the last one, and far fewer than all."""
    import asyncio

    from controller.web.handover import Handover

    _, seen, _ = hannipe
    loop = asyncio.new_event_loop()
    got: list[TableState] = []
    handover = Handover(loop, got.append)
    runner = threading.Thread(target=loop.run_forever)
    runner.start()
    started = time.perf_counter()
    for state in seen:
        handover.put(state)
    put_s = time.perf_counter() - started
    time.sleep(0.2)
    loop.call_soon_threadsafe(loop.stop)
    runner.join()
    loop.close()
    assert got[-1] is seen[-1] and len(got) < len(seen)
    assert put_s / len(seen) < 0.001  # a put costs the game's loop microseconds, never a wait


def test_the_demo_keeps_the_simulated_clock_at_the_speed_asked() -> None:
    clock = FakeClock()
    real = [100.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        real[0] += seconds

    pace = RealTime(clock, 4.0, real=lambda: real[0], sleep=sleep)
    pace()
    clock.sleep(2.0)  # two simulated seconds: half a real one at 4x
    pace()
    assert slept == [0.5]
    real[0] += 3.0  # the machine fell 2.5 s behind: no race to catch up, the pace starts again
    clock.sleep(2.0)
    pace()
    clock.sleep(4.0)
    pace()
    assert slept == [0.5, 1.0]
