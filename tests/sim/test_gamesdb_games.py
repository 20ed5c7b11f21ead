"""The games database records every game that has a record notation, in its own notation: the
game and its parameters are stored, ``xobo records list|show|export`` work for each, and an
export is the game's own record, replayed and checked by its rules."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xobo import games
from xobo.games import part
from xobo_host.cli.main import main
from xobo_host.records.gamerecords import GameRecordError, has_records, record_module
from xobo_host.records.gamesdb import GamesDB, Recorder

RECORDED = [g for g in games.GAMES if has_records(g)]
SETTINGS = {  # a game of each with other parameters than the defaults
    "xobo": {"variant": "kv", "first": "ew"},
    "x": {"size": 5, "first": "yellow"},
    "chain-reaction": {"field": 6, "target": 14, "first": "dark", "variant": "blockade"},
    "brochs": {"donjon": 6, "imprecation_choice": "white", "first": "white"},
    "tiny": {"first": "o"},
}


def _played(game, plies, seed=1, settings=None):
    """The board's record text after ``plies`` random legal moves (or the end)."""
    pkg = games.load(game)
    pos = pkg.new_position(dict(pkg.DEFAULTS, **(settings or {})))
    buf = part(pkg, "engine").new_move_buffer()
    rnd = random.Random(seed)
    texts = []
    for _ in range(plies):
        n = pos.legal_moves(buf)
        if n == 0:
            break
        m = buf[rnd.randrange(n)]
        texts.append(pos.move_text(m))
        pos.apply(m)
    return pkg.record_text(pos), pos


def _to_the_end(game, seed=3):
    pkg = games.load(game)
    pos = pkg.new_position(pkg.DEFAULTS)
    buf = part(pkg, "engine").new_move_buffer()
    rnd = random.Random(seed)
    while not pos.is_terminal():
        n = pos.legal_moves(buf)
        pos.apply(buf[rnd.randrange(n)])
    return pkg.record_text(pos), pos


@pytest.fixture
def db(tmp_path):
    d = GamesDB(str(tmp_path / "games.sqlite"))
    yield d
    d.close()


def test_every_game_has_a_record_format_the_test_game_too():
    assert set(RECORDED) == set(games.GAMES)
    assert record_module("tiny").__name__ == "xobo.games.tiny.record"


def test_a_game_without_a_record_module_is_said_to_have_no_record_notation(monkeypatch):
    monkeypatch.delitem(games.load("tiny").PARTS, "records")  # a stand-in for such a game
    with pytest.raises(GameRecordError, match="has no record notation"):
        record_module("tiny")
    assert not has_records("tiny")


@pytest.mark.parametrize("game", RECORDED)
def test_a_game_is_recorded_move_by_move_with_its_game_and_parameters(db, game):
    rec = Recorder(db, source="/dev/ttyACM0")
    gid = None
    for plies in range(0, 7):
        text, pos = _played(game, plies, settings=SETTINGS[game])
        got = rec.observe(text, game=game)
        gid = gid or got
        assert got == gid  # one game, growing
    g = db.game(gid)
    assert g["game"] == game and g["result"] == "*"
    assert g["first"] == SETTINGS[game]["first"]
    assert [m["ply"] for m in g["moves"]] == list(range(1, pos.ply + 1))
    assert g["moves"][0]["notation"].split()[0] == pos.move_text(pos.history()[0])
    for name, value in SETTINGS[game].items():  # its parameters, as its record writes them
        if name != "first":
            assert str(value) in g["tags"]
    exported = db.export_record(gid)
    assert record_module(game).parse_record(exported).final_position().to_string() \
        == pos.to_string()
    assert g["params"] and "[Date " in exported and '[Board "/dev/ttyACM0"]' in exported


@pytest.mark.parametrize("game", RECORDED)
def test_an_undo_and_a_new_game_of_every_game(db, game):
    rec = Recorder(db)
    five, _ = _played(game, 5)
    four, _ = _played(game, 4)
    gid = rec.observe(five, game=game)
    assert rec.observe(four, game=game) == gid
    assert len(db.moves(gid)) == 4
    rec.mark_new_game()
    start, _ = _played(game, 0)
    assert rec.observe(start, game=game) != gid


@pytest.mark.parametrize("game", RECORDED)
def test_a_finished_game_keeps_its_result_in_the_games_own_words(db, game):
    text, pos = _to_the_end(game)
    gid = Recorder(db).observe(text, game=game)
    g = db.game(gid)
    assert g["ended_at"] and g["result"] != "*"
    assert '[Result "%s"]' % g["result"] in text
    assert '[Result "%s"]' % g["result"] in db.export_record(gid)


