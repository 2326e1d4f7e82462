"""The real unit, ``systemd/boardkeeper.service`` unmodified, run by Debian 12's own systemd booted in a
``systemd-nspawn`` container (``tests/nspawn_boot.py``), installed there by ``systemd/install.sh`` from this
checkout, and driven from outside through ``systemctl`` and ``journalctl`` in the container.

The ``gpio`` backend runs in it on stand-in ``lgpio`` and ``smbus2`` packages (``tests/standin``), wired like
the simulated table: the test moves magnets and presses buttons by rewriting ``/srv/standin/table.json``,
and reads the OLED from the panel file the stand-in SSD1306 keeps in the state directory. So the code that
only runs on a Pi runs under the unit's restrictions: gpiozero's lgpio factory identifying the Pi from
/proc, the device nodes opened through the device cgroup, the journal written in the state directory.

One boot serves the module; the tests run in order on one service: it starts and reaches READY, plays,
is killed and resumes its game, hangs and is restarted by the watchdog, keeps its sandbox, would not
start with ``ProcSubset=pid`` (the finding of issue 27, planted), and stops leaving ``Stopped`` on the
display. ``TIMINGS`` keeps each step's seconds (printed at the end with ``-s``).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import nspawn_boot
import pytest
from support import ROOT_DIR

from controller.journal import read, replay
from controller.screen import Screen, render
from engines.registry import get_game
from hw_config.profile import load_profile

REASON = nspawn_boot.missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"cannot boot a container: {REASON}")

ROOT = ROOT_DIR
UNIT = "boardkeeper.service"
STATE = "/var/lib/boardkeeper"
JOURNAL = f"{STATE}/hannibal.jsonl"
PANEL = f"{STATE}/standin-oled.txt"
PROBE_SANDBOX = "lgpio stand-in: sandbox "
TIMINGS: dict[str, float] = {}
# Directories the service's user owns outside its state directory: only the sandbox can keep it from them.
OWNED_ELSEWHERE = ["/etc/bk-owned", "/opt/boardkeeper/bk-owned", "/var/lib/bk-owned", "/usr/local/bk-owned",
                   "/run/bk-owned", "/srv/bk-owned", "/home/bk-owned", "/var/cache/bk-owned"]
WORLD_WRITABLE = ["/run/lock", "/dev/shm"]  # any user's, outside the sandbox (mode 1777)


def _free_majors() -> list[int]:
    """Character majors no driver of this kernel has (not even i2c-dev's 89, which a laptop may have): their
    nodes open only past the device cgroup, and then fail with ENXIO."""
    used = {int(line.split()[0]) for line in Path("/proc/devices").read_text().splitlines()
            if line[:4].strip().isdigit()}
    return [m for m in range(234, 255) if m not in used]


@dataclass
class Table:
    """The booted container with the service installed, and the table the stand-ins read."""

    box: nspawn_boot.Container
    standin: Path
    install: str
    closed: set[tuple[int, int]] = field(default_factory=set)

    def show(self, prop: str) -> str:
        return self.box.run("systemctl", "show", "-p", prop, "--value", UNIT).stdout.strip()

    def log(self) -> str:
        return self.box.run("journalctl", "-u", UNIT, "-o", "cat", "--no-pager").stdout

    def systemctl(self, *args: str, check: bool = True) -> str:
        result = self.box.run("systemctl", *args, check=check, timeout=60)
        return result.stdout + result.stderr

    def wire(self, pressed: tuple[int, ...] = ()) -> None:
        data = json.dumps({"closed": sorted(self.closed), "pressed": list(pressed)})
        tmp = self.standin / "table.json.tmp"
        tmp.write_text(data)
        tmp.chmod(0o644)
        os.replace(tmp, self.standin / "table.json")

    def press(self, pin: int) -> None:
        """A person's press: down 0.4 s (past the debounce on a busy machine, well short of a 1 s hold)."""
        self.wire((pin,))
        time.sleep(0.4)
        self.wire()

    def journal_lines(self) -> list[str]:
        path = self.box.path(JOURNAL)
        return path.read_text().splitlines() if path.exists() else []

    def panel(self) -> tuple[bool, list[bytes]]:
        lines = self.box.path(PANEL).read_text().splitlines()
        return "on=1" in lines[0].split(), [bytes.fromhex(line) for line in lines[1:9]]


def until(what: str, check: Callable[[], object], timeout: float = 30.0) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.1)


