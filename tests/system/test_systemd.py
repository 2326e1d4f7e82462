"""The service unit: systemd accepts it and its sandbox exposure stays at or below 1.0."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support import ROOT_DIR

UNIT = ROOT_DIR / "systemd" / "boardkeeper.service"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed on this machine")


@needs_analyze
def test_security_exposure_at_most_1_0() -> None:
    result = subprocess.run([ANALYZE or "", "security", "--offline=true", "--no-pager", str(UNIT)],
                            capture_output=True, text=True)
    match = re.search(r"Overall exposure level for boardkeeper\.service: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 1.0


@needs_analyze
def test_unit_verifies(tmp_path: Path) -> None:
    # off the Pi the install path does not exist: check the unit with its command pointed at a real binary
    unit = tmp_path / "boardkeeper.service"
    unit.write_text(UNIT.read_text().replace("/opt/boardkeeper/.venv/bin/boardkeeper", shutil.which("true") or ""))
    result = subprocess.run([ANALYZE or "", "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines() if "boardkeeper.service" in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_unit_has_the_required_settings() -> None:
    text = UNIT.read_text()
    for setting in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "StateDirectory=boardkeeper",
                    "PrivateNetwork=yes", "IPAddressDeny=any", "User=boardkeeper", "DevicePolicy=closed"):
        assert setting in text


def test_install_script_is_valid_bash() -> None:
    script = UNIT.parent / "install.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0


def test_the_unit_leaves_proc_cpuinfo_to_the_pin_factory() -> None:
    """``ProcSubset=pid`` hides /proc/cpuinfo and /proc/device-tree, which gpiozero's lgpio and rpigpio
    factories read to tell which Pi they are on: under it ``play`` exits 2 and Restart= loops (issue 27)."""
    settings = [line.strip() for line in UNIT.read_text().splitlines() if not line.lstrip().startswith("#")]
    assert "ProcSubset=pid" not in settings and "ProtectProc=invisible" in settings


def test_the_unit_keeps_run_and_dev_shm_read_only() -> None:
    """ProtectSystem=strict leaves /run writable once the unit's ProtectKernelTunables= (or ProtectControlGroups=,
    ProtectProc=) mounts the API file systems, and /dev is never covered: the boot test found the service able to
    write in the world-writable /run/lock and /dev/shm, outside its state directory."""
    paths = [p for line in UNIT.read_text().splitlines() if line.startswith("ReadOnlyPaths=")
             for p in line.partition("=")[2].split()]
    assert "/run" in paths and {"/dev/shm", "-/dev/shm"} & set(paths)
