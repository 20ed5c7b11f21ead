"""Only this machine's page may drive the simulator and the monitor (docs/simulator.md, "Who may
talk to the simulator"): raw http.client requests as another web page, a form, a DNS-rebinding
name would send them. Each is refused with a JSON error, and the board does not change."""

import http.client
import json

import pytest

from sim.simkit import start_xobo, stop_with_ctrl_c
from xobo_host.sim.server import SimServer, allowed_hosts

PUT = json.dumps({"action": "command", "line": "set brightness 7"}).encode()


def _request(sim, method, path, body=None, headers=None, host=None):
    """Send exactly these headers (http.client adds only Host and Content-Length)."""
    conn = http.client.HTTPConnection("127.0.0.1", sim.server.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or "127.0.0.1:%d" % sim.server.port)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        data = r.read()
        return r.status, r.getheader("Content-Type"), data
    finally:
        conn.close()


def _refused(sim, status, ctype, data, want, words):
    assert status == want, (status, data)
    assert ctype == "application/json"
    reply = json.loads(data)
    assert reply["ok"] is False and words in reply["error"], reply
    assert sim.backend.board.app.settings["brightness"] != 7  # nothing changed


def test_a_post_from_another_origin_is_refused_403(sim):
    out = _request(sim, "POST", "/action", PUT, {"Content-Type": "application/json",
                                                 "Origin": "http://evil.example"})
    _refused(sim, *out, 403, "Origin 'http://evil.example' is not this page")


def test_a_no_cors_fetch_from_another_origin_is_refused(sim):
    # fetch(url, {mode: "no-cors", method: "POST", body}) sends text/plain and its Origin
    out = _request(sim, "POST", "/action", PUT, {"Content-Type": "text/plain;charset=UTF-8",
                                                 "Origin": "http://evil.example"})
    _refused(sim, *out, 403, "is not this page")


def test_a_form_post_is_refused_415_even_from_the_same_origin(sim):
    form = b"action=command&line=set+brightness+7"
    own = "http://127.0.0.1:%d" % sim.server.port
    out = _request(sim, "POST", "/action", form,
                   {"Content-Type": "application/x-www-form-urlencoded", "Origin": own})
    _refused(sim, *out, 415, "Content-Type must be application/json")
    out = _request(sim, "POST", "/action", form,
                   {"Content-Type": "application/x-www-form-urlencoded",
                    "Origin": "http://evil.example"})
    _refused(sim, *out, 403, "is not this page")


def test_a_post_without_origin_or_referer_needs_the_client_header(sim):
    out = _request(sim, "POST", "/action", PUT, {"Content-Type": "application/json"})
    _refused(sim, *out, 403, "X-Xobo-Client")
    out = _request(sim, "POST", "/action", PUT, {"Content-Type": "application/json",
                                                 "Referer": "http://evil.example/x.html"})
    _refused(sim, *out, 403, "Referer 'http://evil.example/x.html' is not this page")


@pytest.mark.parametrize("host", ["evil.example:%d", "127.0.0.1.nip.io:%d", "localhost:1",
                                  "localhost"])
def test_a_rebinding_host_is_refused_on_posts_and_gets(sim, host):
    host = host % sim.server.port if "%d" in host else host
    own = "http://%s" % host
    out = _request(sim, "POST", "/action", PUT, {"Content-Type": "application/json",
                                                 "Origin": own}, host=host)
    _refused(sim, *out, 403, "does not name this server")
    for path in ("/state", "/events", "/record.txt", "/", "/legend"):
        status, ctype, data = _request(sim, "GET", path, host=host)
        assert status == 403 and b"does not name this server" in data, (path, status)


def test_the_page_itself_may_post_and_read(sim):
    for name in ("127.0.0.1", "localhost"):
        host = "%s:%d" % (name, sim.server.port)
        status, _, data = _request(sim, "POST", "/action", PUT,
                                   {"Content-Type": "application/json; charset=utf-8",
                                    "Origin": "http://" + host}, host=host)
        assert status == 200 and json.loads(data)["ok"], data
        status, _, data = _request(sim, "POST", "/action", PUT,
                                   {"Content-Type": "application/json",
                                    "Referer": "http://%s/" % host}, host=host)
        assert status == 200, data
        assert _request(sim, "GET", "/state", host=host)[0] == 200
    assert sim.backend.board.app.settings["brightness"] == 7


def test_a_program_that_names_itself_may_post(sim):
    status, _, data = _request(sim, "POST", "/action", PUT,
                               {"Content-Type": "application/json", "X-Xobo-Client": "curl"})
    assert status == 200 and json.loads(data)["ok"], data


def test_a_request_without_host_is_refused_400(sim):
    conn = http.client.HTTPConnection("127.0.0.1", sim.server.port, timeout=10)
    conn.putrequest("GET", "/state", skip_host=True)
    conn.endheaders()
    r = conn.getresponse()
    assert r.status == 400 and b"no Host header" in r.read()
    conn.close()


