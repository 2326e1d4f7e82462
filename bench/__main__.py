"""``python -m bench``: every benchmark of the project in one run (numbers and ratios, never pass/fail)."""

from bench import bridge, engine, frames, journal, playouts, scan, start, table

if __name__ == "__main__":
    print("== engine playouts (issue 2)")
    playouts.report()
    print("== the table on the simulated stack (issue 3)")
    table.report()
    print("== the board over serial (issue 5)")
    bridge.main([])
    print("== scanning, engine, frames and journal on a Pi Zero 2 W budget (issue 16)")
    scan.report()
    engine.report()
    frames.report()
    journal.report()
    start.report()
