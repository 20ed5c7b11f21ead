"""A local SQLite file of the games a board played, every game (written by ``xobo monitor``).

Tables: ``games`` (id, started_at, ended_at, source, game, params, tags, first,
start_position, result, updated_at, variant, board_id, ending, token: ``game`` is the game's
name, one of ``xobo.games.GAMES``; ``tags`` its parameter tags as its record writes them, one
per line (``[Size "8"]``); ``params`` the same for people, ``size=8``; ``first`` the player to
move at the start; ``result`` the record's Result word, ``*`` while it runs; ``board_id`` the
board's own id; ``ending`` how the game ended in the board's words (``ew ns-resigned``);
``token`` the board's id of the game, its record's ``[GameId]`` tag, '' from a board that gives
none) and ``moves`` (game_id,
ply, notation as the game's record writes the move, played_at). Times are UTC, ISO 8601.
``variant`` is kept for the files written when the database knew XoBo only (their rows have
no tags: their variant and first columns are read as XoBo's tags).

The monitor hands every game record it reads from the board to a :class:`Recorder`, with the
game's name, which keeps the database in step: new moves are appended, undone moves removed,
a new game (after ``event new``/``event load``, another game or other parameters, or a record
that does not continue the stored one) gets a new row, the result is kept up to date. Records
are read and written by each game's own record module (``xobo_host.records.gamerecords``).

Bad files get a message that says what is wrong (docs/simulator.md, "The games database"): a
file locked by another program is waited for ``LOCK_TIMEOUT_S`` at most; a file that is not
SQLite, is damaged (``PRAGMA quick_check``) or holds other tables is named as such; a
read-only file is refused for recording when it is opened (``xobo records`` reads it).

Usage::

    >>> from xobo_host.records.gamerecords import write_record
    >>> from xobo_host.records.gamesdb import GamesDB, Recorder
    >>> db = GamesDB("games.sqlite")           # GamesDBError says what is wrong with the file
    >>> rec = Recorder(db, source="/dev/ttyACM0")
    >>> board_says = write_record("xobo", [], None, ["e5", "d4"])   # its `record` reply
    >>> rec.observe(board_says, game="xobo")   # the game's id in the database
    1
    >>> rec.observe(write_record("xobo", [], None, ["e5", "d4", "e4"]), game="xobo")  # a move on
    1
    >>> for g in db.list_games():
    ...     print(g["id"], g["game"], g["params"], g["result"], g["n_moves"])
    1 xobo variant=xobo first=NS * 3
    >>> print(db.export_record(1))             # the record, replayed and checked by the rules
    [Variant "xobo"]
    [First "NS"]
    [Date "..."]
    [Board "/dev/ttyACM0"]
    [Result "*"]
    <BLANKLINE>
    1. e5 ; d4 2. e4
    <BLANKLINE>
    >>> db.close()
    >>> _ = open("notes.txt", "w").write("not a database")
    >>> GamesDB("notes.txt")
    Traceback (most recent call last):
    ...
    xobo_host.records.gamesdb.GamesDBError: notes.txt is not a games database (SQLite): ...
"""

import contextlib
import datetime
import os
import sqlite3
import threading
import time

from xobo_host.records.gamerecords import (
    GameRecordError,
    clip,
    params_text,
    read_record,
    result_word,
    write_record,
)

