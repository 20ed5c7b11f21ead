"""HTTP server of the simulator and the monitor: the static page, live state, page actions.

Routes:

- ``GET /``: the page (``static/index.html``; ``/static/sim.js``, ``/static/sim.css``).
- ``GET /state``: the current snapshot (JSON).
- ``GET /events``: server-sent events; each ``state`` message carries a snapshot and the
  firmware's event lines sent since the previous message (``events``: ``[[seq, line, kind],
  ...]``, the kind as ``xobo.runtime.events`` names it).
- ``POST /action``: a JSON action (see ``SimBackend.action``); the reply is JSON with ``ok``.
- ``GET /record.txt``: the game record (N2) as a file download.
- ``GET /legend``: the light colours and what they mean (JSON list).
- ``GET /docs/rules/xobo.md``: a page of the project's docs (the game's rules, linked from How
  to play) rendered to HTML, its diagrams beside it, and the project's files its links cite
  (``/tests/test_rules_docs.py``: ``xobo_host.sim.docs``).

Only this machine's pages may use it (docs/simulator.md, "Who may talk to the simulator"):
every request must name the server in ``Host`` (a loopback name or the bound address, with the
port: a DNS-rebinding name is refused), and ``POST /action`` must be ``application/json`` from
the page's own origin (``Origin``, else a same-origin ``Referer``), or, with neither, from a
program that says so in ``X-Xobo-Client``. Refusals are 400/403/415 with a JSON ``error``.

Load (docs/simulator.md, "Many clients"): the standard library's ``HTTPServer`` with a listen
backlog of ``LISTEN_BACKLOG`` (a burst of connections waits in the kernel, none is dropped) and
a bounded pool of ``WORKERS`` threads (``concurrent.futures``) instead of a thread per
connection. A request takes a worker only once it has arrived whole (``sim.connections``: one
thread gathers every connection's bytes with ``selectors``), so hundreds of slow, half-sent or
silent clients hold sockets, never workers; a client has ``CLIENT_TIMEOUT_S`` to send a whole
request (``408`` when it sent a part, else closed). At most ``MAX_EVENT_STREAMS`` pages follow
``/events`` at once (503 beyond), so requests always find a worker; past ``MAX_CONNECTIONS``
open connections a new one is closed at once. A body that is not JSON, however deeply it
nests, gets a 400. A client that hangs up before its reply is written is one line on stderr,
not a traceback.

A request names this server once: a second ``Host`` header, or a request line with an absolute
URI naming another host (``GET http://elsewhere/state``), gets a 400 saying so (``http.server``
reads a path starting with ``//`` as a path).

Usage::

    >>> import json, urllib.request
    >>> from xobo_host.sim.backend import SimBackend, make_virtual_board
    >>> from xobo_host.sim.server import SimServer
    >>> backend = SimBackend(make_virtual_board(flash_dir="flash")).start()
    >>> server = SimServer(backend)              # 127.0.0.1, a free port
    >>> server = server.start()                  # serves in a background thread
    >>> server.url
    'http://127.0.0.1:.../'
    >>> json.load(urllib.request.urlopen(server.url + "state"))["state"]["game"]
    'xobo'
    >>> ask = urllib.request.Request(server.url + "action", method="POST",
    ...     data=json.dumps({"action": "put", "cell": "e5"}).encode(),
    ...     headers={"Content-Type": "application/json", "X-Xobo-Client": "example"})
    >>> json.load(urllib.request.urlopen(ask))["ok"]   # a program says so: X-Xobo-Client
    True
    >>> server.stop(); backend.stop()
"""

import ipaddress
import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlparse, urlsplit

