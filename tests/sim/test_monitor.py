"""``xobo monitor`` against the firmware under the MicroPython unix port behind a pty.

The firmware (``xobo.runtime.unix_main``: virtual drivers, real time, the serial protocol on
stdin/stdout) talks through the master side of a pseudo-terminal; the monitor opens the slave
device with pyserial, as it would open /dev/ttyACM0. Cubes are moved with the unix port's
script lines (``!put e5``), so the board infers and commits the moves itself.
"""

import json
import os
import pty
import subprocess
import threading
import tty
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from xobo_testing import wait_for

from sim.simkit import start_xobo, stop_with_ctrl_c
from xobo_host.cli.main import main
from xobo_host.records.gamesdb import GamesDB, Recorder
from xobo_host.sim.monitor import LinkError, MonitorBackend, SerialLink
from xobo_host.sim.server import SimServer
from xobo_host.upy import micropython_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def board_tty(tmp_path):
    """The unix-port firmware on a pty; yields the slave device path."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    cmd, env = micropython_command(
        ["-m", "xobo.runtime.unix_main", "--flash", str(tmp_path / "flash")], heapsize="4M")
    proc = subprocess.Popen(
        cmd, stdin=master, stdout=master, stderr=subprocess.PIPE, env=env, cwd=str(tmp_path))
    os.makedirs(tmp_path / "flash", exist_ok=True)
    yield os.ttyname(slave)
    proc.kill()
    proc.wait(5)
    os.close(master)
    os.close(slave)


@pytest.fixture
def silent_tty():
    """A pty where no board answers; yields its device path."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_the_monitor_mirrors_a_board_on_a_serial_line_and_records_its_games(board_tty, tmp_path,
                                                                           capsys):
    link = SerialLink.open(board_tty)
    db = GamesDB(str(tmp_path / "games.sqlite"))
    backend = MonitorBackend(link, recorder=Recorder(db, source=board_tty), device=board_tty,
                             poll_s=0.3)
    server = None
    try:
        assert link.command("set settle 200")[0] == "ok settle 200"
        backend.start()

        def moves(gid=1):
            try:
                return [m["notation"] for m in db.moves(gid)]
            except Exception:
                return None

        # the board infers the moves from its switches; the monitor records them
        assert link.command("!put e5")[-1] == "ok"
        wait_for(lambda: moves() == ["e5"], what="e5 recorded")
        link.command("!put d4")
        wait_for(lambda: moves() == ["e5", "d4"], what="d4 recorded")
        assert link.command("undo")[0].startswith("ok undo")
        wait_for(lambda: moves() == ["e5"], what="the undo recorded")
        link.command("!lift d4")

        # a new game on the board is a new game in the database
        link.command("new")
        link.command("!lift e5")
        wait_for(lambda: backend.snapshot()["state"].get("inference", "match") == "match"
               and len(db.list_games()) == 2, what="the new game")
        link.command("!put c3")
        wait_for(lambda: moves(2) == ["c3"], what="c3 recorded in game 2")

        # the page mirrors it, read-only
        server = SimServer(backend).start()

        def page_state():
            with urllib.request.urlopen(server.url + "state", timeout=5) as r:
                return json.loads(r.read())

        snap = wait_for(lambda: (lambda s: s if s["counts"][20] == 1 else None)(page_state()),
                      what="the page shows c3")
        assert snap["mode"] == "monitor" and snap["device"] == board_tty
        # the mirror shows the board's own light (serial 'leds'): EW to move lights E and W
        snap = wait_for(lambda: (lambda s: s if s["leds_known"] else None)(page_state()),
                      what="the page shows the board's LEDs")
        assert snap["edges"]["E"] != "000000" and snap["edges"]["N"] == "000000"
        assert snap["counts"][20] == 1 and snap["state"]["side"] == "ew"
        assert "1. c3" in snap["state"]["record"]
        assert any("event move c3" in line for _, line in backend.events_after(0))
        req = urllib.request.Request(server.url + "action", method="POST",
                                     data=b'{"action": "put", "cell": "e5"}',
                                     headers={"Content-Type": "application/json",
                                              "Origin": server.url.rstrip("/")})
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(req, timeout=5)
        assert exc.value.code == 400 and b"read-only" in exc.value.read()
    finally:
        if server:
            server.stop()
        backend.stop()
        link.close()
        db.close()
    assert main(["records", "--db", str(tmp_path / "games.sqlite"), "export", "1"]) == 0
    assert "1. e5" in capsys.readouterr().out