# the game of every row written when the database knew one game (its files have no game
# column, or rows without tags): a fact about those files, not a choice of game
LEGACY_GAME = "xobo"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at TEXT,
    source TEXT NOT NULL DEFAULT '',
    game TEXT NOT NULL DEFAULT '%s',
    params TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '',
    variant TEXT NOT NULL DEFAULT '',
    first TEXT NOT NULL DEFAULT '',
    start_position TEXT,
    result TEXT NOT NULL DEFAULT '*',
    board_id TEXT NOT NULL DEFAULT '',
    ending TEXT NOT NULL DEFAULT '',
    token TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS boards (
    board_id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    seen_at TEXT NOT NULL DEFAULT '',
    selftest TEXT NOT NULL DEFAULT '',
    selftest_at TEXT NOT NULL DEFAULT ''
);
""" % LEGACY_GAME
# (made once the columns are there: a file written by an older xobo gets them first)
INDEXES = "CREATE INDEX IF NOT EXISTS games_board ON games(board_id, id);\n" \
    "CREATE INDEX IF NOT EXISTS games_token ON games(board_id, token);"

# the columns every games database has had, and those added since (name, declaration)
GAMES_COLUMNS = ("id", "started_at", "updated_at", "ended_at", "source", "variant", "first",
                 "start_position", "result")
MOVES_COLUMNS = ("game_id", "ply", "notation", "played_at")
BOARDS_COLUMNS = ("board_id", "name", "seen_at", "selftest", "selftest_at")
ADDED_COLUMNS = (("game", "TEXT NOT NULL DEFAULT '%s'" % LEGACY_GAME),
                 ("params", "TEXT NOT NULL DEFAULT ''"),
                 ("tags", "TEXT NOT NULL DEFAULT ''"),
                 ("board_id", "TEXT NOT NULL DEFAULT ''"),
                 ("ending", "TEXT NOT NULL DEFAULT ''"),
                 ("token", "TEXT NOT NULL DEFAULT ''"))
# the games of one board looked at for one it resumes (each game keeps its own save on the
# board: one a game, and a few more for the empty ones a switch may leave)
RESUMABLE = 12
LOCK_TIMEOUT_S = 2.0  # how long a database locked by another program is waited for


class GamesDBError(ValueError):
    """A file that is no usable games database, no such game, or one that cannot be
    replayed: the message says which."""


def first_game():
    """The game a record is of when nothing says: the first of ``xobo.games.GAMES``."""
    from xobo.games import GAMES

    return GAMES[0]


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_db_path():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "xobo", "games.sqlite")


def damaged_text(path, why):
    return ("%s is a damaged SQLite file (SQLite: %s): keep a copy, then move it away (xobo "
            "monitor starts a new one)" % (path, clip(why, 200)))


def tags_text(tags):
    return "\n".join('[%s "%s"]' % (name, value) for name, value in tags)


def tags_of(text):
    out = []
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("[") and line.endswith("]") and " " in line:
            name, value = line[1:-1].split(" ", 1)
            out.append((name, value.strip().strip('"')))
    return out


# The writers of one file in this process (a café's recorders, a table each, and its
# matches: each its own connection) take turns on a lock of the process, woken as soon as
# the last write is done. Left to SQLite's busy handler, a write that met another sleeps 1,
# 2, 5... up to 100 ms between its tries: with a hundred tables moving at once a match's
# move waited up to 350 ms for a file free most of that time (docs/remote.md). Other
# programs' writes are still waited for by SQLite (``lock_timeout``).
_WRITERS = {}
_WRITERS_LOCK = threading.Lock()


def _writers_of(path):
    key = os.path.realpath(path)
    with _WRITERS_LOCK:
        return _WRITERS.setdefault(key, threading.Lock())


class GamesDB:
    """The SQLite file; every method commits before it returns. ``readonly``: only read it
    (``xobo records``); else it must be writable (``xobo monitor`` records into it)."""

    def __init__(self, path, readonly=False, lock_timeout=LOCK_TIMEOUT_S):
        self.path = path
        self.readonly = readonly
        self.lock_timeout = lock_timeout
        self.conn = None
        self.columns = set()
        self.has_boards = False
        self.write_turn = _writers_of(path)
        with self._errors("open"):
            if readonly:
                uri = "file:%s?mode=ro" % _uri_path(os.path.abspath(path))
                self.conn = sqlite3.connect(uri, uri=True, timeout=lock_timeout,
                                            check_same_thread=False)
            else:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                self.conn = sqlite3.connect(path, timeout=lock_timeout,
                                            check_same_thread=False)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA foreign_keys = ON")
            self._check_file()
            if not readonly:
                self._writable()
                self.conn.executescript(SCHEMA)
                for name, decl in ADDED_COLUMNS:  # a database written by an older xobo
                    if name not in self._columns("games"):
                        self.conn.execute("ALTER TABLE games ADD COLUMN %s %s" % (name, decl))
                self.conn.executescript(INDEXES)
                self.conn.commit()
            self.columns = self._columns("games")
            self.has_boards = "boards" in self._tables()

    def write_ahead(self):
        """Puts the file in SQLite's write-ahead-log mode (readers go on while one writes; the
        mode stays with the file). Switching needs the file to itself, and SQLite answers a
        switch that finds another connection at work with "database is locked" at once, its
        busy timeout unused: the switch is tried again until ``lock_timeout``, then the error
        says the file is locked. A file already in WAL mode is not switched at all."""
        deadline = time.monotonic() + self.lock_timeout
        with self._errors("share the writes of"):  # (the file stays open: try again later)
            while True:
                mode = self.conn.execute("PRAGMA journal_mode").fetchone()[0]
                if mode.lower() == "wal":
                    return
                try:
                    self.conn.execute("PRAGMA journal_mode=WAL")
                    return
                except sqlite3.OperationalError as exc:
                    text = str(exc).lower()
                    if ("locked" not in text and "busy" not in text) \
                            or time.monotonic() > deadline:
                        raise
                time.sleep(0.01)

    # -- the file -----------------------------------------------------------------------------
    def _errors(self, doing):
        return _SQLiteErrors(self, doing)

    @contextlib.contextmanager
    def writing(self, doing):
        """A write, its turn among this process's writers of the file taken first (a
        GamesDBError says what went wrong, as ``_errors``)."""
        if not self.write_turn.acquire(timeout=self.lock_timeout):
            raise GamesDBError("cannot %s %s: another write of this program held it %.1f s "
                               "(waiting for another program's lock?): try again"
                               % (doing, self.path, self.lock_timeout))
        try:
            with self._errors(doing):
                yield
        finally:
            self.write_turn.release()

    def _columns(self, table):
        return {r[1] for r in self.conn.execute("PRAGMA table_info(%s)" % table)}

    def _tables(self):
        return {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}

    def _check_file(self):
        """A damaged file or another program's database is named as such (GamesDBError)."""
        problems = [r[0] for r in self.conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise GamesDBError(damaged_text(self.path, "; ".join(problems)))
        tables = self._tables()
        if not tables:
            if self.readonly:
                raise GamesDBError("%s is an empty SQLite file: no games recorded in it"
                                   % self.path)
            return  # a new database
        missing = []
        for table, needed in (("games", GAMES_COLUMNS), ("moves", MOVES_COLUMNS),
                              ("boards", BOARDS_COLUMNS)):
            if table in tables or table == "games":  # moves, boards: made when missing
                have = self._columns(table) if table in tables else set()
                missing += ["%s.%s" % (table, c) for c in needed if c not in have]
        if missing:
            raise GamesDBError(
                "%s is a SQLite database but not a games database: it has the tables %s and "
                "lacks %s (give xobo another file with --db)"
                % (self.path, clip(", ".join(sorted(tables)), 200), clip(", ".join(missing),
                                                                         200)))

    def _writable(self):
        """Refuse a file SQLite opened read-only now, not at the first move recorded."""
        try:
            # a write, rolled back: SQLite opens a file it cannot write read-only, silently
            self.conn.execute("BEGIN IMMEDIATE")
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            self.conn.execute("PRAGMA user_version = %d" % version)
        finally:
            if self.conn.in_transaction:
                self.conn.rollback()

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    # -- rows ---------------------------------------------------------------------------------
    def _row(self, row):
        """A games row as a dict, with the columns older files lack filled in."""
        g = dict(row)
        g.setdefault("game", LEGACY_GAME)
        g.setdefault("board_id", "")
        g.setdefault("ending", "")
        g.setdefault("token", "")
        if not g.get("tags") and g.get("variant"):
            # written when the database knew XoBo only: its variant and first columns (rows
            # written since have tags, and no variant)
            tags = [("Variant", g["variant"]), ("First", g.get("first") or "NS")]
            g["tags"] = tags_text(tags)
        if not g.get("params"):
            g["params"] = params_text(tags_of(g["tags"]))
        return g

    def new_game(self, source="", game=None, tags=(), first="", start_position=None,
                 at=None, board_id="", token=""):
        """A new row for a game of ``game`` (default: the first of ``xobo.games.GAMES``) with
        these parameter tags, played at table ``source`` (its name then) on board
        ``board_id``, which calls it ``token`` ('' when it names none); its id."""
        at = at or utc_now()
        game = game or first_game()
        with self.writing("record a game into"):
            cur = self.conn.execute(
                "INSERT INTO games (started_at, updated_at, source, game, params, tags, variant,"
                " first, start_position, board_id, token) VALUES (?, ?, ?, ?, ?, ?, '', ?, ?,"
                " ?, ?)",
                (at, at, source, game, params_text(tags), tags_text(tags), first,
                 start_position, board_id, token))
            self.conn.commit()
            return cur.lastrowid

    def restart_game(self, game_id, game, tags, first, start_position, at=None, token=""):
        """Make an empty row the start of another game (parameters, start, time, the board's
        id of it)."""
        at = at or utc_now()
        with self.writing("record a game into"):
            self.conn.execute(
                "UPDATE games SET game = ?, params = ?, tags = ?, variant = '', first = ?,"
                " start_position = ?, started_at = ?, updated_at = ?, token = ? WHERE id = ?",
                (game, params_text(tags), tags_text(tags), first, start_position, at, at,
                 token, game_id))
            self.conn.commit()

    def game_of_token(self, board_id, token):
        """The game board ``board_id`` calls ``token`` (with its moves), or None."""
        if "token" not in self.columns or not board_id or not token:
            return None
        with self._errors("read"):
            row = self.conn.execute("SELECT id FROM games WHERE board_id = ? AND token = ? "
                                    "ORDER BY id DESC LIMIT 1", (board_id, token)).fetchone()
        return None if row is None else self.game(row["id"])

    def moves(self, game_id):
        with self._errors("read"):
            rows = self.conn.execute(
                "SELECT ply, notation, played_at FROM moves WHERE game_id = ? ORDER BY ply",
                (game_id,),
            ).fetchall()
            return [dict(r) for r in rows]

    def set_moves(self, game_id, notations, at=None):
        """Make the game's moves ``notations``: keep the common prefix, replace the rest."""
        at = at or utc_now()
        old = [m["notation"] for m in self.moves(game_id)]
        keep = 0
        while keep < len(old) and keep < len(notations) and old[keep] == notations[keep]:
            keep += 1
        with self.writing("record a move into"):
            self.conn.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, keep))
            self.conn.executemany(
                "INSERT INTO moves (game_id, ply, notation, played_at) VALUES (?, ?, ?, ?)",
                [(game_id, i + 1, notations[i], at) for i in range(keep, len(notations))])
            self.conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))
            self.conn.commit()

    def set_ending(self, game_id, result, ending, at=None):
        """How the game ended as its board says it (``ew ns-resigned``, ``ew blocus``,
        ``draw``; '' while it goes on), and its Result word (``*`` while it goes on); a
        finished game keeps the time it first ended."""
        at = at or utc_now()
        with self.writing("record a result into"):
            if result != "*":
                self.conn.execute(
                    "UPDATE games SET result = ?, ending = ?, ended_at = COALESCE(ended_at, ?),"
                    " updated_at = ? WHERE id = ?", (result, ending, at, at, game_id))
            else:
                self.conn.execute("UPDATE games SET result = '*', ending = '', ended_at = NULL"
                                  " WHERE id = ?", (game_id,))
            self.conn.commit()

    # -- boards: a café's tables by their board's own id ----------------------------------------
    def set_board(self, board_id, name, at=None):
        """Board ``board_id`` is called ``name`` now (its games keep the name they were
        played under)."""
        at = at or utc_now()
        with self.writing("record a table into"):
            self.conn.execute(
                "INSERT INTO boards (board_id, name, seen_at) VALUES (?, ?, ?) ON CONFLICT"
                "(board_id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at",
                (board_id, name, at))
            self.conn.commit()

    def set_selftest(self, board_id, lines, at=None):
        """The board's last self-test report (its lines; [] while one runs): kept until the
        next test, whatever happens to the host."""
        at = at or utc_now()
        with self.writing("record a self-test into"):
            self.conn.execute(
                "INSERT INTO boards (board_id, selftest, selftest_at) VALUES (?, ?, ?) ON "
                "CONFLICT(board_id) DO UPDATE SET selftest = excluded.selftest, "
                "selftest_at = excluded.selftest_at", (board_id, "\n".join(lines), at))
            self.conn.commit()

    def board(self, board_id):
        """{board_id, name, seen_at, selftest (its lines), selftest_at}, or None."""
        if not self.has_boards:
            return None
        with self._errors("read"):
            row = self.conn.execute("SELECT * FROM boards WHERE board_id = ?",
                                    (board_id,)).fetchone()
        if row is None:
            return None
        out = dict(row)
        out["selftest"] = [x for x in out["selftest"].split("\n") if x]
        return out

    def set_result(self, game_id, result, at=None):
        """The record's Result word, ``*`` while the game runs; a finished game keeps the
        time it first ended."""
        at = at or utc_now()
        with self.writing("record a result into"):
            if result != "*":
                self.conn.execute(
                    "UPDATE games SET result = ?, ended_at = COALESCE(ended_at, ?) WHERE id = ?",
                    (result, at, game_id))
            else:
                self.conn.execute("UPDATE games SET result = '*', ended_at = NULL WHERE id = ?",
                                  (game_id,))
            self.conn.commit()

    def game(self, game_id):
        with self._errors("read"):
            row = self.conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GamesDBError("no game %s in %s" % (game_id, self.path))
        g = self._row(row)
        g["moves"] = self.moves(game_id)
        return g

    def list_games(self, source=None, game=None, date=None, board_id=None):
        """Every game (oldest first), or those of one table (``source``: the name a game was
        played under, or the name its board has now), one board (``board_id``), one game
        (``xobo``), started on one UTC day (``2026-11-26``)."""
        where, args = [], []
        if source is not None:
            if self.has_boards and "board_id" in self.columns:
                where.append("(g.source = ? OR g.board_id IN (SELECT board_id FROM boards "
                             "WHERE name = ? AND board_id != ''))")
                args += [source, source]
            else:
                where.append("g.source = ?")
                args.append(source)
        if board_id is not None:
            if "board_id" not in self.columns:
                return []
            where.append("g.board_id = ?")
            args.append(board_id)
        if game is not None:
            where.append("g.game = ?")
            args.append(game)
        if date is not None:
            where.append("substr(g.started_at, 1, 10) = ?")
            args.append(date)
        with self._errors("read"):
            rows = self.conn.execute(
                "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS n_moves "
                "FROM games g %sORDER BY g.id" % ("WHERE %s " % " AND ".join(where)
                                                  if where else ""), args
            ).fetchall()
            return [self._row(r) for r in rows]

    def last_game(self, source, board_id=""):
        """The latest game recorded from board ``board_id`` (when given) or else from
        ``source`` (with its moves), or None."""
        with self._errors("read"):
            if board_id:
                row = self.conn.execute("SELECT id FROM games WHERE board_id = ? ORDER BY id "
                                        "DESC LIMIT 1", (board_id,)).fetchone()
            else:
                row = self.conn.execute("SELECT id FROM games WHERE source = ? ORDER BY id "
                                        "DESC LIMIT 1", (source,)).fetchone()
        return None if row is None else self.game(row["id"])

    def recent_games(self, board_id, game, limit=RESUMABLE):
        """The latest ``limit`` games of ``game`` recorded from board ``board_id``, newest
        first, with their moves (the games a board may resume: ``set game`` away and
        back)."""
        with self._errors("read"):
            rows = self.conn.execute("SELECT id FROM games WHERE board_id = ? AND game = ? "
                                     "ORDER BY id DESC LIMIT ?", (board_id, game, limit)
                                     ).fetchall()
        return [self.game(r["id"]) for r in rows]

    def export_record(self, game_id, extra_tags=()):
        """The game's record in its own notation, every move replayed and checked by its
        rules (``extra_tags``: more tags, an event's); GamesDBError names a move that is
        wrong."""
        g = self.game(game_id)
        extra = [("Date", g["started_at"][:10].replace("-", "."))]
        if g["source"]:
            extra.append(("Board", g["source"]))
        if g.get("token"):
            extra.append(("GameId", g["token"]))
        extra.extend(extra_tags)
        # (a resignation is no position the rules end: the Result and Termination tags say it)
        ending = g["ending"] if "resigned" in g.get("ending", "") else ""
        try:
            return write_record(g["game"], tags_of(g["tags"]), g["start_position"],
                                [m["notation"] for m in g["moves"]], extra, ending)
        except GameRecordError as exc:
            raise GamesDBError("game %s cannot be exported: %s" % (game_id, exc)) from None