from xobo.numbers import parse_uint
from xobo_host.sim import docs
from xobo_host.sim.backend import ActionError
from xobo_host.sim.connections import RequestReader
from xobo_host.sim.legend import legend

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
MAX_BODY = 64 * 1024
KEEPALIVE_S = 15.0
RECENT_EVENTS = 12
LISTEN_BACKLOG = 128  # connections the kernel holds until a worker is free (the default is 5)
WORKERS = 64  # threads serving connections: the most the server ever runs
MAX_EVENT_STREAMS = 48  # pages following /events at once; the other workers serve requests
MAX_CONNECTIONS = 1024  # open at once (waiting for their requests or being served)
CLIENT_TIMEOUT_S = 5.0  # a client has this long to send a whole request (then 408, closed)
# a client that hangs up while it is answered: said in one line (never a traceback)
HUNG_UP = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD = ("0.0.0.0", "::", "")
# A program (curl, a script, the tests) that sends neither Origin nor Referer names itself in
# this header. A web page cannot send it to another origin: a custom header needs a CORS
# preflight, which this server never grants.
CLIENT_HEADER = "X-Xobo-Client"


def is_loopback(host):
    """True for an address or name that only this machine can reach."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(bound, port):
    """The ``Host`` header values that name this server: loopback names and the bound
    address, with the port (and without it on port 80, as browsers send it)."""
    names = set(LOOPBACK_NAMES)
    if bound not in WILDCARD:
        names.add("[%s]" % bound if ":" in bound else bound)
    out = set()
    for name in names:
        out.add("%s:%d" % (name.lower(), port))
        if port == 80:
            out.add(name.lower())
    return frozenset(out)


def _ip_literal(host):
    """'192.168.1.5:8765' or '[fe80::1]:8765' -> True: a name no DNS answer can rebind."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


