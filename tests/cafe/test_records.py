"""The café's records: searched by table, game and day; a recorder that resumes (a host
restarted, a board plugged back) continues the same record instead of starting another."""

from xobo_host.cli import main
from xobo_host.gamesdb import GamesDB, Recorder

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
