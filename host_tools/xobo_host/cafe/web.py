"""The café's pages and their routes, on the simulator's server (``sim.server``: the same
pooled HTTP server, the same Host, Origin/Referer and Content-Type checks).

Read-only, for anyone the server is reachable from:

- ``GET /``: the floor view; ``GET /table/NAME``: a table's view; ``GET /records``: the
  records' search page (its results are the staff's).
- ``GET /api/floor``: every table (JSON); ``GET /api/events``: server-sent events, a
  ``floor`` message with every table, then ``tables`` messages with the tables that changed
  (and ``keys``, the tables on the floor now).
- ``GET /api/table/NAME``: one table, with its record, events and self-test report.
- ``GET /api/matches``: the matches (docs/remote.md; their invitation codes for the staff),
  the broker's health (``broker``: connected and passing the café's messages, or what is
  wrong), and for the staff the messages refused (``refused``: forged, replayed, unsealed).
- ``GET /watch/CAFE``, ``GET /watch/CAFE/table/NAME``: another café's floor and one of its
  tables, as that café publishes them on the broker, shown only once its signature is checked
  (``floorwatch``); ``GET /api/watch/CAFE`` (JSON) and ``GET /api/watch/CAFE/events``
  (server-sent events, as ``/api/events``), each with ``watch``: who signed the floor shown
  (``signed``: the key's fingerprint, how it is known) and the last floor refused under that
  name (``refused``). What another café sends is cleaned first (``clean_foreign``): plain
  values, no markup.

The staff's (a session cookie from ``POST /api/login``, else 401):

- ``POST /api/table/NAME/action``: a control (``{"action": "new"}``, ``game``, ``opponent``,
  ``level``, ``brightness``, ``undo``, ``selftest``, ``name``, ``forget``).
- ``GET /api/records?table=&game=&date=``: the recorded games; ``GET /api/records/ID.txt``:
  one game's record in its game's notation.
- ``POST /api/logout``.
- ``POST /api/invite`` ``{"table", "seat"}``: an invitation code for another table;
  ``POST /api/invite/lookup`` ``{"code"}``: what a code invites to; ``POST /api/invite/accept``
  ``{"code", "table"}``; ``POST /api/invite/decline`` ``{"code"}``.
- ``POST /api/match/ID/action``: ``{"action": "undo"|"decline"|"resign"|"resolve"|"cancel",
  "table", "keep": "agreed"|"ours"}``.
- ``POST /api/floor-key/forget`` ``{"cafe"}``: forget the key kept for that café's floors
  (the key of its next floor is kept: docs/remote.md, "Spectators").

The events' pages and routes (``/events``, ``/event/ID``, ``/screen/ID``, ``/api/event/...``):
``cafe.events.routes``.

Usage::

    >>> import json, urllib.request
    >>> from xobo_host.cafe.floor import Floor
    >>> from xobo_host.cafe.staff import Staff
    >>> from xobo_host.cafe.web import CafeServer
    >>> floor = Floor("games.sqlite", scan_usb=False).start()   # no board yet (cafe.floor)
    >>> staff = Staff.create("staff.json", "correct horse")
    >>> server = CafeServer(floor, staff, "games.sqlite").start()   # 127.0.0.1, a free port
    >>> server.url
    'http://127.0.0.1:.../'
    >>> json.load(urllib.request.urlopen(server.url + "api/floor"))["tables"]
    []
    >>> server.stop(); floor.stop()
"""

import http.cookies
import json
import os
import re
import threading
import time
from urllib.parse import parse_qs, unquote, urlparse

from xobo_host.cafe.events.routes import EventRoutes
from xobo_host.cafe.staff import COOKIE, MAX_FAILURES, SESSION_S
from xobo_host.records.gamesdb import GamesDB, GamesDBError
from xobo_host.sim.backend import ActionError
from xobo_host.sim.server import KEEPALIVE_S, STATIC, PageHandler, make_httpd

CAFE_STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
# what a string from another café may hold: words, numbers, cells, moves; never markup,
# quotes or escapes. What the board's drawing puts into HTML and styles (a cube's kind, a
# colour: ``board``) may hold still less: no space, no ';', no parentheses
PLAIN = re.compile(r"^[A-Za-z0-9 _.,:!?()*+/#=@%~|-]*$")
DRAWN = re.compile(r"^[A-Za-z0-9_.,*+#-]*$")
FOREIGN_DEPTH = 8


