"""HTTP server of the simulator and the monitor: the static page, live state, page actions.

Routes:

- ``GET /``: the page (``static/index.html``; ``/static/sim.js``, ``/static/sim.css``).
- ``GET /state``: the current snapshot (JSON).
- ``GET /events``: server-sent events; each ``state`` message carries a snapshot and the
  firmware's event lines sent since the previous message (``events``: ``[[seq, line], ...]``).
- ``POST /action``: a JSON action (see ``SimBackend.action``); the reply is JSON with ``ok``.
- ``GET /record.txt``: the game record (N2) as a file download.
- ``GET /legend``: the light colours and what they mean (JSON list).

Usage::

    from xobo_host.sim.server import SimServer
    server = SimServer(backend)            # 127.0.0.1, a free port
    server.start()                          # serves in a background thread
    print(server.url)
    server.stop()
"""

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

from xobo_host.sim.backend import ActionError
from xobo_host.sim.legend import legend

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
MAX_BODY = 64 * 1024
KEEPALIVE_S = 15.0
RECENT_EVENTS = 12


class _Handler(BaseHTTPRequestHandler):
    server_version = "xobo-sim/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the terminal shows the URL, not every request
        if self.server.verbose:
            BaseHTTPRequestHandler.log_message(self, fmt, *args)

    # -- helpers ------------------------------------------------------------------------------
    def _send(self, status, body, ctype="application/json", extra=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status, obj):
        self._send(status, json.dumps(obj))

    def _static(self, name):
        path = os.path.normpath(os.path.join(STATIC, name))
        if not path.startswith(STATIC + os.sep) or not os.path.isfile(path):
            return self._json(404, {"ok": False, "error": "no such file: %s" % name})
        with open(path, "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))

    # -- routes -------------------------------------------------------------------------------
    def do_GET(self):
        path = urlparse(self.path).path
        backend = self.server.backend
        if path in ("/", "/index.html"):
            return self._static("index.html")
        if path.startswith("/static/"):
            return self._static(path[len("/static/"):])
        if path == "/state":
            return self._json(200, backend.snapshot())
        if path == "/legend":
            return self._json(200, legend())
        if path == "/record.txt":
            record = backend.snapshot()["state"].get("record", "")
            return self._send(200, record, "text/plain; charset=utf-8",
                              [("Content-Disposition", 'attachment; filename="xobo-game.txt"')])
        if path == "/events":
            return self._events()
        if path == "/favicon.ico":
            return self._send(204, b"", "image/x-icon")
        return self._json(404, {"ok": False, "error": "no such page: %s" % path})

    do_HEAD = do_GET

    def do_POST(self):
        path = urlparse(self.path).path
        if path != "/action":
            return self._json(404, {"ok": False, "error": "POST only to /action"})
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            return self._json(400, {"ok": False, "error": "body must be 0..%d bytes" % MAX_BODY})
        raw = self.rfile.read(length)
        try:
            req = json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, ValueError) as exc:
            return self._json(400, {"ok": False, "error": "the body is not JSON: %s" % exc})
        try:
            out = self.server.backend.action(req)
        except ActionError as exc:
            return self._json(400, {"ok": False, "error": str(exc)})
        return self._json(200, out)

    def _events(self):
        backend = self.server.backend
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        version = -1
        seq = 0
        try:
            # the first message brings the last few events, then only new ones
            seq = max(0, backend.snapshot().get("event_seq", 0) - RECENT_EVENTS)
            while not self.server.stopping.is_set():
                snap = backend.wait_change(version, KEEPALIVE_S)
                if self.server.stopping.is_set():
                    break
                if snap["version"] == version:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    continue
                version = snap["version"]
                new = backend.events_after(seq)
                if new:
                    seq = new[-1][0]
                snap["events"] = new
                self.wfile.write(b"event: state\ndata: " + json.dumps(snap).encode() + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class SimServer:
    """Serves the page for one backend (``SimBackend`` or ``MonitorBackend``)."""

    def __init__(self, backend, host="127.0.0.1", port=0, verbose=False):
        self.backend = backend
        self.httpd = _Server((host, port), _Handler)
        self.httpd.backend = backend
        self.httpd.verbose = verbose
        self.httpd.stopping = threading.Event()
        self._thread = None

    @property
    def port(self):
        return self.httpd.server_address[1]

    @property
    def url(self):
        return "http://%s:%d/" % (self.httpd.server_address[0], self.port)

    def start(self):
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="xobo-sim-http",
                                        daemon=True)
        self._thread.start()
        return self

    def serve_forever(self):
        self.httpd.serve_forever()

    def stop(self):
        self.httpd.stopping.set()
        with self.backend.changed:
            self.backend.changed.notify_all()
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(2)
