"""The café's floor shows what a table's board said at its last power-up when it could not
resume its game as it was (docs/cafe.md): both save slots damaged, the board booted a new game
and said so (``event boot``, serial ``boot``), and the floor's view of the table has it, as
the floor and table pages show it; a normal boot shows nothing."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board, play_move
from xobo_host.cafe.floor import Floor
from xobo_host.cafe.staff import Staff
from xobo_host.cafe.web import CafeServer


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


def _boot(floor, key):
    table = floor.table(key)
    return table.view().get("boot") if table is not None and table.online else None


@pytest.mark.browser
def test_the_floor_shows_a_table_s_power_up_that_lost_its_saves(tmp_path, floor_of, browser):
    board = named_board(tmp_path, "terrace-5")
    play_move(board, "e5")
    play_move(board, "d4")
    board.unplug()
    flash = tmp_path / "flash-terrace-5"
    for slot in ("game.a", "game.b"):  # both saves damaged while it was off
        data = bytearray((flash / slot).read_bytes())
        data[15] ^= 1  # (in the sequence number: a bad checksum)
        (flash / slot).write_bytes(bytes(data))
    board.plug()
    floor = floor_of([board.device])
    try:
        note = "saved game not resumed: game.a: bad checksum; game.b: bad checksum; new game"
        wait_for(lambda: _boot(floor, "terrace-5") == {"fallback": True, "note": note},
                 "the table's power-up note on the floor")
        # on the floor's page, the table's card says it; on the table's page too
        db_path = str(tmp_path / "games.sqlite")
        server = CafeServer(floor, Staff.create(str(tmp_path / "staff.json"), "staff-pw-7"),
                            db_path).start()
        page = browser.new_page()
        try:
            page.goto(server.url)
            shown = page.wait_for_selector('[data-table="terrace-5"] .boot-note:not([hidden])')
            assert shown.inner_text() == "at power-up: " + note
            page.goto(server.url + "table/terrace-5")
            shown = page.wait_for_selector('[data-role="boot"]:not([hidden])')
            assert shown.inner_text() == "at power-up: " + note
        finally:
            page.close()
            server.stop()
        # a move (its save over the damaged slot), and a normal power-up: nothing to show
        board.play("arrange")
        play_move(board, "c3")
        board.unplug()
        wait_for(lambda: not floor.table("terrace-5").online, "terrace-5 offline")
        board.plug()  # (on another port: a stand-in's path is new at every plug)
        floor.add_port(board.device)
        wait_for(lambda: _boot(floor, "terrace-5") == {"fallback": False,
                                                    "note": "resumed game: 1 moves"},
                                                    "a normal power-up on the floor")
    finally:
        board.unplug()
