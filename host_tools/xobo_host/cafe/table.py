"""One table of the café: its board's serial connection, the board mirrored (the monitor's
``MonitorBackend``: position, record, LEDs, its games recorded), its health, and the staff's
controls.

A table is a board: its identity is the board's own id (serial ``id``: the Pico's
``machine.unique_id()``), its name a label the staff may change. A ``Table`` outlives its
connections: unplugged, it shows its last known board as offline; plugged back on any port
(the floor finds it by its board's id), it is attached again and its recorder continues the
game it was recording (``Recorder.resume``), so nothing is recorded twice and nothing is lost
(the board keeps its game in its flash). The games database keeps what the host knows of each
board (``boards``: its name, its last self-test's report until the next test), and each
record the name its game was played under: renaming a table changes no record.

Health, the first that applies: ``offline`` (no connection), ``selftest`` (the last self-test
found faults), ``fix`` (the board has waited for the cubes to be put right for more than
``FIX_ALERT_S``), ``over`` (game over), ``playing``.

Usage::

    >>> from xobo_host.cafe.table import Table, connect
    >>> from xobo_host.sim.ptyboard import PtyBoard
    >>> board = PtyBoard("flash-t1").plug()       # a stand-in board on a pty (a Pico: ttyACM0)
    >>> board.play("serial set name terrace-3")
    ['name terrace-3']
    >>> conn = connect(board.device, "games.sqlite", on_change=lambda: None)  # LinkError: no board
    >>> table = Table(conn.name, conn.board_id)
    >>> table.attach(conn)
    >>> view = table.view()                       # what the floor view shows of it
    >>> view["name"], view["online"], view["health"], view["game"], view["ply"]
    ('terrace-3', True, 'playing', 'xobo', 0)
    >>> table.action({"action": "new"})           # a staff control: the board's reply
    {'ok': True, 'reply': 'new game xobo, ns first'}
    >>> table.detach(); board.unplug()
"""

import re
import threading
import time

from xobo import games
from xobo_host.records.gamesdb import GamesDB, GamesDBError, Recorder
from xobo_host.sim.backend import ActionError
from xobo_host.sim.monitor import LinkError, MonitorBackend, SerialLink

BOARD_VERSION = "ok xobo-board "  # the start of a board's reply to 'version'
UNNAMED = "-"  # the board's name setting before a café names it
FIX_ALERT_S = 60.0  # a board waiting this long for its cubes to be put right needs staff
FIRST_REPLY_S = 10.0  # a board may still be booting when its port appears
POLL_S = 2.0
# a board's record is recorded (replayed with the rules: most of a host's work) once the
# board had no event for this long: a hundred tables' moves at once are relayed to their
# matches first (measured: docs/remote.md); the floor shows the position at once all the same
MIRROR_SETTLE_S = 0.4
WORD = re.compile(r"^[A-Za-z0-9+._-]{1,24}$")
BOARD_ID = re.compile(r"^[0-9a-f]{16}$")  # a value the staff sends: one protocol word
EVENTS_KEPT = 40  # a table's last event lines (its page shows 20), for 32 tables or more
DB_CACHE_KB = 128  # each table's SQLite page cache
SELFTEST_KEEP = 200  # report lines kept (a board with a dead row reports a line per cell)


def source_of(name, device):
    """The name a table's games are recorded under: its name, or its port while it has
    none."""
    return name if name != UNNAMED else "unnamed@" + device


def read_board_id(link):
    """The board's own id (serial ``id``): 16 hex digits. LinkError when it gives none."""
    reply = link.command("id")
    words = reply[0].split() if reply else []
    if len(words) != 3 or words[:2] != ["ok", "id"] or not BOARD_ID.match(words[2]):
        raise LinkError("the board gives no id ('id' answers %r): update its firmware "
                        "(xobo flash)" % " ".join(reply)[:80])
    return words[2]


