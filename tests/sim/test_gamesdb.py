"""The games database the monitor writes, and ``xobo records`` that reads it."""

import pytest

from xobo.games.xobo.rules.record import parse_record
from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB, GamesDBError, Recorder

GAME = "1. e1 ; a1 2. e2 ; a3 3. e3 ; g8 4. e4 ; a5 5. e5 ; a7 6. e6 ; a9 7. e7 ; i1 " \
    "8. e8 (v) ; e8->e6 9. e6xf7 ; i3 10. e6 (v) ; i5 11. f8 (v) ; i7 12. f9"


@pytest.fixture
def db(tmp_path):
    d = GamesDB(str(tmp_path / "games.sqlite"))
    yield d
    d.close()


def test_recorder_appends_moves_as_the_board_plays_them(db):
    rec = Recorder(db, source="/dev/ttyACM0")
    gid = rec.observe("1. e5")
    assert rec.observe("1. e5 ; d4") == gid
    assert [m["notation"] for m in db.game(gid)["moves"]] == ["e5", "d4"]
    assert db.game(gid)["source"] == "/dev/ttyACM0"


def test_an_undo_removes_the_undone_moves_and_keeps_the_game(db):
    rec = Recorder(db)
    gid = rec.observe("1. e5 ; d4 2. e4")
    assert rec.observe("1. e5 ; d4") == gid
    assert [m["ply"] for m in db.moves(gid)] == [1, 2]
    rec.observe("1. e5 ; d4 2. c3")
    assert [m["notation"] for m in db.moves(gid)] == ["e5", "d4", "c3"]


def test_a_new_game_on_the_board_starts_a_new_row(db):
    rec = Recorder(db)
    first = rec.observe("1. e5 ; d4")
    rec.mark_new_game()
    second = rec.observe('[Result "*"]\n')
    assert second != first
    assert rec.observe("1. c3") == second
    # a record that does not continue the stored game is another game too
    third = rec.observe("1. a1")
    assert third not in (first, second)
    assert [g["n_moves"] for g in db.list_games()] == [2, 1, 1]


def test_a_record_read_before_the_new_game_event_is_the_old_games_not_a_new_row(db):
    # a poll asked for the record, the board answered, then sent 'event new' (its 5th event);
    # the poll hands its record over only after the event: it is still the old game's
    rec = Recorder(db)
    first = rec.observe("1. e5", events_seen=3)
    rec.mark_new_game(at_event=5)
    assert rec.observe("1. e5 ; d4", events_seen=4) == first
    second = rec.observe('[Result "*"]\n', events_seen=5)
    assert second != first
    assert rec.observe("1. c3", events_seen=7) == second
    assert [g["n_moves"] for g in db.list_games()] == [2, 1]


def test_a_won_game_keeps_its_result_moves_with_voina_and_exports_as_n2(db):
    rec = Recorder(db)
    gid = rec.observe(GAME)
    g = db.game(gid)
    assert g["result"] == "NS" and g["ended_at"]
    assert [m["notation"] for m in g["moves"]][14:17] == ["e8 (v)", "e8->e6", "e6xf7"]
    text = db.export_record(gid)
    assert '[Result "NS"]' in text and "[Date " in text
    assert parse_record(text).moves == parse_record(GAME).moves


def test_a_game_from_a_set_up_position_keeps_its_start(db):
    start = "........./........./........./........./........./........./........./" \
        "...1...../....3.... ns 32 0 0"
    rec = Recorder(db)
    gid = rec.observe('[Position "%s"]\n\n1. e1xd2' % start)
    text = db.export_record(gid)
    assert start in text
    assert parse_record(text).final_position().heights[4] == 0


def test_unknown_game_is_a_clear_error(db):
    with pytest.raises(GamesDBError, match="no game 42"):
        db.export_record(42)