PROFILE = load_profile(ROOT / "hw_config" / "profiles" / "hannibal.toml")  # the one install.sh installs


def _cells(locations: Iterable[str]) -> set[tuple[int, int]]:
    """The (row GPIO, column GPIO) reeds closed under pieces on ``locations``, as the profile wires them."""
    return {(PROFILE.rows[r], PROFILE.cols[c]) for r, c in (PROFILE.locations[loc] for loc in locations)}


def _pin(button: str) -> int:
    pin = PROFILE.buttons[button].pin
    assert pin is not None
    return pin


def _press_until(table: Table, button: str, what: str, check: Callable[[], object]) -> None:
    """Press ``button`` as a person does, again if nothing came of it: on a loaded machine the service may
    miss a short press, and a person who sees no answer presses again."""
    for _ in range(3):
        table.press(_pin(button))
        try:
            until(what, check, timeout=10.0)
            return
        except AssertionError:
            continue
    until(what, check, timeout=10.0)


def _make_a_move(table: Table) -> str:
    """Move a piece as a player would: a legal move whose pieces the sensors see change and no other legal
    move leaves the same way; returns its notation once the service has journaled it."""
    path = table.box.path(JOURNAL)
    state = replay(read(path), path)[-1]
    before = len(table.journal_lines())
    after: dict[frozenset[str], list[str]] = {}
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        after.setdefault(frozenset(child.occupancy()), []).append(str(move))
    now = frozenset(state.occupancy())
    seen = next(((k, m) for k, m in after.items() if k != now and len(m) == 1), None)
    if seen is None:  # every move lands on a stack the reeds already see (the dice decide): as a player does,
        # move a piece within the stacks, press OK ("OK if no change") and take the first move the list offers
        assert now in after, f"no legal move from {state.occupancy()}"
        _press_until(table, "OK", "the list of moves", lambda: table.show("StatusText") == "hannibal: Which move?")
        _press_until(table, "OK", "the service journals the move picked",
                     lambda: len(table.journal_lines()) > before)
        line = json.loads(table.journal_lines()[before])
        assert line["move"] in after[now], line
        return str(line["move"])
    occupied, moves = seen
    table.closed = _cells(occupied)
    table.wire()
    until(f"the service journals {moves[0]}", lambda: len(table.journal_lines()) > before)
    line = json.loads(table.journal_lines()[before])
    assert line["move"] == moves[0], line
    return moves[0]


def _title_rows(title: str) -> tuple[int, list[list[int]]]:
    """How many rows from the top only the title draws, and those rows of ``title`` as the OLED draws them."""
    one, two = render(Screen(title, ("a",)), 128, 64), render(Screen(title, ("b", "c", "d")), 128, 64)
    rows = next(y for y in range(64) if [one.getpixel((x, y)) for x in range(128)]
                != [two.getpixel((x, y)) for x in range(128)])
    return rows, [[1 if one.getpixel((x, y)) else 0 for x in range(128)] for y in range(rows)]


