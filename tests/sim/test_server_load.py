"""The simulator's server under hostile or heavy load (docs/simulator.md, "Many clients"): a body
of any depth gets a 400, slow clients are disconnected and hold a bounded number of threads, a
burst of connections waits in the listen backlog and every request gets its reply. Loopback
only; every wait is for a state (a reply, a closed connection), never for a time."""

import http.client
import json
import socket
import threading

import pytest

from xobo_host.sim.server import SimServer

HANG_GUARD_S = 60  # a socket that never answers fails the test instead of hanging it


def _post_raw(port, body):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD_S)
    try:
        conn.request("POST", "/action", body, {"Content-Type": "application/json",
                                               "X-Xobo-Client": "tests",
                                               "Host": "127.0.0.1:%d" % port})
        r = conn.getresponse()
        return r.status, json.loads(r.read())
    finally:
        conn.close()


def _get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD_S)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1:%d" % port})
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


@pytest.mark.parametrize("body", [b"[" * 60000, b"[" * 30000 + b"]" * 30000,
                                  b'{"a":' * 10000 + b"1" + b"}" * 10000],
                         ids=["60000-open-arrays", "30000-deep-array", "10000-deep-object"])
def test_a_body_nested_deeper_than_the_decoder_goes_gets_400(sim, body):
    status, reply = _post_raw(sim.server.port, body)
    assert status == 400 and reply["ok"] is False
    assert "nests too deeply" in reply["error"]
    assert sim.command("set brightness 9")["ok"]  # the server still serves


def test_a_body_shorter_than_its_content_length_gets_400(sim):
    with socket.create_connection(("127.0.0.1", sim.server.port), HANG_GUARD_S) as s:
        s.sendall(b"POST /action HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Xobo-Client: tests\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{}"
                  % sim.server.port)
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            data = s.recv(4096)
            if not data:
                break
            reply += data
    assert reply.startswith(b"HTTP/1.1 400"), reply
    assert b"the body ended after 2 of its 100 bytes" in reply


def _closed_by_server(sock):
    """Read until the server closes the connection; the bytes it sent."""
    got = b""
    while True:
        data = sock.recv(4096)
        if not data:
            return got
        got += data


def test_a_client_that_stops_sending_is_disconnected(sim):
    server = SimServer(sim.backend, client_timeout=0.2).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S) as s:
            s.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % server.port)
            assert _closed_by_server(s) == b""  # half a request, then silence: closed
        with socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S) as s:
            assert _closed_by_server(s) == b""  # nothing at all: closed too
    finally:
        server.stop()


def test_a_thousand_silent_clients_hold_a_bounded_number_of_threads(sim):
    workers = 40
    server = SimServer(sim.backend, workers=workers, client_timeout=0.1).start()
    before = threading.active_count()
    silent = []
    try:
        for _ in range(1000):
            silent.append(socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S))
        # the listen queue is first in, first out: this request is served after all of them
        # were accepted, and each of them held a worker until it was timed out
        assert _get(server.port, "/legend") == 200
        assert threading.active_count() <= before + workers
        for s in silent:
            assert _closed_by_server(s) == b""
    finally:
        for s in silent:
            s.close()
        server.stop()


def test_a_burst_of_connections_waits_in_the_listen_backlog(sim):
    # not yet serving: every connection must complete its handshake into the kernel's queue
    # (with the default backlog of 5, the sixth and later SYNs are dropped and retried later)
    server = SimServer(sim.backend)
    burst = 50
    socks = []
    try:
        for _ in range(burst):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            socks.append(s)
            s.connect_ex(("127.0.0.1", server.port))  # on loopback the handshake is done now
        assert sum(_established(s) for s in socks) == burst
        server.start()
        for s in socks:
            s.setblocking(True)
            s.settimeout(HANG_GUARD_S)
            s.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close"
                      b"\r\n\r\n" % server.port)
        for s in socks:
            assert _closed_by_server(s).startswith(b"HTTP/1.1 204")
    finally:
        for s in socks:
            s.close()
        server.stop()


def _established(sock):
    """True once the handshake is complete (a socket whose SYN was dropped has no peer)."""
    try:
        sock.getpeername()
        return True
    except OSError:
        return False


def test_fifty_clients_at_once_each_get_every_reply(sim):
    clients, each = 50, 40
    statuses = []
    lock = threading.Lock()
    start = threading.Barrier(clients)

    def client():
        start.wait()
        got = []
        for _ in range(each):
            try:
                got.append(_get(sim.server.port, "/legend"))
            except OSError as exc:
                got.append(repr(exc))
        with lock:
            statuses.extend(got)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * (clients * each)


def test_event_streams_are_capped_so_requests_always_find_a_worker(sim):
    server = SimServer(sim.backend, workers=4, max_event_streams=2).start()
    streams = []
    try:
        for _ in range(2):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD_S)
            conn.request("GET", "/events", headers={"Host": "127.0.0.1:%d" % server.port})
            r = conn.getresponse()
            assert r.status == 200 and r.readline() == b"event: state\n"
            streams.append(conn)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_GUARD_S)
        conn.request("GET", "/events", headers={"Host": "127.0.0.1:%d" % server.port})
        r = conn.getresponse()
        assert r.status == 503 and b"2 pages already follow this board" in r.read()
        conn.close()
        assert _get(server.port, "/legend") == 200  # the other workers still serve
    finally:
        for conn in streams:
            conn.close()
        server.stop()
