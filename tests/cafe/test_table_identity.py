"""A table is its board: the floor knows it by the board's own id, its name is a label.
Renaming rewrites no record, a game left and resumed is one record, every end of a game
(a resignation too) reaches the floor and the record, replies are matched to the command
that asked whatever else is typed on the link (stand-in boards behind ptys)."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board, play_move
from xobo_host.cafe.floor import Floor
from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB


@pytest.fixture
def floor_of(tmp_path):
    made = []

    def make(ports):
        floor = Floor(str(tmp_path / "games.sqlite"), ports=ports, scan_usb=False, scan_s=0.2,
                      poll_s=0.5).start()
        made.append(floor)
        return floor

    yield make
    for floor in made:
        floor.stop()


def _view(floor, key, full=False):
    table = floor.table(key)
    return table.view(full=full) if table is not None else {}


def _games(db):
    return [(g["source"], g["game"], [m["notation"] for m in db.game(g["id"])["moves"]],
             g["result"]) for g in db.list_games()]


def test_a_renamed_table_keeps_its_records_under_the_name_they_were_played_under(
        tmp_path, floor_of, capsys):
    board = named_board(tmp_path, "terrace-3")
    floor = floor_of([board.device])
    db = GamesDB(str(tmp_path / "games.sqlite"))
    try:
        wait_for(lambda: _view(floor, "terrace-3").get("online"), "terrace-3 online")
        board_id = floor.table("terrace-3").board_id
        assert len(board_id) == 16
        play_move(board, "e5")
        wait_for(lambda: _games(db) == [("terrace-3", "xobo", ["e5"], "*")], "e5 recorded")
        floor.rename(floor.table("terrace-3"), "garden-1")
        assert floor.keys() == ["garden-1"]
        assert floor.table("garden-1").board_id == board_id
        play_move(board, "d4")
        # the game goes on in its record, under the name it was played under
        wait_for(lambda: _games(db) == [("terrace-3", "xobo", ["e5", "d4"], "*")],
                 "d4 recorded in the same record")
        board.play("serial new")
        board.play("lift e5")
        board.play("lift d4")
        play_move(board, "c3")
        wait_for(lambda: _games(db)[1:] == [("garden-1", "xobo", ["c3"], "*")],
                 "the next game recorded under the new name")
        # either name finds the table's records: the old one the game it was played under,
        # the new one the board's (renamed, it is the same table)
        assert [g["source"] for g in db.list_games(source="terrace-3")] == ["terrace-3"]
        assert [g["source"] for g in db.list_games(source="garden-1")] == ["terrace-3",
                                                                          "garden-1"]
        assert [g["board_id"] for g in db.list_games()] == [board_id, board_id]
        assert main(["records", "list", "--table", "terrace-3", "--db",
                     str(tmp_path / "games.sqlite")]) == 0
        assert "terrace-3" in capsys.readouterr().out
    finally:
        db.close()
        board.unplug()


def test_a_game_left_for_another_and_resumed_is_one_record(tmp_path, floor_of):
    board = named_board(tmp_path, "bar-2")
    floor = floor_of([board.device])
    db = GamesDB(str(tmp_path / "games.sqlite"))
    try:
        wait_for(lambda: _view(floor, "bar-2").get("online"), "bar-2 online")
        table = floor.table("bar-2")
        for cell in ("e5", "d4", "e4"):
            play_move(board, cell)
        wait_for(lambda: _games(db) == [("bar-2", "xobo", ["e5", "d4", "e4"], "*")],
                 "three moves recorded")
        table.action({"action": "game", "value": "x"})
        wait_for(lambda: _view(floor, "bar-2").get("game") == "x", "x played")
        table.action({"action": "game", "value": "xobo"})  # XoBo's game resumed
        wait_for(lambda: _view(floor, "bar-2").get("game") == "xobo"
              and _view(floor, "bar-2").get("ply") == 3, "XoBo resumed")
        play_move(board, "c3")
        wait_for(lambda: [g for g in _games(db) if g[1] == "xobo"]
              == [("bar-2", "xobo", ["e5", "d4", "e4", "c3"], "*")],
              "the resumed game's move in its own record")
        assert [g[1] for g in _games(db)].count("xobo") == 1
    finally:
        db.close()
        board.unplug()


def test_a_resignation_reaches_the_floor_and_the_record_with_its_end_time(tmp_path,
                                                                          floor_of):
    board = named_board(tmp_path, "snug-4")
    floor = floor_of([board.device])
    db = GamesDB(str(tmp_path / "games.sqlite"))
    try:
        wait_for(lambda: _view(floor, "snug-4").get("online"), "snug-4 online")
        play_move(board, "e5")
        wait_for(lambda: _games(db) == [("snug-4", "xobo", ["e5"], "*")], "e5 recorded")
        board.play("serial resign ns ew")  # typed on the board's link: no host asked
        wait_for(lambda: _view(floor, "snug-4").get("health") == "over", "over on the floor")
        view = _view(floor, "snug-4")
        assert view["result"] == "ew" and "ns resigned" in view["result_text"]
        wait_for(lambda: db.list_games()[0]["ended_at"] is not None, "the record ended")
        g = db.list_games()[0]
        # (the record's own word for the winner, as the board's record says it)
        assert (g["result"], g["ending"]) == ("EW", "ew ns-resigned")
        assert '[Termination "ew ns-resigned"]' in db.export_record(g["id"])
    finally:
        db.close()
        board.unplug()


def test_replies_typed_on_the_link_never_leave_a_table_wrong(tmp_path, floor_of):
    """Someone types commands on a board's serial link while the host follows it: their
    replies (no request id) are set aside, the floor shows the board as it is."""
    board = named_board(tmp_path, "loud-1")
    floor = floor_of([board.device])
    try:
        wait_for(lambda: _view(floor, "loud-1").get("online"), "loud-1 online")
        play_move(board, "e5")
        play_move(board, "d4")
        for line in ("state", "position", "record", "settings", "version", "boot", "leds",
                     "state"):
            board.play("serial " + line)  # each answered on the link, untagged
        play_move(board, "e4")
        wait_for(lambda: _view(floor, "loud-1").get("ply") == 3, "the floor at ply 3")
        link = floor.table("loud-1").conn.link
        wait_for(lambda: link.stray_lines >= 8, "the typed replies set aside")
        board.play("serial state")
        play_move(board, "c3")
        wait_for(lambda: _view(floor, "loud-1").get("ply") == 4, "the floor at ply 4")
        assert _view(floor, "loud-1")["error"] == ""
    finally:
        board.unplug()


def test_two_boards_with_one_name_are_two_tables(tmp_path, floor_of):
    a = named_board(tmp_path / "a", "twin")
    b = named_board(tmp_path / "b", "twin")
    floor = floor_of([a.device, b.device])
    try:
        wait_for(lambda: len([v for v in floor.views() if v["online"]]) == 2, "both online")
        ids = {floor.table(k).board_id for k in floor.keys()}
        assert len(ids) == 2
        assert "twin" in floor.keys()
        other = [k for k in floor.keys() if k != "twin"][0]
        assert other.startswith("twin@")
    finally:
        a.unplug()
        b.unplug()