def _panel_rows(pages: list[bytes], rows: int) -> list[list[int]]:
    return [[pages[y // 8][x] >> (y % 8) & 1 for x in range(128)] for y in range(rows)]


def _shows_title(table: Table, title: str) -> bool:
    on, pages = table.panel()
    rows, expected = _title_rows(title)
    return on and _panel_rows(pages, rows) == expected


def _prepare(box: nspawn_boot.Container) -> None:
    """The container as a Pi with I2C already on, before install.sh: the gpio and i2c groups and their device
    nodes (as udev makes them), i2c-dev in /etc/modules; the stand-in archive as apt's only source and the
    wheelhouse as pip's; the stand-in smbus2 installed; directories of the service's user outside its state."""
    gpio, i2c = _free_majors()[:2]
    box.run("sh", "-ec", f"""
        groupadd --system gpio; groupadd --system i2c
        for n in 0 1; do mknod -m 0660 /dev/gpiochip$n c {gpio} $n; chgrp gpio /dev/gpiochip$n; done
        for n in 1 2; do mknod -m 0660 /dev/i2c-$n c {i2c} $n; chgrp i2c /dev/i2c-$n; done
        printf 'i2c-dev\\n' > /etc/modules
        mv /etc/apt/sources.list /etc/apt/sources.list.offline
        echo 'deb [trusted=yes] file:/srv/standin/apt ./' > /etc/apt/sources.list.d/standin.list
        printf '[global]\\nno-index = true\\nfind-links = /srv/wheels\\n' > /etc/pip.conf
        apt-get update -q && apt-get install -y -q python3-smbus2
    """)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    started = time.monotonic()
    folder = tmp_path_factory.mktemp("unit-boot")
    standin = folder / "standin"
    standin.mkdir()
    nspawn_boot.standin_archive(standin)
    (standin / "table.json").write_text('{"closed": [], "pressed": []}')
    (standin / "table.json").chmod(0o644)
    (standin / "probes.json").write_text(json.dumps({
        "write": [f"{STATE}/probe", *(f"{d}/probe" for d in [*OWNED_ELSEWHERE, *WORLD_WRITABLE]), "/tmp/probe",
                  "/var/tmp/probe"],
        "open": ["/dev/gpiochip0", "/dev/gpiochip1", "/dev/i2c-1", "/dev/i2c-2", "/dev/null"]}))
    (standin / "probes.json").chmod(0o644)
    wheels = nspawn_boot.wheelhouse()
    TIMINGS["caches (rootfs, wheels, stand-in packages)"] = time.monotonic() - started
    t = time.monotonic()
    box = nspawn_boot.boot({"/src": ROOT, "/srv/standin": standin, "/srv/wheels": wheels}, folder / "console.log")
    TIMINGS["boot"] = time.monotonic() - t
    try:
        t = time.monotonic()
        _prepare(box)
        TIMINGS["prepare"] = time.monotonic() - t
        t = time.monotonic()
        install = box.run("bash", "/src/systemd/install.sh", check=False, timeout=600)
        TIMINGS["install.sh"] = time.monotonic() - t
        assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
        box.run("sh", "-ec", " ".join(f"mkdir -p {d} && chown boardkeeper: {d};" for d in OWNED_ELSEWHERE))
        yield Table(box, standin, install.stdout)
    finally:
        box.stop()
        TIMINGS["whole module"] = time.monotonic() - started
        print("\nunit boot timings (s): " + ", ".join(f"{k} {v:.1f}" for k, v in TIMINGS.items()), file=sys.stderr)


def test_install_sh_starts_the_unit_and_it_reaches_ready(table: Table) -> None:
    assert "Active: active (running)" in table.install, table.install[-2000:]
    assert table.show("ActiveState") == "active" and table.show("SubState") == "running"
    assert table.show("StatusText") == "hannibal: Set up the board"
    ready = int(table.show("ActiveEnterTimestampMonotonic")) - int(table.show("ExecMainStartTimestampMonotonic"))
    TIMINGS["start to READY=1"] = ready / 1e6
    assert 0 < ready < 30e6  # TimeoutStartSec=30
    log = table.log()
    assert re.search(r"boardkeeper \S+: hannibal on profile /etc/boardkeeper/hannibal.toml, journal "
                     + re.escape(JOURNAL), log), log
    assert "game started" in log
    until("the OLED shows the set-up", lambda: _shows_title(table, "Set up the board"))


def test_the_gpio_backend_plays_the_game_on_the_stand_in_table(table: Table) -> None:
    t = time.monotonic()
    table.closed = _cells(get_game("hannibal").new_game().occupancy())
    table.wire()
    until("the roll prompt", lambda: table.show("StatusText") == "hannibal: Yellow: press ROLL")
    table.press(_pin("ROLL"))
    until("the roll journaled", lambda: len(table.journal_lines()) == 2)
    assert json.loads(table.journal_lines()[1])["move"].startswith("R")
    _make_a_move(table)
    TIMINGS["set up, roll and move"] = time.monotonic() - t


def test_after_sigkill_it_restarts_and_resumes_the_game(table: Table) -> None:
    before = table.journal_lines()
    title = table.show("StatusText")
    pid = table.show("MainPID")
    t = time.monotonic()
    table.systemctl("kill", "-s", "SIGKILL", UNIT)
    until("a new process asks to resume", lambda: table.show("MainPID") not in ("0", pid)
          and table.show("StatusText") == "hannibal: Resume the game?")
    TIMINGS["SIGKILL to the resume question"] = time.monotonic() - t
    assert table.show("NRestarts") == "1"
    table.press(_pin("OK"))
    until("resumed", lambda: table.log().count("game resumed") == 1)
    until("the game's own screen again", lambda: table.show("StatusText") == title)
    time.sleep(3.5)  # past the grace period: a board the game did not see would get its fix-up list now
    assert table.show("StatusText") == title
    assert table.journal_lines()[:len(before)] == before
    assert not list(table.box.path(STATE).glob("hannibal-*.jsonl"))  # nothing set aside: the same game
    _make_a_move(table)  # and it goes on


def test_the_watchdog_restarts_a_hung_loop(table: Table) -> None:
    pid = table.show("MainPID")
    t = time.monotonic()
    table.systemctl("kill", "-s", "SIGSTOP", "--kill-whom=main", UNIT)  # the loop stops turning: no more pings
    until("the watchdog's restart", lambda: table.show("MainPID") not in ("0", pid), timeout=30)
    TIMINGS["SIGSTOP to the watchdog's restart"] = time.monotonic() - t
    log = table.box.run("journalctl", "-u", UNIT, "--no-pager", "-o", "cat").stdout
    assert "Watchdog timeout (limit 15s)!" in log and "Failed with result 'watchdog'" in log
    assert table.show("NRestarts") == "2"
    until("the resume question", lambda: table.show("StatusText") == "hannibal: Resume the game?")
    table.press(_pin("OK"))
    until("resumed again", lambda: table.log().count("game resumed") == 2)


def _sandbox(table: Table) -> dict[str, dict[str, str]]:
    lines = [line for line in table.log().splitlines() if line.startswith(PROBE_SANDBOX)]
    assert lines, "the stand-in lgpio did not probe the sandbox"
    return json.loads(lines[-1][len(PROBE_SANDBOX):])  # type: ignore[no-any-return]


def test_the_sandbox_holds(table: Table) -> None:
    seen = _sandbox(table)
    assert seen["write"][f"{STATE}/probe"] == "ok"
    for folder in [*OWNED_ELSEWHERE, *WORLD_WRITABLE]:  # the user may write in each: only the sandbox keeps it out
        assert seen["write"][f"{folder}/probe"] in ("EROFS", "EACCES"), (folder, seen["write"])
    assert seen["write"]["/tmp/probe"] == "ok" and seen["write"]["/var/tmp/probe"] == "ok"  # PrivateTmp's own
    # The device cgroup: nodes of the same kind, same owner and mode, in and out of DeviceAllow=. Past the
    # device program an open reaches the (absent) driver, ENXIO; the program refuses one with EPERM.
    assert seen["open"]["/dev/gpiochip0"] == "ENXIO" and seen["open"]["/dev/i2c-1"] == "ENXIO", seen["open"]
    assert seen["open"]["/dev/gpiochip1"] == "EPERM" and seen["open"]["/dev/i2c-2"] == "EPERM", seen["open"]
    assert seen["open"]["/dev/null"] == "ok"
    outside = table.box.run("setpriv", "--reuid=boardkeeper", "--regid=boardkeeper", "--init-groups",
                            "python3", "-c", "import os, errno\nfor p in ('/dev/gpiochip1', '/dev/i2c-2'):\n"
                            "    try: os.open(p, os.O_RDWR)\n    except OSError as e: print(errno.errorcode[e.errno])",
                            ).stdout.split()
    assert outside == ["ENXIO", "ENXIO"]  # the same user outside the unit: EPERM above is the unit's doing
    assert seen["socket"] == {"AF_INET": "EAFNOSUPPORT", "AF_UNIX": "ok"}


def test_proc_subset_pid_would_keep_it_from_starting(table: Table) -> None:
    """The finding of issue 27, planted in a drop-in: this boot would have caught it."""
    dropin = "/etc/systemd/system/boardkeeper.service.d/zz-planted.conf"
    table.box.run("sh", "-ec", f"printf '[Service]\\nProcSubset=pid\\n' > {dropin}")
    table.systemctl("daemon-reload")
    try:
        table.systemctl("restart", UNIT, check=False)
        until("the planted failure", lambda: "No such file or directory: '/proc/cpuinfo'" in table.log())
        assert "error: pin factory 'lgpio' unavailable" in table.log()
        errors = table.box.run("journalctl", "-u", UNIT, "-p", "err", "-o", "cat", "--no-pager").stdout
        assert "error: pin factory 'lgpio' unavailable" in errors and "game started" not in errors  # its priority
    finally:
        table.systemctl("stop", UNIT, check=False)
        table.box.run("rm", "-f", dropin)
        table.systemctl("daemon-reload")
        table.systemctl("reset-failed", UNIT, check=False)
    table.systemctl("start", UNIT)
    until("the resume question", lambda: table.show("StatusText") == "hannibal: Resume the game?")
    table.press(_pin("OK"))
    until("resumed", lambda: table.log().count("game resumed") == 3)


def test_stop_during_the_resume_question_leaves_stopped_on_the_display(table: Table) -> None:
    """The question is up before any game is attached: the first boot found the process exiting 0 with the
    question still on the panel, where OK would no longer do anything."""
    table.systemctl("restart", UNIT)
    until("the resume question", lambda: table.show("StatusText") == "hannibal: Resume the game?")
    table.systemctl("stop", UNIT)
    assert table.show("Result") == "success" and table.show("ExecMainStatus") == "0"
    assert _shows_title(table, "Stopped")
    table.systemctl("start", UNIT)
    until("the resume question", lambda: table.show("StatusText") == "hannibal: Resume the game?")
    table.press(_pin("OK"))
    until("resumed", lambda: table.log().count("game resumed") == 4)


def test_systemctl_stop_leaves_stopped_on_the_display_and_exits_0(table: Table) -> None:
    until("the game on screen", lambda: table.show("StatusText") not in ("", "hannibal: Resume the game?"))
    t = time.monotonic()
    table.systemctl("stop", UNIT)
    TIMINGS["systemctl stop"] = time.monotonic() - t
    assert table.show("ActiveState") == "inactive"
    assert table.show("Result") == "success" and table.show("ExecMainStatus") == "0"
    assert _shows_title(table, "Stopped")
    assert f"stopped by SIGTERM; the game is safe in {JOURNAL}" in table.log()


WEB_PORT = 8081
FETCH = ("import sys, urllib.request\ntry:\n    print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())\n"
         "except OSError as e:\n    print(f'refused: {e}')")


def test_the_web_page_is_served_on_a_socket_systemd_hands_over(table: Table) -> None:
    """A profile with the page on, installed by install.sh: systemd makes the page's socket and hands it to the
    service, which serves the page on it while it keeps no network of its own (``PrivateNetwork=yes``, AF_UNIX
    alone: its sandbox probe still cannot open an AF_INET socket); the unit rates at most 1.0; and a stopped
    service takes its socket with it, so a phone's page that reconnects cannot start it again."""
    profile = (ROOT / "hw_config" / "profiles" / "hannibal.toml").read_text()
    (table.standin / "hannibal.toml").write_text(profile + f"\n[web]\nenabled = true\nport = {WEB_PORT}\n")
    t = time.monotonic()
    install = table.box.run("bash", "/src/systemd/install.sh", "/srv/standin/hannibal.toml", check=False, timeout=600)
    TIMINGS["install.sh with the web page"] = time.monotonic() - t
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    assert "the web page on 0.0.0.0:8081: a socket for the service" in install.stdout
    url = f"http://127.0.0.1:{WEB_PORT}/api/state"

    def page() -> dict[str, object] | None:
        answer = table.box.run("python3", "-c", FETCH, url).stdout
        return None if answer.startswith("refused") else json.loads(answer)  # type: ignore[no-any-return]

    state = until("the page answers", page)
    assert isinstance(state, dict) and state["game"] == "hannibal", state
    assert table.show("PrivateNetwork") == "yes" and table.show("RestrictAddressFamilies") == "AF_UNIX"
    assert "listening on the socket systemd handed over" in table.log()
    assert _sandbox(table)["socket"] == {"AF_INET": "EAFNOSUPPORT", "AF_UNIX": "ok"}  # the service's own sockets
    rating = table.box.run("systemd-analyze", "security", "--no-pager", UNIT).stdout
    exposure = re.search(r"Overall exposure level for boardkeeper\.service: (\d+\.\d+)", rating)
    assert exposure and float(exposure.group(1)) <= 1.0, rating[-3000:]
    table.systemctl("stop", UNIT)
    assert table.box.run("systemctl", "is-active", "boardkeeper-web.socket", check=False).stdout.strip() == "inactive"
    assert table.box.run("python3", "-c", FETCH, url).stdout.startswith("refused")
