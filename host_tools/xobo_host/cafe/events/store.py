"""The events' SQLite file (``events.sqlite`` next to the games database): events, players,
rounds, games and the staff's corrections. Every change is one transaction, written to the
disk before it returns (WAL, ``synchronous=FULL``): a host killed or a power cut at any
instant finds the event, its round and every result it had taken.

Tables: ``events`` (id, name, game, settings JSON, format, rounds, tables JSON, auto, the
round robin's roster JSON: its players in seeding order, state, current round,
created/started/ended times), ``players`` (id, event, name, entry round: the
first round they may be paired in, withdrawn: the round from which they are not, checked
in), ``rounds`` (event, number, state, how it was paired, times), ``games`` (id, event,
round, board number, kind, seats JSON, players JSON: player ids by seat, state, table key
and name, record id: the games database's, record text: the board's own record of it when
it ended, places JSON, how the result came: ``board``,
``staff``, ``bye``; its words, times, floats JSON, a note), ``corrections`` (id, game, when,
by whom: the name the staff gave, their session and address, the result before and after,
why). Times are UTC ISO 8601.

Usage::

    >>> from xobo_host.cafe.events.model import check_event
    >>> from xobo_host.cafe.events.store import EventStore
    >>> store = EventStore("events.sqlite")
    >>> eid = store.create_event(check_event({"name": "Friday", "game": "xobo",
    ...                                       "format": "swiss", "rounds": 5}))
    >>> pid = store.add_player(eid, "Alice")
    >>> [(e["name"], e["game"], e["state"], e["rounds"]) for e in store.events()]
    [('Friday', 'xobo', 'registration', 5)]
    >>> [(p["id"], p["name"], p["entry_round"]) for p in store.players(eid)]
    [(1, 'Alice', 1)]
    >>> store.close()
"""