def test_a_resting_record_is_read_before_a_host_command_starts_another_game(board_tty,
                                                                          tmp_path):
    """The café's mirror (``settle_s``) reads a board's position at its events and its
    record once it rests; a host's ``new`` or ``set game`` before it rests reads the record
    first, so the last moves of the game left are recorded."""
    link = SerialLink.open(board_tty)
    db = GamesDB(str(tmp_path / "games.sqlite"))
    # (a board that never rests for this long: only the new game's command reads the record)
    backend = MonitorBackend(link, recorder=Recorder(db, source=board_tty), device=board_tty,
                             poll_s=60, settle_s=60)

    def moves(gid):
        try:
            return [m["notation"] for m in db.moves(gid)]
        except Exception:
            return None

    try:  # (the board may still be booting)
        assert link.command("set settle 200", timeout=30)[0] == "ok settle 200"
        backend.start()
        link.command("!put e5")
        wait_for(lambda: backend.snapshot()["state"].get("ply") == 1,
               what="the move's position on the page")
        link.command("!put d4")
        wait_for(lambda: backend.snapshot()["state"].get("ply") == 2,
               what="the second move's position on the page")
        assert moves(1) == []  # (its record waits for the board to rest)
        link.command("new")  # (the game's record is read first, then the board starts anew)
        assert moves(1) == ["e5", "d4"]
        link.command("!lift e5")
        link.command("!lift d4")
        wait_for(lambda: backend.snapshot()["state"].get("inference") == "match",
               what="the pieces of the old game cleared")
        link.command("!put c3")
        wait_for(lambda: backend.snapshot()["state"].get("ply") == 1, what="c3 on the page")
        assert link.command("set game tiny")[0].startswith("ok game tiny")
        assert moves(2) == ["c3"]  # (a new game: a row of its own, with its move)
    finally:
        backend.stop()
        link.close()
        db.close()


def test_a_board_that_does_not_answer_is_a_clear_error(tmp_path, silent_tty):
    link = SerialLink.open(silent_tty)
    with pytest.raises(LinkError, match="did not answer 'position'"):
        link.command("position", timeout=0.3)
    link.close()
    with pytest.raises(LinkError, match="cannot open"):
        SerialLink.open(str(tmp_path / "no-such-tty"))


