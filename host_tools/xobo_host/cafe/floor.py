"""The café's floor: every table, each a board (its own id) attached to its connection,
shown and addressed by its name.

A scan (every ``scan_s``) looks at the serial ports (``discovery``): a port with no board
followed yet is opened in its own thread (``table.connect``: the board's ``version``, its
``id``, its name); a board found is attached to its table (the one of that board, offline: a
board unplugged and plugged back on another port is the same table, whatever its name; else
a new table under its name, or ``NAME@ID`` while another board has that name); a connection
whose line is lost leaves its table offline, showing the board as last seen. A host
restarted finds its boards again the same way, and each board's records and self-test report
in the games database by its id. A port that holds no board is tried again after
``RETRY_S``.

The floor is a ``PageFeed``: its ``version`` goes up on every change of any table (each
table keeps the version of its last change, so a page is sent only the tables that changed:
``views_since``).

Usage::

    >>> from xobo_host.cafe.floor import Floor
    >>> from xobo_host.sim.ptyboard import PtyBoard
    >>> board = PtyBoard("flash-t1").plug()       # a stand-in board on a pty
    >>> board.play("serial set name terrace-3")
    ['name terrace-3']
    >>> floor = Floor("games.sqlite", ports=[board.device], scan_usb=False, scan_s=0.05).start()
    >>> snap = floor.snapshot()
    >>> for _ in range(50):                       # until a scan has found it (each change wakes)
    ...     if floor.table("terrace-3"): break
    ...     snap = floor.wait_change(snap["version"], 1.0)
    >>> [(view["name"], view["health"]) for view in floor.views()]   # as the floor view shows
    [('terrace-3', 'playing')]
    >>> floor.table("terrace-3").name, floor.table("bar-1")         # a Table, or None
    ('terrace-3', None)
    >>> floor.stop(); board.unplug()
"""

import sqlite3
import threading
import time

from xobo_host.cafe import discovery
from xobo_host.cafe.table import (
    FIRST_REPLY_S,
    POLL_S,
    UNNAMED,
    Table,
    connect,
    source_of,
)
from xobo_host.sim.backend import ActionError
from xobo_host.sim.feed import PageFeed
from xobo_host.sim.monitor import LinkError

RETRY_S = 5.0  # a port that held no board is opened again after this long


