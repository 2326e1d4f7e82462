"""What the web page's tests share: a free port on 127.0.0.1, and a table serving its page in a process of its
own, stopped as a user would: a demo (``boardkeeper demo GAME --web``, SIGTERM) or a person's game at the
terminal (``boardkeeper play GAME --sim --web``, typed commands)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class DemoTable:
    """``boardkeeper demo GAME --web 127.0.0.1:PORT --speed F --quiet --journal J`` (or another ``command``, a
    journal or none) in a child process; its log is read as it comes (the seat codes are there)."""

    def __init__(self, game: str, port: int, journal: Path | None, speed: float, seed: int = 1,
                 command: tuple[str, ...] = ()) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}/"
        self.log: list[str] = []
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        argv = command or ("demo", game, "--seed", str(seed), "--quiet", "--speed", str(speed))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", *argv, *(("--journal", str(journal)) if journal else ()),
             "--web", f"127.0.0.1:{port}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.wait_for("the table's page is at")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.log.append(line)

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((line for line in list(self.log) if text in line), None)
            if found is not None:
                return found
            if self.process.poll() is not None:
                raise AssertionError(f"the demo ended ({self.process.returncode}): {''.join(self.log)}")
            time.sleep(0.05)
        raise AssertionError(f"no {text!r} in the demo's log: {''.join(self.log)}")

    def code(self, seat: str) -> str:
        line = self.wait_for(f"seat {seat}'s own page: ")
        found = re.search(r"\?code=(\w+)", line)
        assert found, line
        return found.group(1)

    def type(self, line: str) -> None:
        """A line typed at the terminal (``play --sim``)."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def stop(self) -> int:
        """SIGTERM, as systemd or a user's Ctrl-C stops it; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"SIGTERM did not stop the demo: {''.join(self.log)[-3000:]}") from None
        self._reader.join(timeout=5)
        return code
