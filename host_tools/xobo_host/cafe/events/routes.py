"""The events' pages and routes on the café's server (a part of ``web.CafeHandler``: the
same Host check, the same staff login, and every change from the page's own origin as
``application/json``).

Read-only, for anyone (the room's screen):

- ``GET /screen/ID``: the event's screen (this round's tables, live miniatures, standings,
  "find your table"); ``GET /api/event/ID``: the event as the screen shows it (the staff's
  view when logged in); ``GET /api/event/ID/live``: server-sent events: ``event`` (the
  event) and ``tables`` (the views of this round's tables that changed).

The staff's (the login; else 401):

- ``GET /events``, ``GET /event/ID``: the staff's pages (they ask for the login);
  ``GET /api/event/list``: the events; ``GET /api/event/ratings/GAME``: the café's
  ratings of a game; ``GET /api/event/ID/export/NAME`` (``pairings.csv``, ``results.csv``,
  ``standings.csv``, ``records.txt``, ``event.zip``).
- ``POST /api/event/new`` ``{name, game, settings, format, rounds, tables, auto}``;
  ``POST /api/event/ID/action`` ``{"action": ..., ...}`` (``director.Director.action``).

Usage::

    >>> import json, urllib.error, urllib.request
    >>> from xobo_host.cafe.events.director import Director
    >>> from xobo_host.cafe.events.routes import EventRoutes
    >>> from xobo_host.cafe.floor import Floor
    >>> from xobo_host.cafe.staff import Staff
    >>> from xobo_host.cafe.web import CafeHandler, CafeServer
    >>> issubclass(CafeHandler, EventRoutes)      # its do_GET: if self.event_get(...): return
    True
    >>> floor = Floor("games.sqlite", scan_usb=False).start()
    >>> director = Director(floor, "events.sqlite").start()
    >>> eid = director.create({"name": "Friday", "game": "xobo", "format": "swiss", "rounds": 3})
    >>> server = CafeServer(floor, Staff.create("staff.json", "correct horse"), "games.sqlite",
    ...                     director=director).start()
    >>> event = json.load(urllib.request.urlopen(server.url + "api/event/%d" % eid))
    >>> event["name"], event["state"]             # the room's screen reads it
    ('Friday', 'registration')
    >>> urllib.request.urlopen(server.url + "api/event/list")   # the staff's: a login first
    Traceback (most recent call last):
    ...
    urllib.error.HTTPError: HTTP Error 401: Unauthorized
    >>> server.stop(); director.stop(); floor.stop()
"""

import json
import os
import re
import time

from xobo_host.cafe.events import export
from xobo_host.cafe.events.director import StaffInfo
from xobo_host.cafe.events.model import EventError
from xobo_host.records.gamesdb import GamesDBError
from xobo_host.sim.backend import ActionError
from xobo_host.sim.server import KEEPALIVE_S

CAFE_STATIC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "static")
ID = re.compile(r"^[0-9]{1,9}$")
EXPORTS = {"pairings.csv": "text/csv; charset=utf-8", "results.csv": "text/csv; charset=utf-8",
           "standings.csv": "text/csv; charset=utf-8",
           "records.txt": "text/plain; charset=utf-8", "event.zip": "application/zip"}


