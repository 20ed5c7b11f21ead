"""``xobo cafe``'s pages and staff: the floor read-only to anyone, every control behind the
staff's login (scrypt-hashed password, an HttpOnly SameSite=Strict session cookie), the
simulator's Host/Origin/Content-Type checks; the host killed and restarted mid-game."""

import json
import os
import signal

import pytest
from sim.simkit import start_xobo, stop_with_ctrl_c
from xobo_testing import wait_for

from cafe.cafekit import PASSWORD, named_board, play_move
from cafe.cafekit import api_request as _request
from xobo_host.cafe import web as web_module
from xobo_host.cafe.floor import Floor
from xobo_host.cafe.staff import Staff, StaffError
from xobo_host.cafe.web import CafeServer
from xobo_host.records.gamesdb import GamesDB


@pytest.fixture
def cafe(tmp_path):
    board = named_board(tmp_path, "window-2")
    db_path = str(tmp_path / "games.sqlite")
    GamesDB(db_path).close()
    staff = Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    floor = Floor(db_path, ports=[board.device], scan_usb=False, scan_s=0.2,
                  poll_s=0.5).start()
    server = CafeServer(floor, staff, db_path).start()
    wait_for(lambda: floor.table("window-2") and floor.table("window-2").online,
             "the table online")
    yield server.url, board, floor
    server.stop()
    floor.stop()
    board.unplug()


def _login(url):
    status, out, headers = _request(url + "api/login", {"password": PASSWORD})
    assert status == 200 and out["ok"]
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    return cookie.split(";")[0]


def test_the_staff_password_is_stored_hashed_with_a_salt(tmp_path):
    path = str(tmp_path / "staff.json")
    Staff.create(path, PASSWORD)
    text = open(path).read()
    assert PASSWORD not in text and '"kdf": "scrypt"' in text and '"salt"' in text
    assert os.stat(path).st_mode & 0o777 == 0o600
    staff = Staff.load(path)
    assert staff.login("wrong-password") is None
    assert staff.valid(staff.login(PASSWORD))
    with pytest.raises(StaffError, match="at least 8"):
        Staff.create(path, "short")


def test_the_floor_is_read_only_to_anyone_and_a_control_without_the_login_is_refused(cafe):
    url, board, floor = cafe
    status, out, _ = _request(url + "api/floor")
    assert status == 200 and [t["key"] for t in out["tables"]] == ["window-2"]
    status, out, _ = _request(url + "api/table/window-2/action", {"action": "new"})
    assert status == 401 and "staff" in out["error"]
    status, out, _ = _request(url + "api/table/window-2/action", {"action": "new"},
                              cookie="xobo_staff=forged-token")
    assert status == 401
    assert _request(url + "api/records")[0] == 401
    status, out, _ = _request(url + "api/login", {"password": "not-it"})
    assert status == 403


def test_the_staff_controls_a_table_after_logging_in(cafe):
    url, board, floor = cafe
    cookie = _login(url)
    action = url + "api/table/window-2/action"
    # the simulator's checks: another site's page, a form post
    status, out, _ = _request(action, {"action": "new"}, cookie=cookie, origin=False)
    assert status == 403
    assert _request(action, {"action": "new"}, cookie=cookie, ctype="text/plain")[0] == 415
    status, out, _ = _request(action, {"action": "brightness", "value": 30}, cookie=cookie)
    assert status == 200 and out["reply"] == "brightness 30"
    status, out, _ = _request(action, {"action": "game", "value": "brochs"}, cookie=cookie)
    assert status == 400 and "does not fit" in out["error"]
    status, out, _ = _request(action, {"action": "level", "value": "a\nnew"}, cookie=cookie)
    assert status == 400
    status, out, _ = _request(action, {"action": "name", "value": "window-3"}, cookie=cookie)
    assert status == 200 and out["key"] == "window-3"
    wait_for(lambda: floor.table("window-3") is not None, "the table renamed")
    assert "name window-3" in board.play("serial settings")  # the board keeps its new name
    status, out, _ = _request(url + "api/records", cookie=cookie)
    assert status == 200 and out["ok"]
    _request(url + "api/logout", {}, cookie=cookie)
    assert _request(url + "api/table/window-3/action", {"action": "undo"},
                    cookie=cookie)[0] == 401


