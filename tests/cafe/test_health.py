"""The floor's health of a table: waiting for a fix for too long, and the self-test's faults
with their report (the staff's self-test control, the players' hands on the stand-in).

The stand-in runs on the players' clock (``hands_clock``): the board's time passes only with
their lines (``press`` 150 ms, ``wait MS``), so the self-test's timeouts (3 s a colour, 10 s
for a cube on a cell) fire exactly where the script lets that time pass, however slowly a
loaded machine runs the test; on a real board they are the same code on the Pico's clock."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board
from xobo_host.cafe import table as table_module
from xobo_host.cafe.floor import Floor


@pytest.fixture
def one_table(tmp_path):
    board = named_board(tmp_path, "snug", hands_clock=True)
    floor = Floor(str(tmp_path / "games.sqlite"), ports=[board.device], scan_usb=False,
                  scan_s=0.1, poll_s=0.3).start()
    wait_for(lambda: floor.table("snug") and floor.table("snug").online, "snug online")
    yield board, floor
    floor.stop()
    board.unplug()


def _health(floor):
    return floor.table("snug").view()["health"]


def test_a_board_waiting_for_a_fix_too_long_needs_the_staff(one_table, monkeypatch):
    board, floor = one_table
    monkeypatch.setattr(table_module, "FIX_ALERT_S", 0.5)  # a minute, in a test's time
    board.play("put e5")
    board.play("put a1")  # two cubes at once: no move of XoBo, the board asks for a fix
    board.play("wait 800")
    wait_for(lambda: _health(floor) == "fix", "the table needs a fix")
    assert "waiting for a fix" in floor.table("snug").view()["health_text"]
    board.play("lift a1")
    board.play("wait 400")
    wait_for(lambda: _health(floor) == "playing", "the fix done")


def test_a_self_test_with_a_dead_led_and_a_dead_switch_shows_its_faults_and_report(one_table):
    board, floor = one_table
    table = floor.table("snug")
    assert table.action({"action": "selftest"})["reply"].startswith("selftest started")
    wait_for(lambda: _health(floor) == "selftest", "the self-test running")
    for _ in range(3):  # the LEDs red, green, blue: seen
        board.play("press ok")
    board.play("press undo")  # a1's LED is dead
    board.play("wait 10000")  # and no cube ever closes its switch: after 10 s, the next cell
    for _ in range(80):  # every other cell skipped
        board.play("press ok")
    wait_for(lambda: _health(floor) == "faults", "the self-test's faults")
    report = table.view(full=True)["selftest"]
    assert "led a1 dead" in report and "switch a1 never-closes" in report
    assert report[-1] == "done 2 problems"
    assert table.view()["health_text"] == "self-test: 2 problems"


def test_a_self_test_s_faults_stay_with_the_table_when_the_host_restarts(tmp_path):
    board = named_board(tmp_path, "snug", hands_clock=True)
    db_path = str(tmp_path / "games.sqlite")
    floor = Floor(db_path, ports=[board.device], scan_usb=False, scan_s=0.1,
                  poll_s=0.3).start()
    try:
        wait_for(lambda: floor.table("snug") and floor.table("snug").online, "snug online")
        floor.table("snug").action({"action": "selftest"})
        wait_for(lambda: _health(floor) == "selftest", "the self-test running")
        for _ in range(3):
            board.play("press ok")
        board.play("press undo")  # a1's LED is dead
        board.play("wait 10000")
        for _ in range(80):
            board.play("press ok")
        wait_for(lambda: _health(floor) == "faults", "the self-test's faults")
        report = floor.table("snug").view(full=True)["selftest"]
        floor.stop()
        # the host restarts: the table's report is in the games database, by its board
        floor = Floor(db_path, ports=[board.device], scan_usb=False, scan_s=0.1,
                      poll_s=0.3).start()
        wait_for(lambda: floor.table("snug") and floor.table("snug").online, "snug back")
        assert _health(floor) == "faults"
        assert floor.table("snug").view(full=True)["selftest"] == report
        assert floor.table("snug").view()["health_text"] == "self-test: 2 problems"
    finally:
        floor.stop()
        board.unplug()
