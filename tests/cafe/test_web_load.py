"""The café's server under slow and half-open clients (docs/cafe.md, "What must never be
exposed to the internet"): it is the simulator's server (sim.server, sim.connections) with
the café's routes, so hundreds of slow or half-sent requests leave the floor answered, a
request that names another host or names one twice is refused 400, and a client that hangs
up is one line on stderr. Loopback only; the waits are for replies (a timeout only turns a
hang into a failure)."""

import http.client
import json
import socket
import threading

import pytest

from xobo_host.cafe.floor import Floor
from xobo_host.cafe.staff import Staff
from xobo_host.cafe.web import CafeServer
from xobo_host.records.gamesdb import GamesDB

HANG_GUARD_S = 60


@pytest.fixture
def cafe(tmp_path):
    db_path = str(tmp_path / "games.sqlite")
    GamesDB(db_path).close()
    staff = Staff.create(str(tmp_path / "staff.json"), "counter-staff-7")
    floor = Floor(db_path, ports=[], scan_usb=False, scan_s=0.2, poll_s=0.5).start()
    server = CafeServer(floor, staff, db_path).start()
    yield server
    server.stop()
    floor.stop()


def _get(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD_S)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1:%d" % port})
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def _raw(port, request):
    with socket.create_connection(("127.0.0.1", port), HANG_GUARD_S) as s:
        s.sendall(request)
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            data = s.recv(65536)
            if not data:
                break
            reply += data
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_five_hundred_half_sent_requests_leave_the_floor_answered(cafe):
    port = cafe.port
    held = []
    statuses = []
    lock = threading.Lock()

    def ask():
        try:
            status = _get(port, "/api/floor")
        except OSError as exc:
            status = repr(exc)
        with lock:
            statuses.append(status)

    try:
        for _ in range(500):
            s = socket.create_connection(("127.0.0.1", port), HANG_GUARD_S)
            s.sendall(b"GET /api/floor HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: sl" % port)
            held.append(s)
        threads = [threading.Thread(target=ask) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert statuses == [200] * 20
    finally:
        for s in held:
            s.close()


def test_the_cafe_refuses_a_second_host_and_a_request_line_for_another_host(cafe):
    port = cafe.port
    status, reply = _raw(port, b"GET /api/floor HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: "
                         b"evil.example\r\nConnection: close\r\n\r\n" % port)
    assert status == 400 and "2 Host headers" in reply["error"], reply
    status, reply = _raw(port, b"GET http://evil.example/api/floor HTTP/1.1\r\nHost: "
                         b"127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
    assert status == 400 and "names another host" in reply["error"], reply
    body = json.dumps({"password": "counter-staff-7"}).encode()
    status, reply = _raw(port, b"POST http://evil.example/api/login HTTP/1.1\r\nHost: "
                         b"127.0.0.1:%d\r\nContent-Type: application/json\r\nOrigin: "
                         b"http://127.0.0.1:%d\r\nContent-Length: %d\r\nConnection: close"
                         b"\r\n\r\n%s" % (port, port, len(body), body))
    assert status == 400 and "names another host" in reply["error"], reply
