"""Turning the web page on: the profile's ``[web]`` section (off unless enabled, each bad value named by file
and key), ``--web [HOST:]PORT`` and ``--speed`` on the command line, each mistake one line and exit 2, and
aiohttp imported only when the page is on."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT_DIR

from controller.cli import main
from controller.table import game_needs
from hw_config import ConfigError, load_profile
from hw_config.web import Web, parse_address

PROFILES = ROOT_DIR / "hw_config" / "profiles"
GOOD = (PROFILES / "hannibal.toml").read_text()


def _profile(tmp_path: Path, web: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(GOOD + "\n[web]\n" + web + "\n")
    return path


def test_the_page_is_off_unless_a_profile_turns_it_on(tmp_path: Path) -> None:
    assert load_profile("hannibal", game_needs).web == Web("0.0.0.0", 8080, False)
    on = load_profile(_profile(tmp_path, 'enabled = true\nhost = "192.168.1.20"\nport = 8000'), game_needs)
    assert on.web == Web("192.168.1.20", 8000, True)


@pytest.mark.parametrize(("web", "expected"), [
    ("port = 0", r"web\.port: must be a whole number from 1 to 65535, got 0"),
    ('port = "80"', r"web\.port: must be a whole number from 1 to 65535, got '80'"),
    ('enabled = "yes"', r"web\.enabled: must be true or false, got 'yes'"),
    ('host = "tab le"', r"web\.host: 'tab le' is neither an IP address nor a host name"),
    ('host = ""', r"web\.host: must be a non-empty string"),
    ("colour = 3", r"web\.colour: unknown key \(known: enabled, host, port\)"),
])
def test_a_bad_web_section_is_named_by_file_and_key(tmp_path: Path, web: str, expected: str) -> None:
    path = _profile(tmp_path, web)
    with pytest.raises(ConfigError) as caught:
        load_profile(path, game_needs)
    assert len(caught.value.problems) == 1
    assert re.search(f"^{re.escape(str(path))}: {expected}", str(caught.value)), str(caught.value)


@pytest.mark.parametrize(("text", "expected"), [
    ("8080", ("0.0.0.0", 8080)), ("127.0.0.1:9000", ("127.0.0.1", 9000)), ("[::1]:81", ("::1", 81)),
    ("table.local:80", ("table.local", 80)),
])
def test_web_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text, "0.0.0.0") == expected


@pytest.mark.parametrize(("argv", "said"), [
    (["demo", "hannibal", "--web", "localhost:http"], "--web 'localhost:http': expected [HOST:]PORT"),
    (["demo", "hannibal", "--web", "127.0.0.1:70000"], "the port must be from 1 to 65535"),
    (["demo", "hannibal", "--web", "::1:80"], "write an IPv6 address in brackets"),
    (["demo", "hannibal", "--speed", "0"], "--speed must be above 0"),
    (["play", "hannibal", "--sim", "--web", "127.0.0.1:70000"], "the port must be from 1 to 65535"),
])
def test_bad_web_options_are_one_line_and_exit_2(argv: list[str], said: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


def test_a_taken_port_is_said_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["demo", "hannibal", "--quiet", "--web", f"127.0.0.1:{port}"]) == 2
    assert f"the web page cannot listen on 127.0.0.1:{port}: " in capsys.readouterr().err


def test_aiohttp_is_imported_only_when_the_page_is_on() -> None:
    """``--help`` and a demo without ``--web`` never load the web library (a Pi Zero starts fast, and a
    table without the ``[web]`` extra works)."""
    code = ("import sys, contextlib, io\n"
            "from controller.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    with contextlib.suppress(SystemExit):\n"
            "        main(['--help'])\n"
            "    main(['demo', 'scipio', '--quiet'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('aiohttp', 'controller') and 'web' in m"
            " or m == 'aiohttp'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