class TableMonitor(MonitorBackend):
    """The monitor's mirror of one board, which also tells the floor about every change and
    keeps what the floor shows beyond the mirror: when the last move was played, since
    when the board waits for a fix, the last self-test's report."""

    def __init__(self, link, recorder, device, on_change, poll_s=POLL_S, on_line=None,
                 before_read=None, selftest=()):
        self.on_change = on_change
        self.on_line = on_line  # every event line too (the matches follow the moves)
        self.last_move_at = None
        # the last self-test's report: kept in the games database (``boards``) until the
        # next test, whatever happens to the host
        self.selftest_lines = list(selftest)
        self.selftest_running = False
        MonitorBackend.__init__(self, link, recorder=recorder, device=device, poll_s=poll_s,
                                max_events=EVENTS_KEPT, settle_s=MIRROR_SETTLE_S)
        self.before_read = before_read

    def _bump(self):
        MonitorBackend._bump(self)
        self.on_change()

    def _keep_selftest(self):
        """The report, complete, into the games database (the board's row)."""
        recorder = self.recorder
        if recorder is None or not recorder.board_id:
            return
        try:
            recorder.db.set_selftest(recorder.board_id, self.selftest_lines)
        except GamesDBError as exc:
            self._set_error("cannot keep the self-test's report: %s" % exc)

    def _on_event(self, line):
        words = line.split()
        kind = words[1] if len(words) > 1 else ""
        if kind in ("move", "undo", "new", "load"):
            self.last_move_at = time.time()
        elif kind == "selftest":
            what = " ".join(words[2:])
            if what == "start":
                self.selftest_lines = []
                self.selftest_running = True
                self._keep_selftest()  # (the last report is forgotten: a new test runs)
            else:
                if len(self.selftest_lines) < SELFTEST_KEEP:
                    self.selftest_lines.append(what)
                if what.startswith("done"):
                    self.selftest_running = False
                    self._keep_selftest()
        if self.on_line is not None and kind != "switch":
            self.on_line(line)
        MonitorBackend._on_event(self, line)


class Connection:
    """A board found on a port: its link, its own id, its name, its mirror (started)."""

    def __init__(self, device, link, name, version, monitor, db, board_id=""):
        self.device = device
        self.link = link
        self.board_id = board_id
        self.name = name
        self.version = version
        self.monitor = monitor
        self.db = db

    @property
    def alive(self):
        return not self.link.closed

    def close(self):
        self.monitor.stop()
        self.link.close()
        self.db.close()


def connect(device, db_path, on_change, poll_s=POLL_S, first_timeout=FIRST_REPLY_S,
            on_line=None, before_read=None):
    """Open ``device``, make sure a board answers (``version``), read its name, start its
    mirror and recorder. LinkError says why not (no board there, not a XoBo board).
    ``before_read()``: called by the mirror's thread before each reading of the board."""
    link = SerialLink.open(device)
    db = None
    try:
        reset = getattr(link.port, "reset_input_buffer", None)
        if reset is not None:
            reset()  # what the board wrote while nobody listened is no reply of ours
        reply = link.command("version", timeout=first_timeout)
        if not reply or not reply[0].startswith(BOARD_VERSION):
            raise LinkError("%s is not a XoBo board: it answers 'version' with %r"
                            % (device, " ".join(reply)[:80]))
        version = reply[0][3:]
        board_id = read_board_id(link)
        name = UNNAMED
        for line in link.command("settings"):
            words = line.split()
            if len(words) == 3 and words[1] == "name":
                name = words[2]
        db = GamesDB(db_path)
        db.write_ahead()  # the page reads while tables record
        # a commit is not synced to the disk at once (WAL: a killed host loses nothing; a
        # power cut at most the last moves, which the board keeps and the recorder reads
        # again: Recorder.resume): one table's fsync no longer holds up every other's write
        db.conn.execute("PRAGMA synchronous=NORMAL")
        # a table writes a few rows a minute: a small page cache (SQLite's default is 2 MB
        # per connection, 64 MB for 32 tables as the file grows)
        db.conn.execute("PRAGMA cache_size = -%d" % DB_CACHE_KB)
        db.set_board(board_id, name)
        known = db.board(board_id) or {}
        recorder = Recorder(db, source=source_of(name, device), board_id=board_id).resume()
        monitor = TableMonitor(link, recorder, device, on_change, poll_s, on_line,
                               before_read, selftest=known.get("selftest", ()))
        if recorder.game_id is not None:
            moves = db.moves(recorder.game_id)
            if moves:
                monitor.last_move_at = _epoch(moves[-1]["played_at"])
        monitor.start(first_timeout)
        return Connection(device, link, name, version, monitor, db, board_id)
    except BaseException:
        link.close()
        if db is not None:
            db.close()
        raise


