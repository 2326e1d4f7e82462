"""A Mosquitto broker of the tests' own, on 127.0.0.1 at a free port (``.ci/run`` installs mosquitto with apt): the
one ``bench.remote`` starts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.remote import Broker

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
NEEDS_MOSQUITTO = pytest.mark.skipif(MOSQUITTO is None, reason="no mosquitto broker: apt-get install -y mosquitto")

__all__ = ["MOSQUITTO", "NEEDS_MOSQUITTO", "Broker"]
