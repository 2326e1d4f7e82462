"""Reading a profile or layout file without trusting it: bounded in size, UTF-8 checked, nesting checked.

A profile is a few kilobytes; anything far larger is a mistake (the wrong file, a generated runaway) and
is refused before parsing, so checking it never takes the memory of the machine. ``tomllib`` raises
``UnicodeDecodeError`` for a stray byte and ``RecursionError`` for arrays nested thousands deep; both are
named as problems of the file like any other syntax error.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from hw_config.problems import Problem

MAX_BYTES = 64 * 1024


def read_toml(path: Path, problems: list[Problem]) -> dict[str, Any] | None:
    """The parsed file, or None with the reason added to ``problems``."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        problems.append(Problem(str(path), "-", "no such file"))
        return None
    except OSError as e:
        problems.append(Problem(str(path), "-", f"cannot read: {e.strerror}"))
        return None
    if len(data) > MAX_BYTES:
        problems.append(Problem(str(path), "-", f"too large: over {MAX_BYTES // 1024} KiB (a profile is a few KiB)"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        problems.append(Problem(str(path), "-", f"not valid TOML: byte 0x{data[e.start]:02x} on line {line} "
                                             f"is not UTF-8"))
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        problems.append(Problem(str(path), "-", f"not valid TOML: {e}"))
    except RecursionError:
        problems.append(Problem(str(path), "-", "not valid TOML: arrays or tables nested too deeply"))
    return None
