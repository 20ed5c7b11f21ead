"""The café host's broker connection (``BrokerLink``): the messages of other cafés are
handled in order on the inbox's thread, and what the café publishes goes out while a message
is being handled (paho's network thread only reads and writes). Debian's mosquitto on
loopback (``remotekit.Broker``)."""

import threading

from xobo_testing import wait_for

from cafe.remotekit import Broker


def link(broker, cafe, on_message=None, on_connect=None):
    from xobo_host.cafe.broker import BrokerLink

    return BrokerLink(cafe, broker.settings(cafe), on_message, on_connect).start()


def hear_each_other(a, b, heard_by_a, heard_by_b):
    """Both subscribed: each café's pings (``{"t": "ping"}``) reach the other (a message
    published before the broker has the other's subscription is not for it)."""
    def pinged(sender, heard):
        sender.publish("match", "m1", {"t": "ping"})
        return any(m.get("t") == "ping" for m in list(heard))

    wait_for(lambda: pinged(b, heard_by_a) and pinged(a, heard_by_b), "the pings heard", 10)


def test_a_cafes_move_goes_out_while_its_inbox_handles_a_message(tmp_path):
    broker = Broker(tmp_path).start()
    handling = threading.Event()
    release = threading.Event()
    got_a, got_b = [], []

    pings_a, pings_b = [], []

    def slow_handler(sender, kind, rest, msg):  # café A: the first move holds its inbox
        if msg["t"] == "ping":
            pings_a.append(msg)
            return
        got_a.append(msg["n"])
        handling.set()
        release.wait(30)

    def handler_b(sender, kind, rest, msg):
        (pings_b if msg["t"] == "ping" else got_b).append(msg if msg["t"] == "ping"
                                                          else (sender, msg))

    a = link(broker, "cafe-a", slow_handler)
    b = link(broker, "cafe-b", handler_b)
    try:
        hear_each_other(a, b, pings_a, pings_b)
        b.publish("match", "m1", {"t": "move", "n": 1})
        wait_for(handling.is_set, "café A's inbox handling B's move", 10)
        b.publish("match", "m1", {"t": "move", "n": 2})  # (waits in A's inbox)
        # A's inbox is held: A's own move still reaches B
        a.publish("match", "m1", {"t": "move", "n": 3})
        wait_for(lambda: got_b, "café A's move at café B while A's inbox is busy", 10)
        assert got_b == [("cafe-a", {"t": "move", "n": 3})]
        assert got_a == [1]
        release.set()
        wait_for(lambda: got_a == [1, 2], "café A's inbox handling the next message", 10)
    finally:
        release.set()
        a.stop()
        b.stop()
        broker.kill()


def test_the_inbox_keeps_the_order_of_the_messages_and_says_each_connection(tmp_path):
    broker = Broker(tmp_path).start()
    events, pings_a, pings_b = [], [], []

    def handler_a(sender, kind, rest, msg):
        if msg["t"] == "ping":
            pings_a.append(msg)
        else:
            events.append(msg["n"])

    a = link(broker, "cafe-a", handler_a, lambda: events.append("connected"))
    b = link(broker, "cafe-b", lambda sender, kind, rest, msg: pings_b.append(msg))
    try:
        hear_each_other(a, b, pings_a, pings_b)
        for n in range(200):
            b.publish("match", "m1", {"t": "move", "n": n})
        wait_for(lambda: len(events) == 201, "café A handling B's 200 messages", 20)
        assert events == ["connected"] + list(range(200))  # (the connection said first)
    finally:
        a.stop()
        b.stop()
        broker.kill()


def test_a_full_inbox_holds_the_reading_and_loses_nothing(tmp_path, monkeypatch):
    from xobo_host.cafe import broker as broker_module

    monkeypatch.setattr(broker_module, "INBOX_MAX", 2)
    broker = Broker(tmp_path).start()
    release = threading.Event()
    moves, pings_a, pings_b = [], [], []

    def handler_a(sender, kind, rest, msg):  # held at the first move: the inbox fills
        if msg["t"] == "ping":
            pings_a.append(msg)
            return
        moves.append(msg["n"])
        release.wait(30)

    a = link(broker, "cafe-a", handler_a)
    b = link(broker, "cafe-b", lambda sender, kind, rest, msg: pings_b.append(msg))
    try:
        hear_each_other(a, b, pings_a, pings_b)
        for n in range(10):
            b.publish("match", "m1", {"t": "move", "n": n})
        wait_for(lambda: moves == [0] and a.inbox.full(), "café A's inbox full", 10)
        release.set()
        wait_for(lambda: len(moves) == 10, "café A handling every move", 20)
        assert moves == list(range(10))
    finally:
        release.set()
        a.stop()
        b.stop()
        broker.kill()


def test_the_mirrors_wait_until_the_broker_has_the_cafes_match_messages(tmp_path):
    """``wait_sent``: a match message published is counted until the broker acknowledges it
    (a broker that answers nothing, stopped, holds it); the mirrors' wait ends at its
    deadline, and at once when the broker is away."""
    import signal
    import time

    from xobo_host.cafe.broker import BrokerLink
    from xobo_host.cafe.seal import CafeKey

    broker = Broker(tmp_path).start()
    a = BrokerLink("cafe-a", broker.settings("cafe-a"), key=CafeKey.new()).start()
    try:
        wait_for(a.connected.is_set, "café A connected", 10)
        a.publish_signed("0123abcd", {"t": "move", "n": 1})
        wait_for(lambda: not a.unacked, "the move acknowledged by the broker", 10)
        done = threading.Event()
        threading.Thread(target=lambda: (a.wait_sent(time.monotonic() + 3600), done.set()),
                         daemon=True).start()
        wait_for(done.is_set, "the mirrors' wait over once the broker has every message", 10)

        broker.proc.send_signal(signal.SIGSTOP)  # (the broker answers nothing meanwhile)
        try:
            a.publish_signed("0123abcd", {"t": "move", "n": 2})
            assert len(a.unacked) == 1
            a.wait_sent(time.monotonic())  # (its deadline passed: the mirror reads)
            assert len(a.unacked) == 1
        finally:
            broker.proc.send_signal(signal.SIGCONT)
        wait_for(lambda: not a.unacked, "the move acknowledged once the broker answers", 10)

        broker.kill()
        wait_for(lambda: not a.connected.is_set(), "café A seeing the broker gone", 10)
        a.publish_signed("0123abcd", {"t": "move", "n": 3})
        done.clear()
        threading.Thread(target=lambda: (a.wait_sent(time.monotonic() + 3600), done.set()),
                         daemon=True).start()
        wait_for(done.is_set, "the mirrors not held while the broker is away", 10)
    finally:
        a.stop()
        broker.kill()
