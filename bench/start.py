"""Start-up cost (issue 16): how long importing the CLI takes, and that ``--help`` loads nothing heavy.

``python -m bench.start`` runs ``python -X importtime -c "import controller.cli"`` in fresh interpreters
and takes the best cumulative time of ``controller.cli`` over ``RUNS`` (the noise of a busy machine only
ever adds time, and a shared machine is busy in bursts). A first, untimed run may write the bytecode cache,
as the first start on the Pi does: without it (``PYTHONDONTWRITEBYTECODE`` set, or sources edited since)
every run would time compiling the sources instead of importing them. It exits 1, printing the case, when
the import takes longer than the target or when ``--help`` imports an engine, PIL, pyserial, transitions,
luma or gpiozero: on a Zero 2 W, 13-29x slower than CI, each of those is seconds before the first word on
screen.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

TARGET_MS = 25.0
RUNS = 15
HEAVY = ("PIL", "serial", "transitions", "luma", "gpiozero")
ROOT = Path(__file__).resolve().parent.parent


def import_ms(module: str = "controller.cli") -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, env=env, check=True)
    best = float("inf")
    for _ in range(RUNS):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True).stderr
        line = next(x for x in err.splitlines() if re.search(rf"\|\s*{re.escape(module)}$", x))
        best = min(best, int(line.split("|")[1]) / 1000)
    return best


def heavy_modules_on_help() -> list[str]:
    code = ("import sys, contextlib, io\nfrom controller.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try: main(['--help'])\n    except SystemExit: pass\n"
            f"print(' '.join(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} "
            "or (m.startswith('engines.') and m not in ('engines.base', 'engines.registry'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.split()


def report() -> bool:
    ms = import_ms()
    heavy = heavy_modules_on_help()
    ok_time, ok_heavy = ms <= TARGET_MS, not heavy
    print(f"import controller.cli: {ms:.1f} ms best of {RUNS} (target <= {TARGET_MS:.0f} ms) "
          f"{'ok' if ok_time else 'MISSED'}")
    print(f"modules --help loads beyond the CLI: {' '.join(heavy) or 'none'} (target: none) "
          f"{'ok' if ok_heavy else 'MISSED'}")
    return ok_time and ok_heavy


if __name__ == "__main__":
    sys.exit(0 if report() else 1)
