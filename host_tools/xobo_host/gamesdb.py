"""A local SQLite file of the games a board played (written by ``xobo monitor``).

Tables: ``games`` (id, started_at, ended_at, source, game, params, variant, first,
start_position, result, updated_at: ``game`` is the game's name, ``xobo`` or another of
``xobo.games.GAMES``, ``params`` its parameters as the board says them, ``variant=kv``)
and ``moves`` (game_id, ply, notation with `` (v)`` when it declared Voina, played_at).
Times are UTC, ISO 8601.

The monitor hands every game record (N2) it reads from the board to a :class:`Recorder`, which
keeps the database in step: new moves are appended, undone moves removed, a new game (after
``event new``/``event load``, or a record that does not continue the stored one) gets a new
row, the result is kept up to date.

Usage::

    from xobo_host.gamesdb import GamesDB, Recorder
    db = GamesDB("games.sqlite")
    rec = Recorder(db, source="/dev/ttyACM0")
    rec.observe(record_text)               # N2 text from the board's `record` command
    for g in db.list_games():
        print(g["id"], g["result"], g["moves"])
    print(db.export_record(1))             # N2, replayed and checked by the rules engine
"""

import datetime
import os
import sqlite3

from xobo.errors import XoboError
from xobo.games.xobo.rules.notation import format_move, parse_move
from xobo.games.xobo.rules.record import GameRecord, format_record, parse_record

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at TEXT,
    source TEXT NOT NULL DEFAULT '',
    game TEXT NOT NULL DEFAULT 'xobo',
    params TEXT NOT NULL DEFAULT '',
    variant TEXT NOT NULL DEFAULT 'xobo',
    first TEXT NOT NULL DEFAULT 'NS',
    start_position TEXT,
    result TEXT NOT NULL DEFAULT '*'
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
"""

# columns added since the first databases were written: (name, declaration)
ADDED_COLUMNS = (("game", "TEXT NOT NULL DEFAULT 'xobo'"), ("params", "TEXT NOT NULL DEFAULT ''"))


class GamesDBError(ValueError):
    """No such game, or a stored game that cannot be replayed."""


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_db_path():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "xobo", "games.sqlite")


def record_moves(rec):
    """The moves of a GameRecord in N1 with `` (v)`` on those that declared Voina."""
    pos = rec.start_position()
    out = []
    for m in rec.moves:
        text = format_move(m)
        pos.apply(m)
        if pos.declared_voina():
            text += " (v)"
        out.append(text)
    return out


class GamesDB:
    """The SQLite file; every method commits before it returns."""

    def __init__(self, path):
        self.path = path
        self.conn = None
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self.conn = sqlite3.connect(path, check_same_thread=False)
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.executescript(SCHEMA)
            have = {r[1] for r in self.conn.execute("PRAGMA table_info(games)")}
            for name, decl in ADDED_COLUMNS:  # a database written before the games had names
                if name not in have:
                    self.conn.execute("ALTER TABLE games ADD COLUMN %s %s" % (name, decl))
            self.conn.commit()
        except sqlite3.DatabaseError as exc:  # a text file, an image, a truncated database
            self.close()
            raise GamesDBError("%s is not a games database (SQLite): %s" % (path, exc)) from None
        except OSError as exc:
            self.close()
            raise GamesDBError("cannot open the games database %s: %s" % (path, exc)) from None

    def close(self):
        if self.conn is not None:
            self.conn.close()

    def new_game(self, source="", variant="xobo", first="NS", start_position=None, at=None,
                 game="xobo", params=None):
        """A new row; ``params`` defaults to XoBo's ``variant=...``."""
        at = at or utc_now()
        if params is None:
            params = "variant=%s" % variant if game == "xobo" else ""
        cur = self.conn.execute(
            "INSERT INTO games (started_at, updated_at, source, game, params, variant, first,"
            " start_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (at, at, source, game, params, variant, first, start_position),
        )
        self.conn.commit()
        return cur.lastrowid

    def moves(self, game_id):
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
        self.conn.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, keep))
        for i in range(keep, len(notations)):
            self.conn.execute(
                "INSERT INTO moves (game_id, ply, notation, played_at) VALUES (?, ?, ?, ?)",
                (game_id, i + 1, notations[i], at),
            )
        self.conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (at, game_id))
        self.conn.commit()

    def set_result(self, game_id, result, at=None):
        """``NS``, ``EW`` or ``*``; a finished game keeps the time it first ended."""
        at = at or utc_now()
        if result in ("NS", "EW"):
            self.conn.execute(
                "UPDATE games SET result = ?, ended_at = COALESCE(ended_at, ?) WHERE id = ?",
                (result, at, game_id))
        else:
            self.conn.execute("UPDATE games SET result = '*', ended_at = NULL WHERE id = ?",
                              (game_id,))
        self.conn.commit()

    def game(self, game_id):
        row = self.conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GamesDBError("no game %s in %s" % (game_id, self.path))
        g = dict(row)
        g["moves"] = self.moves(game_id)
        return g

    def list_games(self):
        rows = self.conn.execute(
            "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS n_moves "
            "FROM games g ORDER BY g.id"
        ).fetchall()
        return [dict(r) for r in rows]

    def to_record(self, game_id):
        """The game as a GameRecord, every move replayed and checked by the rules engine."""
        g = self.game(game_id)
        if g["game"] != "xobo":
            raise GamesDBError("game %s is a game of %s: only XoBo's records are exported"
                               % (game_id, g["game"]))
        first = 0 if g["first"] == "NS" else 1
        rec = GameRecord(g["variant"], first, g["start_position"])
        try:
            pos = rec.start_position()
            for m in g["moves"]:
                text = m["notation"].replace("(v)", "").strip()
                mv = parse_move(text, pos)
                pos.apply(mv)
                rec.moves.append(mv)
        except XoboError as exc:
            raise GamesDBError("game %s cannot be replayed: %s" % (game_id, exc)) from None
        rec.set_tag("Date", g["started_at"][:10].replace("-", "."))
        if g["source"]:
            rec.set_tag("Board", g["source"])
        rec.update_result()
        return rec

    def export_record(self, game_id):
        return format_record(self.to_record(game_id))


