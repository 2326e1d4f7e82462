"""sd_notify over a real datagram socket, as systemd would listen."""

from __future__ import annotations

import socket
from pathlib import Path

from controller.sdnotify import Notifier
from sim_hardware.clock import FakeClock


def _listener(tmp_path: Path) -> tuple[socket.socket, str]:
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(1.0)
    return sock, path


def test_ready_status_and_rate_limited_watchdog(tmp_path: Path) -> None:
    sock, path = _listener(tmp_path)
    clock = FakeClock()
    n = Notifier(clock, {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "8000000"})
    n.ready()
    n.ready()  # once only
    n.status("hannibal: yellow to roll")
    n.status("hannibal: yellow to roll")  # unchanged: not resent
    for _ in range(100):  # 100 loop turns within a second: one ping
        n.tick()
        clock.advance(0.01)
    clock.advance(2.0)  # a quarter of the 8 s watchdog has passed
    n.tick()
    got = []
    sock.setblocking(False)
    while True:
        try:
            got.append(sock.recv(256).decode())
        except BlockingIOError:
            break
    assert got == ["READY=1", "STATUS=hannibal: yellow to roll", "WATCHDOG=1", "WATCHDOG=1"]


def test_without_notify_socket_everything_is_a_no_op() -> None:
    n = Notifier(FakeClock(), {})
    n.ready()
    n.tick()
    n.status("x")
    assert not n.enabled
