"""The café host's connection to an MQTT broker (paho-mqtt): matches with tables of other
cafés, invitations, and the live floor for spectators (docs/remote.md).

Topics (``xobo/v1/<cafe>/...``: a café publishes only under its own name, which a broker's
access list can enforce: ``pattern write xobo/v1/%u/#``):

- ``xobo/v1/<cafe>/match/<id>``: what the café says about a match (moves, asks, logs,
  take-backs, resignations, hellos), each signed with the café's key (``seal.sign``); every
  café of the match subscribes to the others'.
- ``xobo/v1/<cafe>/invite/<topic id>`` (retained): an open invitation, sealed with its code's
  key; ``xobo/v1/<cafe>/reply/<topic id>``: another café's sealed answer (accept, decline).
  The topic id is derived from the code (``seal.InviteSecret``): the code is never published.
- ``xobo/v1/<cafe>/floor`` (retained): the café's live floor, when it publishes it, signed
  with its key (``seal.sign_floor``; checked by the spectators: ``floorwatch``).
- ``xobo/v1/<cafe>/probe`` (retained): the link's health probe, read back by the café itself
  (``readable``): a broker that lets the café in but passes it nothing is said as such.

Messages are JSON objects of at most ``MAX_MESSAGE`` bytes, sent with QoS 1 on a persistent
session (the broker keeps what arrives while the host is away); whatever is lost anyway (a
broker restarted without persistence) the matches ask for again (``matches``).

Usage::

    >>> from xobo_host.cafe.broker import BrokerLink, BrokerSettings
    >>> from xobo_host.cafe.seal import CafeKey
    >>> settings = BrokerSettings(host="127.0.0.1", port=1883)   # or BrokerSettings.from_file
    >>> link = BrokerLink("cafe-a", settings, key=CafeKey.new(),
    ...                   on_message=lambda sender, kind, rest, msg: print(sender, kind, msg))
    >>> link.topic("match", "0123abcd")          # where its moves of that match go
    'xobo/v1/cafe-a/match/0123abcd'
    >>> link.health()                            # until start() has reached the broker
    (False, 'not connected to the broker 127.0.0.1:1883')
    >>> BrokerLink("café a", settings)
    Traceback (most recent call last):
    ...
    xobo_host.cafe.broker.BrokerError: a café's name is 1-32 letters, ... not 'café a'
    >>> # with a broker running (mosquitto; not here: the example stays offline):
    >>> # link.start(); link.publish_signed("0123abcd", {"t": "hello"}); link.stop()
"""

import collections
import json
import queue
import secrets
import threading
import time

from xobo_host.cafe import movetrace

PREFIX = "xobo/v1"
MAX_MESSAGE = 256 * 1024  # a floor of many tables; a match log of Brochs's longest game
# QoS 1 messages on their way (not yet acknowledged) at once: paho's default, 20, held a
# match's move behind the burst of a hundred hellos for the broker's acknowledgements
MAX_INFLIGHT = 1000
INBOX_MAX = 10000  # messages read and not yet handled, at most (then the reading waits)
# a host away longer than this (MQTT 5's session expiry) finds its session gone: the hellos
# ask for whatever it missed, as after a broker restarted without persistence
SESSION_EXPIRY_S = 24 * 3600
# a lost broker is tried again after 0.5 s, then 1 s, then every 2 s (paho doubles the wait
# after each failed attempt): a broker restarted in about a second (a service restart) is
# back 0.5 s later, not 2 s later (1 s, then 2 s: the attempt at 1 s met a broker still
# starting, and the café's moves of those 3 s all went at once, measured: docs/remote.md)
RECONNECT_MIN_S = 0.5
RECONNECT_MAX_S = 2.0
# the health probe: said after each connection and every PROBE_EVERY_S; not read back in
# PROBE_S, the link says the broker passes this café nothing (an access list that lets it
# read nothing, docs/remote.md)
PROBE_S = 5.0
PROBE_EVERY_S = 30.0
# the sequence numbers kept ahead in the café's file: one write every 10 minutes of signing
SEQ_BLOCK_US = 600 * 1000 * 1000
# a match message not acknowledged by the broker this long after it was published no longer
# holds the mirrors back (``wait_sent``): a broker away, the message sent again later
UNACKED_STALE_S = 2.0
ACKED_EARLY_KEPT = 256  # acknowledgements kept that came before their message was counted
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


