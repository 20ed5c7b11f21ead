"""Watching a café never met, on a real broker (Debian's mosquitto, open: anyone writes
anywhere) through the watching café's routes: its first floor's key is kept and shown with
its fingerprint; a floor replayed after the watching host's restart is refused; the café
installed again (a new key) is refused until the staff forget its key, which only the
logged-in staff can, from the café's own page (docs/remote.md, "Spectators")."""

import json
import sqlite3
import urllib.error
import urllib.request

from cafe.attackkit import Client, envelope_seq, start_server
from cafe.cafekit import PASSWORD
from cafe.cafekit import api_request as _request
from cafe.remotekit import Broker, Cafe, boards, wait_for
from xobo_host.cafe.seal import fingerprint


def watch(cafe, other):
    """café ``cafe``'s GET /api/watch/OTHER: (status, JSON)."""
    status, out, _ = _request(cafe.url + "api/watch/" + other)
    return status, out


def login(cafe):
    status, _, headers = _request(cafe.url + "api/login", {"password": PASSWORD})
    assert status == 200
    return headers["Set-Cookie"].split(";")[0]


def test_a_cafe_never_met_is_known_by_its_first_floor_until_the_staff_forget_its_key(tmp_path):
    broker = Broker(tmp_path, open_network=True).start()
    bs = boards(tmp_path, ["a0", "b0"])
    a = Cafe(tmp_path, "cafe-a", {"a0": bs["a0"]}, broker, publish=True).start()
    b = Cafe(tmp_path, "cafe-b", {"b0": bs["b0"]}, broker).start()
    start_server(b, tmp_path)
    b.service.floors.keep_seq_s = 0.0  # (every number taken kept at once)
    intruder = Client(broker)
    intruder.listen("xobo/v1/cafe-a/floor")
    try:
        # the first floor: its key kept, shown with its fingerprint
        # (a floor can be taken before cafe-a's scan has found its board: wait for the table)
        out = wait_for(lambda: (lambda s, o: o if s == 200 and o["tables"] else None)(
            *watch(b, "cafe-a")), "cafe-a's floor with its table on cafe-b's watch route", 20)
        assert [t["key"] for t in out["tables"]] == ["a0"]
        signed = out["watch"]["signed"]
        assert signed["fingerprint"] == fingerprint(a.service.key.public_hex)
        assert signed["source"] == "first seen" and out["watch"]["refused"] is None
        cookie = login(b)
        _, page, _ = _request(b.url + "api/matches", cookie=cookie)
        assert [(k["cafe"], k["fingerprint"]) for k in page["floor_keys"]] == [
            ("cafe-a", signed["fingerprint"])]
        assert page["key"] == fingerprint(b.service.key.public_hex)

        # cafe-b started again: a floor older than the last it took, published again, is
        # refused (its number was kept in cafe-b's file)
        older = wait_for(lambda: intruder.seen(lambda r: r[1]), "cafe-a's floor read")[0][1]
        wait_for(lambda: b.service.floors.watched["cafe-a"]["seq"] > envelope_seq(older),
                 "a newer floor of cafe-a taken at cafe-b")
        b.server.stop()
        b.stop()
        b.start()
        start_server(b, tmp_path)
        wait_for(lambda: watch(b, "cafe-a")[0] == 200, "cafe-a's floor after the restart", 20)
        assert intruder.publish("xobo/v1/cafe-a/floor", older, retain=True) == 0
        wait_for(lambda: any("older than the last one shown" in r["why"]
                             for r in b.service.refused), "the replay refused")
        status, out = watch(b, "cafe-a")
        assert status == 200 and "older" in out["watch"]["refused"]["why"]

        # cafe-a installed again: a new key. Its floors are refused at cafe-b...
        a.stop()
        with sqlite3.connect(a.db) as db:
            db.execute("DELETE FROM cafe_keys")
        a.start()
        new = fingerprint(a.service.key.public_hex)
        assert new != signed["fingerprint"]
        wait_for(lambda: any("not signed with cafe-a's key" in r["why"] and new in r["why"]
                             for r in b.service.refused), "cafe-a's new key refused", 20)
        # ... until cafe-b's staff forget the key kept: from its own page, logged in
        url = b.url + "api/floor-key/forget"
        assert _request(url, {"cafe": "cafe-a"})[0] == 401
        cookie = login(b)
        status, out, _ = _request(url, {"cafe": "cafe-a"}, cookie=cookie, origin=False)
        assert status == 403  # (no Origin, no Referer, no program's name)
        req_headers = {"Origin": "http://evil.example", "Cookie": cookie,
                       "Content-Type": "application/json"}
        try:
            urllib.request.urlopen(urllib.request.Request(
                url, json.dumps({"cafe": "cafe-a"}).encode(), req_headers, method="POST"),
                timeout=10)
            raise AssertionError("a foreign origin forgot a key")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        assert b.service.floors.keys()[0]["fingerprint"] == signed["fingerprint"]
        status, out, _ = _request(url, {"cafe": "cafe-z"}, cookie=cookie)
        assert status == 400 and "no key of cafe-z" in out["error"]
        status, out, _ = _request(url, {"cafe": "cafe-a"}, cookie=cookie)
        assert status == 200 and out["reply"] == "the key of cafe-a forgotten: the key of its " \
            "next floor will be kept"
        out = wait_for(lambda: (lambda s, o: o if s == 200 and o["watch"]["signed"] else None)(
            *watch(b, "cafe-a")), "cafe-a's floor with its new key", 20)
        assert out["watch"]["signed"]["fingerprint"] == new and out["watch"]["refused"] is None
        assert [k["fingerprint"] for k in b.service.floors.keys()] == [new]
    finally:
        intruder.stop()
        b.server.stop()
        for c in (a, b):
            c.stop()
        for x in bs.values():
            x.unplug()
        broker.kill()