import datetime
import json
import os
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    format TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    tables TEXT NOT NULL DEFAULT '[]',
    auto INTEGER NOT NULL DEFAULT 1,
    roster TEXT NOT NULL DEFAULT '[]',
    state TEXT NOT NULL DEFAULT 'registration',
    current_round INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    ended_at TEXT
);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    entry_round INTEGER NOT NULL DEFAULT 1,
    withdrawn_round INTEGER,
    checked_in INTEGER NOT NULL DEFAULT 0,
    registered_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'playing',
    paired_with TEXT NOT NULL DEFAULT '',
    paired_at TEXT NOT NULL,
    ended_at TEXT,
    PRIMARY KEY (event_id, number)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT 'game',
    seats TEXT NOT NULL,
    players TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'waiting',
    table_key TEXT,
    table_name TEXT,
    record_id INTEGER,
    record_text TEXT,
    places TEXT,
    how TEXT,
    words TEXT,
    started_at TEXT,
    ended_at TEXT,
    floats TEXT NOT NULL DEFAULT '{}',
    note TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    at TEXT NOT NULL,
    by_name TEXT NOT NULL,
    session TEXT NOT NULL,
    address TEXT NOT NULL,
    before TEXT,
    after TEXT NOT NULL,
    why TEXT NOT NULL
);
"""
TABLES = ("events", "players", "rounds", "games", "corrections")
JSON_COLUMNS = ("settings", "tables", "roster", "seats", "players", "places", "floats", "before",
                "after")
LOCK_TIMEOUT_S = 5.0


class StoreError(ValueError):
    """A file that is no events file, or one the host cannot write: the message says which."""


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _row(row):
    out = dict(row)
    for k in JSON_COLUMNS:
        if k in out and isinstance(out[k], str):
            out[k] = json.loads(out[k])
    return out


class EventStore:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.version = 0  # goes up at every change (what the pages follow)
        self.results_version = 0  # goes up when a result changes (what the ratings follow)
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self.conn = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S, check_same_thread=False,
                                        isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA journal_mode = WAL")
            self.conn.execute("PRAGMA synchronous = FULL")
            have = {r[0] for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            other = have - set(TABLES) - {"sqlite_sequence"}
            if other:
                raise StoreError("%s is not an events file: it holds the tables %s"
                                 % (path, ", ".join(sorted(other))))
            self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError("%s cannot be the events file: %s (move it away: the host "
                             "starts a new one)" % (path, exc)) from None

    def close(self):
        with self.lock:
            self.conn.close()

    # -- plumbing -----------------------------------------------------------------------------
    def _write(self, fn, results=False):
        """Run ``fn(conn)`` in one transaction; its value. ``results``: it changes a result."""
        with self.lock:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    out = fn(self.conn)
                    self.conn.execute("COMMIT")
                except BaseException:
                    self.conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                raise StoreError("cannot write the events file %s: %s" % (self.path, exc)) \
                    from None
            self.version += 1
            self.results_version += bool(results)
            return out

    def _read(self, sql, args=()):
        with self.lock:
            return [_row(r) for r in self.conn.execute(sql, args).fetchall()]

    @staticmethod
    def _sets(fields):
        cols = []
        args = []
        for k, v in fields.items():
            cols.append("%s = ?" % k)
            args.append(json.dumps(v) if k in JSON_COLUMNS and v is not None else v)
        return ", ".join(cols), args

    # -- events -------------------------------------------------------------------------------
    def create_event(self, spec):
        def do(c):
            cur = c.execute(
                "INSERT INTO events (name, game, settings, format, rounds, tables, auto, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (spec["name"], spec["game"], json.dumps(spec["settings"]), spec["format"],
                 spec["rounds"], json.dumps(spec["tables"]), int(spec["auto"]), utc_now()))
            return cur.lastrowid
        return self._write(do)

    def update_event(self, eid, **fields):
        sets, args = self._sets(fields)
        self._write(lambda c: c.execute("UPDATE events SET %s WHERE id = ?" % sets,
                                        args + [eid]))

    def delete_event(self, eid):
        self._write(lambda c: c.execute("DELETE FROM events WHERE id = ?", (eid,)),
                    results=True)

    def events(self):
        return self._read("SELECT * FROM events ORDER BY id")

    def event(self, eid):
        rows = self._read("SELECT * FROM events WHERE id = ?", (eid,))
        return rows[0] if rows else None

    # -- players ------------------------------------------------------------------------------
    def add_player(self, eid, name, entry_round=1, checked_in=False):
        def do(c):
            cur = c.execute("INSERT INTO players (event_id, name, entry_round, checked_in, "
                            "registered_at) VALUES (?, ?, ?, ?, ?)",
                            (eid, name, entry_round, int(checked_in), utc_now()))
            return cur.lastrowid
        return self._write(do)

    def update_player(self, pid, **fields):
        sets, args = self._sets(fields)
        self._write(lambda c: c.execute("UPDATE players SET %s WHERE id = ?" % sets,
                                        args + [pid]), results="name" in fields)

    def delete_player(self, pid):
        self._write(lambda c: c.execute("DELETE FROM players WHERE id = ?", (pid,)))

    def players(self, eid):
        return self._read("SELECT * FROM players WHERE event_id = ? ORDER BY id", (eid,))

    # -- rounds and games ---------------------------------------------------------------------
    def add_round(self, eid, number, paired_with, games):
        """A round and its games (dicts: board, kind, seats, players, state, places, how,
        words, floats, ended_at), the event's current round moved on: one transaction."""
        now = utc_now()

        def do(c):
            c.execute("INSERT INTO rounds (event_id, number, paired_with, paired_at) "
                      "VALUES (?, ?, ?, ?)", (eid, number, paired_with, now))
            for g in games:
                c.execute(
                    "INSERT INTO games (event_id, round, board, kind, seats, players, state, "
                    "places, how, words, floats, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "?, ?, ?)",
                    (eid, number, g["board"], g["kind"], json.dumps(g["seats"]),
                     json.dumps(g["players"]), g.get("state", "waiting"),
                     json.dumps(g["places"]) if g.get("places") is not None else None,
                     g.get("how"), g.get("words"), json.dumps(g.get("floats", {})),
                     now if g.get("state") == "over" else None))
            c.execute("UPDATE events SET current_round = ?, state = 'running', "
                      "started_at = COALESCE(started_at, ?) WHERE id = ?", (number, now, eid))
        self._write(do, results=True)

    def update_round(self, eid, number, **fields):
        sets, args = self._sets(fields)
        self._write(lambda c: c.execute(
            "UPDATE rounds SET %s WHERE event_id = ? AND number = ?" % sets,
            args + [eid, number]))

    def rounds(self, eid):
        return self._read("SELECT * FROM rounds WHERE event_id = ? ORDER BY number", (eid,))

    def games(self, eid, number=None):
        if number is None:
            return self._read("SELECT * FROM games WHERE event_id = ? ORDER BY round, board",
                              (eid,))
        return self._read("SELECT * FROM games WHERE event_id = ? AND round = ? ORDER BY "
                          "board", (eid, number))

    def game(self, gid):
        rows = self._read("SELECT * FROM games WHERE id = ?", (gid,))
        return rows[0] if rows else None

    def unbound_games(self):
        """The ended games whose record the games database has not been found to hold."""
        return self._read("SELECT * FROM games WHERE state = 'over' AND record_id IS NULL "
                          "AND record_text IS NOT NULL ORDER BY id")

    def update_game(self, gid, **fields):
        sets, args = self._sets(fields)
        self._write(lambda c: c.execute("UPDATE games SET %s WHERE id = ?" % sets,
                                        args + [gid]), results="places" in fields)

    def rated_games(self, game):
        """Every game of ``game`` with a result played in any event, in the order they ended,
        with its players' names by seat: [{"names", "places", "ended_at"}]."""
        rows = self._read(
            "SELECT g.players, g.places, g.ended_at, g.kind, g.how FROM games g JOIN events e "
            "ON e.id = g.event_id WHERE e.game = ? AND g.kind = 'game' AND g.places IS NOT "
            "NULL ORDER BY g.ended_at, g.event_id, g.round, g.board", (game,))
        names = {r["id"]: r["name"] for r in self._read(
            "SELECT p.id, p.name FROM players p JOIN events e ON e.id = p.event_id WHERE "
            "e.game = ?", (game,))}
        return [{"names": [names.get(pid, "?") for pid in r["players"]],
                 "places": r["places"], "ended_at": r["ended_at"]} for r in rows]

    # -- corrections --------------------------------------------------------------------------
    def correct(self, gid, fields, by_name, session, address, before, after, why):
        """A result changed by the staff, and who did it when: one transaction."""
        sets, args = self._sets(fields)

        def do(c):
            c.execute("UPDATE games SET %s WHERE id = ?" % sets, args + [gid])
            c.execute("INSERT INTO corrections (game_id, at, by_name, session, address, "
                      "before, after, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (gid, utc_now(), by_name, session, address, json.dumps(before),
                       json.dumps(after), why))
        self._write(do, results=True)

    def corrections(self, eid):
        return self._read(
            "SELECT c.*, g.round, g.board FROM corrections c JOIN games g ON g.id = c.game_id "
            "WHERE g.event_id = ? ORDER BY c.id", (eid,))