def clean_foreign(value, depth=0, pattern=PLAIN):
    """Another café's published floor, made plain: JSON values only, strings without
    markup (a string with anything else becomes ''; under ``board`` only ``DRAWN``), at
    most ``FOREIGN_DEPTH`` deep."""
    if depth > FOREIGN_DEPTH:
        return None
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        return value[:400] if pattern.match(value) else ""
    if isinstance(value, list):
        return [clean_foreign(v, depth + 1, pattern) for v in value[:2000]]
    if isinstance(value, dict):
        return {k[:40]: clean_foreign(v, depth + 1, DRAWN if k == "board" else pattern)
                for k, v in list(value.items())[:400]
                if isinstance(k, str) and pattern.match(k)}
    return None


def watched_floor(service, cafe, view=None):
    """What the pages show of café ``cafe``'s floor: the floor taken last, cleaned (no
    table when none was taken), and ``watch``: who signed it, how its key is known, and the
    floor refused last under that name (``floorwatch.WatchedFloors.view``)."""
    view = view or service.floors.view(cafe)
    out = clean_foreign(view["floor"]) if view["floor"] is not None else {
        "tables": [], "matches": [], "version": 0}
    signed = view["signed"]
    out["watch"] = {"cafe": cafe, "at": view["at"], "refused": view["refused"], "signed": {
        k: signed[k] for k in ("fingerprint", "source", "since", "match")} if signed else None}
    return out