def _uri_path(path):
    from urllib.parse import quote

    return quote(path)


class _SQLiteErrors:
    """Turns SQLite's exceptions into a GamesDBError that says what is wrong with the file."""

    def __init__(self, db, doing):
        self.db = db
        self.doing = doing

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if exc is None:
            return False
        db = self.db
        if isinstance(exc, sqlite3.Error) and db.conn is not None and db.conn.in_transaction:
            try:
                db.conn.rollback()
            except sqlite3.Error:
                pass
        if isinstance(exc, GamesDBError):
            if self.doing == "open":
                db.close()
            return False
        message = None
        if isinstance(exc, sqlite3.OperationalError):
            text = str(exc).lower()
            if "locked" in text or "busy" in text:
                message = ("%s is locked by another program (another xobo monitor?): waited "
                           "%.1f s, try again when it is done" % (db.path, db.lock_timeout))
            elif "readonly" in text or "read-only" in text:
                message = ("cannot %s %s: the file is read-only (make it writable, or give "
                           "another file with --db)" % (self._verb(), db.path))
            elif "unable to open" in text:
                message = "cannot open the games database %s: %s" % (db.path, exc)
        if message is None and isinstance(exc, sqlite3.DatabaseError):
            text = str(exc).lower()
            if "not a database" in text or "file is encrypted" in text:
                message = "%s is not a games database (SQLite): %s" % (db.path, exc)
            else:
                message = damaged_text(db.path, str(exc))
        if message is None and isinstance(exc, OSError):
            message = "cannot open the games database %s: %s" % (db.path, exc)
        if message is None:
            return False
        if self.doing == "open":
            db.close()
        raise GamesDBError(message) from None

    def _verb(self):
        return "record games into" if self.doing == "open" else self.doing


