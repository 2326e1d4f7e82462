"""A phone joins its seat from the OLED: hold PREV and the table shows, seat by seat, the seat's code and a QR
code of its page; the QR code read off the OLED's frame is the page's address, and that address opens the
seat's page. The table page's form takes the code typed instead."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from hannibal_harness import Harness
from web_helpers import free_port

pytest.importorskip("aiohttp", reason="pip install -e '.[web]' (aiohttp)")
segno = pytest.importorskip("segno", reason="pip install -e '.[web]' (segno)")

from controller.web.view import WebView  # noqa: E402  (with the [web] extra only)


@pytest.fixture
def joined(tmp_path: Path) -> Iterator[tuple[Harness, WebView]]:
    table = Harness(tmp_path / "game.jsonl")
    view = WebView("127.0.0.1", free_port(), "hannibal", tmp_path)
    view.start()
    view.attach(table.table)
    yield table, view
    view.stop()


def _modules(table: Harness, size: int) -> list[str]:
    """The QR code as the OLED shows it, read back module by module from the frame (dark on a light square
    at the right, two pixels a module inside a one-module margin)."""
    image = table.hw.display_device.image
    side = (size + 2) * 2
    x0, y0 = image.width - side, (image.height - side) // 2
    assert image.getpixel((x0, y0)) and image.getpixel((x0 + side - 1, y0 + side - 1))  # the light margin
    return ["".join("0" if image.getpixel((x0 + 2 + 2 * c, y0 + 2 + 2 * r)) else "1" for c in range(size))
            for r in range(size)]


def test_holding_prev_shows_each_seat_s_code_and_a_qr_code_of_its_page(joined: tuple[Harness, WebView]) -> None:
    table, view = joined
    codes = dict(view.codes.current)
    table.hold("PREV")
    seen = []
    for seat in ("yellow", "blue"):
        text = table.text
        assert text.splitlines()[0] == seat and codes[seat] in text, text
        url = f"{view.url}s/{codes[seat]}"
        expected = segno.make(url, error="l", micro=False)
        assert _modules(table, len(expected.matrix)) == ["".join("1" if m else "0" for m in row)
                                                         for row in expected.matrix]
        seen.append(url)
        table.press("NEXT")
    assert table.text.startswith("Yellow: your dice")  # past the last seat: the game again (PREV opened the dice)
    for seat, url in zip(("yellow", "blue"), seen, strict=True):
        with urllib.request.urlopen(url, timeout=10) as answer:  # the QR's address: to the seat's own page
            assert answer.status == 200 and answer.url.endswith(f"/seat/{seat}?code={codes[seat]}")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{view.url}s/ZZZZZZ", timeout=10)
    assert refused.value.code == 404 and "no seat has the code 'ZZZZZZ'" in refused.value.read().decode()


def test_the_code_typed_in_small_letters_opens_the_seat_too(joined: tuple[Harness, WebView]) -> None:
    _, view = joined
    code = view.codes.current["blue"]
    with urllib.request.urlopen(f"{view.url}s/{code.lower()}", timeout=10) as answer:
        assert answer.url.endswith(f"/seat/blue?code={code}")
