"""``xobo games`` lists the games the firmware hosts; ``xobo records`` reads the games
database, its options anywhere after ``records``."""

from xobo import games
from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB, Recorder

XOBO = '[Variant "xobo"]\n[First "NS"]\n[Result "*"]\n\n%s\n'


def test_xobo_games_lists_every_hosted_game_with_players_boards_and_rules_page(capsys):
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line for line in lines[1:]}
    assert sorted(rows) == sorted(games.available())
    for name in games.available():
        pkg = games.load(name)
        assert " %d " % pkg.PLAYERS in rows[name]
        assert "docs/rules/%s.md" % name in rows[name]
    # Brochs's 15x15 fits only the 15x15 board; XoBo fits the 9x9 ones too
    assert "pico_gpio" not in rows["brochs"] and "pico_15x15" in rows["brochs"]
    assert "pico_gpio" in rows["xobo"]


def test_records_options_go_before_or_after_the_action(tmp_path, capsys):
    path = str(tmp_path / "g.sqlite")
    db = GamesDB(path)
    Recorder(db, "terrace-1").observe(XOBO % "1. e5 ; d4", "xobo")
    db.close()
    out = tmp_path / "r.txt"
    assert main(["records", "export", "1", "--db", path, "--out", str(out)]) == 0
    assert "1. e5 ; d4" in out.read_text()
    assert main(["records", "--db", path, "export", "1"]) == 0
    assert "1. e5 ; d4" in capsys.readouterr().out
    assert main(["records", "list", "--table", "terrace-1", "--db", path]) == 0
    assert "terrace-1" in capsys.readouterr().out
    assert main(["records", "show", "1", "--db", path]) == 0
    assert "e5" in capsys.readouterr().out


def test_records_show_says_the_table_its_board_and_how_the_game_ended(tmp_path, capsys):
    path = str(tmp_path / "g.sqlite")
    db = GamesDB(path)
    rec = Recorder(db, "terrace-1", board_id="5f3a0c11d2e4b697")
    rec.observe(XOBO % "1. e5", "xobo")
    rec.end_said("xobo", 1, "ew ns-resigned")
    db.close()
    assert main(["records", "show", "1", "--db", path]) == 0
    out = capsys.readouterr().out
    assert "table terrace-1 (board 5f3a0c11d2e4b697)" in out
    assert "(ew ns-resigned)" in out and "result EW" in out  # (the record's own word)
