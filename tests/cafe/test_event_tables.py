"""An event on the café's floor (stand-in boards behind ptys, the host's own routes): each
pairing gets a free table and the host starts its game; the players' names show on the
floor and the table's view; a game's end on the board is the result (no slip), a
resignation too; a board unplugged mid-round keeps its game and the event waits; a result
corrected is kept with who, when and why; the staff's routes need the login and the page's
own origin, the screen is read-only; the exports hold every game."""

import csv
import io
import json
import urllib.error
import urllib.request

import pytest
from xobo_testing import wait_for

from cafe.cafekit import named_board
from xobo_host.cafe.events.evening import Client, InProcessHost

X_WINS = ("d4", "e4", "d5", "e5", "d6")  # the test game on d4-f6: x takes a1 a2 a3
DRAW = ("e5", "d4", "d5", "f5", "f4", "d6", "e6", "e4", "f6")  # a full board, no line


def play(board, cells):
    board.play("arrange")  # (the last game's pieces off the table)
    for cell in cells:
        board.play("put " + cell)
        board.play("wait 300")


@pytest.fixture
def cafe(tmp_path):
    boards = [named_board(tmp_path, name, hands_clock=True) for name in ("t1", "t2")]
    host = InProcessHost(str(tmp_path), [b.device for b in boards])
    client = Client(host.url)
    wait_for(lambda: all(t["online"] for t in client.get("api/floor")["tables"])
          and len(client.get("api/floor")["tables"]) == 2, "both tables online")
    client.login()
    yield host, client, boards
    host.stop()
    for b in boards:
        b.unplug()


def make_event(client, players=("Alice", "Bruno", "Chloé", "Dmitri"), rounds=2, game="tiny",
               **more):
    out = client.post("api/event/new", dict({"name": "Test night", "game": game,
                                             "rounds": rounds}, **more))
    assert out["ok"], out
    eid = out["id"]
    for n in players:
        assert client.post("api/event/%d/action" % eid, {"action": "add_player", "name": n,
                                                        "checked_in": True})["ok"]
    return eid


def view(client, eid):
    return client.get("api/event/%d" % eid)


def playing(client, eid, number):
    v = view(client, eid)
    return v if v["round"] == number and v["games"] and all(
        g["state"] == "playing" for g in v["games"] if g["kind"] == "game") else None


def at_table(v, key):
    return next(g for g in v["games"] if g["table"] == key)


def test_an_event_runs_on_the_boards_with_the_names_on_the_floor_and_results_from_the_boards(
        cafe):
    host, client, (t1, t2) = cafe
    eid = make_event(client)
    assert client.post("api/event/%d/action" % eid, {"action": "start"})["ok"]
    v = wait_for(lambda: playing(client, eid, 1), "round 1 playing on both tables")
    assert sorted(g["table"] for g in v["games"]) == ["t1", "t2"]
    # board 1: the top half's first against the bottom half's first (seeded by rating:
    # all newcomers, by registration), Alice moving first
    g1 = next(g for g in v["games"] if g["board"] == 1)
    assert [s["name"] for s in g1["seats"]] == ["Alice", "Chloé"]
    # the players' names on the floor and the table's view, the board set up for the game
    floor = {t["key"]: t for t in client.get("api/floor")["tables"]}
    assert floor[g1["table"]]["event"]["players"] == [{"seat": "x", "name": "Alice"},
                                                      {"seat": "o", "name": "Chloé"}]
    assert floor[g1["table"]]["game"] == "tiny" and floor[g1["table"]]["ply"] == 0
    table_view = client.get("api/table/" + g1["table"])
    assert table_view["event"]["name"] == "Test night" and table_view["event"]["board"] == 1
    boards = {"t1": t1, "t2": t2}
    play(boards[g1["table"]], X_WINS)
    other = next(g for g in v["games"] if g["board"] == 2)
    play(boards[other["table"]], DRAW)
    # the results are the boards' own: x's three in a row, the full board drawn
    v = wait_for(lambda: view(client, eid)["round"] == 2 and view(client, eid),
                 "round 2 paired once round 1 ended")
    history = client.get("api/event/%d" % eid)["standings"]
    points = {r["name"]: r["points"] for r in history}
    assert points["Alice"] == 1.0 and points["Chloé"] == 0.0
    assert sorted((points["Bruno"], points["Dmitri"])) == [0.5, 0.5]
    assert all(r["rating"]["games"] == 1 for r in history)
    # round 2: the winner meets a drawer, Alice not against Chloé again
    g = next(g for g in v["games"] if any(s["name"] == "Alice" for s in g["seats"]))
    assert "Chloé" not in [s["name"] for s in g["seats"]]


def test_a_resignation_at_a_board_is_the_result(cafe):
    host, client, boards = cafe
    eid = make_event(client, players=("Alice", "Bruno"), rounds=1)
    client.post("api/event/%d/action" % eid, {"action": "start"})
    v = wait_for(lambda: playing(client, eid, 1), "the game playing")
    g = v["games"][0]
    out = client.post("api/event/%d/action" % eid, {"action": "resign", "game": g["id"],
                                                    "seat": "o"})
    assert out["ok"] and "Bruno resigned" in out["reply"], out
    v = wait_for(lambda: view(client, eid)["state"] == "finished" and view(client, eid),
                 "the event finished")
    g = v["games"][0]
    assert g["words"] == "x o-resigned" and g["how"] == "board"
    assert g["result"] == "Alice wins"


