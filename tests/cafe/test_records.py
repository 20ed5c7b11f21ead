"""The café's records: searched by table, game and day; a recorder that resumes (a host
restarted, a board plugged back) continues the same record instead of starting another."""

from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB, Recorder

XOBO = '[Variant "xobo"]\n[First "NS"]\n[Result "*"]\n\n%s\n'


def test_records_are_searched_by_table_game_and_day(tmp_path, capsys):
    path = str(tmp_path / "g.sqlite")
    db = GamesDB(path)
    Recorder(db, "terrace-1").observe(XOBO % "1. e5", "xobo", at="2026-11-25T20:00:00Z")
    Recorder(db, "terrace-2").observe(XOBO % "1. d4", "xobo", at="2026-11-26T10:00:00Z")
    assert [g["source"] for g in db.list_games(source="terrace-2")] == ["terrace-2"]
    assert [g["source"] for g in db.list_games(date="2026-11-25")] == ["terrace-1"]
    assert len(db.list_games(game="xobo")) == 2 and db.list_games(game="x") == []
    db.close()
    assert main(["records", "--db", path, "list", "--table", "terrace-1"]) == 0
    out = capsys.readouterr().out
    assert "terrace-1" in out and "terrace-2" not in out


def test_a_resumed_recorder_continues_the_record_and_leaves_a_replaced_game_unfinished(
        tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    Recorder(db, "bar").observe(XOBO % "1. e5", "xobo")
    again = Recorder(db, "bar").resume()  # the host restarted
    assert again.observe(XOBO % "1. e5 ; d4", "xobo") == 1
    assert [m["notation"] for m in db.moves(1)] == ["e5", "d4"]
    again.mark_new_game()
    assert again.observe(XOBO % "1. c3", "xobo") == 2
    assert [(g["n_moves"], g["result"]) for g in db.list_games()] == [(2, "*"), (1, "*")]
    db.close()


OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, ended_at TEXT, source TEXT NOT NULL DEFAULT '',
    game TEXT NOT NULL DEFAULT 'xobo', params TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '', variant TEXT NOT NULL DEFAULT '',
    first TEXT NOT NULL DEFAULT '', start_position TEXT, result TEXT NOT NULL DEFAULT '*');
CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL, notation TEXT NOT NULL, played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply));
INSERT INTO games (started_at, updated_at, source, game, tags, first)
    VALUES ('2026-11-25T20:00:00Z', '2026-11-25T20:00:00Z', 'terrace-1', 'xobo',
            '[Variant "xobo"]' || char(10) || '[First "NS"]', 'NS');
INSERT INTO moves VALUES (1, 1, 'e5', '2026-11-25T20:00:00Z');
"""


def _old_file(path):
    import sqlite3

    conn = sqlite3.connect(path)
    conn.executescript(OLD_SCHEMA)
    conn.commit()
    conn.close()


def test_a_database_from_before_board_ids_is_read_as_it_is_and_migrated_for_recording(
        tmp_path, capsys):
    path = str(tmp_path / "old.sqlite")
    _old_file(path)
    ro = GamesDB(path, readonly=True)  # read, not changed
    assert [(g["source"], g["board_id"], g["ending"]) for g in ro.list_games(
        source="terrace-1")] == [("terrace-1", "", "")]
    assert ro.list_games(board_id="5f3a0c11d2e4b697") == []
    ro.close()
    assert main(["records", "list", "--table", "terrace-1", "--db", path]) == 0
    assert "terrace-1" in capsys.readouterr().out
    db = GamesDB(path)  # a recorder's: the new columns and the boards added
    rec = Recorder(db, "terrace-1", board_id="5f3a0c11d2e4b697")
    db.set_board("5f3a0c11d2e4b697", "terrace-1")
    assert rec.resume().game_id is None  # (no game of this board yet: the old rows have none)
    rec.observe(XOBO % "1. d4", "xobo")
    assert [(g["source"], g["board_id"]) for g in db.list_games()] == [
        ("terrace-1", ""), ("terrace-1", "5f3a0c11d2e4b697")]
    assert db.board("5f3a0c11d2e4b697")["name"] == "terrace-1"
    db.close()


def test_a_boards_table_that_is_not_ours_is_named_as_such(tmp_path):
    import sqlite3

    import pytest

    from xobo_host.records.gamesdb import GamesDBError

    path = str(tmp_path / "odd.sqlite")
    _old_file(path)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE boards (serial TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(GamesDBError, match="not a games database.*boards.board_id"):
        GamesDB(path)


def test_a_recorder_continues_a_game_its_board_resumed_and_starts_one_for_a_new_game(
        tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id="00000000000000aa")
    assert rec.observe(XOBO % "1. e5 ; d4", "xobo") == 1
    x = '[Game "X"]\n[Size "8"]\n[Result "*"]\n[Score "0-0-0"]\n'
    assert rec.observe(x, "x") == 2  # (set game x: another game, its own record)
    assert rec.observe(XOBO % "1. e5 ; d4 2. e4", "xobo") == 1  # XoBo's game resumed
    rec.mark_new_game()
    assert rec.observe(XOBO % "1. e5", "xobo") == 3  # a new game: a new record
    assert [(g["game"], g["n_moves"]) for g in db.list_games()] == [
        ("xobo", 3), ("x", 0), ("xobo", 1)]
    # another board's game is never taken for this board's
    other = Recorder(db, "bar", board_id="00000000000000bb")
    assert other.observe(XOBO % "1. e5 ; d4 2. e4 ; c3", "xobo") == 4
    db.close()


def test_a_board_s_end_of_game_is_kept_until_the_game_goes_on_again(tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id="00000000000000aa")
    rec.observe(XOBO % "1. e5", "xobo", at="2026-11-25T20:00:00Z")
    rec.end_said("xobo", 1, "ew ns-resigned", at="2026-11-25T20:01:00Z")
    g = db.list_games()[0]
    assert (g["result"], g["ending"], g["ended_at"]) == ("EW", "ew ns-resigned",
                                                         "2026-11-25T20:01:00Z")
    rec.observe(XOBO % "1. e5", "xobo")  # the record read again says '*': it is kept
    again = Recorder(db, "bar", board_id="00000000000000aa").resume()  # a host restarted
    again.observe(XOBO % "1. e5", "xobo")
    assert db.list_games()[0]["ending"] == "ew ns-resigned"
    again.end_said("x", 0, "*")  # another game's state: not this record's
    assert db.list_games()[0]["result"] == "EW"
    db.close()


def test_a_shorter_record_after_a_restart_is_a_new_game_and_the_stored_one_stays_whole(
        tmp_path):
    """While nobody followed the board, a new game may have begun with the same first moves:
    taken for undos, it would cut the stored game; taken for a new game, nothing is lost."""
    db = GamesDB(str(tmp_path / "g.sqlite"))
    Recorder(db, "bar", board_id="00000000000000aa").observe(XOBO % "1. e5 ; d4 2. e4", "xobo")
    again = Recorder(db, "bar", board_id="00000000000000aa").resume()  # the host restarted
    assert again.observe(XOBO % "1. e5", "xobo") == 2
    assert [g["n_moves"] for g in db.list_games()] == [3, 1]
    # once the board is followed, an undo is an undo
    assert again.observe(XOBO % "1. e5 ; d4", "xobo") == 2
    assert again.observe(XOBO % "1. e5", "xobo") == 2
    assert [g["n_moves"] for g in db.list_games()] == [3, 1]
    db.close()
