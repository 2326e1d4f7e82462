"""Two tables, one game, through faults (issue 26): ``python -m bench.remote [--games hannibal:3,cannonball:2,
scipio:5,hannipe:4] [--cases clean,lossy,broker,kill,outage] [--outage S] [--plant unordered|unsealed|exposed]``.

Each case starts a Mosquitto of its own on 127.0.0.1, and two simulated tables in two processes (the
``demo GAME --remote URL --as SEAT`` of each side, each process planting ``--plant`` itself): table A talks to
the broker directly, table B through a proxy that understands MQTT's framing. The cases:

- ``clean``: no fault; the latency is measured here;
- ``lossy``: the proxy drops 5 %, duplicates 10 % and reorders 10 % of the messages the broker sends B (a
  dropped one is acknowledged to the broker for B, so only B never sees it);
- ``broker``: the broker is killed (no goodbye to anyone) and started again on its port, twice;
- ``kill``: table B is SIGKILLed mid-game and started again with the same command (it resumes from its
  journal and catches up);
- ``outage``: B's network is gone for ``--outage`` seconds (every connection cut, none accepted).

A case passes when both tables end the game (exit 0) and their journals are identical line for line, and, in a
game with secret choices made at once (Scipio's organisations and cards), no choice reached the broker before
the seals of every choice of its decision: a client of the broker records every message (in every case but
``broker``, whose restarts it would miss), and each secret line's first message must come after those seals; and
in a game with hidden cards (Hannipe!, three seats over the two tables), every line is what every seat may know
(its move as the engine announces it), no message holds a move a table kept secret (its seats' cards and bets,
read back from each table's secret file), and no table's key or bet salt went out before its race's last tip.
Any case that does not (or in which no line is journaled for ``--stall`` seconds) is printed and the bench
exits 1. Planted faults, in both tables: ``--plant unordered`` applies each far line as it arrives instead of
in seq order (``Sync.offer`` without its ordering); ``--plant unsealed`` sends each secret choice as soon as it
is made, without sealing it (the game still ends with identical journals); ``--plant exposed`` announces each
dealt card as it is, in clear (the game still ends with identical journals). The bench must fail on each.

Latency: from a line journaled at one table to the far table receiving it, and to its screen showing it
(the line applied; the screen is drawn at the end of that loop turn) where the far table was ready for it;
p50 and p95 over the clean case's lines, real time, localhost. Target: p95 <= 200 ms to the screen.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import select
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.stats import percentile

CASES = ("clean", "lossy", "broker", "kill", "outage")
GAMES = (("hannibal", 3, ("yellow",), ("blue",)), ("cannonball", 2, ("blue",), ("gray",)),
         ("scipio", 5, ("rome",), ("carthage",)), ("hannipe", 4, ("p1", "p2"), ("p3",)))
TABLE_SIZE = {"hannipe": ("--players", "3")}  # three seats over the two tables
PLANTS = ("unordered", "unsealed", "exposed")
TARGET_P95_MS = 200.0
CASE_TIMEOUT_S = 600.0


# -- the broker -------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """A Mosquitto of our own on 127.0.0.1 at a free port, without persistence (a restart forgets every
    session); the tests' broker too. ``listener``: the listener's settings (default: anyone, in plain text)."""

    def __init__(self, folder: Path, listener: str = "allow_anonymous true\n") -> None:
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(f"listener {self.port} 127.0.0.1\n{listener}persistence false\n")
        self.proc: Any = None
        self.start()

    def start(self) -> None:
        import shutil
        import subprocess

        exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.proc = subprocess.Popen([exe, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start")

    def kill(self) -> None:
        """No goodbye to anyone, as a crash or a power cut."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        self.kill()
        self.start()


# -- the proxy --------------------------------------------------------------------------------------------

def read_packet(sock: socket.socket) -> bytes | None:
    """One MQTT control packet (fixed header, remaining length, body), or None when the connection ended."""
    head = _read(sock, 1)
    if head is None:
        return None
    length, multiplier, raw = 0, 1, bytearray()
    while True:
        b = _read(sock, 1)
        if b is None:
            return None
        raw += b
        length += (b[0] & 0x7F) * multiplier
        multiplier *= 128
        if not b[0] & 0x80:
            break
    body = _read(sock, length) if length else b""
    return None if body is None else head + bytes(raw) + body