def test_a_board_unplugged_mid_round_keeps_its_game_and_the_event_waits_for_it(cafe):
    host, client, (t1, t2) = cafe
    eid = make_event(client)
    client.post("api/event/%d/action" % eid, {"action": "start"})
    v = wait_for(lambda: playing(client, eid, 1), "round 1 playing")
    g2 = at_table(v, "t2")
    t2.play("arrange")
    t2.play("put d4")
    t2.play("wait 300")
    t2.unplug()
    wait_for(lambda: not at_table(view(client, eid), "t2")["online"], "t2 offline")
    play(t1, X_WINS)
    wait_for(lambda: at_table(view(client, eid), "t1")["state"] == "over", "t1's result")
    v = view(client, eid)
    assert v["round"] == 1  # the event waits for the offline board
    assert at_table(v, "t2")["id"] == g2["id"] and at_table(v, "t2")["state"] == "playing"
    t2.plug()
    host.add_port(t2.device)
    wait_for(lambda: at_table(view(client, eid), "t2")["online"], "t2 back")
    for cell in ("e4", "d5", "e5", "d6"):  # the game goes on where it was
        t2.play("put " + cell)
        t2.play("wait 300")
    wait_for(lambda: view(client, eid)["round"] == 2, "round 2 once t2's game ended")
    g = next(x for x in view(client, eid)["history"] if x["id"] == g2["id"])
    assert g["words"] == "x" and g["state"] == "over" and g["table"] == "t2"


def test_a_correction_is_kept_with_who_when_and_why_and_changes_the_standings(cafe):
    host, client, (t1, t2) = cafe
    eid = make_event(client, players=("Alice", "Bruno"), rounds=1)
    client.post("api/event/%d/action" % eid, {"action": "start"})
    v = wait_for(lambda: playing(client, eid, 1), "the game playing")
    play(t1 if v["games"][0]["table"] == "t1" else t2, X_WINS)
    v = wait_for(lambda: view(client, eid)["state"] == "finished" and view(client, eid),
                 "the result")
    gid = v["games"][0]["id"]
    assert [r["name"] for r in v["standings"]] == ["Alice", "Bruno"]
    body = {"action": "correct", "game": gid, "places": [2, 1], "by": "Sam",
            "why": "the players agree Alice's last cube was misplaced"}
    # without the login, or from another page, nothing changes
    anon = Client(host.url)
    assert anon.post("api/event/%d/action" % eid, body)["error"].startswith("only the staff")
    assert post_raw(host.url, "api/event/%d/action" % eid, body, origin="http://evil.example",
                    cookie=cookie_of(client))[0] == 403
    assert post_raw(host.url, "api/event/%d/action" % eid, body, ctype="text/plain",
                    cookie=cookie_of(client))[0] == 415
    for bad, why in [(dict(body, by=""), "cannot be empty"), (dict(body, why=""), "says why"),
                     (dict(body, places=[1, 3]), "not a ranking")]:
        out = client.post("api/event/%d/action" % eid, bad)
        assert not out["ok"] and why in out["error"]
    out = client.post("api/event/%d/action" % eid, body)
    assert out["ok"] and "Bruno wins" in out["reply"]
    v = client.get("api/event/%d" % eid)
    assert [r["name"] for r in v["standings"]] == ["Bruno", "Alice"]
    c = v["corrections"][0]
    assert c["by_name"] == "Sam" and c["why"].startswith("the players agree")
    assert c["before"]["places"] == [1, 2] and c["after"]["places"] == [2, 1]
    assert c["at"].endswith("Z") and len(c["session"]) == 12 and c["address"] == "127.0.0.1"
    assert v["games"][0]["how"] == "staff"
    # the ratings follow the corrected result
    rows = {r["name"]: r["rating"] for r in v["standings"]}
    assert rows["Bruno"]["mu"] > rows["Alice"]["mu"]


def cookie_of(client):
    return "; ".join("%s=%s" % (c.name, c.value) for c in client.jar)