class CafeHandler(EventRoutes, PageHandler):
    server_version = "xobo-cafe/1"

    # -- helpers ----------------------------------------------------------------------------
    def _token(self):
        cookie = http.cookies.SimpleCookie()
        try:
            cookie.load(self.headers.get("Cookie") or "")
        except http.cookies.CookieError:
            return ""
        morsel = cookie.get(COOKIE)
        return morsel.value if morsel is not None else ""

    def _is_staff(self):
        return self.server.staff.valid(self._token())

    def _need_staff(self):
        if self._is_staff():
            return True
        self._refuse(401, "only the staff may do this: log in first")
        return False

    def _table_of(self, key):
        table = self.server.floor.table(key)
        if table is None:
            self._json(404, {"ok": False, "error": "no table '%s' on the floor" % key[:40]})
        return table

    # -- routes -----------------------------------------------------------------------------
    def do_GET(self):
        if self._host() is None:
            return None
        url = urlparse(self.path)
        path = url.path
        floor = self.server.floor
        if self.event_get(path, parse_qs(url.query)):
            return None
        if path in ("/", "/index.html"):
            return self._static("floor.html", CAFE_STATIC)
        if path.startswith("/table/"):
            return self._static("table.html", CAFE_STATIC)
        if path == "/records":
            return self._static("records.html", CAFE_STATIC)
        if path.startswith("/watch/"):
            rest = path[len("/watch/"):]
            return self._static("table.html" if "/table/" in rest else "floor.html",
                                CAFE_STATIC)
        if path == "/api/matches":
            return self._matches()
        if path.startswith("/api/watch/"):
            return self._watch(unquote(path[len("/api/watch/"):]))
        if path.startswith("/cafe/"):
            return self._static(path[len("/cafe/"):], CAFE_STATIC)
        if path.startswith("/static/"):
            return self._static(path[len("/static/"):], STATIC)
        if path == "/api/floor":
            return self._json(200, floor.snapshot(local=True))
        if path == "/api/events":
            return self._events()
        if path == "/api/staff":
            return self._json(200, {"staff": self._is_staff()})
        if path.startswith("/api/table/"):
            table = self._table_of(unquote(path[len("/api/table/"):]))
            if table is None:
                return None
            out = floor.view_of(table, full=True)
            out["staff"] = self._is_staff()
            return self._json(200, out)
        if path == "/api/records":
            return self._records(parse_qs(url.query))
        if path.startswith("/api/records/") and path.endswith(".txt"):
            return self._record(path[len("/api/records/"):-4])
        if path == "/favicon.ico":
            return self._send(204, b"", "image/x-icon")
        return self._json(404, {"ok": False, "error": "no such page: %s" % path[:80]})

    do_HEAD = do_GET

    def do_POST(self):
        host = self._host()
        if host is None or not self._same_origin(host):
            return None
        path = urlparse(self.path).path
        ok, req = self._read_json()
        if not ok:
            return None
        if path == "/api/login":
            return self._login(req)
        if self.event_post(path, req):
            return None
        if path == "/api/logout":
            self.server.staff.logout(self._token())
            return self._send(200, json.dumps({"ok": True}), extra=[self._cookie("", 0)])
        if path in ("/api/invite", "/api/invite/lookup", "/api/invite/accept",
                    "/api/invite/decline", "/api/floor-key/forget") or (
                        path.startswith("/api/match/") and path.endswith("/action")):
            if not self._need_staff():
                return None
            return self._match_control(path, req)
        if path.startswith("/api/table/") and path.endswith("/action"):
            if not self._need_staff():
                return None
            table = self._table_of(unquote(path[len("/api/table/"):-len("/action")]))
            if table is None:
                return None
            return self._action(table, req)
        return self._refuse(404, "no such action: %s" % path[:80])

    def _public_matches(self):
        views = self.server.matches.views()
        for v in views:
            v["code"] = ""  # (the page asks /api/matches for them when staff)
        return views

    def _cookie(self, token, max_age):
        return ("Set-Cookie", "%s=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Strict"
                % (COOKIE, token, max_age))

    def _login(self, req):
        staff = self.server.staff
        password = req.get("password") if isinstance(req, dict) else None
        client = self.client_address[0]
        if staff.locked(client):
            return self._refuse(429, "too many wrong passwords from this device (%d in a "
                                "minute): wait a minute (other devices can still log in)"
                                % MAX_FAILURES)
        token = staff.login(password, client)
        if token is None:
            return self._refuse(403, "wrong password")
        return self._send(200, json.dumps({"ok": True}), extra=[self._cookie(token, SESSION_S)])

    def _action(self, table, req):
        floor = self.server.floor
        try:
            what = req.get("action") if isinstance(req, dict) else None
            if what == "name":
                out = floor.rename(table, req.get("value"))
            elif what == "forget":
                out = floor.forget(table)
            else:
                out = table.action(req)
        except ActionError as exc:
            return self._json(400, {"ok": False, "error": str(exc)})
        except Exception as exc:  # a reply in every case
            return self._json(500, {"ok": False, "error": "internal error: %s: %s"
                                    % (type(exc).__name__, exc)})
        out["key"] = table.key
        return self._json(200, out)

    # -- matches and spectators ------------------------------------------------------------
    def _service(self):
        service = self.server.matches
        if service is None:
            self._json(404, {"ok": False, "error": "this host plays no matches"})
        return service

    def _matches(self):
        service = self._service()
        if service is None:
            return None
        staff = self._is_staff()
        views = service.views()
        if not staff:
            for v in views:
                v["code"] = ""  # the invitation codes are the staff's to give
        broker = None
        if service.broker is not None:
            ok, words = service.broker.health()
            # "connected": the broker passes this café's messages back (its health probe),
            # not only a connection: an access list can let a café in and read it nothing
            broker = {"connected": ok, "status": words, "host": service.broker.settings.host}
        out = {"ok": True, "cafe": service.cafe, "staff": staff, "broker": broker,
               "matches": views}
        if staff:  # the messages refused (forged, replayed, not sealed): the staff's to see
            out["refused"] = list(service.refused)
            if service.floors is not None:  # the keys of the floors watched, this café's own
                from xobo_host.cafe.seal import fingerprint

                out["key"] = fingerprint(service.key.public_hex)
                out["floor_keys"] = service.floors.keys()
        return self._json(200, out)

    def _match_control(self, path, req):
        service = self._service()
        if service is None:
            return None
        if not isinstance(req, dict):
            return self._json(400, {"ok": False, "error": "a JSON object, please"})
        try:
            if path == "/api/invite":
                out = service.invite(req.get("table"), req.get("seat"))
            elif path == "/api/invite/lookup":
                out = dict(service.lookup(req.get("code")), ok=True)
            elif path == "/api/invite/accept":
                out = service.accept(req.get("code"), req.get("table"))
            elif path == "/api/invite/decline":
                out = service.decline(req.get("code"))
            elif path == "/api/floor-key/forget":
                out = service.forget_floor_key(req.get("cafe"))
            else:
                ident = unquote(path[len("/api/match/"):-len("/action")])
                out = service.action(ident, req)
        except ActionError as exc:
            return self._json(400, {"ok": False, "error": str(exc)})
        except ValueError as exc:
            return self._json(400, {"ok": False, "error": str(exc)})
        return self._json(200, clean_foreign(out))

    def _watch(self, rest):
        service = self._service()
        if service is None:
            return None
        cafe, _, what = rest.partition("/")
        try:
            snap = service.watch(cafe)
        except (ActionError, ValueError) as exc:
            return self._json(400, {"ok": False, "error": str(exc)})
        if what == "events":
            return self._events(cafe)
        if snap is None:
            refused = service.floors.view(cafe)["refused"]
            return self._json(404, {"ok": False, "refused": refused, "error": (
                "%s publishes no floor (yet)" % cafe if refused is None else
                "the broker carries a floor under the name %s that is not %s's (%s): not "
                "shown" % (cafe, cafe, refused["why"]))})
        return self._json(200, watched_floor(service, cafe))

    def _records(self, query):
        if not self._need_staff():
            return None

        def one(name):
            values = query.get(name)
            return values[0] if values and values[0] else None

        try:
            with self.server.db_lock:
                rows = self.server.db().list_games(one("table"), one("game"), one("date"))
        except GamesDBError as exc:
            return self._json(500, {"ok": False, "error": str(exc)})
        keep = ("id", "started_at", "ended_at", "source", "game", "params", "result", "n_moves")
        return self._json(200, {"ok": True, "games": [{k: g.get(k) for k in keep}
                                                      for g in reversed(rows)]})

    def _record(self, ident):
        if not self._need_staff():
            return None
        if not ident.isdigit() or not ident.isascii():
            return self._json(404, {"ok": False, "error": "no game '%s'" % ident[:20]})
        try:
            with self.server.db_lock:
                text = self.server.db().export_record(int(ident))
        except GamesDBError as exc:
            return self._json(404, {"ok": False, "error": str(exc)})
        return self._send(200, text, "text/plain; charset=utf-8",
                          [("Content-Disposition",
                            'attachment; filename="xobo-game-%s.txt"' % ident)])

    def _events(self, watched=None):
        if not self.server.event_streams.acquire(blocking=False):
            return self._refuse(503, "%d pages already follow the floor: close one"
                                % self.server.max_event_streams)
        try:
            if watched is None:
                self._stream_floor()
            else:
                self._stream_watched(watched)
        finally:
            self.server.event_streams.release()

    def _sse_start(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def _stream_watched(self, cafe):
        """Another café's floor as it publishes it: a ``floor`` message each time (a few a
        second at most: the café publishes at most every 0.2 s)."""
        service = self.server.matches
        self._sse_start()
        version = -1
        sent = None
        try:
            while not self.server.stopping.is_set():
                with service.changed:
                    if service.version == version:
                        service.changed.wait(KEEPALIVE_S)
                version = service.version
                view = service.floors.view(cafe)
                shown = (view["at"], view["refused"] and view["refused"]["at"],
                         view["signed"] and view["signed"]["key"])
                if shown == (None, None, None) or shown == sent:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    continue
                sent = shown
                msg = watched_floor(service, cafe, view)
                msg["now"] = time.time()
                self.wfile.write(b"event: floor\ndata: " + json.dumps(msg).encode() + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass

    def _stream_floor(self):
        floor = self.server.floor
        self._sse_start()
        try:
            snap = floor.snapshot(local=True)
            if self.server.matches is not None:
                snap["matches"] = self._public_matches()
            version = snap["version"]
            self.wfile.write(b"event: floor\ndata: " + json.dumps(snap).encode() + b"\n\n")
            self.wfile.flush()
            while not self.server.stopping.is_set():
                with floor.changed:
                    if floor.version == version:
                        floor.changed.wait(KEEPALIVE_S)
                if self.server.stopping.is_set():
                    break
                now_version = floor.version
                if now_version == version:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    continue
                msg = {"version": now_version, "now": time.time(),
                       "tables": floor.views_since(version, local=True),
                       "keys": floor.keys(),
                       "problems": dict(floor.problems)}
                if self.server.matches is not None:
                    msg["matches"] = self._public_matches()
                version = now_version
                self.wfile.write(b"event: tables\ndata: " + json.dumps(msg).encode() + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


class CafeServer:
    """Serves the café's pages for a ``Floor``; the staff's logins checked by ``Staff``."""

    def __init__(self, floor, staff, db_path, host="127.0.0.1", port=0, verbose=False,
                 matches=None, director=None):
        self.floor = floor
        self.httpd = make_httpd(CafeHandler, host, port, verbose)
        self.httpd.floor = floor
        self.httpd.matches = matches
        self.httpd.director = director  # the events (cafe.events), or None
        self.httpd.staff = staff
        self.httpd.db_lock = threading.Lock()
        self._db = None
        self._db_path = db_path
        self.httpd.db = self._reader
        self._thread = None

    def _reader(self):
        if self._db is None:
            self._db = GamesDB(self._db_path, readonly=True)
        return self._db

    @property
    def port(self):
        return self.httpd.server_address[1]

    @property
    def url(self):
        addr = self.httpd.server_address[0]
        if addr in ("0.0.0.0", "::"):
            addr = "127.0.0.1"
        return "http://%s:%d/" % ("[%s]" % addr if ":" in addr else addr, self.port)

    def start(self):
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                        name="xobo-cafe-http")
        self._thread.start()
        return self

    def stop(self):
        self.httpd.stopping.set()
        with self.floor.changed:
            self.floor.changed.notify_all()
        if self.httpd.matches is not None:
            with self.httpd.matches.changed:
                self.httpd.matches.changed.notify_all()
        if self._thread is not None:
            self.httpd.shutdown()
        self.httpd.server_close()
        if self._thread is not None:
            self._thread.join(2)
        if self._db is not None:
            self._db.close()
