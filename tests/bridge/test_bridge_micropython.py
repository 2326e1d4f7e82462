"""The firmware under real MicroPython, not only under CPython with a stand-in ``machine``: MicroPython 1.27's
WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``, pinned in
firmware_bridge/mpy_test/package.json) runs in Node, scans a scripted 16x16 board through the 74HC595 and
74HC165 stand-ins, and the host's codec decodes and checks every byte it wrote. The same scenario under
CPython must write the very same bytes.

Needs Node; the package is installed with ``npm ci`` on first use (CI does it beforehand in .ci/run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import micropython_scenario as scenario
import pytest
from support import ROOT_DIR, TESTS_DIR

from firmware_bridge import codec
from firmware_bridge.firmware.mcu import DELTA_REPEATS, GREET_BEATS

ROOT = ROOT_DIR
NPM_DIR = ROOT / "firmware_bridge" / "mpy_test"
MICROPYTHON = NPM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
MODULES = ["firmware_bridge/__init__.py", *(f"firmware_bridge/firmware/{n}.py" for n in
                                            ("__init__", "wire", "matrix", "mcu", "pico")),
           "sim_hardware/parts.py"]
SCENARIO = TESTS_DIR / "micropython_scenario.py"
REQUEST_MS, LED_MS = 105, 115  # between two rows of the carousel (every 10 ms)


OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENETUNREACH", "network")
"""What npm says when the registry cannot be reached: the package cannot be installed here, which is a
reason to skip (naming the command), not a failure of the firmware."""


def install_micropython(npm_dir: Path, env: dict[str, str] | None = None) -> None:
    """``npm ci`` in ``npm_dir`` (the pinned MicroPython): skips, naming the command, where npm is missing or the
    registry cannot be reached; fails on any other error (a broken lock file is ours to fix)."""
    command = f"(cd {npm_dir} && npm ci)"
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not installed: the firmware is checked under CPython only; install Node's npm, then "
                    f"{command}")
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=npm_dir, capture_output=True, text=True,
                          timeout=300, env=env)
    if done.returncode == 0:
        return
    said = (done.stderr.strip() or done.stdout.strip()).splitlines()
    if any(word in done.stderr + done.stdout for word in OFFLINE):
        pytest.skip(f"MicroPython for Node cannot be installed: npm's registry is unreachable "
                    f"({said[0] if said else 'no message'}); where it is: {command}")
    pytest.fail(f"cannot install MicroPython for Node with {command}: {' / '.join(said[-3:])}")


def _micropython() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the firmware is checked under CPython only; apt-get install nodejs npm")
    if not MICROPYTHON.exists():
        install_micropython(NPM_DIR)
        if not MICROPYTHON.exists():
            pytest.fail(f"npm ci in {NPM_DIR} installed no {MICROPYTHON.name}")
    return [node, str(MICROPYTHON)]


def test_node_present_but_offline_skips_naming_the_command(tmp_path: Path) -> None:
    """The registry unreachable (a port nothing listens on): a skip that names ``npm ci``, not a failure."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: apt-get install npm")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(NPM_DIR / name, tmp_path / name)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "npm_config_registry": "http://127.0.0.1:9/",
           "npm_config_cache": str(tmp_path / "cache"), "npm_config_fetch_retries": "0",
           "npm_config_offline": "false"}
    with pytest.raises(pytest.skip.Exception, match=r"registry is unreachable .*npm ci\)"):
        install_micropython(tmp_path, env)


def _host_frames() -> dict[int, bytes]:
    return {REQUEST_MS: codec.encode(codec.Frame(codec.SNAPSHOT_REQUEST, 1, b"")),
            LED_MS: codec.encode(codec.Frame(codec.LED, 2, codec.led_body(255, codec.Colour.LIFT)))}