class Recorder:
    """Keeps the database in step with the records the board reports."""

    def __init__(self, db, source=""):
        self.db = db
        self.source = source
        self.game_id = None
        self.key = None  # (variant, first, start) of the current game
        self.moves = []
        self.force_new = False

    def mark_new_game(self):
        """The board started a new game (``event new`` / ``event load``)."""
        self.force_new = True

    def observe(self, record_text, at=None):
        """Record what the board reports; returns the game id. RecordError on a bad record."""
        rec = parse_record(record_text)
        return self.observe_record(rec, at)

    def observe_record(self, rec, at=None):
        at = at or utc_now()
        first = "NS" if rec.first == 0 else "EW"
        key = (rec.variant, first, rec.start)
        notations = record_moves(rec)
        continues = (
            self.game_id is not None and key == self.key
            and (notations[:len(self.moves)] == self.moves
                 or self.moves[:len(notations)] == notations)
        )
        if self.force_new or not continues:
            if self.game_id is not None and not self.moves and key == self.key \
                    and not self.force_new:
                pass  # an empty game that never started: reuse it
            elif self.game_id is not None and not self.moves:
                self.db.conn.execute(
                    "UPDATE games SET variant = ?, params = ?, first = ?, start_position = ?, "
                    "started_at = ? WHERE id = ?",
                    (rec.variant, "variant=%s" % rec.variant, first, rec.start, at,
                     self.game_id))
                self.db.conn.commit()
            else:
                self.game_id = self.db.new_game(self.source, rec.variant, first, rec.start, at)
            self.key = key
            self.moves = []
            self.force_new = False
        if notations != self.moves:
            self.db.set_moves(self.game_id, notations, at)
            self.moves = notations
        result = rec.result if rec.result in ("NS", "EW") else "*"
        self.db.set_result(self.game_id, result, at)
        return self.game_id