def _read(sock: socket.socket, n: int) -> bytes | None:
    out = bytearray()
    while len(out) < n:
        try:
            chunk = sock.recv(n - len(out))
        except OSError:
            return None
        if not chunk:
            return None
        out += chunk
    return bytes(out)


def publish_id(packet: bytes) -> int | None:
    """The packet id of a QoS 1 PUBLISH (None for any other packet)."""
    if packet[0] >> 4 != 3 or (packet[0] >> 1) & 3 != 1:
        return None
    i = 1
    while packet[i] & 0x80:
        i += 1
    i += 1
    topic_len = packet[i] << 8 | packet[i + 1]
    at = i + 2 + topic_len
    return packet[at] << 8 | packet[at + 1]


class Proxy:
    """Between table B and the broker. Messages from the broker to B may be dropped (and acknowledged to the
    broker on B's behalf), duplicated or held back behind the next one; ``outage`` cuts B off for a while."""

    def __init__(self, broker_port: int, rng: random.Random, drop: float = 0.0, dup: float = 0.0,
                 reorder: float = 0.0) -> None:
        self.broker_port = broker_port
        self.rng = rng
        self.drop, self.dup, self.reorder = drop, dup, reorder
        self.counts = {"dropped": 0, "duplicated": 0, "reordered": 0, "cut": 0}
        self.down_until = 0.0
        self._conns: list[socket.socket] = []
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen()
        self.port = self._server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def outage(self, seconds: float) -> None:
        self.down_until = time.monotonic() + seconds
        self.counts["cut"] += 1
        for conn in list(self._conns):
            _close(conn)

    def _accept(self) -> None:
        while True:
            client, _ = self._server.accept()
            if time.monotonic() < self.down_until:
                _close(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.broker_port))
            except OSError:
                _close(client)
                continue
            self._conns += [client, upstream]
            lock = threading.Lock()
            threading.Thread(target=self._up, args=(client, upstream, lock), daemon=True).start()
            threading.Thread(target=self._down, args=(upstream, client, lock), daemon=True).start()

    def _up(self, client: socket.socket, upstream: socket.socket, lock: threading.Lock) -> None:
        while (data := _recv(client)) is not None:
            with lock:
                if not _send(upstream, data):
                    break
        _close(client)
        _close(upstream)

    def _down(self, upstream: socket.socket, client: socket.socket, lock: threading.Lock) -> None:
        held: bytes | None = None
        while True:
            try:
                ready, _, _ = select.select([upstream], [], [], 0.3)
            except (OSError, ValueError):  # closed by the other direction (an outage, a broker gone)
                break
            if not ready:
                if held is not None and not _send(client, held):  # nothing came after it: let it go
                    break
                held = None
                continue
            packet = read_packet(upstream)
            if packet is None:
                break
            pid = publish_id(packet)
            if pid is not None and b"/lines" in packet[:80]:
                roll = self.rng.random()
                if roll < self.drop:
                    self.counts["dropped"] += 1
                    with lock:
                        _send(upstream, bytes([0x40, 2, pid >> 8, pid & 0xFF]))  # PUBACK for B
                    continue
                if roll < self.drop + self.dup:
                    self.counts["duplicated"] += 1
                    if not _send(client, packet):
                        break
                elif roll < self.drop + self.dup + self.reorder and held is None:
                    self.counts["reordered"] += 1
                    held = packet
                    continue
            if not _send(client, packet):
                break
            if held is not None:
                if not _send(client, held):
                    break
                held = None
        _close(client)
        _close(upstream)


def _recv(sock: socket.socket) -> bytes | None:
    try:
        data = sock.recv(65536)
    except OSError:
        return None
    return data or None


def _send(sock: socket.socket, data: bytes) -> bool:
    try:
        sock.sendall(data)
        return True
    except OSError:
        return False


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


# -- the tables -------------------------------------------------------------------------------------------