_CONNECTED = object()  # (in the inbox: a (re)connection, for on_connect)
_STOP = object()


def _trace_match_message(what, topic, payload):
    """(traced) ``what`` happened to a match message: its match, kind and number."""
    if "/match/" not in topic:
        return
    try:
        msg = json.loads(payload)
        msg = json.loads(msg["signed"]) if "signed" in msg else msg  # (``seal.sign``)
        movetrace.trace(what, topic.rsplit("/", 1)[1], msg.get("t"), msg.get("n"))
    except (ValueError, AttributeError, TypeError, KeyError):
        pass


class BrokerError(ValueError):
    """A bad broker setting (the message says which)."""


def check_cafe_name(name):
    """A café's name on the broker: 1-32 letters, digits, '-', '_' or '.'."""
    if not isinstance(name, str) or not 0 < len(name) <= 32 or set(name) - NAME_CHARS:
        raise BrokerError("a café's name is 1-32 letters, digits, '-', '_' or '.', not %r"
                          % (str(name)[:40],))
    return name


class BrokerSettings:
    """Where the broker is and how to log in: address, port, TLS (with the CA that signed
    the broker's certificate, the system's when none), user name and password."""

    def __init__(self, host, port=1883, tls=False, ca_file=None, username=None,
                 password=None, keepalive=10):
        if not isinstance(host, str) or not host:
            raise BrokerError("the broker's address is missing")
        if not isinstance(port, int) or not 0 < port < 65536:
            raise BrokerError("the broker's port must be 1-65535, not %r" % (port,))
        self.host = host
        self.port = port
        self.tls = bool(tls)
        self.ca_file = ca_file
        self.username = username
        self.password = password
        self.keepalive = keepalive

    @classmethod
    def from_file(cls, path):
        """The settings from a JSON file: {"host", "port", "tls", "ca_file", "username",
        "password"} (keep it readable by the host's user only: it holds the password)."""
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError) as exc:
            raise BrokerError("cannot read the broker settings %s: %s" % (path, exc)) from None
        if not isinstance(d, dict):
            raise BrokerError("%s is no JSON object of broker settings" % path)
        known = {"host", "port", "tls", "ca_file", "username", "password"}
        extra = set(d) - known
        if extra:
            raise BrokerError("unknown broker setting(s) %s in %s (known: %s)" % (
                ", ".join(sorted(extra)), path, ", ".join(sorted(known))))
        return cls(d.get("host"), d.get("port", 8883 if d.get("tls") else 1883),
                   d.get("tls", False), d.get("ca_file"), d.get("username"), d.get("password"))