def _raw(sim, request):
    """Send ``request`` (bytes) as it is; the status and the JSON reply."""
    import socket

    with socket.create_connection(("127.0.0.1", sim.server.port), 10) as s:
        s.sendall(request)
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            data = s.recv(65536)
            if not data:
                break
            reply += data
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body) if body else None


def test_a_second_host_header_is_refused_400_even_after_a_good_one(sim):
    port = sim.server.port
    for second in (b"evil.example", b"127.0.0.1:%d" % port):
        status, reply = _raw(sim, b"GET /state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: %s\r\n"
                             b"Connection: close\r\n\r\n" % (port, second))
        assert status == 400 and "2 Host headers" in reply["error"], reply
    status, reply = _raw(sim, b"POST /action HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nHost: "
                         b"evil.example\r\nContent-Type: application/json\r\nX-Xobo-Client: t"
                         b"\r\nContent-Length: %d\r\n\r\n%s" % (port, len(PUT), PUT))
    _refused(sim, status, "application/json", json.dumps(reply), 400, "2 Host headers")


def test_a_request_line_naming_another_host_is_refused_400(sim):
    port = sim.server.port
    for url in (b"http://evil.example/state", b"http://evil.example:%d/state" % port,
                b"https://127.0.0.1:%d/state" % port):
        status, reply = _raw(sim, b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: "
                             b"close\r\n\r\n" % (url, port))
        assert status == 400 and reply["ok"] is False, (url, reply)
    status, reply = _raw(sim, b"GET http://evil.example/state HTTP/1.1\r\nHost: 127.0.0.1:%d"
                         b"\r\nConnection: close\r\n\r\n" % port)
    assert "names another host ('evil.example')" in reply["error"], reply
    status, reply = _raw(sim, b"POST http://evil.example/action HTTP/1.1\r\nHost: 127.0.0.1:%d"
                         b"\r\nContent-Type: application/json\r\nX-Xobo-Client: t\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (port, len(PUT), PUT))
    _refused(sim, status, "application/json", json.dumps(reply), 400, "names another host")


def test_a_request_line_naming_this_server_is_served(sim):
    port = sim.server.port
    status, reply = _raw(sim, b"GET http://127.0.0.1:%d/state?x=1 HTTP/1.1\r\nHost: 127.0.0.1:%d"
                         b"\r\nConnection: close\r\n\r\n" % (port, port))
    assert status == 200 and "state" in reply, status
    # (a path starting with // is a path: http.server reads //evil.example/state as
    # /evil.example/state, which is no page here)
    status, reply = _raw(sim, b"GET //evil.example/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                         b"Connection: close\r\n\r\n" % port)
    assert status == 404, reply


def test_allowed_hosts_are_loopback_names_and_the_bound_address_with_the_port():
    hosts = allowed_hosts("192.168.1.5", 8765)
    assert {"127.0.0.1:8765", "localhost:8765", "[::1]:8765", "192.168.1.5:8765"} == hosts
    assert "localhost" in allowed_hosts("127.0.0.1", 80)


class _SilentLink:
    """A board link that is never asked anything (the monitor is not started)."""

    on_event = None
    closed = False


class _Monitor:
    def __init__(self):
        from xobo_host.sim.monitor import MonitorBackend

        self.backend = MonitorBackend(_SilentLink())
        self.server = SimServer(self.backend).start()


def test_the_monitor_page_checks_host_and_origin_too():
    mon = _Monitor()
    try:
        own = "http://127.0.0.1:%d" % mon.server.port
        status, _, data = _request(mon, "POST", "/action", PUT,
                                   {"Content-Type": "application/json", "Origin": own})
        assert status == 400 and b"read-only" in data  # its own page: the monitor's answer
        status, _, data = _request(mon, "POST", "/action", PUT,
                                   {"Content-Type": "text/plain", "Origin": "http://evil.example"})
        assert status == 403 and b"is not this page" in data
        for path in ("/events", "/state"):
            status, _, data = _request(mon, "GET", path, host="evil.example:%d" % mon.server.port)
            assert status == 403 and b"does not name this server" in data
        assert _request(mon, "GET", "/state")[0] == 200
    finally:
        mon.server.stop()


def test_xobo_sim_warns_loudly_when_served_beyond_loopback(tmp_path):
    proc = start_xobo(["sim", "--no-browser", "--host", "0.0.0.0", "--flash",
                       str(tmp_path / "flash")])
    try:
        line = proc.stdout.readline()
        assert line.startswith("XoBo simulator: http://0.0.0.0:"), line
    finally:
        out, err = stop_with_ctrl_c(proc)
    assert "WARNING: xobo sim serves on 0.0.0.0, which is not a loopback address" in err