def _table(argv: list[str], log: str, timing: str, plant: str | None) -> None:
    """A table's process: the demo of one side, its output in ``log``, when each line was journaled here,
    received and shown in ``timing`` (one line each, written at once: the process may be killed)."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    from controller.remote import play
    from controller.remote.link import Link
    from controller.remote.sync import Sync

    out = open(timing, "a", buffering=1)  # noqa: SIM115 -- open for the life of the process

    def note(kind: str, seq: int) -> None:
        out.write(f"{kind} {seq} {time.time():.6f}\n")

    own, apply, take = play.RemotePlay._journaled, play.RemotePlay._apply, Link.take

    def journaled(self: Any, line: dict[str, Any]) -> None:
        if line["seq"] != self._applying:
            note("own", line["seq"])
        own(self, line)

    def applied(self: Any, line: dict[str, Any]) -> bool:
        done = apply(self, line)
        if done:
            note("shown", line["seq"])
        return bool(done)

    def taken(self: Any, timeout: float = 0.0) -> list[dict[str, Any]]:
        lines = take(self, timeout)
        for line in lines:
            note("got", line["seq"])
        return lines

    play.RemotePlay._journaled = journaled  # type: ignore[method-assign]
    play.RemotePlay._apply = applied  # type: ignore[method-assign]
    Link.take = taken  # type: ignore[method-assign]
    if plant == "unordered":
        def unordered(self: Any, line: dict[str, Any]) -> list[dict[str, Any]]:
            if line["seq"] < self.next_seq:
                return []
            self._apply(line)  # the planted fault: applied as it comes, its seq never waited for
            self._seen.append(b"")
            return [line]

        Sync.offer = unordered  # type: ignore[method-assign]
    if plant == "unsealed":
        from controller.remote.seals import Sealer

        Sealer._shared = lambda self, seats: False  # type: ignore[method-assign]  # the planted fault: no seals
    if plant == "exposed":
        from engines.hannipe.state import State

        announce = State.announce
        State.announce = lambda self, move: (  # type: ignore[method-assign]  # the planted fault: cards in clear
            move if str(move).startswith("deal") else announce(self, move))
    from controller.cli import main

    os._exit(main(argv))


class Side:
    def __init__(self, folder: Path, name: str, game: str, seed: int, url: str, seats: tuple[str, ...],
                 plant: str | None) -> None:
        self.journal = folder / f"{name}.jsonl"
        self.log = folder / f"{name}.log"
        self.timing = folder / f"{name}.timing"
        self.argv = ["demo", game, "--seed", str(seed), "--quiet", "--journal", str(self.journal), "--remote", url,
                     *[a for s in seats for a in ("--as", s)], *TABLE_SIZE.get(game, ())]
        self.plant = plant
        self.proc: Any = None
        self.start()

    def start(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # not fork: the proxy's threads run in this process
        self.proc = ctx.Process(target=_table, args=(self.argv, str(self.log), str(self.timing), self.plant))
        self.proc.start()

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join()


def body(path: Path) -> list[str]:
    return path.read_text().splitlines()[1:] if path.exists() else []


class Spy:
    """A client of the broker that records every message on the game's lines topic, in the broker's order: what
    the broker, and anyone with an account on it, could read."""

    def __init__(self, port: int, code: str) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from controller.remote.link import topics

        self.seen: list[dict[str, Any]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"spy-{code}")
        self.client.on_message = lambda client, userdata, msg: self.seen.append(json.loads(msg.payload))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(topics(code)["lines"], qos=1)
        self.client.loop_start()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def unsealed(journal: Path, seen: list[dict[str, Any]]) -> str | None:
    """The first secret choice (a line of a decision the engine asks of several seats at once) whose line
    reached the broker before the seals of every choice of its decision; None if there is none."""
    from controller.journal import read, replay
    from engines.base import Simultaneous

    contents = read(journal)
    decisions: dict[int, range] = {}
    for before, entry in zip(replay(contents, journal, {}), contents.entries, strict=False):  # the state before each
        seats = before.simultaneous() if isinstance(before, Simultaneous) else ()
        for seq in range(entry.seq, entry.seq + len(seats)):
            decisions[seq] = range(entry.seq, entry.seq + len(seats))
    for seq, together in sorted(decisions.items()):
        first = next((i for i, m in enumerate(seen) if m.get("kind") == "line" and m.get("seq") == seq), None)
        sealed = {m.get("seq") for m in seen[:first] if m.get("kind") == "seal"}
        if first is None or not set(together) <= sealed:
            return f"line {seq} ({contents.entries[seq - 1].move}) sent before the seals of lines {list(together)}"
    return None


def exposed(journals: list[Path], seen: list[dict[str, Any]]) -> str | None:
    """In a game with hidden cards: the first thing a table kept secret that the broker saw; None if none. A line
    must be its move as every seat may hear it; no message may hold a move of a table's secret file; a table's key
    and bet salts go out only after its race's last tip."""
    from controller.journal import read, replay
    from controller.remote.dealer import private_moves
    from engines.base import Hidden

    contents = read(journals[0])
    last_tip: dict[str, int] = {}  # race -> seq of its last tip (the line before its first reveal)
    for before, entry in zip(replay(contents, journals[0], {}), contents.entries, strict=False):
        if not isinstance(before, Hidden):
            return None
        move = before.parse_move(entry.move)
        if before.announce(move) != move:
            return f"line {entry.seq} ({entry.move}) is not what every seat may know ({before.announce(move)})"
        if before.opens(move) is not None:
            last_tip.setdefault(str(before.to_json()["race"]), entry.seq - 1)
    kept = [move for journal in journals
            for move in (private_moves(journal, str(read(journal).header.get("started", ""))) or {}).values()]
    texts = [json.dumps(m) for m in seen]
    for move in kept:
        if any(f'"{move}"' in text for text in texts):
            return f"a secret move crossed the broker: {move}"
    line_at = {m.get("seq"): i for i, m in reversed(list(enumerate(seen))) if m.get("kind") == "line"}
    for i, m in enumerate(seen):
        data = m.get("data") or {}
        if m.get("kind") == "deck" and data.get("part") in ("key", "open"):
            tip = last_tip.get(str(data.get("shuffle")))
            if tip is None or line_at.get(tip, len(seen)) > i:
                return f"race {data.get('shuffle')}: a {data.get('part')} went out before the race's last tip"
    return None