def test_xobo_games_list_show_export(db, tmp_path, capsys):
    Recorder(db).observe("1. e5 ; d4")
    path = db.path
    assert main(["records", "--db", path, "list"]) == 0
    out = capsys.readouterr().out
    assert "   1" in out and "  2  " in out
    assert main(["records", "--db", path, "show", "1"]) == 0
    assert "e5" in capsys.readouterr().out
    dest = tmp_path / "g.txt"
    assert main(["records", "--db", path, "export", "1", "--out", str(dest)]) == 0
    assert "1. e5 ; d4" in dest.read_text()
    assert main(["records", "--db", path, "export", "9"]) == 1
    assert "no game 9" in capsys.readouterr().err
    assert main(["records", "--db", str(tmp_path / "none.sqlite"), "list"]) == 1


def test_the_database_records_which_game_and_its_parameters(db):
    gid = Recorder(db).observe('[Variant "kv"]\n[First "EW"]\n[Result "*"]\n\n1. e5')
    g = db.game(gid)
    assert (g["game"], g["params"], g["first"]) == ("xobo", "variant=kv first=EW", "ew")
    assert g["tags"] == '[Variant "kv"]\n[First "EW"]'
    assert '[Variant "kv"]' in db.export_record(gid)


def test_a_database_written_before_games_had_names_gets_the_columns(tmp_path):
    import sqlite3

    path = str(tmp_path / "old.sqlite")
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL,"
        " updated_at TEXT NOT NULL, ended_at TEXT, source TEXT NOT NULL DEFAULT '',"
        " variant TEXT NOT NULL DEFAULT 'xobo', first TEXT NOT NULL DEFAULT 'NS',"
        " start_position TEXT, result TEXT NOT NULL DEFAULT '*');"
        "INSERT INTO games (started_at, updated_at) VALUES ('2024-01-01T00:00:00Z',"
        " '2024-01-01T00:00:00Z');")
    conn.commit()
    conn.close()
    d = GamesDB(path)
    try:
        assert d.game(1)["game"] == "xobo"
    finally:
        d.close()


def test_xobo_games_list_names_the_game(tmp_path, capsys):
    path = str(tmp_path / "games.sqlite")
    d = GamesDB(path)
    Recorder(d).observe("1. e5")
    Recorder(d).observe('[Game "X"]\n[Size "5"]\n\n1. c3', game="x")
    d.close()
    assert main(["records", "--db", path, "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["id", "game"]
    assert out[0].split()[-1] == "parameters"
    assert out[1].split()[1] == "xobo" and out[1].endswith("  variant=xobo first=NS")
    assert out[2].split()[1] == "x" and out[2].endswith("  size=5")


def test_a_database_of_the_xobo_only_days_reads_its_rows_as_xobo_games(tmp_path, capsys):
    import sqlite3

    path = str(tmp_path / "old.sqlite")
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL,"
        " updated_at TEXT NOT NULL, ended_at TEXT, source TEXT NOT NULL DEFAULT '',"
        " game TEXT NOT NULL DEFAULT 'xobo', params TEXT NOT NULL DEFAULT '',"
        " variant TEXT NOT NULL DEFAULT 'xobo', first TEXT NOT NULL DEFAULT 'NS',"
        " start_position TEXT, result TEXT NOT NULL DEFAULT '*');"
        "CREATE TABLE moves (game_id INTEGER NOT NULL, ply INTEGER NOT NULL, notation TEXT NOT"
        " NULL, played_at TEXT NOT NULL, PRIMARY KEY (game_id, ply));"
        "INSERT INTO games (started_at, updated_at, params, variant, first) VALUES"
        " ('2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 'variant=kv', 'kv', 'EW');"
        "INSERT INTO moves VALUES (1, 1, 'e5', '2024-01-01T00:00:00Z');"
        "INSERT INTO moves VALUES (1, 2, 'd4 (v)', '2024-01-01T00:00:00Z');")
    conn.commit()
    conn.close()
    assert main(["records", "--db", path, "export", "1"]) == 0  # read-only: not migrated
    out = capsys.readouterr().out
    assert '[Variant "kv"]' in out and '[First "EW"]' in out and "1. e5 ; d4" in out
    d = GamesDB(path)  # the monitor adds the columns and records on
    try:
        assert d.game(1)["params"] == "variant=kv"
        assert "1. e5 ; d4" in d.export_record(1)
    finally:
        d.close()