class Recorder:
    """Keeps the database in step with the records the board reports.

    A board (``board_id``: its own id, ``id`` in docs/protocol.md) has one record a game,
    whatever happens. A board that names its games (its record's ``[GameId]`` tag,
    ``xobo.runtime.gameid``) is followed exactly: the record of the game it calls so, found in
    the database by (board id, game id), holds exactly the board's moves (undos back to the
    start shorten it, whoever saw them), and a game id never seen is a new record, whatever its
    moves. For a board that names none (a firmware from before game ids, a lesson), the moves
    tell: a record that continues the current one adds to it; one that does not is another
    game, or a game the board resumed (``set game`` away and back: each game keeps its own
    save), found among the board's recent records (its moves continue theirs) and continued; a
    new game on the board (``mark_new_game``) is a new record. How a game ended comes from the
    board's ``state`` (``end_said``) and its record's Termination tag: a resignation is no end
    the record's rules see. ``source`` is the table's name, kept by each record as the name it
    was played under (a renamed table's past records keep theirs)."""

    def __init__(self, db, source="", board_id=""):
        self.db = db
        self.source = source
        self.board_id = board_id
        self.game_id = None
        self.key = None  # (game, tags, start) of the current game
        self.token = ""  # the board's id of the current game ('' when it names none)
        self.moves = []
        self.force_new = False
        self.new_game_event = None  # the number of the event that started it, when known
        # (game id, result, ending) last written: a record read again unchanged writes
        # nothing (a café host reads a hundred boards' records; every write waits for the
        # others')
        self.written = None
        # (game, ply, words) of the board's last ``state``: how its game ended
        # (``ew ns-resigned``), ``*`` while it goes on
        self.said_end = None
        self.record_result = "*"  # the current game's record's own Result word
        self.record_ending = ""  # its Termination tag's words (a resignation), '' none
        # (game, record text) last recorded: the same reply again is not read again (a café
        # host reads a board's record at every event of it; replaying it with the rules was
        # half of the host's work)
        self.seen = None
        # the records the file could not take (locked past its wait), oldest first: written
        # before the next one, which may be a new game's when the board has already started
        # it (the old game's last moves would be lost otherwise). A later record of the same
        # game, with no new game between, replaces the one before (it holds its moves).
        self.pending = []
        self.new_games = 0  # new games marked so far (tells whether one came between two)
        # a game resumed from the file, not seen on the board yet: what the board did while
        # nobody followed it is unknown, and a record shorter than the stored one is taken
        # for a new game begun meanwhile (its first moves alike), not for undos: the stored
        # game is kept whole (undos unseen make a new record; a new game unseen, taken for
        # undos, would have cut the game before)
        self.unseen_since = False

    def resume(self):
        """Continue from the latest game recorded from this board (a host restarted, a board
        plugged back in): a record that continues it adds to it instead of starting a new
        row; one that does not starts a new game (or continues another the board resumed)
        and leaves it as it was (unfinished games stay unfinished, ``*``). Returns self."""
        last = self.db.last_game(self.source, self.board_id)
        if last is not None:
            self._adopt(last)
            self.unseen_since = True
        return self

    def _adopt(self, row):
        """Make the stored game ``row`` (with its moves) the current one."""
        self.game_id = row["id"]
        self.key = (row["game"], tuple(tags_of(row["tags"])), row["start_position"])
        self.moves = [m["notation"] for m in row["moves"]]
        self.token = row.get("token", "")
        self.written = (row["id"], row["result"], row.get("ending", ""))
        resigned = "resigned" in row.get("ending", "")
        self.record_result = "*" if resigned else row["result"]

    def mark_new_game(self, at_event=None):
        """The board started a new game (``event new`` / ``event load``); ``at_event``: that
        event's number on the serial line, so that a record read before it (a poll under
        way when the event came) still counts as the old game's."""
        self.force_new = True
        self.new_game_event = at_event
        self.new_games += 1
        self.said_end = None

    def end_said(self, game, ply, words, at=None):
        """The board's ``state``: it plays ``game``, ``ply`` moves in, and its game ended so
        (``ew ns-resigned``, ``ew blocus``, ``draw``), or goes on (``*``). Written to the
        current record when it is that game (an end at once; a game going on again, after an
        undo of the last move, once the record has as many moves)."""
        self.said_end = (game, ply, words)
        if self.game_id is not None and not self.pending:
            self._write_result(self.record_result, at, from_record=False)

    def _ending(self):
        """The board's words of the end of the current game, None when it has not said."""
        said = self.said_end
        if said is None or self.key is None or said[0] != self.key[0] or self.force_new:
            return None
        if said[2] == "*" and said[1] != len(self.moves):
            return None  # (a state of another position than the record's: said again later)
        return said[2]

    def _write_result(self, record_result, at, from_record=True):
        words = self._ending()
        if words is None and from_record and self.record_ending:
            words = self.record_ending  # (the record says the resignation itself)
        last = self.written if self.written and self.written[0] == self.game_id else None
        if words is None:  # the board said nothing of this game's end: the record's word
            if not from_record:
                return
            if last is not None and last[2] and record_result == "*":
                return  # (a resignation the record does not say: kept)
            result, ending = record_result, last[2] if last and record_result != "*" else ""
        elif words == "*":
            result, ending = "*", ""
        else:
            # (the record's own word for the winner: 'ew' -> 'EW', as its Result tag says it)
            winner = result_word(self.key[0], words.split()[0])
            result = record_result if record_result != "*" else (
                last[1] if last is not None and last[1] != "*" else winner)
            ending = words
        if self.written != (self.game_id, result, ending):
            self.db.set_ending(self.game_id, result, ending, at)
            self.written = (self.game_id, result, ending)

    def observe(self, record_text, game=None, at=None, events_seen=None):
        """Record what the board reports (its ``record`` reply, a game of ``game``, default
        the first of ``xobo.games.GAMES``); returns the game id. ``events_seen``: how many
        events the board had sent before this reply (``SerialLink.command_in_order``).
        GameRecordError for a record that is not one of ``game``, GamesDBError when the
        file cannot take it."""
        game = game or first_game()
        if self.seen == (game, record_text) and not self.force_new and self.game_id is not None \
                and not self.pending:
            return self.game_id
        game_id = self.observe_record(game, read_record(game, record_text), at, events_seen)
        self.seen = (game, record_text)
        return game_id

    def observe_record(self, game, rec, at=None, events_seen=None):
        """``observe`` of a record already read. A record that the file cannot take
        (GamesDBError) is kept and written at the next call, before its record."""
        at = at or utc_now()
        entry = (game, rec, at, events_seen,
                 (game, tuple(rec.tags), rec.start, getattr(rec, "gameid", "")), self.new_games)
        last = self.pending[-1] if self.pending else None
        if last is not None and last[4] == entry[4] and last[5] == entry[5]:
            self.pending[-1] = entry
        else:
            self.pending.append(entry)
        game_id = None
        while self.pending:  # (raises while the file still cannot take them: kept)
            game, rec, at, events_seen = self.pending[0][:4]
            game_id = self._write(game, rec, at, events_seen)
            self.pending.pop(0)
        return game_id

    def _write(self, game, rec, at, events_seen):
        # a record read before the new game started is the old game's: the new one not yet
        stale = (events_seen is not None and self.new_game_event is not None
                 and events_seen < self.new_game_event)
        return self._observe(game, rec, at, force_new=self.force_new and not stale)

    def _observe(self, game, rec, at, force_new):
        key = (game, tuple(rec.tags), rec.start)
        notations = rec.moves
        if getattr(rec, "gameid", "") and self.board_id:
            return self._observe_named(game, rec, at, key)
        continues = (
            self.game_id is not None and key == self.key and not self.token
            and (notations[:len(self.moves)] == self.moves
                 or self.moves[:len(notations)] == notations
                 and not (self.unseen_since and len(notations) < len(self.moves)))
        )
        self.unseen_since = False
        if force_new or not continues:
            resumed = None if force_new else self._resumed(key, notations)
            if resumed is not None:
                self._adopt(resumed)  # (a game the board resumed: its own record goes on)
            else:
                # (an empty game of these parameters that never started is reused)
                reused = self.game_id is not None and not self.moves and key == self.key \
                    and not force_new and not self.token
                if not reused:
                    self._new_row(game, rec, at, "")
                self._begin(key, "")
            if force_new:
                self.force_new = False
        return self._keep(rec, at)

    def _new_row(self, game, rec, at, token):
        """The row of a game that starts: the current one when it is an empty row no game
        owns (its game never started), else a new one."""
        if self.game_id is not None and not self.moves and not self._has_end() \
                and not self.token:
            self.db.restart_game(self.game_id, game, rec.tags, rec.first, rec.start, at,
                                 token=token)
        else:
            self.game_id = self.db.new_game(self.source, game, rec.tags, rec.first, rec.start,
                                            at, board_id=self.board_id, token=token)
        self.written = None

    def _begin(self, key, token):
        """The current game is a new one (``key``, ``token``): no moves, no result yet."""
        self.key = key
        self.token = token
        self.moves = []
        self.record_result = "*"

    def _observe_named(self, game, rec, at, key):
        """A record of a game the board names (``rec.gameid``): that game's record, found by
        (board id, game id), or a new one; its moves exactly the board's."""
        self.unseen_since = False
        self.force_new = False  # (a new game has a new id: nothing to guess)
        token = rec.gameid
        if self.game_id is None or token != self.token:
            row = self.db.game_of_token(self.board_id, token)
            if row is not None:
                self._adopt(row)  # (resumed: set game away and back, a host restarted)
            else:
                self._new_row(game, rec, at, token)
                self._begin(key, token)
        return self._keep(rec, at)

    def _keep(self, rec, at):
        """The current record's moves and result as ``rec`` says them."""
        notations = rec.moves
        if notations != self.moves:
            self.db.set_moves(self.game_id, notations, at)
            self.moves = notations
        self.record_result = rec.result
        self.record_ending = getattr(rec, "ending", "")
        self._write_result(rec.result, at)
        return self.game_id

    def _has_end(self):
        return self.written is not None and self.written[0] == self.game_id and \
            self.written[1] != "*"

    def _resumed(self, key, notations):
        """The board's recent record of the game ``key`` whose moves ``notations`` continue
        (the game it resumed), newest first; None."""
        if not self.board_id:
            return None
        for row in self.db.recent_games(self.board_id, key[0]):
            if row["id"] == self.game_id or row.get("token"):
                continue  # (a game its board names is found by its name only)
            if (row["game"], tuple(tags_of(row["tags"])), row["start_position"]) != key:
                continue
            moves = [m["notation"] for m in row["moves"]]
            if notations[:len(moves)] == moves and (moves or not notations):
                return row
        return None