class Floor(PageFeed):
    def __init__(self, db_path, ports=(), scan_usb=True, scan_s=1.0, poll_s=POLL_S,
                 first_timeout=FIRST_REPLY_S):
        PageFeed.__init__(self, max_events=1)
        self.first_timeout = first_timeout
        self.db_path = db_path
        self.ports = list(ports)
        self.scan_usb = scan_usb
        self.scan_s = scan_s
        self.poll_s = poll_s
        self.tables = {}  # key (the table's name) -> Table
        self.by_board = {}  # the board's own id -> Table
        self.by_device = {}  # device -> Table, while connected
        self.connecting = set()
        self.retry_at = {}  # device -> when a port without a board is tried again
        self.problems = {}  # device -> why it is no board (shown on the page)
        self._health = {}  # key -> the health last sent
        self._stop = threading.Event()
        self._thread = None
        self._snap = {}
        self.line_hooks = []  # hook(table_key, line) for every event line of every board
        # hook() before every reading of a board by its mirror (the matches: a move relayed
        # first, the mirror's reading after it)
        self.read_hooks = []
        # hook(table_key) -> a dict added to that table's view on this café's own pages, or
        # None (an event's players at the table: cafe.events; never in the floor published
        # to other cafés: ``local``); ``touch`` sends the table to the pages again
        self.view_hooks = []

    # -- lifecycle --------------------------------------------------------------------------
    def start(self):
        self._thread = threading.Thread(target=self._run, name="xobo-cafe-floor", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        with self.lock:
            tables = list(self.tables.values())
        for table in tables:
            table.detach()
        self._wake_listeners()

    def _run(self):
        while not self._stop.is_set():
            try:
                self.scan()
            except Exception as exc:  # one odd port must not end the scanning
                self.problems["scan"] = "%s: %s" % (type(exc).__name__, exc)
            self._stop.wait(self.scan_s)

    # -- scanning ---------------------------------------------------------------------------
    def add_port(self, device):
        """Follow this device too (a board given by hand; a stand-in's new pty)."""
        with self.lock:
            if device not in self.ports:
                self.ports.append(device)

    def scan(self):
        """Detach boards whose line is lost, connect ports that appeared, refresh health."""
        now = time.time()
        with self.lock:
            tables = list(self.tables.values())
        for table in tables:
            conn = table.conn
            if conn is not None and not conn.alive:
                with self.lock:
                    if self.by_device.get(conn.device) is table:
                        del self.by_device[conn.device]
                table.detach()
                self._changed(table)
            health = table.health(table.snapshot(), now)[0]
            if self._health.get(table.key) != health:
                self._health[table.key] = health
                self._changed(table)
        with self.lock:
            ports = list(self.ports)
        for device in discovery.candidate_ports(ports, self.scan_usb):
            with self.lock:
                busy = device in self.by_device or device in self.connecting
                if busy or self.retry_at.get(device, 0) > now:
                    continue
                self.connecting.add(device)
            threading.Thread(target=self._connect, args=(device,), daemon=True,
                             name="xobo-cafe-connect").start()

    def _connect(self, device):
        try:
            conn = connect(device, self.db_path, lambda: self._changed_device(device),
                           self.poll_s, self.first_timeout,
                           lambda line: self._line_of_device(device, line),
                           self._before_read)
        # (an SQLite error too: a games file busy past its wait is tried again, not a table
        # left "connecting" for ever)
        except (LinkError, OSError, ValueError, sqlite3.Error) as exc:
            with self.lock:
                self.connecting.discard(device)
                self.retry_at[device] = time.time() + RETRY_S
                self.problems[device] = str(exc)
            self._bump()
            return
        with self.lock:
            self.connecting.discard(device)
            self.problems.pop(device, None)
            table = self.by_board.get(conn.board_id)
            key = source_of(conn.name, device)
            if table is None:
                if key in self.tables:
                    # another board has that name: this one is its own table until renamed
                    key = "%s@%s" % (conn.name, conn.board_id[-6:])
                table = self.tables[key] = Table(key, conn.board_id)
                self.by_board[conn.board_id] = table
            elif table.key != key and key not in self.tables:
                # (renamed while away from this floor: its name now)
                self._rekey(table, key)
            self.by_device[device] = table
        table.attach(conn)
        self._changed(table)
        for hook in self.line_hooks:
            hook(table.key, "event attached")

    def _rekey(self, table, key):
        """(the lock held) Table ``table`` is shown under ``key`` from now on."""
        if self.tables.get(table.key) is table:
            del self.tables[table.key]
        self._health.pop(table.key, None)
        table.key = key
        self.tables[key] = table

    # -- changes ----------------------------------------------------------------------------
    def _line_of_device(self, device, line):
        table = self.by_device.get(device)
        if table is not None:
            for hook in self.line_hooks:
                hook(table.key, line)

    def _before_read(self):
        for hook in self.read_hooks:
            hook()

    def _changed_device(self, device):
        table = self.by_device.get(device)
        if table is not None:
            self._changed(table)

    def _changed(self, table):
        with self.changed:
            self.version += 1
            table.version = self.version
            self.changed.notify_all()

    # -- what the pages read ----------------------------------------------------------------
    def table(self, key):
        with self.lock:
            return self.tables.get(key)

    def view_of(self, table, full=False, local=True):
        """The table's view (``Table.view``), on this café's own pages (``local``) with what
        the view hooks add to it."""
        out = table.view(full=full)
        for hook in self.view_hooks if local else ():
            extra = hook(table.key)
            if extra:
                out.update(extra)
        return out

    def touch(self, key=None):
        """What the hooks add to table ``key`` changed (None: something the pages follow
        besides the tables): the pages are sent it again."""
        table = self.table(key) if key is not None else None
        if table is not None:
            self._changed(table)
        else:
            self._bump()

    def views(self, local=False):
        """Every table's view; ``local``: for this café's own pages (``view_of``)."""
        with self.lock:
            tables = sorted(self.tables.values(), key=lambda t: t.key)
        return [self.view_of(t, local=local) for t in tables]

    def keys(self):
        with self.lock:
            return sorted(self.tables)

    def views_since(self, version, local=False):
        with self.lock:
            tables = sorted(self.tables.values(), key=lambda t: t.key)
        return [self.view_of(t, local=local) for t in tables if t.version > version]

    def snapshot(self, local=False):
        with self.lock:
            problems = dict(self.problems)
        return {"version": self.version, "now": time.time(), "tables": self.views(local),
                "problems": problems}

    # -- the staff's controls that concern the floor ----------------------------------------
    def rename(self, table, name):
        """Rename a table (its board keeps the name; its records keep the names they were
        played under): refused when another board online has it; an offline table of that
        name is taken off the floor (a board replaced: its records stay in the database)."""
        with self.lock:
            other = self.tables.get(name)
            if other is not None and other is not table and other.online:
                raise ActionError("another table online is called %s" % name)
        out = table.action({"action": "name", "value": name})
        with self.lock:
            other = self.tables.get(name)
            if other is not None and other is not table and not other.online:
                del self.tables[name]
                if self.by_board.get(other.board_id) is other:
                    del self.by_board[other.board_id]
            self._rekey(table, name)
        self._changed(table)
        return out

    def forget(self, table):
        """Take an offline table off the floor (its records stay in the database)."""
        if table.online:
            raise ActionError("%s is online: unplug its board first" % table.key)
        with self.lock:
            if self.tables.get(table.key) is table:
                del self.tables[table.key]
            if self.by_board.get(table.board_id) is table:
                del self.by_board[table.board_id]
            self._health.pop(table.key, None)
        with self.changed:
            self.version += 1
            self.changed.notify_all()
        return {"ok": True, "reply": "%s forgotten" % table.key}


__all__ = ["Floor", "UNNAMED"]
