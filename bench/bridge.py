"""The board link in numbers (issue 5): ``python -m bench.bridge [FRAMES]``.

- round trip (host command -> MCU ack) and delta latency (magnet placed -> change on the host), in real
  time, over a real pty to the firmware running under CPython;
- frames per second the host's link sustains (reader thread + decode) from a pty;
- ``FRAMES`` (default 10^5) frames corrupted at random (bit flips, dropped, inserted and duplicated
  bytes) through the decoder: crashes and corrupt frames accepted, both must be 0;
- a demo game on a 1 % noisy line with the cable pulled every simulated minute: reconnects survived,
  and whether the journal is valid and the same game as on the direct board.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from controller.demo import run_demo
from controller.journal import read, replay
from controller.table import Table
from firmware_bridge.codec import (
    DELTA,
    HEARTBEAT,
    LED,
    SNAPSHOT,
    Decoder,
    Frame,
    delta_body,
    encode,
    snapshot_body,
)
from firmware_bridge.link import Link, Status
from sim_hardware.bridge_backend import _open_serial
from sim_hardware.clock import FakeClock
from sim_hardware.mcu import SimMcu
from sim_hardware.pins import SimBoard

ROWS = COLS = tuple(range(2, 9)), tuple(range(9, 16))


def sample(rng: random.Random, seq: int) -> Frame:
    kind = rng.choice((DELTA, SNAPSHOT, HEARTBEAT))
    if kind == DELTA:
        body = delta_body([(rng.randrange(7), rng.randrange(7), rng.random() < 0.5) for _ in range(rng.randint(1, 4))])
    elif kind == SNAPSHOT:
        body = snapshot_body(7, 7, {(rng.randrange(7), rng.randrange(7)) for _ in range(12)})
    else:
        body = rng.getrandbits(32).to_bytes(4, "big")
    return Frame(kind, seq % 256, body)


def corrupt(rng: random.Random, wire: bytes) -> bytes:
    data = bytearray(wire)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(data))
        action = rng.randrange(4)
        if action == 0:
            data[i] ^= 1 << rng.randrange(8)
        elif action == 1:
            del data[i]
        elif action == 2:
            data.insert(i, rng.randrange(256))
        else:
            data[i:i] = data[i:i + rng.randint(1, 5)]
        if not data:
            break
    return bytes(data)


def corrupted_frames(total: int) -> None:
    rng = random.Random(1)
    decoder = Decoder()
    crashes = accepted_corrupt = accepted_intact = 0
    start = time.perf_counter()
    for seq in range(total):
        frame = sample(rng, seq)
        wire = encode(frame)
        bad = corrupt(rng, wire)
        try:
            for item in decoder.feed(bad):
                if isinstance(item, Frame):
                    if item == frame:
                        accepted_intact += 1  # the damage missed the frame (e.g. a duplicated delimiter)
                    else:
                        accepted_corrupt += 1
        except Exception:
            crashes += 1
    elapsed = time.perf_counter() - start
    print(f"{total} corrupted frames: {crashes} crashes, {accepted_corrupt} corrupt frames accepted, "
          f"{accepted_intact} delivered intact; {total / elapsed:.0f} frames/s encoded+corrupted+decoded")


def _pair() -> tuple[SimBoard, SimMcu, Link]:
    board = SimBoard(*ROWS, FakeClock())
    mcu = SimMcu(board, random.Random(1))
    link = Link(lambda: mcu.open_port(_open_serial), 7, 7)
    mcu.link = link
    return board, mcu, link


def _pcts(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=20)
    return f"p50 {statistics.median(samples) * 1e3:.2f} ms, p95 {q[18] * 1e3:.2f} ms (n={len(samples)})"


def latency(samples: int = 300) -> None:
    """Real time: the MCU is stepped every loop turn (as the Pico's main loop does, every millisecond)."""
    board, mcu, link = _pair()
    t0 = time.monotonic()
    while link.status is not Status.UP and time.monotonic() - t0 < 5:
        link.poll(time.monotonic())
        mcu.step(time.monotonic())
    round_trips, deltas = [], []
    for i in range(samples):
        link.send(LED, bytes([i % 7, 0, 1]))
        start = time.perf_counter()
        while link.unanswered:
            mcu.step(time.monotonic())
            link.poll(time.monotonic())
        round_trips.append(time.perf_counter() - start)
    for i in range(samples):
        cell = (i % 7, (i // 7) % 7)
        (board.lift if cell in board.magnets else board.place)(cell)
        start = time.perf_counter()
        while not link.poll(time.monotonic()):
            mcu.step(time.monotonic())
            time.sleep(0.001)
        deltas.append(time.perf_counter() - start)
    link.close()
    mcu.close()
    print(f"round trip host -> MCU -> host (LED, ack) on a pty: {_pcts(round_trips)}")
    print(f"delta latency, magnet placed -> change on the host (MCU at 1 kHz, 3-scan debounce at 5 ms): "
          f"{_pcts(deltas)}")


def throughput(frames: int = 50_000) -> None:
    _, mcu, link = _pair()
    t0 = time.monotonic()
    while link.status is not Status.UP and time.monotonic() - t0 < 5:
        link.poll(time.monotonic())
        mcu.step(time.monotonic())
    link.poll(time.monotonic())
    wire = b"".join(encode(Frame(DELTA, (mcu.mcu.seq + i) % 256, delta_body([(i % 7, 3, i % 2 == 0)])))
                    for i in range(frames))
    before = link.stats.frames_in
    start = time.perf_counter()
    for i in range(0, len(wire), 4096):
        mcu.transmit(wire[i:i + 4096])
        link.poll(time.monotonic())
    while link.stats.frames_in - before < frames and time.perf_counter() - start < 30:
        link.poll(time.monotonic())
    elapsed = time.perf_counter() - start
    got = link.stats.frames_in - before
    link.close()
    mcu.close()
    print(f"sustained: {got / elapsed:,.0f} delta frames/s through the pty, reader thread and decoder "
          f"({got} of {frames}, {len(wire) / elapsed / 1e6:.2f} MB/s)")


def reconnects_mid_game(seed: int = 7) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        direct, bridge = Path(tmp) / "direct.jsonl", Path(tmp) / "bridge.jsonl"
        run_demo(seed, direct)
        pulls = []

        def pull_every_minute(table: Table) -> None:
            mcu: SimMcu = table.hardware.mcu
            start = table.hardware.clock.now()

            def source(now: float) -> list[object]:
                minute = int((now - start) // 60)
                if mcu.path is not None and minute > len(pulls):
                    pulls.append(now)
                    mcu.disconnect()
                elif mcu.path is None and now - pulls[-1] > 2.0:
                    mcu.plug_in()
                return []

            table.loop.add_source(source)  # type: ignore[arg-type]

        result = run_demo(seed, bridge, profile="hannibal-bridge-sim", line_noise=0.01, faults=pull_every_minute)
        stats = result.table.hardware.link.stats
        replay(read(bridge), bridge)
        same = [json.loads(x)["move"] for x in direct.read_text().splitlines()[1:]] == \
            [json.loads(x)["move"] for x in bridge.read_text().splitlines()[1:]]
        print(f"mid-game: cable pulled {len(pulls)} times (2 s each) on a 1 % noisy line: {stats.reconnects} "
              f"reconnects survived, {stats.damaged} damaged frames, {stats.resyncs} resyncs; journal valid, "
              f"winner {result.table.flow.game.winner}, same game as the direct board: {same}")


def main(argv: list[str]) -> None:
    latency()
    throughput()
    corrupted_frames(int(argv[0]) if argv else 100_000)
    reconnects_mid_game()


if __name__ == "__main__":
    main(sys.argv[1:])
