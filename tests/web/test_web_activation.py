"""The page on a socket the service manager made (``sd_listen_fds``), as ``boardkeeper-web.socket`` hands it
to the service: ``systemd-socket-activate`` makes the socket, starts the table at the first connection, and
the table serves its page on that socket instead of listening where ``--web`` says."""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from web_helpers import free_port

ACTIVATE = shutil.which("systemd-socket-activate")


@pytest.mark.skipif(ACTIVATE is None, reason="systemd-socket-activate is not installed: apt-get install -y systemd")
def test_the_page_is_served_on_the_socket_it_is_handed() -> None:
    handed, asked = free_port(), free_port()
    table = subprocess.Popen([ACTIVATE or "", "-l", f"127.0.0.1:{handed}", sys.executable, "-m", "controller.cli",
                              "demo", "hannibal", "--quiet", "--speed", "50", "--web", f"127.0.0.1:{asked}"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:  # until it listens (a first connection starts the table, which takes it over)
            try:
                socket.create_connection(("127.0.0.1", handed), timeout=5).close()
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline, "systemd-socket-activate never listened"
                time.sleep(0.05)
        while True:  # 503 until the table's first state
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{handed}/api/state", timeout=60) as answer:
                    state = json.loads(answer.read())
                break
            except urllib.error.HTTPError as e:
                assert e.code == 503 and time.monotonic() < deadline + 30, e
                time.sleep(0.1)
        assert state["game"] == "hannibal"
        with pytest.raises(OSError):  # nothing listens where --web said: the socket handed over is the page's
            urllib.request.urlopen(f"http://127.0.0.1:{asked}/api/state", timeout=5)
    finally:
        table.send_signal(signal.SIGTERM)
        out, _ = table.communicate(timeout=30)
    assert f"web: the table's page is at http://127.0.0.1:{handed}/ (listening on the socket systemd handed over)" \
        in out, out
