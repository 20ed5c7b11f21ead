"""``xobo cafe``'s floor: boards found on their ports and followed by their table names,
unplugged and plugged back elsewhere, every game recorded (the firmware behind ptys: the
serial stand-in's --pty mode)."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board, play_move
from xobo_host.cafe.floor import Floor
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


def _view(floor, key):
    """The floor's view of table ``key``, {} while its board has not said hello (a wait
    reads it with .get: on a loaded machine the other table may come first)"""
    table = floor.table(key)
    return table.view() if table is not None else {}


def test_boards_appear_on_the_floor_by_name_and_go_offline_when_unplugged(tmp_path, floor_of):
    a = named_board(tmp_path, "terrace-1")
    b = named_board(tmp_path, "terrace-2")
    floor = floor_of([a.device, b.device])
    try:
        wait_for(lambda: {v["key"] for v in floor.views() if v["online"]} == {"terrace-1",
                                                                           "terrace-2"},
                                                                           "both tables online")
        assert _view(floor, "terrace-1")["health"] == "playing"
        assert _view(floor, "terrace-1")["game"] == "xobo"
        b.unplug()
        wait_for(lambda: _view(floor, "terrace-2").get("health") == "offline", "terrace-2 offline")
        assert _view(floor, "terrace-1")["online"]
        # the offline table still shows its board as last seen
        assert _view(floor, "terrace-2")["board"]["counts"]
    finally:
        a.unplug()
        b.unplug()


def test_a_board_unplugged_mid_game_and_plugged_back_on_another_port_is_the_same_table(
        tmp_path, floor_of):
    board = named_board(tmp_path, "bar-1")
    floor = floor_of([board.device])
    try:
        wait_for(lambda: _view(floor, "bar-1").get("online"), "bar-1 online")
        play_move(board, "e5")
        wait_for(lambda: _view(floor, "bar-1").get("ply") == 1, "e5 on the floor")
        first_port = board.device
        board.unplug()
        wait_for(lambda: not _view(floor, "bar-1")["online"], "bar-1 offline")
        board.plug()  # (on another port: a stand-in's path is new at every plug)
        assert board.device != first_port
        play_move(board, "d4")  # played while the host did not see the board
        floor.add_port(board.device)
        wait_for(lambda: _view(floor, "bar-1").get("online")
              and _view(floor, "bar-1").get("ply") == 2, "bar-1 back with d4")
        assert _view(floor, "bar-1")["device"] == board.device
        assert [v["key"] for v in floor.views()] == ["bar-1"]
        db = GamesDB(str(tmp_path / "games.sqlite"))
        wait_for(lambda: [m["notation"] for m in db.moves(1)] == ["e5", "d4"],
                 "one record with both moves")
        assert len(db.list_games()) == 1
        db.close()
    finally:
        board.unplug()


def test_every_game_of_every_table_is_recorded_and_unfinished_ones_kept_as_such(
        tmp_path, floor_of):
    a = named_board(tmp_path, "t1")
    b = named_board(tmp_path, "t2")
    b.play("serial set game tiny")
    floor = floor_of([a.device, b.device])
    db = GamesDB(str(tmp_path / "games.sqlite"))
    try:
        wait_for(lambda: _view(floor, "t2").get("game") == "tiny", "t2 plays tiny")
        play_move(a, "e5")
        play_move(a, "d4")
        wait_for(lambda: _view(floor, "t1").get("ply") == 2, "two moves at t1")
        a.play("serial new")  # the game at t1 is left unfinished
        a.play("lift e5")
        a.play("lift d4")
        play_move(a, "c3")
        db_games = None

        def recorded():
            nonlocal db_games
            db_games = {(g["source"], g["game"], g["n_moves"], g["result"])
                        for g in db.list_games()}
            return ("t1", "xobo", 2, "*") in db_games and ("t1", "xobo", 1, "*") in db_games

        wait_for(recorded, "both games of t1 recorded")
        # t2 plays three in a row to its end (the game sits on d4-f6 of the board)
        for cell in ("d4", "e4", "d5", "e5", "d6"):
            play_move(b, cell)
        wait_for(lambda: _view(floor, "t2").get("health") == "over", "t2's game over")
        assert _view(floor, "t2")["result"] == "x"
        # the test game is recorded too, in its own notation (TN3), with its result
        wait_for(lambda: [(g["game"], g["n_moves"], g["result"]) for g in
                       db.list_games(source="t2")] == [("tiny", 5, "x")],
                       "t2's game of tiny recorded to its end")
        assert floor.table("t2").view(full=True)["recording"] == ""
        t2 = db.export_record(db.list_games(source="t2")[0]["id"])
        assert '[Game "Three in a row"]' in t2 and "1. a1 b1 2. a2 b2 3. a3" in t2
        assert [g["source"] for g in db.list_games(source="t1")] == ["t1", "t1"]
        assert db.list_games(game="nope") == []
        assert "1. e5 ; d4" in db.export_record(db.list_games(source="t1")[0]["id"])
    finally:
        db.close()
        a.unplug()
        b.unplug()


def test_a_port_that_holds_no_board_is_no_table_and_the_floor_says_why(tmp_path, floor_of):
    import os
    import pty
    import tty

    master, slave = pty.openpty()  # a serial device where nothing answers
    tty.setraw(slave)
    try:
        floor = Floor(str(tmp_path / "games.sqlite"), ports=[os.ttyname(slave)],
                      scan_usb=False, scan_s=0.1, first_timeout=0.3).start()
        try:
            wait_for(lambda: floor.snapshot()["problems"], "the port's problem")
            assert "did not answer 'version'" in floor.snapshot()["problems"][os.ttyname(slave)]
            assert floor.views() == []
        finally:
            floor.stop()
    finally:
        os.close(master)
        os.close(slave)


def test_a_table_cannot_take_the_name_of_another_online_and_only_offline_ones_are_forgotten(
        tmp_path, floor_of):
    from xobo_host.sim.backend import ActionError

    a = named_board(tmp_path, "left")
    b = named_board(tmp_path, "right")
    floor = floor_of([a.device, b.device])
    try:
        wait_for(lambda: len([v for v in floor.views() if v["online"]]) == 2, "both online")
        with pytest.raises(ActionError, match="another table online is called right"):
            floor.rename(floor.table("left"), "right")
        with pytest.raises(ActionError, match="online: unplug its board first"):
            floor.forget(floor.table("left"))
        assert floor.rename(floor.table("left"), "centre")["reply"] == "name centre"
        assert floor.keys() == ["centre", "right"]
        b.unplug()
        wait_for(lambda: not floor.table("right").online, "right offline")
        floor.forget(floor.table("right"))
        assert floor.keys() == ["centre"]
    finally:
        a.unplug()
        b.unplug()