def _epoch(iso):
    import calendar

    try:
        return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    except (TypeError, ValueError):
        return None


def fitting_games(board):
    """The games whose board fits this board (``state.board``: its width and height)."""
    w, h = board.get("width", 9), board.get("height", 9)
    out = []
    for name in games.available():
        pkg = games.load(name)
        aw, ah = pkg.area(dict(pkg.DEFAULTS))
        if aw <= w and ah <= h:
            out.append(name)
    return out


class Table:
    """One table: a board (``board_id``), shown and addressed by ``key`` (its name);
    attached to its board's current connection, if any."""

    def __init__(self, key, board_id=""):
        self.key = key
        self.board_id = board_id
        self.conn = None
        self.last_snap = None  # the board as last seen, shown while offline
        self.offline_since = None
        self.fix_since = None
        self.version = 0  # the floor's version when it last changed
        self.lock = threading.Lock()

    # -- connection -------------------------------------------------------------------------
    def attach(self, conn):
        with self.lock:
            old, self.conn = self.conn, conn
            self.offline_since = None
        if old is not None and old is not conn:
            old.close()

    def detach(self):
        """The board went away: keep its last view, close the connection."""
        with self.lock:
            conn, self.conn = self.conn, None
            if conn is not None:
                self.last_snap = conn.monitor.snapshot()
                self.offline_since = time.time()
        if conn is not None:
            conn.close()

    @property
    def online(self):
        conn = self.conn
        return conn is not None and conn.alive

    @property
    def name(self):
        conn = self.conn
        return conn.name if conn is not None else self.key

    # -- what the pages show ----------------------------------------------------------------
    def snapshot(self):
        conn = self.conn
        if conn is not None:
            snap = conn.monitor.snapshot()
            self.last_snap = snap
            return snap
        return self.last_snap or {}

    def health(self, snap, now):
        """(health, text) as the floor view shows it."""
        conn = self.conn
        if conn is None or not conn.alive:
            return "offline", "offline: the board is not connected"
        mon = conn.monitor
        if mon.selftest_running:
            return "selftest", "self-test running"
        faults = [x for x in mon.selftest_lines if x.startswith("done") and x != "done ok"]
        if faults:
            return "faults", "self-test: %s" % faults[-1][5:]
        st = snap.get("state", {})
        if st.get("inference") in ("fix", "restore"):
            if self.fix_since is None:
                self.fix_since = now
            if now - self.fix_since >= FIX_ALERT_S:
                return "fix", "waiting for a fix for %d min" % ((now - self.fix_since) // 60)
        else:
            self.fix_since = None
        if st.get("result", "*") != "*":
            return "over", "game over"
        return "playing", "playing"

    def view(self, full=False):
        """The table as the floor view draws it (``full``: with the record, the events, the
        self-test report and the staff's choices, for the table view)."""
        now = time.time()
        snap = self.snapshot()
        health, text = self.health(snap, now)
        st = snap.get("state", {})
        conn = self.conn
        board = {k: snap[k] for k in ("cells", "edges", "counts", "draw", "colours",
                                      "leds_known", "mode") if k in snap}
        board["state"] = {k: st[k] for k in ("board", "area", "game") if k in st}
        out = {
            "key": self.key, "name": self.name, "online": conn is not None and conn.alive,
            "device": conn.device if conn is not None else "", "health": health,
            "health_text": text, "game": st.get("game", ""), "title": st.get("title", ""),
            "players": st.get("players", []), "side": st.get("side", ""),
            "result": st.get("result", "*"), "result_text": st.get("result_text", ""),
            "ply": st.get("ply", 0), "inference": st.get("inference", ""),
            "last_move_at": conn.monitor.last_move_at if conn is not None else None,
            "offline_since": self.offline_since, "board": board, "version": self.version,
            "error": snap.get("last_error", ""),
            # what the board's last power-up did (its save damaged: what it said)
            "boot": snap.get("boot") or {},
        }
        if full:
            out["record"] = st.get("record", "")
            out["settings"] = st.get("settings", {})
            out["game_id"] = snap.get("game_id")
            out["board_id"] = self.board_id
            out["recording"] = snap.get("recording", "")
            out["events"] = [e[1] for e in conn.monitor.events_after(0)][-20:] \
                if conn is not None else []
            out["selftest"] = list(conn.monitor.selftest_lines) if conn is not None else []
            out["choices"] = self.choices(st)
        return out

    def choices(self, st):
        """What the staff's controls offer: the games that fit this board, the opponents and
        levels of the game played."""
        from xobo.runtime.settings import opponent_choices

        game = st.get("game")
        out = {"games": fitting_games(st.get("board", {})), "opponents": [], "levels": []}
        if game in games.GAMES:
            pkg = games.load(game)
            out["opponents"] = list(opponent_choices(pkg))
            out["levels"] = list(pkg.LEVELS)
        return out

    # -- the staff's controls ---------------------------------------------------------------
    def action(self, req):
        """Do one staff control on the board; returns {"ok": True, "reply": ...}.
        ActionError when it is no control, has a bad value, or the board refuses it."""
        if not isinstance(req, dict) or not isinstance(req.get("action"), str):
            raise ActionError('a control is a JSON object {"action": ...}')
        what = req["action"]
        value = req.get("value")
        if what in ("new", "undo", "selftest"):
            line = what
        elif what in ("game", "opponent", "level", "brightness", "name"):
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str) or not WORD.match(value):
                raise ActionError("%s needs a value: one word of letters, digits, '+', '-', "
                                  "'_' or '.'" % what)
            if what == "game":
                fits = fitting_games(self.snapshot().get("state", {}).get("board", {}))
                if value not in fits:
                    raise ActionError("%s does not fit this board (it can play: %s)"
                                      % (value, ", ".join(fits)))
            line = "set %s %s" % (what, value)
        else:
            raise ActionError("unknown control '%s' (new, undo, selftest, game, opponent, "
                              "level, brightness, name)" % what[:40])
        conn = self.conn
        if conn is None or not conn.alive:
            raise ActionError("the table's board is offline")
        try:
            reply = conn.link.command(line)
        except LinkError as exc:
            raise ActionError(str(exc)) from None
        text = " ".join(reply)
        if not reply or reply[0].startswith("error"):
            raise ActionError("the board refused '%s': %s" % (line, text[6:] or "no reply"))
        if what == "name":
            # (the board is the table: its records keep the name they were played under,
            # and are found by the new one too; the next game is recorded under it)
            conn.name = value
            conn.monitor.recorder.source = value
            try:
                conn.db.set_board(conn.board_id, value)
            except GamesDBError as exc:
                raise ActionError("the board is called %s now, but the games database "
                                  "could not say so: %s" % (value, exc)) from None
        conn.monitor.refresh_soon()
        return {"ok": True, "reply": text[3:]}
