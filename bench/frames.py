"""Frames (issue 16): bytes on the I2C bus per frame and render+push time over a typical Hannibal game.

``python -m bench.frames`` plays demo games (seeds 1-3) with the OLED swapped for a real driver on a
fake I2C bus that counts bytes (address + control byte + payload per transaction, luma's 32-byte blocks),
once with luma's own ssd1306 driver and once with the diffing one, and exits 1 when the median bytes
per frame of the diffing driver is over the target.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from controller.demo import run_demo
from controller.oled import DiffingSSD1306
from controller.table import Table

TARGET_MEDIAN_BYTES = 256
I2C_HZ = 400_000
SEEDS = (1, 2, 3)


class CountingBus:
    """An smbus stand-in that only counts what would go over the wire."""

    def __init__(self) -> None:
        self.bytes = 0

    def write_i2c_block_data(self, address: int, mode: int, data: list[int]) -> None:
        self.bytes += 2 + len(data)


@dataclass
class Frames:
    sizes: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    same_title: list[int] = field(default_factory=list)  # sizes of frames that keep the screen's title

    @property
    def median_bytes(self) -> float:
        return statistics.median(self.sizes)

    def line(self, name: str) -> str:
        ms = sorted(s * 1000 for s in self.seconds)
        wire = self.median_bytes * 9 / I2C_HZ * 1000
        return (f"{name}: {len(self.sizes)} frames, bytes/frame median {self.median_bytes:.0f} "
                f"(p95 {sorted(self.sizes)[int(len(self.sizes) * 0.95)]}, max {max(self.sizes)}), "
                f"{wire:.1f} ms on the bus at 400 kHz; render+push median {statistics.median(ms):.2f} ms, "
                f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms; frames keeping their title: {len(self.same_title)}, "
                f"median {statistics.median(self.same_title):.0f} bytes")


def play(driver: Callable[..., Any], seeds: tuple[int, ...] = SEEDS) -> Frames:
    out = Frames()

    def instrument(table: Table) -> None:
        bus = CountingBus()
        oled = table.oled
        oled.device = driver(i2c(bus=bus), width=128, height=64)
        draw = oled.draw  # render + push: what each new screen costs

        def timed(screen: Any) -> None:
            shown, before, start = oled.drawn, bus.bytes, time.perf_counter()
            draw(screen)
            if screen is oled.drawn and screen is not shown:
                out.seconds.append(time.perf_counter() - start)
                out.sizes.append(bus.bytes - before)
                if shown is not None and shown.title == screen.title:
                    out.same_title.append(bus.bytes - before)

        oled.draw = timed  # type: ignore[method-assign]

    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            run_demo(seed, Path(tmp) / f"{seed}.jsonl", faults=instrument)
    return out


def report() -> bool:
    luma = play(ssd1306)
    print(luma.line("luma ssd1306 (whole frames)"))
    diffing = play(DiffingSSD1306)
    print(diffing.line("diffing ssd1306 (changed pages)"))
    met = diffing.median_bytes <= TARGET_MEDIAN_BYTES
    print(f"median bytes per frame {diffing.median_bytes:.0f} (target <= {TARGET_MEDIAN_BYTES}: "
          f"{'met' if met else 'NOT met'})")
    if not met:
        print(f"TARGET MISSED: median bytes per frame {diffing.median_bytes:.0f} > {TARGET_MEDIAN_BYTES}")
    return met


if __name__ == "__main__":
    sys.exit(0 if report() else 1)