def post_raw(url, path, body, origin=None, ctype="application/json", cookie=None):
    headers = {"Content-Type": ctype, "Origin": origin or url.rstrip("/")}
    if cookie:
        headers["Cookie"] = cookie
    req = urllib.request.Request(url + path, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def get_status(url, path):
    try:
        with urllib.request.urlopen(url + path, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_screen_is_read_only_for_anyone_the_staffs_routes_need_the_login(cafe):
    host, client, boards = cafe
    eid = make_event(client, players=("Alice", "Bruno", "Chloé"), rounds=1)
    client.post("api/event/%d/action" % eid, {"action": "start"})
    wait_for(lambda: playing(client, eid, 1), "round 1 playing")
    url = host.url
    status, body = get_status(url, "screen/%d" % eid)
    assert status == 200 and b"XoboEvents.screenPage()" in body
    status, body = get_status(url, "api/event/%d" % eid)
    public = json.loads(body)
    assert status == 200 and not public["staff"]
    assert "players" not in public and "corrections" not in public and "history" not in public
    assert [g["kind"] for g in public["games"]] == ["game", "bye"]
    for path in ("api/event/list", "api/event/%d/export/results.csv" % eid,
                 "api/event/ratings/tiny"):
        assert get_status(url, path)[0] == 401
    assert post_raw(url, "api/event/new", {"name": "x", "game": "tiny"})[0] == 401
    assert post_raw(url, "api/event/%d/action" % eid, {"action": "pair_next"})[0] == 401
    assert get_status(url, "api/event/999")[0] == 404
    # nothing of the players leaves the café: the floor it publishes to other cafés has
    # no event, and the events' names are on its own pages only
    published = json.dumps(host.floor.snapshot())
    assert "Alice" not in published and '"event"' not in published
    assert "Alice" in json.dumps(host.floor.snapshot(local=True))


def test_the_exports_hold_the_pairings_results_standings_and_every_games_record(cafe):
    host, client, (t1, t2) = cafe
    eid = make_event(client, players=("Alice", "Bruno"), rounds=1)
    client.post("api/event/%d/action" % eid, {"action": "start"})
    v = wait_for(lambda: playing(client, eid, 1), "the game playing")
    play(t1 if v["games"][0]["table"] == "t1" else t2, X_WINS)
    wait_for(lambda: view(client, eid)["state"] == "finished", "the result")
    wait_for(lambda: client.get("api/event/%d" % eid)["history"][0]["record_id"],
             "the record found in the games database")
    get = lambda name: client.get("api/event/%d/export/%s" % (eid, name),  # noqa: E731
                                  raw=True).decode("utf-8")
    pairings = list(csv.DictReader(io.StringIO(get("pairings.csv"))))
    assert [(r["round"], r["board"], r["x"], r["o"]) for r in pairings] == [
        ("1", "1", "Alice", "Bruno")]
    res = list(csv.DictReader(io.StringIO(get("results.csv"))))
    assert res[0]["x place"] == "1" and res[0]["o points"] == "0" and res[0]["how"] == "board"
    standing = list(csv.DictReader(io.StringIO(get("standings.csv"))))
    assert [(r["rank"], r["name"], r["points"]) for r in standing] == [("1", "Alice", "1"),
                                                                        ("2", "Bruno", "0")]
    records = get("records.txt")
    for tag in ('[Event "Test night"]', '[Round "1"]', '[X "Alice"]', '[O "Bruno"]',
                "1. a1 b1 2. a2 b2 3. a3"):
        assert tag in records
    import zipfile

    data = client.get("api/event/%d/export/event.zip" % eid, raw=True)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert sorted(names) == ["pairings.csv", "records.txt", "results.csv", "standings.csv"]


def test_a_late_entry_and_a_withdrawal_change_who_is_paired(cafe):
    host, client, (t1, t2) = cafe
    eid = make_event(client, players=("Alice", "Bruno", "Chloé", "Dmitri"), rounds=2,
                     auto=False)
    act = lambda body: client.post("api/event/%d/action" % eid, body)  # noqa: E731
    assert act({"action": "start"})["ok"]
    v = wait_for(lambda: playing(client, eid, 1), "round 1 playing")
    out = act({"action": "add_player", "name": "Elif"})
    assert out["ok"] and "for round 2" in out["reply"]
    staff = client.get("api/event/%d" % eid)
    dmitri = next(p for p in staff["players"] if p["name"] == "Dmitri")
    assert act({"action": "withdraw", "player": dmitri["id"]})["ok"]
    out = act({"action": "pair_next"})
    assert not out["ok"] and "round 1 is not over" in out["error"]
    for key, board in (("t1", t1), ("t2", t2)):
        if at_table(v, key):
            play(board, X_WINS)
    wait_for(lambda: all(g["state"] == "over" for g in view(client, eid)["games"]), "round 1 over")
    assert view(client, eid)["round"] == 1  # (not auto: the staff pairs)
    assert act({"action": "pair_next"})["ok"]
    v = view(client, eid)
    paired = sorted(s["name"] for g in v["games"] for s in g["seats"])
    assert paired == ["Alice", "Bruno", "Chloé", "Elif"]


def test_a_game_waits_for_a_table_whose_board_fits_it_brochs_needs_a_15x15(cafe):
    host, client, boards = cafe
    eid = make_event(client, players=("Alice", "Bruno"), rounds=1, game="brochs")
    assert client.post("api/event/%d/action" % eid, {"action": "start"})["ok"]
    v = client.get("api/event/%d" % eid)
    assert v["free_tables"] == []  # two 9 x 9 boards: no table for Brochs
    host.director.step()
    g = client.get("api/event/%d" % eid)["games"][0]
    assert g["state"] == "waiting" and g["table"] is None
    assert all(t["game"] == "xobo" and "event" not in t  # no board was touched
               for t in client.get("api/floor")["tables"])
