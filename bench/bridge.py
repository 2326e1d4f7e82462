"""Codec robustness in numbers (issue 5): ``python -m bench.bridge [FRAMES]`` corrupts frames at random
(bit flips, dropped, inserted and duplicated bytes) and counts decoder crashes and corrupt frames accepted;
both must be 0. Also prints encode/decode throughput."""

from __future__ import annotations

import random
import sys
import time

from firmware_bridge.codec import DELTA, HEARTBEAT, SNAPSHOT, Decoder, Frame, delta_body, encode, snapshot_body


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


def main(argv: list[str]) -> None:
    total = int(argv[0]) if argv else 100_000
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


if __name__ == "__main__":
    main(sys.argv[1:])
