"""A games database file that is locked, damaged, another program's or read-only gets a message
that names what is wrong (docs/simulator.md, "The games database"): from the library, from
``xobo records`` (an ``error:`` line, never a traceback) and from the monitor."""

import os
import random
import shutil
import sqlite3
import subprocess

import pytest

from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB, GamesDBError, Recorder
from xobo_host.sim.monitor import MonitorBackend

from .linkfake import ScriptedLink

GAME = "1. e1 ; a1 2. e2 ; a3 3. e3 ; g8 4. e4 ; a5"


def _recorded(path, games=30):
    db = GamesDB(str(path))
    rec = Recorder(db, source="/dev/ttyACM0")
    for _ in range(games):  # enough rows that the tables fill pages past the first
        rec.mark_new_game()
        rec.observe(GAME)
    db.close()
    return path


def _page_size(path):
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


def _overwrite_page(path, page, data):
    size = _page_size(path)
    assert len(data) == size and os.path.getsize(path) >= page * size
    with open(path, "r+b") as f:
        f.seek((page - 1) * size)
        f.write(data)


def _games_cli(path, *args):
    return main(["records", "--db", str(path), *args])


def test_a_locked_database_is_waited_for_a_bounded_time_and_named_locked(tmp_path, capsys):
    path = _recorded(tmp_path / "games.sqlite", 1)
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program writing
    try:
        with pytest.raises(GamesDBError, match="is locked by another program"):
            GamesDB(str(path), lock_timeout=0.05)
        with pytest.raises(GamesDBError, match=r"waited 0\.1 s"):
            GamesDB(str(path), readonly=True, lock_timeout=0.1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert GamesDB(str(path)).list_games()[0]["n_moves"] == 8  # free again: it opens


def test_a_lock_taken_while_recording_is_a_clear_error_and_the_next_record_catches_up(tmp_path):
    path = str(tmp_path / "games.sqlite")
    db = GamesDB(path, lock_timeout=0.05)
    rec = Recorder(db)
    gid = rec.observe("1. e5")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(GamesDBError, match="is locked by another program"):
            rec.observe("1. e5 ; d4")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert rec.observe("1. e5 ; d4 2. c3") == gid
    assert [m["notation"] for m in db.moves(gid)] == ["e5", "d4", "c3"]
    db.close()


def test_a_move_the_locked_file_could_not_take_is_kept_when_the_board_starts_a_new_game(
        tmp_path):
    """The board's record of a game's last move met a locked file; by the next read the board
    had started a new game. The last move is written all the same, to the old game."""
    path = str(tmp_path / "games.sqlite")
    db = GamesDB(path, lock_timeout=0.05)
    rec = Recorder(db)
    old = rec.observe("1. e5", events_seen=3)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(GamesDBError, match="is locked by another program"):
            rec.observe("1. e5 ; d4", events_seen=4)
        rec.mark_new_game(at_event=6)
        with pytest.raises(GamesDBError, match="is locked by another program"):
            rec.observe("1. c3", events_seen=7)  # still locked: both kept
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    new = rec.observe("1. c3 ; g8", events_seen=9)
    assert new != old
    assert [m["notation"] for m in db.moves(old)] == ["e5", "d4"]
    assert [m["notation"] for m in db.moves(new)] == ["c3", "g8"]
    assert len(db.list_games()) == 2
    db.close()


@pytest.mark.parametrize("damage", ["zeroed", "random"])
def test_a_damaged_page_2_is_named_damaged_not_a_traceback(tmp_path, capsys, damage):
    path = _recorded(tmp_path / "games.sqlite")
    size = _page_size(path)
    data = bytes(size) if damage == "zeroed" else random.Random(2).randbytes(size)
    _overwrite_page(path, 2, data)
    with pytest.raises(GamesDBError, match="is a damaged"):
        GamesDB(str(path))
    for args in (["list"], ["show", "1"], ["export", "1"]):
        assert _games_cli(path, *args) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: %s is a damaged SQLite file" % path), err
        assert "Traceback" not in err


def test_another_programs_sqlite_file_is_named_as_such_and_left_unchanged(tmp_path, capsys):
    path = tmp_path / "notes.sqlite"
    conn = sqlite3.connect(str(path))
    conn.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
                       "INSERT INTO notes (text) VALUES ('buy milk');")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(GamesDBError, match="not a games database: it has the tables notes"):
        GamesDB(str(path))
    assert path.read_bytes() == before  # no games table added to someone's file
    assert _games_cli(path, "list") == 1
    assert "is a SQLite database but not a games database" in capsys.readouterr().err


def test_a_foreign_games_table_is_not_taken_for_ours(tmp_path, capsys):
    path = tmp_path / "other.sqlite"
    conn = sqlite3.connect(str(path))
    conn.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, score INT);")
    conn.commit()
    conn.close()
    with pytest.raises(GamesDBError, match="lacks games.started_at"):
        GamesDB(str(path))
    assert _games_cli(path, "show", "1") == 1
    err = capsys.readouterr().err
    assert "not a games database" in err and "Traceback" not in err