def run_case(case: str, game: str, seed: int, seats: tuple[tuple[str, ...], tuple[str, ...]], outage_s: float,
             plant: str | None, folder: Path, stall_s: float) -> tuple[str | None, dict[str, Any]]:
    """One game under one fault: None if both journals end identical, else what went wrong (a game in which
    neither table journals a line for ``stall_s``, beyond an outage, has stalled)."""
    broker = Broker(folder)
    rng = random.Random(f"{case}:{game}:{seed}")
    proxy = Proxy(broker.port, rng, *((0.05, 0.10, 0.10) if case == "lossy" else (0.0, 0.0, 0.0)))
    code = f"bench-{case}-{game}-{seed}"
    spy = Spy(broker.port, code) if case != "broker" else None
    a = Side(folder, "a", game, seed, f"mqtt://127.0.0.1:{broker.port}/{code}", seats[0], plant)
    b = Side(folder, "b", game, seed, f"mqtt://127.0.0.1:{proxy.port}/{code}", seats[1], plant)
    # each fault: (journal lines table B must hold, seconds after the fault before, what to do); by lines, so that
    # it lands mid-game however fast the machine plays (Scipio's games take a few seconds)
    faults: list[tuple[int, float, Callable[[], None]]] = []
    if case == "broker":
        faults = [(4, 0.0, broker.kill), (0, 1.0, broker.start), (12, 0.0, broker.kill), (0, 0.5, broker.start)]
    elif case == "kill":
        faults = [(8, 0.0, b.kill), (0, 1.0, b.start)]
    elif case == "outage":
        faults = [(4, 0.0, lambda: proxy.outage(outage_s))]
    started = last_change = last_fault = time.monotonic()
    progress = (0, 0)
    try:
        while a.proc.is_alive() or b.proc.is_alive():
            now = time.monotonic() - started
            while faults and len(body(b.journal)) >= faults[0][0] and time.monotonic() - last_fault >= faults[0][1]:
                faults.pop(0)[2]()
                last_fault = time.monotonic()
            seen = (a.journal.stat().st_size if a.journal.exists() else 0,
                    b.journal.stat().st_size if b.journal.exists() else 0)
            if seen != progress:
                progress, last_change = seen, time.monotonic()
            stalled = time.monotonic() - last_change > stall_s + (outage_s if case == "outage" else 0.0)
            if now > CASE_TIMEOUT_S or stalled:
                for side in (a, b):
                    if side.proc.is_alive():
                        side.kill()
                why = f"no line for {stall_s:.0f} s" if stalled else f"no end after {CASE_TIMEOUT_S:.0f} s"
                return f"{why} (lines: {len(body(a.journal))}, {len(body(b.journal))})", dict(proxy.counts)
            time.sleep(0.05)
    finally:
        if spy is not None:
            spy.close()
        broker.kill()
    info = {"lines": len(body(a.journal)), "seconds": time.monotonic() - started, **proxy.counts}
    for name, side in (("A", a), ("B", b)):
        if side.proc.exitcode != 0:
            tail = side.log.read_text().strip().splitlines()[-1:] if side.log.exists() else []
            return f"table {name} exit {side.proc.exitcode}: {' '.join(tail)}", info
    first, second = body(a.journal), body(b.journal)
    if first != second:
        at = next((i for i, (x, y) in enumerate(zip(first, second, strict=False)) if x != y), min(len(first),
                                                                                               len(second)))
        return f"journals differ at line {at + 1} ({len(first)} and {len(second)} lines)", info
    if not first or not json.loads(first[-1])["state"]:
        return "empty journals", info
    leak = unsealed(a.journal, spy.seen) if spy is not None else None
    if leak is not None:
        return f"a secret crossed unsealed: {leak}", info
    shown = exposed([a.journal, b.journal], spy.seen) if spy is not None else None
    if shown is not None:
        return f"a hidden card crossed: {shown}", info
    return None, info