def test_the_host_killed_and_restarted_mid_game_loses_no_move(tmp_path):
    board = named_board(tmp_path, "corner")
    db_path = str(tmp_path / "games.sqlite")
    Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    args = ["cafe", "--port", board.device, "--no-usb-scan", "--db", db_path,
            "--http-port", "0", "--no-browser"]

    def start_host():
        proc = start_xobo(args)
        line = proc.stdout.readline()
        assert line.startswith("XoBo cafe: http://"), line + proc.stderr.read()
        return proc, line.split()[2]

    def ply(url):
        tables = _request(url + "api/floor")[1]["tables"]
        return tables[0]["ply"] if tables and tables[0]["online"] else -1

    proc, url = start_host()
    try:
        wait_for(lambda: ply(url) == 0, "the table online")
        play_move(board, "e5")
        wait_for(lambda: ply(url) == 1, "e5 seen")
        os.kill(proc.pid, signal.SIGKILL)  # the host dies: no clean stop
        proc.wait(10)
        play_move(board, "d4")  # the game goes on at the table meanwhile
        proc, url = start_host()
        wait_for(lambda: ply(url) == 2, "the host back, d4 seen")
        play_move(board, "e4")
        db = GamesDB(db_path, readonly=True)
        wait_for(lambda: [m["notation"] for m in db.moves(1)] == ["e5", "d4", "e4"],
                 "one record with every move")
        assert len(db.list_games()) == 1
        db.close()
    finally:
        stop_with_ctrl_c(proc)
        board.unplug()


def test_xobo_cafe_without_a_staff_password_says_how_to_set_one(tmp_path):
    proc = start_xobo(["cafe", "--db", str(tmp_path / "g.sqlite"), "--no-browser"])
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "--set-password" in err


def test_xobo_cafe_set_password_stores_a_hash_that_logs_in(tmp_path):
    import subprocess
    import sys

    staff_file = tmp_path / "staff.json"
    r = subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "cafe", "--set-password",
                        "--db", str(tmp_path / "g.sqlite")], input=PASSWORD + "\n",
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "staff password set" in r.stdout
    assert PASSWORD not in staff_file.read_text()
    assert Staff.load(str(staff_file)).login(PASSWORD) is not None
    r = subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "cafe", "--set-password",
                        "--db", str(tmp_path / "g.sqlite")], input="short\n",
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "at least 8 characters" in r.stderr


def _login_from(url, password, source):
    """POST /api/login from client address ``source``: (status, reply)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10,
                                      source_address=(source, 0))
    try:
        conn.request("POST", "/api/login", json.dumps({"password": password}),
                     {"Content-Type": "application/json", "Origin": url.rstrip("/")})
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def test_wrong_passwords_lock_out_their_own_address_only(tmp_path):
    from xobo_host.cafe.staff import MAX_FAILURES

    db_path = str(tmp_path / "games.sqlite")
    GamesDB(db_path).close()
    staff = Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    floor = Floor(db_path, ports=[], scan_usb=False, scan_s=0.2).start()
    server = CafeServer(floor, staff, db_path).start()
    try:
        for _ in range(MAX_FAILURES):
            assert _login_from(server.url, "a-guess-123", "127.0.0.2")[0] == 403
        status, out = _login_from(server.url, PASSWORD, "127.0.0.2")
        assert status == 429 and "from this device" in out["error"]
        assert "other devices can still log in" in out["error"]
        # the staff's own browser, elsewhere, is not locked out
        assert _login_from(server.url, PASSWORD, "127.0.0.1")[0] == 200
    finally:
        server.stop()
        floor.stop()


def test_the_login_forms_say_the_limit_the_host_applies():
    from xobo_host.cafe.staff import MAX_FAILURES

    static = os.path.join(os.path.dirname(web_module.__file__), "static")
    for page in ("floor.html", "table.html", "event.html", "events.html"):
        with open(os.path.join(static, page), encoding="utf-8") as f:
            text = f.read()
        assert ('data-role="login-limit">%d wrong passwords from one device make that device '
                'wait a minute; other devices can still log in.' % MAX_FAILURES) in text, page