def _fake_board(master, answer):
    """A board on the pty's master: ``answer(request id, command) -> bytes`` for every line."""

    def run():
        seen = b""
        while True:
            try:
                data = os.read(master, 256)
            except OSError:
                return
            if not data:
                return
            seen += data
            while b"\n" in seen:
                line, _, seen = seen.partition(b"\n")
                tag, _, command = line.decode().partition(" ")
                reply = answer(tag, command)
                if reply:
                    os.write(master, reply)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_every_command_carries_a_request_id_and_its_reply_is_matched_by_it(tmp_path):
    """A late reply (a command given up) and replies to lines typed by someone else on the
    link come before the reply asked for: only the lines with its request id are taken."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    asked = []
    first_given_up = threading.Event()

    def answer(tag, command):
        asked.append((tag, command))
        if len(asked) < 3:
            return b""  # the first two are answered late, with the third
        first_given_up.wait(20)
        return ("%s ok state play side ns result * ply 1\r\n%s ok ..1 ns 1 0 0\r\n"
                "ok state typed by someone ply 9\r\nerror unknown command 'x' (try help)\r\n"
                "%s ok state play side ew ply 2\r\n"
                % (asked[0][0], asked[1][0], tag)).encode()

    answering = _fake_board(master, answer)
    try:
        link = SerialLink.open(os.ttyname(slave))
        with pytest.raises(LinkError, match="did not answer 'state'"):
            link.commands_in_order(["state", "position"], timeout=0.3)
        assert link.replies_given_up == 2
        first_given_up.set()
        assert link.command("state", timeout=20) == ["ok state play side ew ply 2"]
        assert [c for _, c in asked] == ["state", "position", "state"]
        tags = [t for t, _ in asked]
        assert len(set(tags)) == 3 and all(t.startswith("#") for t in tags)
        assert link.stray_lines == 4
        link.close()
    finally:
        os.close(master)
        os.close(slave)
        answering.join(5)


def test_a_board_that_refuses_request_ids_is_told_to_be_updated(tmp_path):
    master, slave = pty.openpty()
    tty.setraw(slave)

    def answer(tag, command):  # a firmware from before request ids
        return ("error unknown command '%s' (try help)\r\n" % tag[:20]).encode()

    answering = _fake_board(master, answer)
    try:
        link = SerialLink.open(os.ttyname(slave))
        with pytest.raises(LinkError, match="older than this host's protocol.*xobo flash"):
            link.command("version", timeout=0.5)
        link.close()
    finally:
        os.close(master)
        os.close(slave)
        answering.join(5)


def test_the_link_counts_the_events_the_board_sent_before_a_reply(tmp_path):
    master, slave = pty.openpty()
    tty.setraw(slave)

    def board():  # answers 'record' between two events, as a board playing on would
        asked = b""
        while b" record\n" not in asked:
            asked += os.read(master, 64)
        tag = asked.split(b" ")[0]
        os.write(master, b"event move e5\r\n%s ok 1. e5\r\n%s ok end\r\nevent new\r\n"
                 % (tag, tag))

    answering = threading.Thread(target=board, daemon=True)
    answering.start()
    try:
        link = SerialLink.open(os.ttyname(slave))
        seen = []
        both = threading.Event()

        def on_event(line):
            seen.append(line)
            if len(seen) == 2:
                both.set()

        link.on_event = on_event
        reply, events_before = link.command_in_order("record")
        assert reply == ["ok 1. e5", "ok end"]
        assert events_before == 1  # 'event new' came after the reply
        assert both.wait(20), "the second event never came"
        assert seen == ["event move e5", "event new"]
        assert link.events_read == 2
        link.close()
    finally:
        answering.join(5)
        os.close(master)
        os.close(slave)


def test_xobo_monitor_command_serves_the_mirror_page(board_tty, tmp_path):
    db = tmp_path / "games.sqlite"
    proc = start_xobo(["monitor", "--port", board_tty, "--db", str(db), "--no-browser"])
    try:
        line = proc.stdout.readline()
        assert line.startswith("XoBo monitor: http://127.0.0.1:"), (line, proc.stderr.read())
        url = line.split()[2]
        with urllib.request.urlopen(url + "state", timeout=15) as r:
            snap = json.loads(r.read())
        assert snap["mode"] == "monitor"
        assert snap["state"]["position"].endswith(" ns 36 0 0")
        with urllib.request.urlopen(url, timeout=15) as r:
            assert b'data-role="record"' in r.read()
    finally:
        out, err = stop_with_ctrl_c(proc)
    assert proc.returncode == 0, (proc.returncode, out, err)
    assert len(GamesDB(str(db)).list_games()) == 1


def test_xobo_monitor_without_a_board_says_so(tmp_path, capsys):
    assert main(["monitor", "--port", str(tmp_path / "nothing"), "--no-browser",
                 "--db", str(tmp_path / "g.sqlite")]) == 1
    assert "cannot open" in capsys.readouterr().err


class _ScriptedLink:
    """A link whose replies are given by the test, command by command."""

    def __init__(self, replies):
        self.replies = replies
        self.on_event = None
        self.before_game_change = None
        self.events_read = 0
        self.closed = False

    def command(self, line, timeout=3.0):
        return self.replies[line].pop(0)


def test_an_odd_reply_to_state_is_read_again_never_switched_off():
    """One odd reply (a line that is no state) is an error of that reading; the next reading
    asks again. Only a board that says it has no 'state' is not asked again."""
    link = _ScriptedLink({"state": [["ok 1. e5"], ["ok state match side ew result * ply 1"]]})
    backend = MonitorBackend(link)
    with pytest.raises(LinkError, match="reply to 'state'"):
        backend._board_state()
    assert backend._board_state() == {"inference": "match", "ply": 1, "ended": "*"}
    old = MonitorBackend(_ScriptedLink({"state": [["error unknown command 'state' (try help)"]]}))
    assert old._board_state() == {}
    assert old._board_state() == {}  # (not asked again)


def test_the_board_s_result_words_run_to_the_ply_field():
    link = _ScriptedLink({"state": [["ok state over side ew result ew ns-resigned ply 1"],
                                    ["ok state over side red result none red-resigned ply 4 "
                                     "say the game is over"]]})
    backend = MonitorBackend(link)
    assert backend._board_state()["ended"] == "ew ns-resigned"
    assert backend._board_state()["ended"] == "none red-resigned"


def test_a_resignation_is_said_in_words_with_its_winner():
    from xobo_host.sim.monitor import ended_text

    assert ended_text("ew ns-resigned") == "ew wins: ns resigned"
    assert ended_text("none red-resigned") == "red resigned"
    assert ended_text("draw") == "draw"



def test_a_port_gone_away_is_said_as_the_serial_error_the_reader_thread_ends_on():
    # a board unplugged while bytes were waiting: pyserial's in_waiting raised OSError (EIO),
    # which its reader thread does not catch: the thread died and the table stayed online
    import serial

    from xobo_host.sim.monitor import serial_port_class

    master, slave = pty.openpty()
    tty.setraw(slave)
    port = serial_port_class()(os.ttyname(slave), timeout=0.1)
    try:
        os.close(master)  # unplugged
        with pytest.raises(serial.SerialException, match="the port went away"):
            port.in_waiting  # noqa: B018 (the property's read is the test)
    finally:
        port.close()
        os.close(slave)