def test_switching_games_on_the_board_starts_a_row_of_the_other_game(db):
    rec = Recorder(db)
    xobo, _ = _played("xobo", 3)
    x, _ = _played("x", 3)
    a = rec.observe(xobo, game="xobo")
    b = rec.observe(x, game="x")
    c = rec.observe(xobo, game="xobo")
    assert len({a, b, c}) == 3
    assert [g["game"] for g in db.list_games()] == ["xobo", "x", "xobo"]


def test_a_record_of_another_game_is_refused_saying_so(db):
    x, _ = _played("x", 3)
    with pytest.raises(GameRecordError, match="not a record of brochs"):
        Recorder(db).observe(x, game="brochs")
    assert db.list_games() == []


def test_other_parameters_are_another_game(db):
    rec = Recorder(db)
    a = rec.observe(_played("x", 0)[0], game="x")
    b = rec.observe(_played("x", 0, settings={"size": 6})[0], game="x")
    assert a == b  # an empty game that never started is reused for the new parameters
    assert db.game(a)["params"] == "size=6"
    rec.observe(_played("x", 2, settings={"size": 6})[0], game="x")
    c = rec.observe(_played("x", 1, settings={"size": 7})[0], game="x")
    assert c != a and db.game(c)["params"] == "size=7"


@pytest.mark.parametrize("game", RECORDED)
def test_xobo_games_list_show_export_for_every_game(tmp_path, capsys, game):
    path = str(tmp_path / "games.sqlite")
    d = GamesDB(path)
    text, pos = _played(game, 6, settings=SETTINGS[game])
    Recorder(d, "/dev/ttyACM0").observe(text, game=game)
    d.close()
    assert main(["records", "--db", path, "list"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:2] == ["1", game] and row[4:6] == ["6", "/dev/ttyACM0"]
    assert " ".join(row[6:]) == GamesDB(path, readonly=True).game(1)["params"]
    assert main(["records", "--db", path, "show", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game 1  %s " % game)
    assert "   6. " in out
    assert main(["records", "--db", path, "export", "1"]) == 0
    out = capsys.readouterr().out
    final = record_module(game).parse_record(out).final_position()
    assert final.to_string() == pos.to_string()


def test_a_tiny_game_from_a_set_up_position_is_recorded_with_its_start_and_exported(db):
    tiny = games.load("tiny")
    pos = tiny.parse_position("x../.o./... x", tiny.DEFAULTS)
    rec = Recorder(db, source="sim")
    gid = None
    for text in ("c1", "a2", "b1", "a1", "c2", "b3", "c3"):  # x wins on the file c (TE1)
        pos.play(pos.parse_move(text))
        got = rec.observe(tiny.record_text(pos), game="tiny")
        gid = gid or got
        assert got == gid  # one game, growing
    g = db.game(gid)
    assert g["game"] == "tiny" and g["first"] == "x"
    assert g["start_position"] == "x../.o./... x"
    assert [m["ply"] for m in g["moves"]] == list(range(1, pos.ply + 1))
    assert g["result"] == "x" and g["ended_at"]
    exported = db.export_record(gid)
    assert '[Position "x../.o./... x"]' in exported and '[Board "sim"]' in exported
    final = record_module("tiny").parse_record(exported).final_position()
    assert final.to_string() == pos.to_string()


def _prefix_records(game, settings, seed, plies):
    """The board's record after each of ``plies`` random legal moves (or to the end)."""
    pkg = games.load(game)
    pos = pkg.new_position(dict(pkg.DEFAULTS, **(settings or {})))
    buf = part(pkg, "engine").new_move_buffer()
    rnd = random.Random(seed)
    out = [pkg.record_text(pos)]
    for _ in range(plies):
        n = pos.legal_moves(buf)
        if n == 0:
            break
        pos.apply(buf[rnd.randrange(n)])
        out.append(pkg.record_text(pos))
    return out


@pytest.mark.parametrize("game", RECORDED)
@given(seed=st.integers(0, 10 ** 6), order=st.lists(st.integers(0, 10 ** 6), max_size=30),
       other=st.booleans())
@settings(max_examples=15, deadline=None)
def test_a_record_read_again_after_moves_or_undos_reads_as_one_read_alone(game, seed, order,
                                                                         other):
    """A record is read from where a reading of the same game left off (its moves' texts and
    end kept): whatever was read before (the same game further on or taken back, the game
    with other parameters), each reading says what reading that record alone says."""
    from xobo_host.records import gamerecords

    texts = _prefix_records(game, None, seed, 40)
    if other:  # (another game's parameters read between: never continued from)
        texts += _prefix_records(game, SETTINGS[game], seed, 10)
    for i in order:
        text = texts[i % len(texts)]
        read = gamerecords.read_record(game, text)
        with gamerecords.cleared_readings():
            alone = gamerecords.read_record(game, text)
        assert (read.tags, read.start, read.moves, read.result, read.finished) == \
            (alone.tags, alone.start, alone.moves, alone.result, alone.finished)
