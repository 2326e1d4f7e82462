"""The MQTT link between two tables (paho-mqtt 2.x, any MQTT 3.1.1 broker such as Mosquitto).

Topics, under ``boardkeeper/<id>/``, the game's id (``controller.remote.lines.game_id``: never its code, which
is the key to its signatures, and which any client of the broker could read in a topic):

- ``lines``: every journal line of the game, signed (``controller.remote.lines``), QoS 1. Both tables publish their
  own lines there; each skips its own, which the broker echoes back. A ``stop`` there says play stopped at the
  far table (a fork, a state that differs): this table stops too.
- ``want``: "send me your lines from seq N on", after a reconnect or a gap. Answered from ``history``, by default
  the lines this link published: each table sends again what it journaled itself, and its seals from N on
  (``seals``: secret choices not sent yet, ``controller.remote.seals``); a line that opens a seal carries its
  salt (``salts``).
- ``presence/<table>``: ``online`` (retained) once connected, and the last will ``offline`` (retained) that the
  broker publishes when the connection drops without a goodbye; ``over`` when its game has ended and it waits
  (``close(linger_s=)``) for the far table's game to end too, so that its last line is not lost with it.

The link only carries messages: it decodes and checks signatures on paho's network thread and queues what passed
(``take``); a refused message is logged and kept in ``refused`` (its reason), never queued. Ordering, duplicates
and state checks are the ``Sync`` core's, on the table's own thread. paho reconnects by itself; on every (re)connect
and whenever a far table comes online the link asks for what it may have missed (``expecting``: the next seq the
journal needs), so lines published while the broker was down are not lost.
"""

from __future__ import annotations

import logging
import queue
import ssl
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from controller.remote.lines import (
    RefusedMessage,
    Signed,
    check_table,
    decode,
    encode_deck,
    encode_line,
    encode_seal,
    encode_stop,
    encode_want,
    game_id,
)
from controller.remote.presence import OFFLINE, ONLINE, OVER, LinkStatus, Presence
from hw_config.remote import Remote

log = logging.getLogger(__name__)

Line = dict[str, Any]


def topics(code: str) -> dict[str, str]:
    """The game's topics (``presence`` is a prefix: one subtopic per table)."""
    base = f"boardkeeper/{game_id(code)}"
    return {"lines": f"{base}/lines", "want": f"{base}/want", "presence": f"{base}/presence"}


