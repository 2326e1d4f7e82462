"""A stand-in for lgpio, installed only in the container of ``tests/system/test_unit_boot.py`` (as the Debian
package ``python3-lgpio``, the one ``systemd/install.sh`` asks for), so that the ``gpio`` backend, which
only runs on a Pi, runs under the real unit's sandbox on a machine without GPIO.

It is wired like the simulated table: the reed matrix with one diode per reed (a column reads low only
while the row of a closed reed is driven low) and buttons from a pin to ground, both read from
``/srv/standin/table.json`` (``{"closed": [[row_gpio, col_gpio], ...], "pressed": [gpio, ...]}``), which
the test rewrites to move magnets and press buttons.

Three things a Pi has and this machine has not are made to look as on a Pi, each through the same path
the real thing takes, so that the unit's restrictions still bite where they would on a Pi:

- ``/dev/gpiochipN`` is opened for real, as lgpio does: the test's node has no driver behind it, so
  ENXIO means the device cgroup let the open through; EPERM (``DeviceAllow=`` without the chip) fails as
  lgpio fails.
- gpiozero tells the Pi's model from ``/proc/cpuinfo``; that file is read for real (a ``ProcSubset=pid``
  /proc hides it: ENOENT, as on a Pi) and the lines a Pi 4's kernel writes in it are added to what it says.
- Once per process, what the sandbox allows is probed from inside it (the files and devices listed in
  ``/srv/standin/probes.json``, an IP socket) and logged as one line, for the test to read in the journal:
  only a process inside the unit's cgroup and namespaces sees its sandbox.
"""

from __future__ import annotations

import errno
import io
import json
import os
import socket
import sys
import time
from typing import Any

SET_ACTIVE_LOW = 4
SET_OPEN_DRAIN = 8
SET_OPEN_SOURCE = 16
SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128
SET_BIAS_PULL_UP, SET_BIAS_PULL_DOWN, SET_BIAS_DISABLE = SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE
RISING_EDGE, FALLING_EDGE, BOTH_EDGES = 1, 2, 3
GROUP_ALL = 0xFFFFFFFFFFFFFFFF

# gpio_get_mode's bits, as lgpio reports them
_KERNEL, _OUT, _OPEN_DRAIN, _PULL_UP, _PULL_DOWN, _BIAS_DISABLE = 1, 2, 8, 32, 64, 128
_LG_INPUT, _LG_OUTPUT = 256, 512

TABLE = "/srv/standin/table.json"
PROBES = "/srv/standin/probes.json"
PI_CPUINFO = ("Hardware\t: BCM2835\nRevision\t: c03114\nSerial\t\t: 10000000standin\n"
              "Model\t\t: Raspberry Pi 4 Model B Rev 1.4\n")


class error(Exception):
    """lgpio's exception."""


class _Line:
    def __init__(self) -> None:
        self.output = False
        self.flags = 0
        self.level = 1


class _Table:
    """The wiring: which reeds are closed and which buttons pressed, reread when the file changes (looked
    at no more than every 20 ms: the matrix is read hundreds of times a second)."""

    def __init__(self) -> None:
        self.closed: set[tuple[int, int]] = set()
        self.pressed: set[int] = set()
        self._seen: int | None = None
        self._looked = 0.0

    def refresh(self) -> None:
        now = time.monotonic()
        if now - self._looked < 0.02:
            return
        self._looked = now
        try:
            stamp = os.stat(TABLE).st_mtime_ns
            if stamp == self._seen:
                return
            with open(TABLE) as f:
                data = json.load(f)
        except (OSError, ValueError):
            return  # no table file, or one being replaced: keep what was read
        self._seen = stamp
        self.closed = {(int(r), int(c)) for r, c in data.get("closed", [])}
        self.pressed = {int(p) for p in data.get("pressed", [])}


_lines: dict[int, _Line] = {}
_groups: dict[int, list[int]] = {}
_table = _Table()
_probed = False


def _line(gpio: int) -> _Line:
    return _lines.setdefault(gpio, _Line())


def _level(gpio: int) -> int:
    line = _line(gpio)
    if line.output:
        return line.level
    _table.refresh()
    if gpio in _table.pressed:
        return 0
    for row, col in _table.closed:  # a reed conducts from its column into its row only while the row is low
        if col == gpio and _lines.get(row) is not None and _lines[row].output and _lines[row].level == 0:
            return 0
    return 0 if line.flags & SET_PULL_DOWN else 1


def gpiochip_open(gpiochip: int) -> int:
    try:
        os.close(os.open(f"/dev/gpiochip{gpiochip}", os.O_RDWR | os.O_CLOEXEC))
    except OSError as e:
        if e.errno not in (errno.ENXIO, errno.ENODEV):  # past the device cgroup: no driver behind the node
            raise error("can not open gpiochip") from e
    global _probed
    if not _probed:
        _probed = True
        print("lgpio stand-in: sandbox " + json.dumps(probe_sandbox(), sort_keys=True), file=sys.stderr, flush=True)
    return gpiochip + 100