def _driver(micropython: bool) -> str:
    """The scenario and its call; for MicroPython, preceded by the firmware's files written into its
    in-memory file system (it cannot see the host's)."""
    prelude = ""
    if micropython:
        files = {name: (ROOT / name).read_text() for name in MODULES}
        files["sim_hardware/__init__.py"] = ""
        prelude = (f"import os\nos.mkdir('/lib')\nfor d in ('firmware_bridge', 'firmware_bridge/firmware', "
                   f"'sim_hardware'):\n    os.mkdir('/lib/' + d)\nfor name, text in {files!r}.items():\n"
                   f"    with open('/lib/' + name, 'w') as f:\n        f.write(text)\n")
    return f"{prelude}{SCENARIO.read_text()}\nrun({_host_frames()!r})\n"


def _run(command: list[str], script: Path) -> list[str]:
    result = subprocess.run([*command, str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT,
                            env={"PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stdout.splitlines()


def _masks(cells: set[tuple[int, int]]) -> list[int]:
    return [sum(1 << c for r, c in cells if r == row) for row in range(scenario.ROWS)]


def test_firmware_under_micropython_reads_a_16x16_shift_register_board(tmp_path: Path) -> None:
    node = _micropython()
    (tmp_path / "mpy.py").write_text(_driver(micropython=True))
    (tmp_path / "cpy.py").write_text(_driver(micropython=False))
    lines = _run(node, tmp_path / "mpy.py")
    assert lines == _run([sys.executable], tmp_path / "cpy.py")  # byte for byte what CPython writes
    assert lines[-1] == "lit [(255, [30, 0, 30])] 2"  # the LED lit in its colour: the strip put out at boot, then lit

    decoder = codec.Decoder()
    frames: list[tuple[int, codec.Frame]] = []
    for line in lines[:-1]:
        ms, data = line.split()
        for item in decoder.feed(bytes.fromhex(data)):
            assert isinstance(item, codec.Frame), item  # not one damaged frame
            frames.append((int(ms), item))
    assert frames[0] == (0, codec.Frame(codec.HELLO, 0, bytes([codec.VERSION, 16, 16])))
    hellos = [ms for ms, f in frames if f == codec.Frame(codec.HELLO, f.seq, frames[0][1].body)]
    assert hellos == [0, *range(10, 10 * GREET_BEATS + 1, 10)]  # and one with each of the first rows
    assert [f.seq for _, f in frames] == [i % 256 for i in range(len(frames))]

    # what the script should make of it: a change counts on its third scan; the bounce never does
    reported = [(40, [(9, 2, True)]), (70, [(7, 7, False), (8, 9, True)]), (160, [(15, 15, False)])]
    deltas = [(ms, codec.delta_fields(f.body)) for ms, f in frames if f.type == codec.DELTA]
    assert deltas == [(ms, (i + 1, cells)) for i, (ms, cells) in enumerate(reported)]
    copies = [(ms, codec.delta_fields(f.body)) for ms, f in frames if f.type == codec.DELTA_COPY]
    for i, (ms, fields) in enumerate(deltas):  # a copy with each row from then on, until the next delta
        until = deltas[i + 1][0] if i + 1 < len(deltas) else scenario.END_MS + 1
        beats = [at for at in range(ms, until, scenario.STEP_MS) if at % 10 == 0][:DELTA_REPEATS]
        assert [at for at, d in copies if d == fields] == beats
    versions = [set(scenario.START)]
    for _, cells in reported:
        versions.append({cell for cell in versions[-1] if (*cell, False) not in cells}
                        | {(r, c) for r, c, closed in cells if closed})

    rows = [(ms, codec.row_fields(f.body)) for ms, f in frames if f.type == codec.ROW]
    for _, (version, row, mask) in rows:
        assert mask == _masks(versions[version])[row], (version, row)
    burst = [row for ms, (_, row, _) in rows if ms == REQUEST_MS]
    assert burst == list(range(16))  # the snapshot request: every row at once
    carousel = [row for ms, (_, row, _) in rows if ms != REQUEST_MS]
    assert carousel == [i % 16 for i in range(len(carousel))] and len(carousel) >= 16  # one every 10 ms
    assert [(ms, f.body) for ms, f in frames if f.type == codec.ACK] == [(LED_MS, bytes([2]))]