@pytest.fixture
def read_only(tmp_path):
    """read_only(path): make the file unwritable, for root too (chattr +i)."""
    made = []

    def _make(path):
        if os.geteuid() == 0:
            chattr = shutil.which("chattr")
            if chattr is None or subprocess.run([chattr, "+i", str(path)]).returncode:
                pytest.skip("root can write any file, and chattr +i is not available here")
        else:
            os.chmod(path, 0o444)
        made.append(path)
        return path

    yield _make
    for path in made:
        if os.geteuid() == 0:
            subprocess.run([shutil.which("chattr"), "-i", str(path)])
        os.chmod(path, 0o644)


def test_a_read_only_file_is_refused_for_recording_and_still_read(tmp_path, capsys,
                                                                   read_only):
    path = read_only(_recorded(tmp_path / "games.sqlite", 1))
    with pytest.raises(GamesDBError, match="cannot record games into .*: the file is read-only"):
        GamesDB(str(path))
    assert _games_cli(path, "list") == 0  # xobo records only reads it
    assert "      8  /dev/ttyACM0" in capsys.readouterr().out
    assert main(["monitor", "--port", str(tmp_path / "nothing"), "--no-browser",
                 "--db", str(path)]) == 1
    assert "the file is read-only" in capsys.readouterr().err


class _Board(ScriptedLink):
    """A board link that answers with one XoBo position and record."""

    def command(self, line, timeout=3.0):
        if line == "follow on":
            return ["ok follow on"]
        if line == "position":
            return ["ok ........./........./........./........./....1..../........./"
                    "........./........./......... ew 35 0 0"]
        if line == "record":
            return ['ok [Variant "xobo"]', 'ok [First "NS"]', 'ok [Result "*"]', "ok 1. e5",
                    "ok end"]
        return ["error unknown command '%s' (try help)" % line]


def test_the_monitor_says_it_cannot_record_not_that_it_cannot_read_the_board(tmp_path):
    path = str(tmp_path / "games.sqlite")
    db = GamesDB(path, lock_timeout=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    backend = MonitorBackend(_Board(), recorder=Recorder(db, "pty"), poll_s=60)
    try:
        backend.start()
        error = backend.snapshot()["last_error"]
        assert error.startswith("cannot record the game: %s is locked" % path), error
        assert backend.snapshot()["counts"][40] == 1  # the mirror goes on
    finally:
        backend.stop()
        holder.execute("ROLLBACK")
        holder.close()
        db.close()


def test_export_never_echoes_a_huge_move(tmp_path, capsys):
    path = _recorded(tmp_path / "games.sqlite", 1)
    conn = sqlite3.connect(str(path))
    conn.execute("UPDATE moves SET notation = ? WHERE ply = 3", ("e9" * 5_000_000,))
    conn.commit()
    conn.close()
    assert _games_cli(path, "export", "1") == 1
    err = capsys.readouterr().err
    assert "move 3 is 10000000 characters long" in err and len(err) < 300
    assert _games_cli(path, "show", "1") == 0
    out = capsys.readouterr().out
    assert "(10000000 characters)" in out and len(out) < 2000


def test_write_ahead_mode_waits_out_a_reader_instead_of_failing_at_once(tmp_path):
    """Switching to WAL needs the file to itself; SQLite refuses a switch that meets another
    connection at once (a café's tables connecting together). It is tried again until the
    reader is gone."""
    import threading

    path = str(tmp_path / "games.sqlite")
    GamesDB(path).close()
    reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM games").fetchone()  # holds its shared lock
    db = GamesDB(path, lock_timeout=60)
    tried = threading.Event()
    db.conn.set_trace_callback(
        lambda sql: tried.set() if sql == "PRAGMA journal_mode=WAL" else None)
    switching = threading.Thread(target=db.write_ahead)
    switching.start()
    tried.wait()
    reader.execute("COMMIT")
    switching.join()
    assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader.close()
    db.close()


def test_write_ahead_mode_behind_a_reader_that_stays_says_the_file_is_locked(tmp_path):
    path = str(tmp_path / "games.sqlite")
    GamesDB(path).close()
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM games").fetchone()
    db = GamesDB(path, lock_timeout=0.05)
    try:
        with pytest.raises(GamesDBError, match="is locked by another program"):
            db.write_ahead()
    finally:
        reader.execute("ROLLBACK")
        reader.close()
    db.write_ahead()
    assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_the_writers_of_one_file_in_a_process_take_turns_and_a_turn_not_had_is_named(tmp_path):
    # (a café's recorders and its matches, each its own connection: they wait on a lock of
    # the process, not in SQLite's busy handler, which sleeps up to 100 ms between tries)
    path = str(tmp_path / "games.sqlite")
    first = GamesDB(path)
    other = GamesDB(str(tmp_path / "." / "games.sqlite"), lock_timeout=0.05)  # (same file)
    try:
        assert other.write_turn is first.write_turn
        gid = Recorder(first).observe("1. e5")
        with first.writing("record a game into"):
            with pytest.raises(GamesDBError, match="another write of this program held it"):
                other.set_result(gid, "1-0")
        other.set_result(gid, "1-0")  # its turn now
        assert first.game(gid)["result"] == "1-0"
    finally:
        first.close()
        other.close()
