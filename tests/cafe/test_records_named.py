"""One game, one record, exactly, for a board that names its games (``[GameId]`` in its
record, docs/protocol.md): the record of (board id, game id) holds exactly the board's moves,
whatever the host saw of them (undos back to the start while it was away, a new game begun
with the same moves as the last); a board that names none is recorded by its moves as before;
a database from before game ids opens, and is given the column when it is recorded into."""

import sqlite3

from xobo.runtime.virtual_board import VirtualBoard
from xobo_host.records.gamesdb import GamesDB, Recorder

BOARD = "00000000000000aa"
NAMED = '[Variant "xobo"]\n[First "NS"]\n[Result "*"]\n[GameId "%s"]\n\n%s\n'
UNNAMED = '[Variant "xobo"]\n[First "NS"]\n[Result "*"]\n\n%s\n'


def _board_record(vb):
    """The board's ``record`` reply as text (the protocol drops the blank line after the
    tags, as the café's monitor puts it back)."""
    lines = [x[3:] for x in vb.command("record")[:-1]]
    k = 0
    while k < len(lines) and lines[k][:1] == "[":
        k += 1
    return "\n".join(lines[:k] + [""] + lines[k:]) + "\n"


def _moves(db, game_id):
    return [m["notation"] for m in db.moves(game_id)]


def test_undos_back_to_the_start_while_the_host_is_away_then_more_moves_stay_one_record(
        tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id=BOARD)
    assert rec.observe(NAMED % ("0a0b0c0d0e0f", "1. e5 ; d4 2. e4"), "xobo") == 1
    # the host restarts; meanwhile the players took every move back and played another
    again = Recorder(db, "bar", board_id=BOARD).resume()
    assert again.observe(NAMED % ("0a0b0c0d0e0f", "1. c3"), "xobo") == 1
    assert _moves(db, 1) == ["c3"]  # exactly the board's moves, in the game's own record
    assert again.observe(NAMED % ("0a0b0c0d0e0f", "1. c3 ; d4"), "xobo") == 1
    # undone to the start, seen or not: the record holds no move, and is still the game's
    assert again.observe(NAMED % ("0a0b0c0d0e0f", ""), "xobo") == 1
    assert [(g["id"], g["n_moves"], g["token"]) for g in db.list_games()] == [
        (1, 0, "0a0b0c0d0e0f")]
    db.close()


def test_two_games_with_the_same_first_moves_are_two_records(tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id=BOARD)
    assert rec.observe(NAMED % ("000000000001", "1. e5 ; d4"), "xobo") == 1
    # a new game begun and played to the same moves while nobody followed the board (no
    # 'event new' seen): its own id tells it from the last
    assert rec.observe(NAMED % ("000000000002", "1. e5 ; d4 2. e4"), "xobo") == 2
    again = Recorder(db, "bar", board_id=BOARD).resume()
    assert again.observe(NAMED % ("000000000003", "1. e5"), "xobo") == 3
    assert [(g["n_moves"], g["token"]) for g in db.list_games()] == [
        (2, "000000000001"), (3, "000000000002"), (1, "000000000003")]
    db.close()


def test_a_game_resumed_while_the_host_was_away_continues_its_own_record(tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id=BOARD)
    rec.observe(NAMED % ("00000000000a", "1. e5 ; d4"), "xobo")
    x = '[Game "X"]\n[Size "8"]\n[Result "*"]\n[Score "0-0-0"]\n[GameId "00000000000b"]\n'
    assert rec.observe(x, "x") == 2
    again = Recorder(db, "bar", board_id=BOARD).resume()  # the host restarted on X's game
    # XoBo's game resumed (set game xobo) and taken back to its first move meanwhile
    assert again.observe(NAMED % ("00000000000a", "1. e5"), "xobo") == 1
    assert _moves(db, 1) == ["e5"] and len(db.list_games()) == 2
    # another board's game of the same id is its own record
    other = Recorder(db, "bar", board_id="00000000000000bb")
    assert other.observe(NAMED % ("00000000000a", "1. e5"), "xobo") == 3
    db.close()


def test_a_board_that_names_no_game_is_recorded_by_its_moves_as_before(tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id=BOARD)
    assert rec.observe(UNNAMED % "1. e5 ; d4", "xobo") == 1
    assert rec.observe(UNNAMED % "1. e5 ; d4 2. e4", "xobo") == 1  # continues it
    assert rec.observe(UNNAMED % "1. e5", "xobo") == 1  # an undo seen: shortened
    rec.mark_new_game()
    assert rec.observe(UNNAMED % "1. e5", "xobo") == 2  # 'event new': a new record
    assert [(g["n_moves"], g["token"]) for g in db.list_games()] == [(1, ""), (1, "")]
    # a named game's record is never taken for an unnamed record's (a lesson's moves)
    assert rec.observe(NAMED % ("0000000000cc", "1. e5 ; d4"), "xobo") == 3
    assert rec.observe(UNNAMED % "1. e5 ; d4 2. e4", "xobo") != 3
    assert _moves(db, 3) == ["e5", "d4"]
    db.close()


