"""Helpers of the tests that attack remote play (test_match_attacks.py, test_browser_remote.py):
a bare MQTT client, what an attacker runs, a café's broker password, a café's pages."""

import json
import threading

from xobo_testing import wait_for


class Client:
    """A bare MQTT client (paho, MQTT 5): what an attacker runs. It keeps every message it
    reads, and each publication's answer from the broker (MQTT 5's reason code)."""

    def __init__(self, broker, username=None, password=None, name="intruder"):
        import paho.mqtt.client as mqtt

        self.read = []  # (topic, payload, retained)
        self.acks = {}  # mid -> reason code (an int: 0 taken, >= 0x80 refused)
        self.connack = None
        self.published = set()  # (topic, payload) it published itself
        self.lock = threading.Lock()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name,
                        protocol=mqtt.MQTTv5)
        if username:
            c.username_pw_set(username, password)
        c.on_connect = self._connected
        c.on_message = self._message
        c.on_publish = self._published
        c.connect_async("127.0.0.1", broker.port)
        c.loop_start()
        self.client = c
        wait_for(lambda: self.connack is not None, "the broker's answer to " + name, 20)

    def _connected(self, client, userdata, flags, reason, properties=None):
        self.connack = reason
        if reason.is_failure:
            client.disconnect()

    def _message(self, client, userdata, message):
        with self.lock:
            self.read.append((message.topic, bytes(message.payload), message.retain))

    def _published(self, client, userdata, mid, reason, properties=None):
        with self.lock:
            self.acks[mid] = reason.value

    def listen(self, topic="xobo/v1/#"):
        self.client.subscribe(topic, 1)

    def publish(self, topic, payload, retain=False):
        """The broker's reason code for it (QoS 1: waited for)."""
        if isinstance(payload, dict):
            payload = json.dumps(payload)
        if isinstance(payload, str):
            payload = payload.encode()
        with self.lock:
            self.published.add((topic, payload))
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        wait_for(lambda: info.mid in self.acks, "the broker's PUBACK", 20)
        return self.acks[info.mid]

    def seen(self, pred):
        """What it read (not what it published itself) that ``pred`` takes."""
        with self.lock:
            return [r for r in self.read if pred(r) and (r[0], r[1]) not in self.published]

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()


def broker_password(broker, cafe):
    """The password the broker's set-up wrote for café ``cafe`` (``remotekit.Broker``)."""
    with open(broker.cafes[cafe]) as f:
        return json.load(f)["password"]


def envelope_seq(payload):
    """The sequence number a signed floor (bytes, as read on the broker) says it has (read,
    not checked)."""
    return json.loads(json.loads(payload)["signed"])["seq"]


def start_server(cafe, tmp_path):
    """Café ``cafe``'s pages (``cafe.server``, ``cafe.url``), its staff's password
    ``cafekit.PASSWORD``."""
    from cafe.cafekit import PASSWORD
    from xobo_host.cafe.staff import Staff
    from xobo_host.cafe.web import CafeServer

    staff = Staff.create(str(tmp_path / (cafe.name + "-staff.json")), PASSWORD)
    cafe.server = CafeServer(cafe.floor, staff, cafe.db, matches=cafe.service).start()
    cafe.url = cafe.server.url
