"""Faults during a match between two cafés through a real broker (Debian's mosquitto on
loopback, ``remotekit.Broker``, without persistence: a restarted broker has forgotten every
queued message): the broker killed and restarted, a café host stopped and started again,
messages dropped, delivered twice and reordered. After each, the game is played to its end,
both boards show the same position and both cafés' records agree, move for move."""

import random

from cafe.remotekit import play_match, same_everywhere, start_match, stop


def test_the_broker_killed_and_restarted_mid_game_loses_no_move(tmp_path):
    broker, cafes, bs, tables, ident = start_match(tmp_path, "tiny")
    try:
        def fault(n):
            if n in (3, 6):  # a move is played while the broker is away
                broker.restart_later(1.0)

        match = play_match(cafes, tables, ident, random.Random(1), fault=fault)
        assert match.state == "over"
        log = same_everywhere(cafes, tables, ident)
        assert len(log) == match.ply
    finally:
        stop(broker, cafes, bs)


def test_a_cafe_host_stopped_and_restarted_mid_game_resumes_the_match(tmp_path):
    broker, cafes, bs, tables, ident = start_match(tmp_path, "tiny")
    try:
        def fault(n):
            if n == 2:  # the other café plays its move while this host is away
                cafes[0].restart_later(1.0)
            if n == 4:
                cafes[1].restart_later(1.0)

        match = play_match(cafes, tables, ident, random.Random(4), fault=fault)
        assert match.state == "over"
        same_everywhere(cafes, tables, ident)
    finally:
        stop(broker, cafes, bs)


class Chaos:
    """Between the broker and a café: of every five match messages the first is dropped,
    the second delivered twice, the third held back and delivered after the fourth."""

    def __init__(self):
        self.count = 0
        self.held = None
        self.dropped = self.doubled = self.reordered = 0

    def __call__(self, sender, kind, rest, msg):
        if kind != "match" or msg is None:
            return [msg]
        self.count += 1
        k = self.count % 5
        if k == 1:
            self.dropped += 1
            return []
        if k == 2:
            self.doubled += 1
            return [msg, msg]
        if k == 3:
            self.held = msg
            return []
        if k == 4 and self.held is not None:
            held, self.held = self.held, None
            self.reordered += 1
            return [msg, held]
        return [msg]


def test_messages_dropped_doubled_and_reordered_change_nothing(tmp_path):
    broker, cafes, bs, tables, ident = start_match(tmp_path, "tiny")
    chaos = [Chaos(), Chaos()]
    for c, f in zip(cafes, chaos, strict=True):
        c.service.filter = f
    try:
        match = play_match(cafes, tables, ident, random.Random(2))
        assert match.state == "over"
        same_everywhere(cafes, tables, ident)
        assert all(f.dropped and f.doubled and f.reordered for f in chaos)
    finally:
        stop(broker, cafes, bs)
