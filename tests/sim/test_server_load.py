"""The simulator's server under hostile or heavy load (docs/simulator.md, "Many clients"): a body
of any depth gets a 400, slow and half-open clients hold no worker and are disconnected at their
time, hundreds of them leave every page answered, a burst of connections waits in the listen
backlog, every request gets its reply, and a client that hangs up is one line on stderr.
Loopback only; every wait is for a state (a reply, a closed connection), never for a time: a
timeout only turns a hang into a failure. (The café's server is the same server:
tests/cafe/test_web.py.)"""

import http.client
import json
import select
import socket
import struct
import threading

import pytest

from xobo_host.sim.server import CLIENT_TIMEOUT_S, SimServer

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
            got = _closed_by_server(s)  # half a request, then silence: 408, closed
            assert got.startswith(b"HTTP/1.1 408 Request Timeout"), got
            assert b"the request did not arrive whole within 0.2 s" in got, got
        with socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S) as s:
            assert _closed_by_server(s) == b""  # nothing at all: closed, without a word
    finally:
        server.stop()


def test_a_client_that_trickles_its_request_is_cut_at_its_time(sim):
    # a byte at a time, each before the last one's timeout would run out: the request as a
    # whole has the client's time, not each byte
    server = SimServer(sim.backend, client_timeout=0.3).start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S) as s:
            got = b""
            for byte in b"GET /state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % server.port * 20:
                try:
                    s.sendall(bytes([byte]))
                except OSError:  # closed by the server
                    break
                r, _, _ = select.select([s], [], [], 0.05)
                if r:
                    got = _closed_by_server(s)
                    break
            assert got.startswith(b"HTTP/1.1 408"), got
    finally:
        server.stop()


def test_a_thousand_silent_clients_hold_no_worker(sim):
    workers = 40
    server = SimServer(sim.backend, workers=workers, client_timeout=2.0).start()
    before = threading.active_count()
    silent = []
    try:
        for _ in range(1000):
            silent.append(socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S))
        # answered while all of them are open: they wait for their requests without a worker
        assert _get(server.port, "/legend") == 200
        assert threading.active_count() <= before + workers
        for s in silent:
            assert _closed_by_server(s) == b""  # then closed at their time
    finally:
        for s in silent:
            s.close()
        server.stop()


def _half_sent(port, n):
    """``n`` connections, each with half a request sent and held open."""
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), HANG_GUARD_S)
        s.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: slow" % port)
        out.append(s)
    return out


def _twenty_states_answered(port, path="/state"):
    """20 clients at once ask for ``path``: every one is answered 200 (the wait is for the
    replies; HANG_GUARD_S only turns a hang into a failure)."""
    statuses = []
    lock = threading.Lock()

    def ask():
        try:
            status = _get(port, path)
        except OSError as exc:
            status = repr(exc)
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_five_hundred_half_sent_requests_leave_every_page_answered(sim):
    # the probe: with 500 half-sent connections held open, the first 3 of 20 GET /state timed
    # out at 10 s (each held a worker until its timeout); now they hold sockets, not workers
    server = SimServer(sim.backend, client_timeout=CLIENT_TIMEOUT_S).start()
    held = []
    try:
        held = _half_sent(server.port, 500)
        assert _twenty_states_answered(server.port) == [200] * 20
        assert server.httpd.reader.open_count() >= 500  # (still held: none timed out yet)
    finally:
        for s in held:
            s.close()
        server.stop()


def test_a_client_that_hangs_up_is_one_line_on_stderr(sim, capfd):
    import sys

    server = SimServer(sim.backend).start()
    try:
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            server.httpd.handle_error(None, ("127.0.0.1", 50123))
        err = capfd.readouterr().err
        assert err == "xobo http: client 127.0.0.1:50123 hung up before its reply was written " \
            "(BrokenPipeError)\n", err
        # and as it happens: clients that send a request and reset the connection at once
        for _ in range(50):
            s = socket.create_connection(("127.0.0.1", server.port), HANG_GUARD_S)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.sendall(b"GET /static/sim.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                      % server.port)
            s.close()  # a reset: the reply, if it is being written, meets a closed socket
        assert _get(server.port, "/legend") == 200  # (served after the 50: they are done)
        sys.stderr.flush()
        err = capfd.readouterr().err
        assert "Traceback" not in err, err
        for line in err.splitlines():
            assert line.startswith("xobo http: client 127.0.0.1:") and "hung up" in line, line
    finally:
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
