"""The project's own rules about code: lint and types clean, engines import only the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from support import ROOT_DIR

ROOT = ROOT_DIR
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
HARDWARE = {"controller", "sim_hardware", "firmware_bridge", "hw_config", "gpiozero", "luma", "serial",
            "transitions", "RPi", "lgpio", "PIL"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engines_import_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"engines"}
    for path in (ROOT / "engines").rglob("*.py"):
        bad = _imports(path) - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
        assert not (_imports(path) & HARDWARE)


def test_hw_config_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"hw_config"}
    for path in (ROOT / "hw_config").rglob("*.py"):
        bad = _imports(path) - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_controller_never_imports_the_simulation_statically() -> None:
    for path in (ROOT / "controller").rglob("*.py"):
        assert "sim_hardware" not in _imports(path), f"{path.relative_to(ROOT)} imports sim_hardware"
        text = path.read_text()
        assert "import sim_hardware" not in text


def test_layers_import_only_what_design_allows() -> None:
    rules = {
        "controller": {"engines", "hw_config", "firmware_bridge", "transitions", "gpiozero", "luma", "PIL",
                       "controller"},
        "sim_hardware": {"gpiozero", "luma", "firmware_bridge", "hw_config", "engines", "PIL", "sim_hardware"},
        "firmware_bridge": {"serial", "cobs", "firmware_bridge"},
    }
    web = ROOT / "controller" / "web"  # the web page's libraries (and its QR codes), imported only when it is on
    remote = ROOT / "controller" / "remote"  # the MQTT client, imported only for remote play
    for folder, allowed in rules.items():
        for path in (ROOT / folder).rglob("*.py"):
            if path.is_relative_to(FIRMWARE):
                continue
            extra = {"aiohttp", "segno"} if path.is_relative_to(web) else {"paho"} if path.is_relative_to(remote) \
                else set()
            bad = _imports(path) - allowed - extra - set(sys.stdlib_module_names)
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_firmware_imports_only_micropython_modules_and_itself() -> None:
    """The MCU has MicroPython's modules, not the host's packages: the firmware brings its own CRC and
    COBS instead of importing the codec (which needs binascii.crc_hqx and dataclasses)."""
    allowed = {"machine", "neopixel", "time", "firmware_bridge"}
    for path in FIRMWARE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module and node.module.startswith("firmware_bridge.firmware"), \
                    f"{path.relative_to(ROOT)} imports from {node.module}"
        assert _imports(path) <= allowed, f"{path.relative_to(ROOT)} imports {sorted(_imports(path) - allowed)}"


def test_ruff_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
