"""Two tables over TLS with a user and password (``mqtts://USER:PASS@HOST:PORT/CODE``): a Mosquitto of the test's
own that speaks only TLS, with a certificate from a CA made here (``openssl``) and a password file
(``mosquitto_passwd``), as two friends would set up their own broker. The tables trust that CA through
``SSL_CERT_FILE``, as the README says; a table that does not trust it never connects, and a wrong password is
refused by the broker."""

from __future__ import annotations

import getpass
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from broker import NEEDS_MOSQUITTO, Broker
from support import ROOT_DIR

from hw_config.remote import parse_url

pytest.importorskip("paho.mqtt", reason="pip install -e '.[test]' (paho-mqtt)")
pytestmark = [NEEDS_MOSQUITTO,
              pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl: apt-get install -y openssl"),
              pytest.mark.skipif(shutil.which("mosquitto_passwd") is None,
                                 reason="no mosquitto_passwd: apt-get install -y mosquitto")]


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _tls_broker(folder: Path) -> Broker:
    """A CA, a certificate for 127.0.0.1 signed by it, a user ``anna`` with the password ``s3cret``, and a
    broker that takes only TLS connections with that user."""
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=boardkeeper test CA",
             "-keyout", "ca.key", "-out", "ca.crt", cwd=folder)
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
             "-out", "server.csr", cwd=folder)
    (folder / "san.ext").write_text("subjectAltName = IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-days", "2", "-extfile", "san.ext", "-out", "server.crt", cwd=folder)
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(folder / "passwd"), "anna", "s3cret"], check=True,
                   capture_output=True)
    # run as root, mosquitto would drop to its own user, who may not read the test's folder: it stays who we are
    return Broker(folder, f"user {getpass.getuser()}\ncafile {folder / 'ca.crt'}\ncertfile {folder / 'server.crt'}\n"
                          f"keyfile {folder / 'server.key'}\nallow_anonymous false\n"
                          f"password_file {folder / 'passwd'}\n")


def _demo(url: str, journal: Path, seat: str, ca: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "hannibal", "--seed", "3", "--quiet",
                             "--journal", str(journal), "--remote", url, "--as", seat],
                            cwd=ROOT_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SSL_CERT_FILE": str(ca)})


def test_two_tables_play_over_tls_with_a_password(tmp_path: Path) -> None:
    broker = _tls_broker(tmp_path)
    try:
        url = f"mqtts://anna:s3cret@127.0.0.1:{broker.port}/tls-2026"
        runs = [_demo(url, tmp_path / f"{i}.jsonl", seat, tmp_path / "ca.crt") for i, seat in enumerate(("yellow",
                                                                                                          "blue"))]
        results = [run.communicate(timeout=600) for run in runs]
    finally:
        broker.kill()
    for run, (_, err) in zip(runs, results, strict=True):
        assert run.returncode == 0, err[-3000:]
        assert "s3cret" not in err  # the password is never logged
    lines = [[json.loads(raw) for raw in (tmp_path / f"{i}.jsonl").read_text().splitlines()[1:]] for i in range(2)]
    assert lines[0] == lines[1] and len(lines[0]) > 30


@pytest.mark.parametrize(("url", "trusted", "said"), [
    ("mqtts://anna:s3cret@127.0.0.1:{port}/tls-2026", False, "certificate verify failed"),
    ("mqtts://anna:wrong@127.0.0.1:{port}/tls-2026", True, "broker refused the connection: Not authorized"),
])
def test_an_untrusted_broker_or_a_wrong_password_never_connects(tmp_path: Path, url: str, trusted: bool, said: str,
                                                                  caplog: pytest.LogCaptureFixture,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.remote.link import Link

    broker = _tls_broker(tmp_path)
    if trusted:
        monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.crt"))
    else:
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    link = Link(parse_url(url.format(port=broker.port)), "yellow", reconnect_delay=(1, 1))
    caplog.set_level(logging.INFO)
    try:
        link.start()
        deadline = time.monotonic() + 5
        while said not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not link.status().connected
    finally:
        link.close()
        broker.kill()
    assert said in caplog.text, caplog.text[-2000:]