class BrokerLink:
    """One café's MQTT client. ``on_message(sender, kind, rest, msg)`` gets every valid
    message of another café (``kind``: match, invite, reply, floor; ``rest``: the topic's
    last part: a match id, a code); ``on_connect()`` after every (re)connection.

    Both are called in order on a thread of their own (the inbox's), not on paho's network
    thread: that thread reads a packet, hands its message on and reads the next, and writes
    what the café publishes between its reads. Handled on it, each message (a move checked
    with the rules, a hello compared) held up the reading of the next and the writing of
    the café's own moves: in a burst of a hundred matches' messages a move published went
    out after all of them (docs/remote.md). A message is acknowledged to the broker when it
    is in the inbox; one lost with the host before it was handled is asked again by the
    hellos, as one lost by a broker restarted without persistence."""

    def __init__(self, cafe, settings, on_message=None, on_connect=None, key=None,
                 on_refused=None, seq_reserved=0, reserve_seq=None):
        import paho.mqtt.client as mqtt
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.cafe = check_cafe_name(cafe)
        self.settings = settings
        self.on_message = on_message
        self.on_connect = on_connect
        self.on_refused = on_refused  # (topic, why): a message that is not even JSON
        self.key = key  # the café's ``seal.CafeKey``: its match messages are signed
        # the last sequence number signed (microseconds, always growing): above every one
        # this café signed before (``seq_reserved``, kept by ``reserve_seq(upto)`` a block
        # ahead), whatever the clock says
        self.seq = seq_reserved
        self.seq_reserved = seq_reserved
        self.reserve_seq = reserve_seq
        self.signing = threading.Lock()  # (each sequence number given once)
        # the match messages (QoS 1) published and not yet acknowledged by the broker: mid ->
        # when (time.monotonic); the boards' mirrors wait for them (``wait_sent``)
        self.unacked = {}
        self.sending = threading.Condition()
        # (the acknowledgements of messages not counted yet: paho can take one before
        # ``publish`` returned the message's mid; those of other messages pass through)
        self.acked_early = collections.deque(maxlen=ACKED_EARLY_KEPT)
        self.connected = threading.Event()
        # the health probe: its nonce said, when, and whether it came back
        self.probe_nonce = None
        self.probe_at = 0.0
        self.probe_read = threading.Event()
        self.refusal = None  # the broker's reason when it refused the last connection
        self.probe_ok = False  # a probe of this connection came back
        self.probe_every_s = PROBE_EVERY_S
        self.probe_s = PROBE_S
        self.connects = 0
        self.extra_topics = set()
        self.lock = threading.Lock()
        # MQTT 5: a subscription can leave out the café's own messages ("no local"), which
        # MQTT 3.1.1 sends back to a wildcard's subscriber (every move and hello twice
        # through the broker and the host's network thread)
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="xobo-cafe-" + cafe,
                             protocol=mqtt.MQTTv5)
        self.connect_properties = Properties(PacketTypes.CONNECT)
        self.connect_properties.SessionExpiryInterval = SESSION_EXPIRY_S
        if settings.username:
            client.username_pw_set(settings.username, settings.password)
        if settings.tls:
            client.tls_set(ca_certs=settings.ca_file)
        client.reconnect_delay_set(min_delay=RECONNECT_MIN_S, max_delay=RECONNECT_MAX_S)
        client.max_queued_messages_set(0)
        client.max_inflight_messages_set(MAX_INFLIGHT)
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        if movetrace.enabled:  # (the connection's life, not every message's)
            client.on_log = self._log
            client.on_connect_fail = lambda client, userdata: movetrace.trace("connect-failed")
        client.on_message = self._message
        client.on_publish = self._published
        self.client = client
        # (topic, payload) of each message read, or _CONNECTED, or _STOP: handled in order;
        # a full inbox holds the network thread (and the broker, over TCP), as the handling
        # on that thread did: it does not grow without end
        self.inbox = queue.Queue(INBOX_MAX)
        self._handler = None

    def start(self):
        # (a persistent session: the broker keeps what arrives while the host is away)
        self.client.connect_async(self.settings.host, self.settings.port,
                                  keepalive=self.settings.keepalive, clean_start=False,
                                  properties=self.connect_properties)
        self._handler = threading.Thread(target=self._handle_inbox, daemon=True,
                                         name="xobo-broker-inbox")
        self._handler.start()
        self.client.loop_start()
        return self

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()
        if self._handler is not None:
            self.inbox.put(_STOP)
            self._handler.join(5)

    # -- topics -----------------------------------------------------------------------------
    def topic(self, kind, rest=""):
        return "%s/%s/%s%s" % (PREFIX, self.cafe, kind, "/" + rest if rest else "")

    def _connected(self, client, userdata, flags, reason, properties=None):
        if reason.is_failure:
            self.refusal = str(reason)  # (a login refused: said by ``health``)
            return
        self.refusal = None
        from paho.mqtt.subscribeoptions import SubscribeOptions

        others = SubscribeOptions(qos=1, noLocal=True)  # (not the café's own messages)
        subs = [(PREFIX + "/+/match/+", others), (PREFIX + "/+/reply/+", others),
                (self.topic("invite", "+"), SubscribeOptions(qos=1)),
                (self.topic("probe"), SubscribeOptions(qos=1))]
        with self.lock:
            subs += [(t, SubscribeOptions(qos=1)) for t in self.extra_topics]
        client.subscribe(subs)
        self.connects += 1
        self.connected.set()
        self.probe(fresh=True)
        self.inbox.put(_CONNECTED)  # (the hellos: made and sent by the inbox's thread)

    def _log(self, client, userdata, level, text):
        if "PUBLISH" not in text and "PUBACK" not in text and "PING" not in text:
            movetrace.trace("paho", text[:100])

    def _disconnected(self, client, userdata, flags, reason, properties=None):
        movetrace.trace("disconnected")
        self.connected.clear()

    # -- health ---------------------------------------------------------------------------
    def probe(self, fresh=False):
        """Say a new nonce on the café's own probe topic (retained); ``probe_read`` once the
        broker passes it back. ``fresh``: a new connection, unproven until it does (else
        the last probe's answer stands while this one is on its way)."""
        self.probe_ok = False if fresh else self.probe_read.is_set()  # (the last answer)
        nonce = secrets.token_hex(8)
        self.probe_nonce, self.probe_at = nonce, time.monotonic()
        self.probe_read.clear()
        self.client.publish(self.topic("probe"), json.dumps({"nonce": nonce}), qos=1,
                            retain=True)

    def health(self):
        """(ok, words): connected and reading what it should, or what is wrong."""
        if not self.connected.is_set():
            if self.refusal:
                return False, "the broker %s:%d refused this café (%s): its user name and " \
                    "password (docs/remote.md)" % (self.settings.host, self.settings.port,
                                                   self.refusal)
            return False, "not connected to the broker %s:%d" % (self.settings.host,
                                                                 self.settings.port)
        ok = "connected to %s:%d, reading the café network" % (self.settings.host,
                                                                self.settings.port)
        if self.probe_read.is_set():
            return True, ok
        if time.monotonic() - self.probe_at < self.probe_s:
            if self.probe_ok:
                return True, ok
            return False, "connected, checking that the broker passes messages"
        return False, ("connected, but the broker passes this café nothing, not even its own "
                       "messages back: its access list lets %s read or write nothing under "
                       "%s/%s (docs/remote.md, \"The broker\")" % (
                           self.settings.username or "an anonymous client", PREFIX,
                           self.cafe))

    def subscribe(self, topic):
        """Follow one more topic (another café's floor, an invitation), kept across
        reconnections."""
        with self.lock:
            self.extra_topics.add(topic)
        self.client.subscribe(topic, 1)

    def unsubscribe(self, topic):
        with self.lock:
            self.extra_topics.discard(topic)
        self.client.unsubscribe(topic)

    def _message(self, client, userdata, message):
        # (paho's network thread: only hand it on)
        self.inbox.put((message.topic, message.payload))
        if movetrace.enabled:  # (when it was read)
            _trace_match_message("read", message.topic, message.payload)

    def _handle_inbox(self):
        while True:
            try:
                item = self.inbox.get(timeout=self.probe_every_s)
            except queue.Empty:
                item = None
            if item is _STOP:
                return
            if self.connected.is_set() and \
                    time.monotonic() - self.probe_at >= self.probe_every_s:
                self.probe()  # (the broker still passes the café's messages: its health)
            if item is None:
                continue
            if movetrace.enabled and item is not _CONNECTED:  # (when its handling began)
                _trace_match_message("deq", *item)
            try:
                if item is _CONNECTED:
                    if self.on_connect is not None:
                        self.on_connect()
                else:
                    self._handle(*item)
            except Exception as exc:  # one odd message must not end the inbox's thread
                print("xobo cafe: a broker message could not be handled: %s: %s"
                      % (type(exc).__name__, exc))

    def _handle(self, topic, payload):
        parts = topic.split("/")
        if len(parts) < 4 or "/".join(parts[:2]) != PREFIX:
            return
        sender, kind, rest = parts[2], parts[3], "/".join(parts[4:])
        if sender == self.cafe and kind == "probe":
            try:
                if json.loads(payload).get("nonce") == self.probe_nonce:
                    self.probe_read.set()
            except (ValueError, AttributeError):
                pass
            return
        if sender == self.cafe and kind != "invite":
            return  # our own (the broker sends them back to a subscriber of the wildcard)
        if len(payload) > MAX_MESSAGE:
            self._refused(topic, "%d bytes: more than a message's %d" % (len(payload),
                                                                         MAX_MESSAGE))
            return
        if not payload:
            msg = None  # a retained message cleared
        else:
            try:
                msg = json.loads(payload)
            except ValueError:
                self._refused(topic, "not JSON")
                return
            if not isinstance(msg, dict):
                self._refused(topic, "not a JSON object")
                return
        if self.on_message is not None:
            try:
                self.on_message(sender, kind, rest, msg)
            except Exception as exc:  # one odd message must not end the inbox's thread
                print("xobo cafe: a message on %s could not be handled: %s: %s"
                      % (topic[:80], type(exc).__name__, exc))

    def _refused(self, topic, why):
        if self.on_refused is not None:
            self.on_refused(topic, why)

    # -- publishing -------------------------------------------------------------------------
    def publish_signed(self, match_id, msg, qos=1):
        """A message about match ``match_id`` on the café's match topic, signed with its key
        and a sequence number of its own (``seal.sign``)."""
        from xobo_host.cafe.seal import sign

        with self.signing:
            seq = self._next_seq()
        # signed and handed to paho outside the lock: a hundred tables' moves and the hellos
        # do not queue behind one another's signing (each match's own messages keep their
        # order: they are sent under its lock; two matches' may cross, which the other
        # café's replay guard takes, as any two messages crossing on the network)
        payload = sign(self.key, self.cafe, match_id, seq, msg)
        info = self.client.publish(self.topic("match", match_id), payload, qos=qos)
        if qos:  # (counted until the broker has it: ``wait_sent``)
            with self.sending:
                if info.mid in self.acked_early:
                    self.acked_early.remove(info.mid)
                else:
                    self.unacked[info.mid] = time.monotonic()

    def _published(self, client, userdata, mid, reason=None, properties=None):
        # (paho's network thread: a QoS 1 message acknowledged, any other written)
        with self.sending:
            if self.unacked.pop(mid, None) is None:
                self.acked_early.append(mid)
            elif not self.unacked:
                self.sending.notify_all()

    def wait_sent(self, deadline):
        """Wait until the broker has every match message this café published (acknowledged),
        until ``deadline`` (``time.monotonic``) at most; at once when the broker is away.
        The boards' mirrors wait for it before reading a board (``MatchService.relays_first``):
        at a hundred tables moving at once, a hundred records read and parsed took the host's
        thread from paho's network thread, and the moves waited in its queue (docs/remote.md)."""
        with self.sending:
            while self.unacked and self.connected.is_set():
                now = time.monotonic()
                for mid in [m for m, since in self.unacked.items()
                            if now - since > UNACKED_STALE_S]:
                    del self.unacked[mid]  # (a broker gone meanwhile: sent again later)
                if not self.unacked or now >= deadline:
                    return
                self.sending.wait(deadline - now)

    def publish_floor(self, floor):
        """The café's floor (a dict) on its retained floor topic, signed with its key and a
        sequence number of the same count as its match messages (``seal.sign_floor``): a
        spectator takes only a floor newer than the last it took."""
        from xobo_host.cafe.seal import sign_floor

        with self.signing:
            seq = self._next_seq()
        # (signed and sent out of the lock: a floor of a hundred tables does not hold the
        # matches' messages back; the floors are published by one thread, in order)
        payload = sign_floor(self.key, self.cafe, seq, floor)
        self.client.publish(self.topic("floor"), payload, qos=1, retain=True)

    def _next_seq(self):
        """(``signing`` held) The next sequence number: above the last one signed and every
        one reserved before, the clock's microseconds when they are ahead."""
        self.seq = max(self.seq + 1, time.time_ns() // 1000)
        if self.reserve_seq is not None and self.seq > self.seq_reserved:
            self.seq_reserved = self.seq + SEQ_BLOCK_US
            try:
                self.reserve_seq(self.seq_reserved)  # (kept before it is used)
            except Exception as exc:  # (the message goes out all the same)
                print("xobo cafe: the sequence numbers could not be kept: %s" % exc)
        return self.seq

    def publish(self, kind, rest, msg, retain=False, qos=1):
        """``msg``: a dict (sent as JSON), its JSON already made (bytes), or None (a retained
        message cleared). ``qos`` 0 for what is said again anyway (the hellos, every few
        seconds): it waits for no acknowledgement and holds no other message back."""
        if msg is None:
            payload = b""
        elif isinstance(msg, bytes):
            payload = msg
        else:
            payload = json.dumps(msg, separators=(",", ":")).encode()
        self.client.publish(self.topic(kind, rest), payload, qos=qos, retain=retain)