class Link:
    """One table's connection to the game on the broker. ``start`` connects in the background (the broker may be
    down at first: paho keeps trying); ``close`` says goodbye (``offline``, retained) and disconnects."""

    def __init__(self, remote: Remote, table: str, *, expecting: Callable[[], int] = lambda: 1,
                 history: Callable[[int], Iterable[Line]] | None = None, keepalive: int = 10,
                 ca_file: str | None = None, clock: Callable[[], float] = time.monotonic,
                 reconnect_delay: tuple[int, int] = (1, 8), watcher: bool = False,
                 salts: Callable[[int], str | None] = lambda seq: None,
                 seals: Callable[[int], Iterable[tuple[int, str, str]]] = lambda seq: (),
                 decks: Callable[[], Iterable[dict[str, Any]]] = lambda: ()) -> None:
        self.remote = remote
        self.table = check_table(table)
        self.watcher = watcher  # a spectator: no presence (the tables must not take it for a far table), no answers
        self.topics = topics(remote.code)
        self.refused: list[str] = []
        self.far_stop: str | None = None  # the far table stopped play: its table and its reason
        self._far_over: set[str] = set()  # far tables whose game is over (their presence says "over")
        self._expecting = expecting
        self._history = history or self._sent_from
        self._salts = salts
        self._seals = seals
        self._decks = decks
        self.far_decks: list[dict[str, Any]] = []  # deck messages taken from the inbox, for the table's dealer
        self.far_seals: list[Signed] = []  # seals taken from the inbox (``take``), for the table to collect
        self.far_salts: dict[int, str] = {}  # the salts far lines came with, by seq
        self._sent: dict[int, Line] = {}
        self._lock = threading.Lock()
        self._inbox: queue.Queue[Signed] = queue.Queue()
        self.presence = Presence(clock)
        self._keepalive = keepalive
        self._last: mqtt.MQTTMessageInfo | None = None  # the last message published, to flush before a goodbye
        self._failed = ""  # why the last connection attempt failed, logged once until it changes
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"boardkeeper-{game_id(remote.code)}-{table}",
                             clean_session=False, protocol=mqtt.MQTTv311)
        if remote.user is not None:
            client.username_pw_set(remote.user, remote.password)
        if remote.tls:
            client.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        if not watcher:
            client.will_set(self._presence_topic(table), OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(*reconnect_delay)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        self.client = client

    def start(self) -> None:
        self.client.connect_async(self.remote.host, self.remote.port, keepalive=self._keepalive)
        self.client.loop_start()

    def close(self, linger_s: float = 0.0) -> None:
        """A goodbye: the far table sees ``offline`` at once (a last will is only for connections that drop).
        ``linger_s`` (a table whose game has ended): first stay up to that long, through a broker restart, until
        the far table has said goodbye too; until then this table's last line may not have reached it, and its
        requests for lines are still answered."""
        if linger_s > 0 and not self.watcher:
            self.client.publish(self._presence_topic(self.table), OVER, qos=1, retain=True)
        deadline = time.monotonic() + linger_s
        while time.monotonic() < deadline and not self._far_done():
            time.sleep(0.05)
        if self.client.is_connected() and not self.watcher:
            try:
                self.client.publish(self._presence_topic(self.table), OFFLINE, qos=1, retain=True).wait_for_publish(2)
            except (RuntimeError, ValueError) as e:  # the broker went away just now: the last will says it
                log.info("remote %s: no goodbye sent (%s)", self.remote.code, e)
        self.client.disconnect()
        self.client.loop_stop()

    def _far_done(self) -> bool:
        """Every far table seen has its game over too, or has gone (one never seen cannot be waited for), and the
        last line reached the broker (or a far table's game is over, which it cannot be without that line)."""
        with self._lock:
            over = set(self._far_over)
        return (self._published() or bool(over)) and set(self.presence.status().far_online) <= over

    def _published(self) -> bool:
        """The last message is acknowledged by the broker. One published while the broker was away is sent again
        by paho once it is back, but its record keeps saying it failed (paho raises): that one is not known."""
        last = self._last
        try:
            return last is None or last.is_published()
        except (RuntimeError, ValueError):
            return False

    def publish(self, line: Line) -> None:
        """Send one of this table's journal lines (after it was journaled). Never raises for a broker that is
        down: paho sends QoS 1 messages when it is back, and the far table's ``want`` covers whatever got lost."""
        payload = self._line_payload(line)
        with self._lock:
            self._sent[line["seq"]] = dict(line)
        self._last = self.client.publish(self.topics["lines"], payload, qos=1)

    def stop(self, seq: int, why: str) -> None:
        """Tell the far table that play stopped here (at journal line ``seq``), and why."""
        self._last = self.client.publish(self.topics["lines"], encode_stop(self.remote.code, self.table, seq, why),
                                         qos=1)

    def seal(self, seq: int, player: str, seal: str) -> None:
        """Send the seal of this table's secret choice that will be line ``seq``."""
        self._last = self.client.publish(self.topics["lines"], self._seal_payload(seq, player, seal), qos=1)

    def deck(self, data: dict[str, Any]) -> None:
        """Send a deck message (``controller.remote.dealer``)."""
        self._last = self.client.publish(self.topics["lines"], self._deck_payload(data), qos=1)

    def want(self, seq: int) -> None:
        """Ask the far table for its lines from ``seq`` on."""
        self.client.publish(self.topics["want"], encode_want(self.remote.code, self.table, seq), qos=1)

    def take(self, timeout: float = 0.0) -> list[Line]:
        """The far lines that arrived (signature checked), waiting up to ``timeout`` for the first one."""
        out: list[Line] = []
        try:
            msg = self._inbox.get(timeout=timeout) if timeout > 0 else self._inbox.get_nowait()
            while True:
                if msg.kind == "seal":
                    if not self.watcher:  # a spectator has no use for seals
                        self.far_seals.append(msg)
                elif msg.kind == "deck":
                    if not self.watcher and msg.data is not None:  # nor for a deck it cannot open
                        self.far_decks.append(msg.data)
                elif msg.line is not None:
                    out.append(msg.line)
                    if msg.salt is not None:
                        self.far_salts[msg.seq] = msg.salt
                msg = self._inbox.get_nowait()
        except queue.Empty:
            return out

    def status(self) -> LinkStatus:
        return self.presence.status()

    # --- paho's network thread ---

    def _presence_topic(self, table: str) -> str:
        return f"{self.topics['presence']}/{table}"

    def _line_payload(self, line: Line) -> bytes:
        """One of this table's lines as sent, first or again: with the salt that opens its seal, if it has one."""
        return encode_line(self.remote.code, self.table, line, self._salts(line["seq"]))

    def _seal_payload(self, seq: int, player: str, seal: str) -> bytes:
        return encode_seal(self.remote.code, self.table, seq, player, seal)

    def _deck_payload(self, data: dict[str, Any]) -> bytes:
        return encode_deck(self.remote.code, self.table, max(1, self._expecting() - 1), data)

    def _sent_from(self, seq: int) -> list[Line]:
        with self._lock:
            return [self._sent[s] for s in sorted(self._sent) if s >= seq]

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: mqtt.ConnectFlags,
                    reason: ReasonCode, properties: Properties | None) -> None:
        if reason.is_failure:
            log.warning("remote %s: broker refused the connection: %s", self.remote.code, reason)
            return
        self._failed = ""
        client.subscribe([(self.topics["lines"], 1), (self.topics["want"], 1), (self.topics["presence"] + "/+", 1)])

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: list[ReasonCode],
                      properties: Properties | None) -> None:
        """Connected counts from here: a line published before the broker acknowledged the subscription would
        not reach this table, and neither would the answer to a want sent earlier."""
        if any(r.is_failure for r in reasons):
            log.warning("remote %s: broker refused the subscription: %s", self.remote.code, reasons)
            return
        if not self.watcher:
            client.publish(self._presence_topic(self.table), ONLINE, qos=1, retain=True)
        self.presence.connected(True)
        self.want(self._expecting())  # whatever was published while this table was away

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        """paho calls this from inside its handler of the attempt's error, which it keeps to itself: the log names
        it once (an unreachable host, a certificate this table does not trust), not at every retry."""
        error = sys.exc_info()[1]
        why = f"{type(error).__name__}: {error}" if error is not None else "no reason given"
        if why != self._failed:
            self._failed = why
            log.warning("remote %s: cannot connect to %s:%d (%s)", self.remote.code, self.remote.host,
                        self.remote.port, why)

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: mqtt.DisconnectFlags,
                       reason: ReasonCode, properties: Properties | None) -> None:
        self.presence.connected(False)
        log.info("remote %s: disconnected from the broker (%s)", self.remote.code, reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        topic = message.topic
        if topic.startswith(self.topics["presence"] + "/"):
            far = topic.rsplit("/", 1)[1]
            if far != self.table:
                state = message.payload.decode(errors="replace")
                if state == OVER:  # its game is over: it has every line (it stays online while it lingers)
                    with self._lock:
                        self._far_over.add(far)
                    return
                came_back = state == ONLINE and not self._is_online(far)
                self.presence.far(far, state)
                if came_back:
                    self.want(self._expecting())  # it may have lines this table missed
            return
        try:
            msg = decode(self.remote.code, bytes(message.payload))
        except RefusedMessage as e:
            reason = f"{topic}: {type(e).__name__}: {e}"
            self.refused.append(reason)
            log.warning("remote %s: refused a message: %s", self.remote.code, reason)
            return
        if msg.sender == self.table:
            return  # our own, echoed by the broker
        if msg.kind == "want":
            if self.watcher:
                return
            for data in self._decks():
                client.publish(self.topics["lines"], self._deck_payload(data), qos=1)
            for seq, player, seal in self._seals(msg.seq):
                client.publish(self.topics["lines"], self._seal_payload(seq, player, seal), qos=1)
            for line in self._history(msg.seq):
                client.publish(self.topics["lines"], self._line_payload(line), qos=1)
        elif msg.kind == "stop":
            self.far_stop = f"{msg.sender}: {msg.why}"
            log.error("remote %s: the far table stopped play (%s)", self.remote.code, self.far_stop)
        elif topic == self.topics["lines"]:
            self._inbox.put(msg)

    def _is_online(self, table: str) -> bool:
        return table in self.presence.status().far_online
