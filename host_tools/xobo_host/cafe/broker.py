"""The café host's connection to an MQTT broker (paho-mqtt): matches with tables of other
cafés, invitations, and the live floor for spectators (docs/remote.md).

Topics (``xobo/v1/<cafe>/...``: a café publishes only under its own name, which a broker's
access list can enforce: ``pattern write xobo/v1/%u/#``):

- ``xobo/v1/<cafe>/match/<id>``: what the café says about a match (moves, asks, logs,
  take-backs, resignations, hellos); every café of the match subscribes to the others'.
- ``xobo/v1/<cafe>/invite/<code>`` (retained): an open invitation; ``xobo/v1/<cafe>/reply/<code>``:
  another café's answer (accept, decline).
- ``xobo/v1/<cafe>/floor`` (retained): the café's live floor, when it publishes it.

Messages are JSON objects of at most ``MAX_MESSAGE`` bytes, sent with QoS 1 on a persistent
session (the broker keeps what arrives while the host is away); whatever is lost anyway (a
broker restarted without persistence) the matches ask for again (``matches``).

Usage::

    link = BrokerLink("cafe-a", BrokerSettings(host="127.0.0.1", port=1883),
                      on_message=lambda sender, kind, rest, msg: ...)
    link.start(); link.publish_match("0123abcd", {"t": "hello"}); link.stop()
"""

import json
import queue
import threading

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
NAME_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


_CONNECTED = object()  # (in the inbox: a (re)connection, for on_connect)
_STOP = object()


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

    def __init__(self, cafe, settings, on_message=None, on_connect=None):
        import paho.mqtt.client as mqtt
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.cafe = check_cafe_name(cafe)
        self.settings = settings
        self.on_message = on_message
        self.on_connect = on_connect
        self.connected = threading.Event()
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
            return
        from paho.mqtt.subscribeoptions import SubscribeOptions

        others = SubscribeOptions(qos=1, noLocal=True)  # (not the café's own messages)
        subs = [(PREFIX + "/+/match/+", others), (PREFIX + "/+/reply/+", others)]
        with self.lock:
            subs += [(t, SubscribeOptions(qos=1)) for t in self.extra_topics]
        client.subscribe(subs)
        self.connects += 1
        self.connected.set()
        self.inbox.put(_CONNECTED)  # (the hellos: made and sent by the inbox's thread)

    def _log(self, client, userdata, level, text):
        if "PUBLISH" not in text and "PUBACK" not in text and "PING" not in text:
            movetrace.trace("paho", text[:100])

    def _disconnected(self, client, userdata, flags, reason, properties=None):
        movetrace.trace("disconnected")
        self.connected.clear()

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
        if movetrace.enabled and "/match/" in message.topic:  # (when it was read)
            try:
                msg = json.loads(message.payload)
                movetrace.trace("read", message.topic.rsplit("/", 1)[1], msg.get("t"),
                                msg.get("n"))
            except (ValueError, AttributeError):
                pass

    def _handle_inbox(self):
        while True:
            item = self.inbox.get()
            if item is _STOP:
                return
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
        if sender == self.cafe and kind != "invite":
            return  # our own (the broker sends them back to a subscriber of the wildcard)
        if len(payload) > MAX_MESSAGE:
            return
        if not payload:
            msg = None  # a retained message cleared
        else:
            try:
                msg = json.loads(payload)
            except ValueError:
                return
            if not isinstance(msg, dict):
                return
        if self.on_message is not None:
            try:
                self.on_message(sender, kind, rest, msg)
            except Exception as exc:  # one odd message must not end the inbox's thread
                print("xobo cafe: a message on %s could not be handled: %s: %s"
                      % (topic[:80], type(exc).__name__, exc))

    # -- publishing -------------------------------------------------------------------------
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