def test_a_resignation_the_board_s_record_says_is_the_record_s_result_and_end(tmp_path):
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id=BOARD)
    text = ('[Variant "xobo"]\n[First "NS"]\n[Result "EW"]\n'
            '[Termination "ew ns-resigned"]\n[GameId "00000000000d"]\n\n1. e5\n')
    assert rec.observe(text, "xobo", at="2026-11-25T20:01:00Z") == 1
    g = db.list_games()[0]
    assert (g["result"], g["ending"], g["ended_at"], g["n_moves"]) == (
        "EW", "ew ns-resigned", "2026-11-25T20:01:00Z", 1)
    out = db.export_record(1)
    assert '[Result "EW"]' in out and '[Termination "ew ns-resigned"]' in out, out
    assert '[GameId "00000000000d"]' in out
    # a host that learnt it from 'state' only: the export says the same
    rec2 = Recorder(db, "terrace", board_id="00000000000000bb")
    rec2.observe(NAMED % ("00000000000e", "1. e5"), "xobo")
    rec2.end_said("xobo", 1, "ew ns-resigned")
    out = db.export_record(2)
    assert '[Result "EW"]' in out and '[Termination "ew ns-resigned"]' in out, out
    db.close()


def test_the_board_s_own_records_keep_one_record_a_game_through_undos_to_the_start(tmp_path):
    """The virtual board's replies, as the café's monitor reads them."""
    vb = VirtualBoard()
    vb.advance(50)
    db = GamesDB(str(tmp_path / "g.sqlite"))
    rec = Recorder(db, "bar", board_id=BOARD)

    def record():
        return rec.observe(_board_record(vb), "xobo")

    for cell in ("e5", "d4"):
        vb.put(cell)
        vb.advance(1500)
    assert record() == 1
    # while the host is away: both moves taken back, the pieces lifted, the same moves again
    away = Recorder(db, "bar", board_id=BOARD).resume()
    vb.command("undo")
    vb.command("undo")
    vb.lift("d4")
    vb.lift("e5")
    vb.advance(1500)
    for cell in ("e5",):
        vb.put(cell)
        vb.advance(1500)
    rec = away
    assert record() == 1 and _moves(db, 1) == ["e5"]
    vb.command("new")  # a new game: a new record, whatever its moves
    vb.lift("e5")
    vb.advance(1500)
    vb.put("e5")
    vb.advance(1500)
    assert record() == 2 and _moves(db, 2) == ["e5"] and _moves(db, 1) == ["e5"]
    db.close()


OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, ended_at TEXT, source TEXT NOT NULL DEFAULT '',
    game TEXT NOT NULL DEFAULT 'xobo', params TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '', variant TEXT NOT NULL DEFAULT '',
    first TEXT NOT NULL DEFAULT '', start_position TEXT, result TEXT NOT NULL DEFAULT '*',
    board_id TEXT NOT NULL DEFAULT '', ending TEXT NOT NULL DEFAULT '');
CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL, notation TEXT NOT NULL, played_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply));
CREATE TABLE boards (board_id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '',
    seen_at TEXT NOT NULL DEFAULT '', selftest TEXT NOT NULL DEFAULT '',
    selftest_at TEXT NOT NULL DEFAULT '');
INSERT INTO games (started_at, updated_at, source, game, tags, first, board_id)
    VALUES ('2026-11-25T20:00:00Z', '2026-11-25T20:00:00Z', 'terrace-1', 'xobo',
            '[Variant "xobo"]' || char(10) || '[First "NS"]', 'NS', '00000000000000aa');
INSERT INTO moves VALUES (1, 1, 'e5', '2026-11-25T20:00:00Z');
"""


def test_a_database_from_before_game_ids_opens_and_is_migrated_when_recorded_into(tmp_path):
    path = str(tmp_path / "old.sqlite")
    conn = sqlite3.connect(path)
    conn.executescript(OLD_SCHEMA)
    conn.commit()
    conn.close()
    ro = GamesDB(path, readonly=True)  # read as it is, not changed
    assert [(g["n_moves"], g["token"]) for g in ro.list_games()] == [(1, "")]
    assert ro.game_of_token(BOARD, "00000000000f") is None
    ro.close()
    db = GamesDB(path)  # a recorder's: the column added
    assert "token" in db.columns
    rec = Recorder(db, "terrace-1", board_id=BOARD).resume()
    assert rec.game_id == 1
    # the old row names no game: the board's first named game is a record of its own
    assert rec.observe(NAMED % ("000000000010", "1. e5 ; d4"), "xobo") == 2
    assert [(g["n_moves"], g["token"]) for g in db.list_games()] == [
        (1, ""), (2, "000000000010")]
    db.close()