def gpiochip_close(handle: int) -> int:
    return 0


def gpio_claim_input(handle: int, gpio: int, lFlags: int = 0) -> int:
    line = _line(gpio)
    line.output, line.flags = False, lFlags
    return 0


def gpio_claim_output(handle: int, gpio: int, level: int = 0, lFlags: int = 0) -> int:
    line = _line(gpio)
    line.output, line.flags, line.level = True, lFlags, int(bool(level))
    return 0


def gpio_free(handle: int, gpio: int) -> int:
    _lines.pop(gpio, None)
    return 0


def gpio_get_mode(handle: int, gpio: int) -> int:
    line = _line(gpio)
    mode = _KERNEL | (_OUT | _LG_OUTPUT if line.output else _LG_INPUT)
    for flag, bit in ((SET_OPEN_DRAIN, _OPEN_DRAIN), (SET_PULL_UP, _PULL_UP), (SET_PULL_DOWN, _PULL_DOWN),
                      (SET_PULL_NONE, _BIAS_DISABLE)):
        if line.flags & flag:
            mode |= bit
    return mode


def gpio_read(handle: int, gpio: int) -> int:
    return _level(gpio)


def gpio_write(handle: int, gpio: int, level: int) -> int:
    _line(gpio).level = int(bool(level))
    return 0


def group_claim_input(handle: int, gpio: list[int], lFlags: int = 0) -> int:
    for g in gpio:
        gpio_claim_input(handle, g, lFlags)
    _groups[gpio[0]] = list(gpio)
    return 0


def group_claim_output(handle: int, gpio: list[int], levels: list[int] | None = None,
                       lFlags: int = 0) -> int:
    levels = levels or [0] * len(gpio)
    for g, level in zip(gpio, levels, strict=False):
        gpio_claim_output(handle, g, level, lFlags)
    _groups[gpio[0]] = list(gpio)
    return 0


def group_free(handle: int, gpio: int) -> int:
    for g in _groups.pop(gpio, []):
        _lines.pop(g, None)
    return 0


def group_read(handle: int, gpio: int) -> tuple[int, int]:
    bits = 0
    for i, g in enumerate(_groups[gpio]):
        bits |= _level(g) << i
    return 0, bits


def group_write(handle: int, gpio: int, group_bits: int, group_mask: int = GROUP_ALL) -> int:
    for i, g in enumerate(_groups[gpio]):
        if group_mask >> i & 1:
            _line(g).level = group_bits >> i & 1
    return 0


def _unsupported(*args: Any, **kwargs: Any) -> int:
    raise error("not offered by the stand-in: the table polls its pins")


gpio_claim_alert = gpio_set_debounce_micros = callback = tx_pwm = _unsupported


def _outcome(action: Any) -> str:
    try:
        action()
    except OSError as e:
        return errno.errorcode.get(e.errno or 0, str(e))
    return "ok"


def _write(path: str) -> None:
    with open(path, "w") as f:
        f.write("probe\n")
    os.unlink(path)


def _open_device(path: str) -> None:
    os.close(os.open(path, os.O_RDWR | os.O_CLOEXEC))


def probe_sandbox() -> dict[str, dict[str, str]]:
    """What this process may do: write where, open which device (the lists in ``PROBES``, else a few of
    each), make which socket; "ok" or the errno's name for each."""
    try:
        with open(PROBES) as f:
            asked = json.load(f)
    except (OSError, ValueError):
        asked = {}
    writes = asked.get("write", ["/var/lib/boardkeeper/probe", "/etc/boardkeeper/probe", "/var/lib/probe"])
    devices = asked.get("open", ["/dev/gpiochip0", "/dev/gpiochip1", "/dev/i2c-1", "/dev/i2c-2"])
    return {
        "write": {p: _outcome(lambda p=p: _write(p)) for p in writes},
        "open": {p: _outcome(lambda p=p: _open_device(p)) for p in devices},
        "socket": {"AF_INET": _outcome(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()),
                   "AF_UNIX": _outcome(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).close())},
    }


def _cpuinfo_as_on_a_pi() -> None:
    """gpiozero reads /proc/cpuinfo through ``io.open`` in ``gpiozero.pins.local``: read the real file, then
    add what a Pi 4's kernel would have written in it."""
    try:
        import gpiozero.pins.local as local
    except ImportError:
        return
    real = io.open

    class ProcAsOnAPi:
        def __getattr__(self, name: str) -> Any:
            return getattr(io, name)

        @staticmethod
        def open(file: Any, *args: Any, **kwargs: Any) -> Any:
            if file == "/proc/cpuinfo":
                with real(file, *args, **kwargs) as f:
                    return io.StringIO(f.read() + PI_CPUINFO)
            return real(file, *args, **kwargs)

    local.io = ProcAsOnAPi()


_cpuinfo_as_on_a_pi()
