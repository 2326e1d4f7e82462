"""The web page's listening socket, when systemd made it (socket activation, ``boardkeeper-web.socket``).

With the socket made by systemd in the host's network, the service itself keeps ``PrivateNetwork=yes`` and
``RestrictAddressFamilies=AF_UNIX``: it accepts the phones' connections on the socket it was handed and can
open no connection of its own, and the local-network allow list is the socket unit's. The protocol is
``sd_listen_fds(3)``: ``LISTEN_PID`` names this process, ``LISTEN_FDS`` counts the sockets from fd 3.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

FIRST_FD = 3  # SD_LISTEN_FDS_START


def handed_socket(environ: Mapping[str, str] | None = None) -> socket.socket | None:
    """The listening socket systemd handed this process, if it did (else ``None``: listen as usual). Taken
    once: the variables are removed so nothing started later mistakes the fd for its own."""
    env = os.environ if environ is None else environ
    if env.get("LISTEN_PID") != str(os.getpid()) or not env.get("LISTEN_FDS", "").isdigit():
        return None
    if int(env["LISTEN_FDS"]) < 1:
        return None
    if environ is None:
        for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
            os.environ.pop(name, None)
    sock = socket.socket(fileno=FIRST_FD)  # family and type read from the fd itself
    if sock.type != socket.SOCK_STREAM:
        sock.detach()
        raise OSError(f"the socket systemd handed over (fd {FIRST_FD}) is not a stream socket")
    sock.setblocking(False)
    return sock
