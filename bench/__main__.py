"""``python -m bench``: every benchmark of the project in one run; exit 1 naming each one whose target
was missed (the long reliability runs, ``bench.powercut``, ``bench.soak``, ``bench.strength`` and ``bench.remote``, and
``bench.web``, which needs Chromium, are run on their own)."""

import sys

from bench import bots, bridge, cannonball, engine, frames, journal, playouts, scan, start, table

if __name__ == "__main__":
    missed = []
    print("== engine playouts (issue 2; the target is bench.engine's)")
    playouts.report()
    print("== the table on the simulated stack (issue 3)")
    if not table.report():
        missed.append("bench.table")
    print("== the board over serial (issue 5)")
    if bridge.main([]) != 0:
        missed.append("bench.bridge")
    print("== scanning, engine, frames, journal and start-up on a Pi Zero 2 W budget (issue 16)")
    for name, report in (("bench.scan", scan.report), ("bench.engine", engine.report),
                         ("bench.frames", frames.report), ("bench.journal", journal.report),
                         ("bench.start", start.report)):
        if not report():
            missed.append(name)
    print("== time per bot decision, every bot a demo or a table seats (issue 16)")
    missed += [f"bench.bots ({name})" for name in bots.report()]
    print("== Cannon Ball decisions/s and bot move times (issue 15)")
    if cannonball.main([]) != 0:
        missed.append("bench.cannonball")
    print("targets missed: " + (", ".join(missed) if missed else "none"))
    sys.exit(1 if missed else 0)