class PageHandler(BaseHTTPRequestHandler):
    """The simulator's and the monitor's routes, and the checks every page server of the
    host shares (``_host``: the Host header names this server; ``_same_origin``: a request
    that changes something comes from the page itself or names its program; the JSON body
    rules of ``_read_json``). ``xobo cafe`` serves its own routes on a subclass."""

    server_version = "xobo-sim/1"
    protocol_version = "HTTP/1.1"

    def setup(self):
        # the request was read whole before a worker took it (sim.connections): the handler
        # reads it from the connection's bytes, then from the socket
        conn = self.request
        self.conn = conn
        self.request = self.connection = conn.sock
        self.connection.settimeout(self.server.client_timeout)
        self.rfile = self.server.reader.rfile(conn)
        self.wfile = self.connection.makefile("wb")

    def handle(self):
        """One request: a connection kept alive goes back to wait for its next one without
        a worker (``PooledHTTPServer._serve_connection``)."""
        self.close_connection = True
        self.handle_one_request()

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

    def _static(self, name, root=STATIC):
        path = os.path.normpath(os.path.join(root, name))
        if not path.startswith(root + os.sep) or not os.path.isfile(path):
            return self._json(404, {"ok": False, "error": "no such file: %s" % name})
        with open(path, "rb") as f:
            data = f.read()
        self._send(200, data, TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))

    def _refuse(self, status, error):
        self.close_connection = True
        return self._json(status, {"ok": False, "error": error})

    def _host(self):
        """The request's Host when it names this server, else None (a refusal was sent). A
        request names it once: one Host header, and a request line's absolute URI (which
        HTTP/1.1 lets stand for the Host) naming it too, or none."""
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1:
            self._refuse(400, "the request has %d Host headers: it must name the server once"
                         % len(hosts))
            return None
        host = (hosts[0] if hosts else "").strip().lower()
        if not host:
            self._refuse(400, "the request has no Host header")
            return None
        if not self._names_this_server(host):
            self._refuse(403, "Host '%s' does not name this server (use %s): a page under "
                         "another name (DNS rebinding) may not reach it"
                         % (host[:80], "http://127.0.0.1:%d/" % self.server.server_address[1]))
            return None
        if not self.path.startswith("/"):  # the absolute form: http://HOST/PATH
            url = urlsplit(self.path)
            named = url.netloc.lower()
            if url.scheme.lower() != "http" or not named:
                self._refuse(400, "the request line names '%s': a path (/state) or this "
                             "server's URL" % self.path[:80])
                return None
            if not self._names_this_server(named):
                self._refuse(400, "the request line names another host ('%s'): this server "
                             "answers only for itself" % named[:80])
                return None
            self.path = (url.path or "/") + ("?" + url.query if url.query else "")
        return host

    def _names_this_server(self, host):
        srv = self.server
        if host in srv.allowed_hosts:
            return True
        port = host.rsplit(":", 1)[-1] if not host.endswith("]") else ""
        # served on every address: any IP literal of this machine
        return srv.wildcard and _ip_literal(host) and port == str(srv.server_address[1])

    def _same_origin(self, host):
        """True when a state-changing request comes from the page itself or a program;
        else a 403 was sent."""
        own = "http://" + host
        origin = self.headers.get("Origin")
        if origin is not None:
            if origin.strip().lower() == own:
                return True
            self._refuse(403, "Origin '%s' is not this page (%s): other web pages may not act "
                         "on the board" % (origin[:80], own))
            return False
        referer = self.headers.get("Referer")
        if referer is not None:
            if referer.strip().lower().startswith(own + "/"):
                return True
            self._refuse(403, "Referer '%s' is not this page (%s): other web pages may not act "
                         "on the board" % (referer[:80], own))
            return False
        if self.headers.get(CLIENT_HEADER):
            return True
        self._refuse(403, "a request without Origin or Referer must come from a program that "
                     "names itself in the %s header (curl -H '%s: curl' ...)"
                     % (CLIENT_HEADER, CLIENT_HEADER))
        return False

    # -- routes -------------------------------------------------------------------------------
    def do_GET(self):
        if self._host() is None:
            return None
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
        if docs.serves(path):  # the rules pages, rendered (How to play links them), and
            # the project's files they cite
            status, body, ctype = docs.page(path)
            return self._send(status, body, ctype)
        return self._json(404, {"ok": False, "error": "no such page: %s" % path})

    do_HEAD = do_GET

    def do_POST(self):
        host = self._host()
        if host is None or not self._same_origin(host):
            return None
        path = urlparse(self.path).path
        if path != "/action":
            return self._refuse(404, "POST only to /action")
        ok, req = self._read_json()
        if not ok:
            return None
        try:
            out = self.server.backend.action(req)
        except ActionError as exc:
            return self._json(400, {"ok": False, "error": str(exc)})
        except Exception as exc:  # a reply in every case: never a connection closed silently
            return self._json(500, {"ok": False, "error": "internal error: %s: %s"
                                    % (type(exc).__name__, exc)})
        return self._json(200, out)

    def _read_json(self):
        """(True, the JSON body) of a POST; (False, None) when a refusal was sent."""
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            # a form or a no-cors fetch cannot send application/json to another origin
            self._refuse(415, "Content-Type must be application/json, not '%s'"
                         % (self.headers.get("Content-Type") or "")[:80])
            return False, None
        length = parse_uint((self.headers.get("Content-Length") or "0").strip())
        if length < 0 or length > MAX_BODY:
            self._refuse(400, "body must be 0..%d bytes (Content-Length)" % MAX_BODY)
            return False, None
        raw = self.rfile.read(length)
        if len(raw) < length:
            self._refuse(400, "the body ended after %d of its %d bytes (Content-Length)"
                         % (len(raw), length))
            return False, None
        try:
            return True, json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, ValueError) as exc:
            self._json(400, {"ok": False, "error": "the body is not JSON: %s" % exc})
        except RecursionError:  # [[[[...: the decoder recurses once per level
            self._json(400, {"ok": False, "error": "the body is not an action: its JSON "
                             "nests too deeply"})
        return False, None

    def _events(self):
        if not self.server.event_streams.acquire(blocking=False):
            return self._refuse(503, "%d pages already follow this board: close one"
                                % self.server.max_event_streams)
        try:
            self._stream_events()
        finally:
            self.server.event_streams.release()

    def _stream_events(self):
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
                new = backend.events_after(seq, kinds=True)
                if new:
                    seq = new[-1][0]
                snap["events"] = new
                self.wfile.write(b"event: state\ndata: " + json.dumps(snap).encode() + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


class PooledHTTPServer(HTTPServer):
    """``HTTPServer`` whose requests are served by a bounded pool of worker threads.

    ``socketserver``'s ``ThreadingMixIn`` starts a thread per connection, without a bound: a
    thousand clients that connect and say nothing hold a thousand threads. Here the accept loop
    hands each connection to a ``RequestReader`` (``sim.connections``), which gathers its
    request without a thread of its own and gives the complete request to a
    ``ThreadPoolExecutor``; requests that wait for a worker wait in its queue (and connections
    not yet accepted in the kernel's listen backlog)."""

    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address, handler, workers=WORKERS, client_timeout=CLIENT_TIMEOUT_S,
                 max_event_streams=MAX_EVENT_STREAMS):
        self.client_timeout = client_timeout
        self.max_event_streams = max_event_streams
        self.event_streams = threading.BoundedSemaphore(max_event_streams)
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="xobo-sim-http")
        self.reader = RequestReader(self._submit, client_timeout, MAX_BODY, MAX_CONNECTIONS)
        try:
            HTTPServer.__init__(self, address, handler)
        except BaseException:
            self.pool.shutdown(wait=False)
            self.reader.stop()
            raise
        self.reader.start()

    def process_request(self, request, client_address):
        self.reader.add(request, client_address)  # (closed at once past MAX_CONNECTIONS)

    def _submit(self, conn):
        self.pool.submit(self._serve_connection, conn)

    def _serve_connection(self, conn):
        keep = False
        try:
            handler = self.RequestHandlerClass(conn, conn.address, self)
            keep = not handler.close_connection and not self._stopping()
        except Exception:
            self.handle_error(conn.sock, conn.address)
        finally:
            if keep:
                self.reader.keep(conn)  # its next request is waited for without a worker
            else:
                self.reader.close(conn)

    def _stopping(self):
        stopping = getattr(self, "stopping", None)
        return stopping is not None and stopping.is_set()

    def handle_error(self, request, client_address):
        """A client that hung up while it was answered is one line on stderr; anything else
        is a bug of the server: its traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, HUNG_UP):
            name = "%s:%s" % client_address[:2] if isinstance(client_address, tuple) else \
                client_address
            sys.stderr.write("xobo http: client %s hung up before its reply was written (%s)\n"
                             % (name, type(exc).__name__))
            return
        HTTPServer.handle_error(self, request, client_address)

    def server_close(self):
        HTTPServer.server_close(self)
        self.reader.stop()
        self.pool.shutdown(wait=False, cancel_futures=True)


def make_httpd(handler, host="127.0.0.1", port=0, verbose=False, workers=WORKERS,
               client_timeout=CLIENT_TIMEOUT_S, max_event_streams=MAX_EVENT_STREAMS):
    """A pooled server for ``handler`` (a ``PageHandler``) with what its checks read: the
    Host names that are this server, whether it listens on every address, ``stopping``."""
    httpd = PooledHTTPServer((host, port), handler, workers, client_timeout, max_event_streams)
    bound, bound_port = httpd.server_address[:2]
    httpd.allowed_hosts = allowed_hosts(host if host in WILDCARD else bound, bound_port)
    httpd.wildcard = host in WILDCARD
    httpd.verbose = verbose
    httpd.stopping = threading.Event()
    return httpd


class SimServer:
    """Serves the page for one backend (``SimBackend`` or ``MonitorBackend``)."""

    def __init__(self, backend, host="127.0.0.1", port=0, verbose=False, workers=WORKERS,
                 client_timeout=CLIENT_TIMEOUT_S, max_event_streams=MAX_EVENT_STREAMS):
        self.backend = backend
        self.httpd = make_httpd(PageHandler, host, port, verbose, workers, client_timeout,
                                max_event_streams)
        self.httpd.backend = backend
        self._thread = None

    @property
    def port(self):
        return self.httpd.server_address[1]

    @property
    def url(self):
        addr = self.httpd.server_address[0]
        return "http://%s:%d/" % ("[%s]" % addr if ":" in addr else addr, self.port)

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
        if self._thread is not None:  # shutdown() waits for a serve_forever that never ran
            self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(2)
