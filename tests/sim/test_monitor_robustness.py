"""The monitor keeps going on a board's odd replies ('²', '３５', '٠' in a position or a record),
and a games database that is not SQLite is an 'error: ...' line, not a traceback."""

import queue
import time

import pytest

from xobo import games
from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB, GamesDBError, Recorder
from xobo_host.sim.monitor import MonitorBackend

from .linkfake import ScriptedLink

GOOD = ("........./........./........./........./....1..../........./........./"
        "........./......... ew 35 0 0")
RECORD = ['ok [Variant "xobo"]', 'ok [First "NS"]', 'ok [Result "*"]', "ok 1. e5", "ok end"]


class ScriptedBoard(ScriptedLink):
    """A link whose 'position' and 'record' replies come from queues (the last one repeats)."""

    def __init__(self, positions, records):
        self.positions = queue.Queue()
        for p in positions:
            self.positions.put(p)
        self.records = records
        self.last = positions[-1]
        self.on_event = None
        self.closed = False
        self.asked = 0

    def command(self, line, timeout=3.0):
        if line == "follow on":
            return ["ok follow on"]
        if line == "position":
            self.asked += 1
            try:
                self.last = self.positions.get_nowait()
            except queue.Empty:
                pass
            return ["ok " + self.last]
        if line == "record":
            return list(self.records)
        return ["error unknown command '%s' (try help)" % line]


@pytest.mark.parametrize("odd", ["3²", "３５", "٠"])
def test_a_position_with_non_ascii_digits_at_start_does_not_stop_the_monitor(tmp_path, odd):
    link = ScriptedBoard([GOOD.replace("35", odd)], RECORD)
    db = GamesDB(str(tmp_path / "g.sqlite"))
    backend = MonitorBackend(link, recorder=Recorder(db, "pty"), poll_s=0.05)
    try:
        backend.start()  # raised ValueError from int() and 'xobo monitor' exited
        snap = backend.snapshot()
        assert snap["counts"] == [0] * 81  # not a position: nothing drawn from it
    finally:
        backend.stop()
        db.close()


def test_odd_replies_later_do_not_kill_the_polling_thread(tmp_path):
    odd_record = ['ok [Variant "xobo"]', "ok 1². e5", "ok end"]
    link = ScriptedBoard([GOOD, GOOD.replace("35", "３５"), GOOD.replace("35", "3²"), GOOD],
                         RECORD)
    db = GamesDB(str(tmp_path / "g.sqlite"))
    backend = MonitorBackend(link, recorder=Recorder(db, "pty"), poll_s=0.02)
    try:
        backend.start()
        link.records = odd_record
        deadline = time.monotonic() + 5
        while link.asked < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert link.asked >= 6, "the polling thread stopped"
        assert "the board's record cannot be read" in backend.snapshot()["last_error"]
        link.records = RECORD
        while backend.snapshot()["counts"][40] != 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert backend.snapshot()["counts"][40] == 1  # the good position shows again
    finally:
        backend.stop()
        db.close()


def test_a_games_file_that_is_not_sqlite_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "notes.txt"
    bad.write_text("these are my notes, not a database\n" * 20)
    with pytest.raises(GamesDBError, match="is not a games database"):
        GamesDB(str(bad))
    assert main(["records", "--db", str(bad), "list"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: %s is not a games database (SQLite)" % bad)
    assert main(["monitor", "--port", str(tmp_path / "nothing"), "--no-browser",
                 "--db", str(bad)]) == 1
    assert capsys.readouterr().err.startswith("error: %s is not a games database" % bad)


class TinyBoard(ScriptedBoard):
    """A board playing the test game (a 3 x 3 game): its record is the board's own TN3 text,
    or, for a game without a record notation, the board's error."""

    def __init__(self, positions, record_lines=None):
        ScriptedBoard.__init__(self, positions, [])
        self.record_lines = record_lines

    def command(self, line, timeout=3.0):
        if line == "settings":
            return ["ok game tiny", "ok first x", "ok end"]
        if line == "record":
            if self.record_lines is None:
                return ["error Three in a row (the test game) has no record notation: ask for"
                        " the position"]
            return ["ok " + x for x in self.record_lines] + ["ok end"]
        return ScriptedBoard.command(self, line, timeout)


def test_a_tiny_game_is_mirrored_and_recorded(tmp_path):
    tiny = games.load("tiny")
    pos = tiny.new_position(tiny.DEFAULTS)
    for text in ("b2", "c3", "a3"):
        pos.play(pos.parse_move(text))
    link = TinyBoard([pos.to_string()], tiny.record_text(pos).rstrip("\n").split("\n"))
    db = GamesDB(str(tmp_path / "g.sqlite"))
    backend = MonitorBackend(link, recorder=Recorder(db, "pty"), poll_s=60)
    try:
        backend.start()
        snap = backend.snapshot()
        assert snap["state"]["game"] == "tiny" and snap["state"]["side"] == "o"
        assert snap["recording"] == "" and snap["last_error"] == ""
        [g] = db.list_games()
        assert g["game"] == "tiny" and g["first"] == "x" and g["result"] == "*"
        assert [m["notation"] for m in db.moves(g["id"])] == ["b2", "c3", "a3"]
        assert snap["game_id"] == g["id"]
    finally:
        backend.stop()
        db.close()


def test_a_game_without_a_record_notation_is_mirrored_not_recorded(tmp_path, monkeypatch):
    # every game has a record notation now: the test game without its record module stands in
    monkeypatch.delitem(games.load("tiny").PARTS, "records")
    link = TinyBoard(["x.o/.x./... o"])
    db = GamesDB(str(tmp_path / "g.sqlite"))
    backend = MonitorBackend(link, recorder=Recorder(db, "pty"), poll_s=60)
    try:
        backend.start()
        snap = backend.snapshot()
        assert snap["state"]["game"] == "tiny" and snap["state"]["side"] == "o"
        assert snap["state"]["area"]["cells"][0] == "d4"  # a 3 x 3 game on the 9 x 9 board
        assert sum(snap["counts"]) == 3 and snap["last_error"] == ""
        assert snap["recording"] == "tiny has no record notation: its games are not recorded"
        assert db.list_games() == []
    finally:
        backend.stop()
        db.close()


class RestartingBoard(ScriptedBoard):
    """A board that forgets 'follow on' when it restarts (a game switch on a stock firmware,
    its watchdog)."""

    def __init__(self, positions, records):
        ScriptedBoard.__init__(self, positions, records)
        self.following = False

    def command(self, line, timeout=3.0):
        if line == "follow on":
            self.following = True
        return ScriptedBoard.command(self, line, timeout)


def test_the_monitor_follows_a_board_again_after_the_board_restarted(tmp_path):
    link = RestartingBoard([GOOD], RECORD)
    mon = MonitorBackend(link)
    mon.start()
    try:
        assert link.following
        link.following = False  # the board restarted
        mon.refresh()
        assert link.following
    finally:
        mon.stop()