class EventRoutes:
    """The events' routes of the café's request handler."""

    def _director(self):
        director = getattr(self.server, "director", None)
        if director is None:
            self._json(404, {"ok": False, "error": "this host runs no events"})
        return director

    def event_get(self, path, query):
        """Serve ``path`` when it is an event's; False when it is not."""
        if path == "/events":
            self._static("events.html", CAFE_STATIC)
        elif path.startswith("/event/"):
            self._static("event.html", CAFE_STATIC)
        elif path.startswith("/screen/"):
            self._static("screen.html", CAFE_STATIC)
        elif path.startswith("/api/event/"):
            self._event_api_get(path[len("/api/event/"):].split("/"), query)
        else:
            return False
        return True

    def _event_api_get(self, parts, query):
        director = self._director()
        if director is None:
            return None
        if parts == ["list"]:
            if not self._need_staff():
                return None
            return self._json(200, {"ok": True, "events": director.events(),
                                    "staff": True})
        if len(parts) == 2 and parts[0] == "ratings":
            if not self._need_staff():
                return None
            game = parts[1]
            from xobo import games

            if game not in games.GAMES:
                return self._json(404, {"ok": False, "error": "no game '%s'" % game[:20]})
            rows = director.ratings(game).of_game(game)
            return self._json(200, {"ok": True, "game": game, "ratings": [
                {"key": r["key"], "mu": round(r["mu"], 2), "sigma": round(r["sigma"], 2),
                 "games": r["games"]} for r in rows]})
        if not parts or not ID.match(parts[0]):
            return self._json(404, {"ok": False, "error": "no such event"})
        eid = int(parts[0])
        try:
            if len(parts) == 1:
                staff = self._is_staff()
                out = director.view(eid, staff=staff)
                out["staff"] = staff
                return self._json(200, out)
            if parts[1:] == ["live"]:
                director.view(eid)  # (no such event: 404 before the stream starts)
                return self._event_live(director, eid)
            if len(parts) == 3 and parts[1] == "export" and parts[2] in EXPORTS:
                if not self._need_staff():
                    return None
                return self._export(director, eid, parts[2])
        except EventError as exc:
            return self._json(404, {"ok": False, "error": str(exc)})
        return self._json(404, {"ok": False, "error": "no such page"})

    def _export(self, director, eid, name):
        view = director.view(eid, staff=True)
        try:
            with self.server.db_lock:
                db = self.server.db()
                if name == "pairings.csv":
                    body = export.pairings_csv(view)
                elif name == "results.csv":
                    body = export.results_csv(view)
                elif name == "standings.csv":
                    body = export.standings_csv(view)
                elif name == "records.txt":
                    body = export.records_text(view, db)
                else:
                    body = export.zip_file(view, db)
        except GamesDBError as exc:
            return self._json(500, {"ok": False, "error": str(exc)})
        stem = "event-%d" % eid
        filename = stem + ".zip" if name == "event.zip" else "%s-%s" % (stem, name)
        return self._send(200, body, EXPORTS[name],
                          [("Content-Disposition", 'attachment; filename="%s"' % filename)])

    def event_post(self, path, req):
        """Do ``path`` when it is an event's (after the Origin and Content-Type checks);
        False when it is not."""
        if path == "/api/event/new":
            director = self._director()
            if director is None or not self._need_staff():
                return True
            try:
                eid = director.create(req)
            except EventError as exc:
                self._json(400, {"ok": False, "error": str(exc)})
                return True
            self._json(200, {"ok": True, "id": eid, "reply": "event %d made" % eid})
            return True
        m = re.match(r"^/api/event/([0-9]{1,9})/action$", path)
        if m is None:
            return False
        director = self._director()
        if director is None or not self._need_staff():
            return True
        staff = StaffInfo(req.get("by", "") if isinstance(req, dict) else "", self._token(),
                          self.client_address[0] if self.client_address else "")
        try:
            out = director.action(int(m.group(1)), req, staff)
        except (EventError, ActionError) as exc:
            self._json(400, {"ok": False, "error": str(exc)})
            return True
        except Exception as exc:  # a reply in every case
            self._json(500, {"ok": False, "error": "internal error: %s: %s"
                             % (type(exc).__name__, exc)})
            return True
        self._json(200, out)
        return True

    def _event_live(self, director, eid):
        """The screen's stream: the event (when it changed) and its round's tables (those
        that changed), as server-sent events."""
        if not self.server.event_streams.acquire(blocking=False):
            return self._refuse(503, "%d pages already follow the floor: close one"
                                % self.server.max_event_streams)
        floor = self.server.floor
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            version = -1
            event_version = -1
            while not self.server.stopping.is_set():
                now_version = floor.version
                if now_version == version:
                    with floor.changed:
                        if floor.version == version:
                            floor.changed.wait(KEEPALIVE_S)
                    if floor.version == version:
                        self.wfile.write(b": keepalive\n\n")
                        self.wfile.flush()
                        continue
                    now_version = floor.version
                if director.version != event_version:
                    event_version = director.version
                    view = director.view(eid)
                    self._sse("event", dict(view, now=time.time()))
                keys = {g["table"] for g in view["games"] if g["table"]}
                since = -1 if version < 0 else version
                tables = [t for t in floor.views_since(since, local=True) if t["key"] in keys]
                if tables or version < 0:
                    self._sse("tables", {"version": now_version, "now": time.time(),
                                         "tables": tables})
                version = now_version
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        except EventError:  # (deleted while followed)
            pass
        finally:
            self.server.event_streams.release()

    def _sse(self, kind, msg):
        self.wfile.write(b"event: " + kind.encode() + b"\ndata: " + json.dumps(msg).encode()
                         + b"\n\n")
        self.wfile.flush()