def latency(folder: Path) -> tuple[list[float], list[float]]:
    """Milliseconds from a line journaled at one table to the other receiving it, and to it shown there when
    the table took it at once (not held back while its players still moved the pieces of the one before)."""
    times: dict[str, dict[tuple[str, int], float]] = {}
    for side in ("a", "b"):
        path = folder / f"{side}.timing"
        times[side] = {}
        for raw in path.read_text().splitlines() if path.exists() else []:
            kind, seq, at = raw.split()
            times[side].setdefault((kind, int(seq)), float(at))
    got, shown = [], []
    for here, there in (("a", "b"), ("b", "a")):
        for (kind, seq), at in times[here].items():
            if kind != "own":
                continue
            arrived = times[there].get(("got", seq))
            drawn = times[there].get(("shown", seq))
            if arrived is not None:
                got.append((arrived - at) * 1000)
                if drawn is not None and drawn - arrived < 0.05:
                    shown.append((drawn - at) * 1000)
    return got, shown


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.remote", description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(f"{g}:{s}" for g, s, _, _ in GAMES),
                        help="comma-separated GAME:SEED (hannibal, cannonball, scipio, hannipe)")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    parser.add_argument("--outage", type=float, default=60.0, help="seconds table B's network is gone (outage)")
    parser.add_argument("--plant", choices=PLANTS, help="plant a fault the bench must catch")
    parser.add_argument("--stall", type=float, default=60.0, help="seconds without a journal line: the game stalled")
    args = parser.parse_args(argv)
    sides = {g: (a, b) for g, _, a, b in GAMES}
    games = [(g, int(s)) for g, s in (spec.split(":") for spec in args.games.split(","))]
    cases = args.cases.split(",")
    failures = 0
    for game, seed in games:
        for case in cases:
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                failed, info = run_case(case, game, seed, sides[game], args.outage, args.plant, folder, args.stall)
                detail = ", ".join(f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}" for k, v in info.items())
                print(f"{game:<10} seed {seed} {case:<7} {'FAIL: ' + failed if failed else 'ok'}"
                      + (f" ({detail})" if detail else ""), flush=True)
                failures += failed is not None
                if case == "clean" and not failed:
                    got, shown = latency(folder)
                    p95 = percentile(shown, 95)
                    print(f"  latency over {len(got)} lines: received p50 {percentile(got, 50):.1f} ms p95 "
                          f"{percentile(got, 95):.1f} ms; shown (table ready, {len(shown)} lines) p50 "
                          f"{percentile(shown, 50):.1f} ms p95 {p95:.1f} ms (target {TARGET_P95_MS:.0f})", flush=True)
                    if p95 > TARGET_P95_MS:
                        print(f"  FAIL: latency p95 {p95:.1f} ms over {TARGET_P95_MS:.0f}")
                        failures += 1
    if failures:
        print(f"FAILED: {failures} case(s)")
        return 1
    print(f"passed: {len(games) * len(cases)} games of two tables, journals identical")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
