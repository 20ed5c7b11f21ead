"""The matches' routes obey only the café's staff from the café's own page: no login, no
control; another origin, refused; what another café publishes is shown without markup."""

import pytest
from xobo_testing import wait_for

from cafe.cafekit import PASSWORD, named_board
from cafe.cafekit import api_request as _request
from xobo_host.cafe.floor import Floor
from xobo_host.cafe.matches import MatchService
from xobo_host.cafe.staff import Staff
from xobo_host.cafe.web import CafeServer, clean_foreign


@pytest.fixture
def cafe(tmp_path):
    board = named_board(tmp_path, "window-2")
    db_path = str(tmp_path / "games.sqlite")
    staff = Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    floor = Floor(db_path, ports=[board.device], scan_usb=False, scan_s=0.2,
                  poll_s=0.5).start()
    service = MatchService(floor, db_path, cafe="corner").start()
    server = CafeServer(floor, staff, db_path, matches=service).start()
    wait_for(lambda: floor.table("window-2") and floor.table("window-2").online,
             "the table online")
    yield server.url, service
    server.stop()
    service.stop()
    floor.stop()
    board.unplug()


def test_an_invitation_needs_the_staffs_login_from_the_cafes_own_page(cafe):
    url, service = cafe
    status, out, _ = _request(url + "api/invite", {"table": "window-2"})
    assert status == 401 and not service.matches
    status, out, headers = _request(url + "api/login", {"password": PASSWORD})
    cookie = headers["Set-Cookie"].split(";")[0]
    status, out, _ = _request(url + "api/invite", {"table": "window-2"}, cookie=cookie,
                              origin=False)
    assert status == 403 and not service.matches  # no Origin: not the café's own page
    status, out, _ = _request(url + "api/invite", {"table": "window-2"}, cookie=cookie)
    assert status == 200 and len(out["code"]) == 9
    # anyone sees the match, only the staff its code
    status, public, _ = _request(url + "api/matches")
    assert public["matches"][0]["state"] == "inviting" and public["matches"][0]["code"] == ""
    status, staff, _ = _request(url + "api/matches", cookie=cookie)
    assert staff["matches"][0]["code"] == out["code"]
    status, out2, _ = _request(url + "api/invite/lookup", {"code": "nonsense"},
                               cookie=cookie)
    assert status == 400 and "8 letters" in out2["error"]
    status, out3, _ = _request(url + "api/match/%s/action" % out["match"],
                               {"action": "cancel"}, cookie=cookie)
    assert status == 200 and service.matches[out["match"]].state == "cancelled"


def test_a_floor_from_another_cafe_is_shown_without_markup():
    snap = {"tables": [{"key": "t<1>", "name": "ok name", "board": {
        "cells": ["00ff00", "\"><img src=x onerror=alert(1)>"],
        "draw": {"kinds": {"m": {"rgb": "ff0000;background:url(x)"}}}}}],
        "<b>": 1, "deep": [[[[[[[[[[1]]]]]]]]]]}
    clean = clean_foreign(snap)
    t = clean["tables"][0]
    assert t["key"] == "" and t["name"] == "ok name"
    assert t["board"]["cells"] == ["00ff00", ""]
    assert t["board"]["draw"]["kinds"]["m"]["rgb"] == ""
    assert "<b>" not in clean and clean["deep"][0][0][0][0][0][0][0][0] is None
