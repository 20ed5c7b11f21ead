"""The simulator's HTTP API over the real firmware (VirtualBoard in real time), no browser."""

import json
import socket
import threading
import time
import urllib.request

from sim.simkit import START, Sim, start_xobo, stop_with_ctrl_c
from xobo.games.xobo.rules.record import parse_record


def test_state_shows_the_start_position_and_a_dark_empty_board(sim):
    snap = sim.state()
    assert snap["mode"] == "sim"
    assert snap["state"]["position"] == START
    assert snap["counts"] == [0] * 81
    assert len(snap["cells"]) == 81 and all(len(c) == 6 for c in snap["cells"])
    assert set(snap["edges"]) == {"N", "E", "S", "W"}
    assert snap["hand"] == 0


def test_a_cube_put_through_the_api_is_committed_by_the_firmware(sim):
    reply = sim.post({"action": "put", "cell": "e5"})
    assert reply["ok"] and reply["from"] == "box"
    snap = sim.wait(lambda s: s["state"]["side"] == "ew", what="e5 committed")
    assert snap["counts"][40] == 1
    assert "1. e5" in snap["state"]["record"]
    assert snap["state"]["reserves"]["common"] == 35


def test_lifting_a_cell_puts_its_cubes_in_the_hand_and_they_are_put_back_one_by_one(sim):
    sim.post({"action": "put", "cell": "a1"})
    sim.post({"action": "put", "cell": "a1"})
    sim.post({"action": "put", "cell": "a1"})
    reply = sim.post({"action": "lift", "cell": "a1"})
    assert reply["lifted"] == 3
    assert sim.state()["hand"] == 3 and sim.state()["counts"][0] == 0
    assert sim.post({"action": "put", "cell": "b2"})["from"] == "hand"
    snap = sim.state()
    assert snap["hand"] == 2 and snap["counts"][10] == 1
    sim.post({"action": "drop"})
    assert sim.state()["hand"] == 0


def test_take_removes_a_captured_pair_from_the_cell(sim):
    sim.post({"action": "put", "cell": "c3"})
    sim.post({"action": "put", "cell": "c3"})
    assert sim.post({"action": "take", "cell": "c3"})["taken"] == 2
    assert sim.state()["counts"][20] == 0


def test_bad_actions_get_an_error_that_says_what_is_wrong(sim):
    assert "unknown action 'jump'" in sim.post({"action": "jump"}, expect=400)["error"]
    err = sim.post({"action": "put", "cell": "z9"}, expect=400)["error"]
    assert "z9" in err
    assert "e5 is empty" in sim.post({"action": "lift", "cell": "e5"}, expect=400)["error"]
    assert "not JSON" in sim.post(b"{oops", expect=400)["error"]
    assert "unknown button" in sim.post({"action": "press", "button": "reset"},
                                        expect=400)["error"]
    assert sim.command("frobnicate")["ok"] is False


def test_a_malformed_position_is_rejected_with_the_engines_message(sim):
    reply = sim.post({"action": "load", "text": "........./........ ns 36 0 0"})
    assert reply["ok"] is False
    assert "rank" in reply["error"] or "9" in reply["error"]
    assert sim.state()["state"]["position"] == START


def test_loading_a_position_sets_the_cubes_to_match(sim):
    text = START.replace("......... ns 36 0 0", "....3.... ns 33 0 0")
    reply = sim.post({"action": "load", "text": text})
    assert reply["ok"], reply
    snap = sim.wait(lambda s: s["state"].get("inference") == "match", what="cubes match")
    assert snap["state"]["position"] == text
    assert snap["counts"][4] == 3 and sum(snap["counts"]) == 3


def test_loading_a_record_replays_it_on_the_board(sim):
    reply = sim.post({"action": "load", "text": "1. e5 ; d4 2. e4"})
    assert reply["ok"], reply
    assert reply["moves"] == 3
    snap = sim.state()
    assert "1. e5 ; d4 2. e4" in snap["state"]["record"]
    assert [snap["counts"][c] for c in (40, 30, 31)] == [1, 1, 1]
    bad = sim.post({"action": "load", "text": "1. e5 ; e5"})
    assert bad["ok"] is False and "e5" in bad["error"]


def _spread_then_undo(sim):
    """A stack of 3 on c5 spread East (c5xd5: d5, e5 captured, f5), then undone."""
    text = "/".join(["........."] * 4 + ["..3.1...."] + ["........."] * 4) + " ns 32 0 0"
    assert sim.post({"action": "load", "text": text})["ok"]
    sim.wait(lambda s: s["state"].get("inference") == "match", what="cubes match")
    assert sim.post({"action": "lift", "cell": "c5"})["lifted"] == 3
    for c in ("d5", "e5", "f5"):
        sim.post({"action": "put", "cell": c})
    sim.post({"action": "take", "cell": "e5", "n": 2})
    sim.wait(lambda s: "c5xd5" in s["state"]["record"], what="c5xd5 committed")
    assert sim.command("undo")["ok"]
    return sim.wait(lambda s: s["state"].get("inference") == "restore", what="restore")


def test_undo_of_a_spread_says_how_tall_the_stack_to_put_back_is(sim):
    snap = _spread_then_undo(sim)
    st = snap["state"]
    assert st["fill"] == ["c5", "e5"] and st["fill_heights"] == {"c5": 3}
    assert st["clear"] == ["d5", "f5"]
    reply = sim.command("state")
    assert "restore fill c5=3 e5 clear d5 f5" in reply["reply"][0], reply


def test_after_the_end_the_state_is_over_with_the_reason_and_nothing_to_fix(sim):
    col = "/".join(["....1...."] * 4 + ["........."] + ["....1...."] * 4)
    assert sim.post({"action": "load", "text": col + " ew 28 0 0"})["ok"]
    sim.wait(lambda s: s["state"].get("inference") == "match", what="cubes match")
    sim.post({"action": "put", "cell": "e5"})  # EW connects NS's edges: NS wins (E2)
    snap = sim.wait(lambda s: s["state"]["result"] == "ns", what="the end")
    assert snap["state"]["result_reason"] == "connected-opponent"
    sim.post({"action": "take", "cell": "e9"})
    sim.post({"action": "put", "cell": "a4"})
    time.sleep(0.6)  # longer than the settle time (200 ms)
    st = sim.state()["state"]
    assert st["inference"] == "over" and st["fill"] == [] and st["clear"] == []
    reply = sim.command("state")["reply"]
    assert len(reply) == 1 and reply[0].startswith(
        "ok state over side ns result ns connected-opponent ply 1 gameid "), reply
    assert len(reply[0].split()[-1]) == 12  # the game's id, last: nothing to fix, no words


def test_loading_a_record_keeps_the_users_variant_and_first_settings(sim):
    # the replay sets the record's variant and first player; they used to stay set
    reply = sim.post({"action": "load", "text": '[Variant "kv"]\n[First "EW"]\n1. e5 ; d4'})
    assert reply["ok"], reply
    st = sim.state()["state"]
    assert st["settings"]["variant"] == "xobo" and st["settings"]["first"] == "ns"
    assert '[Variant "kv"]' in st["record"] and '[First "EW"]' in st["record"]
    assert sim.command("record")["reply"][0] == 'ok [Variant "kv"]'
    assert sim.post({"action": "new"})["ok"]
    st = sim.wait(lambda s: s["state"]["ply"] == 0)["state"]
    assert '[Variant "xobo"]' in st["record"] and st["side"] == "ns"


def test_new_game_sweeps_the_board(sim):
    sim.post({"action": "put", "cell": "e5"})
    sim.wait(lambda s: s["state"]["side"] == "ew")
    assert sim.post({"action": "new"})["ok"]
    snap = sim.wait(lambda s: s["state"]["position"] == START)
    assert snap["counts"] == [0] * 81


def test_the_record_downloads_as_a_file(sim):
    sim.post({"action": "put", "cell": "e5"})
    sim.wait(lambda s: s["state"]["side"] == "ew")
    status, headers, body = sim.get("/record.txt")
    assert "attachment" in headers["Content-Disposition"]
    assert [("e5")] == [m for m in body.decode().split() if m == "e5"]
    assert parse_record(body.decode()).moves


def test_the_page_and_its_files_are_served_and_nothing_else(sim):
    status, headers, body = sim.get("/")
    assert b'data-role="record"' in body and headers["Content-Type"].startswith("text/html")
    assert sim.get("/static/sim.js")[0] == 200
    assert sim.get("/static/sim.css")[0] == 200
    for bad in ("/static/../server.py", "/static/%2e%2e/server.py", "/nope"):
        try:
            urllib.request.urlopen(sim.url + bad.lstrip("/"), timeout=5)
            raise AssertionError("%s was served" % bad)
        except urllib.error.HTTPError as exc:
            assert exc.code == 404


def test_the_legend_comes_from_the_firmware_colours():
    from xobo.runtime import colours
    from xobo.runtime.meanings import MEANINGS
    from xobo_host.sim.legend import legend

    items = legend()
    put = [i for i in items if i["meaning"] == MEANINGS[colours.PUT]]
    assert put and put[0]["rgb"] == colours.hex_of(colours.RGB[colours.PUT])
    assert any("Voïna" in i["meaning"] for i in items)  # as the page writes it
    assert not any(i["rgb"] == "000000" for i in items)


def _read_sse(url, until, timeout=5.0):
    """Read /events until ``until(message)`` is true; returns the messages read."""
    host, port = url.split("//")[1].rstrip("/").split(":")
    s = socket.create_connection((host, int(port)), timeout=timeout)
    s.sendall(b"GET /events HTTP/1.1\r\nHost: %s:%s\r\n\r\n" % (host.encode(), port.encode()))
    buf = b""
    msgs = []
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: "):
                        msg = json.loads(line[6:])
                        msgs.append(msg)
                        if until(msg):
                            return msgs
    finally:
        s.close()
    return msgs


def test_server_sent_events_carry_live_leds_and_the_firmwares_event_lines(sim):
    got = {}

    def play():
        import time

        time.sleep(0.3)
        sim.post({"action": "put", "cell": "e5"})

    t = threading.Thread(target=play)
    t.start()
    msgs = _read_sse(sim.url, lambda m: any("event move e5" in e[1] for e in m["events"]))
    t.join()
    got["lines"] = [e[1] for m in msgs for e in m["events"]]
    assert "event switch e5 on" in got["lines"]
    assert msgs[-1]["state"]["side"] == "ew"
    assert len(msgs[-1]["cells"]) == 81


def test_the_game_survives_restarting_the_simulator(tmp_path):
    first = Sim(tmp_path / "flash")
    try:
        first.post({"action": "put", "cell": "e5"})
        first.wait(lambda s: s["state"]["side"] == "ew", what="e5 committed")
    finally:
        first.stop()
    again = Sim(tmp_path / "flash")
    try:
        snap = again.wait(lambda s: s["state"].get("inference") == "match", what="match")
        assert "1. e5" in snap["state"]["record"]
        assert snap["counts"][40] == 1  # the cubes stayed on the board
    finally:
        again.stop()


def test_xobo_sim_serves_the_page_and_prints_its_url(tmp_path):
    proc = start_xobo(["sim", "--no-browser", "--flash", str(tmp_path / "flash")])
    try:
        line = proc.stdout.readline()
        assert line.startswith("XoBo simulator: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url + "state", timeout=15) as r:
            assert json.loads(r.read())["state"]["position"] == START
    finally:
        out, err = stop_with_ctrl_c(proc)
    assert proc.returncode == 0, (proc.returncode, out, err)


def test_a_power_cut_reboots_the_firmware_which_resumes_the_game(sim):
    sim.post({"action": "put", "cell": "e5"})
    sim.wait(lambda s: s["state"]["side"] == "ew", what="e5 committed")
    app_before = sim.backend.board.app
    assert sim.post({"action": "power_cut"})["ok"]
    assert sim.backend.board.app is not app_before  # a new app, booted from the flash
    snap = sim.wait(lambda s: s["state"].get("inference") == "match", what="match")
    assert "1. e5" in snap["state"]["record"] and snap["counts"][40] == 1


def test_undo_of_a_regroup_says_the_stack_must_get_shorter(sim):
    # NS under Voina (EW threatens e5) regroups b5, c5, d5 onto a5 (V2), then undoes it
    text = "/".join(["........."] * 4 + ["1111.1111"] + ["........."] * 3 + ["111......"])
    assert sim.post({"action": "load", "text": text + " ns 25 0 0"})["ok"]
    sim.wait(lambda s: s["state"].get("inference") == "match", what="cubes match")
    for c in ("b5", "c5", "d5"):
        sim.post({"action": "lift", "cell": c})
    sim.post({"action": "put", "cell": "a5", "n": 3})
    sim.wait(lambda s: s["state"]["ply"] == 1, timeout=8.0, what="the regroup committed")
    assert sim.command("undo")["ok"]
    snap = sim.wait(lambda s: s["state"].get("inference") == "restore", what="restore")
    assert snap["state"]["heights"] == {"a5": 1}
    assert "height a5=1" in sim.command("state")["reply"][0]


def test_a_tap_shorter_than_the_debounce_still_reaches_the_firmware(sim):
    # press and release arrive back to back (a starved stepping thread sees both in one go):
    # the firmware's buttons need 20 ms of stable level, so the release waits until seen
    sim.post({"action": "put", "cell": "e5"})
    sim.wait(lambda s: s["state"]["side"] == "ew", what="e5 committed")
    with sim.backend.lock:
        sim.backend._do_press({"button": "undo"})
        sim.backend._do_release({"button": "undo"})
    snap = sim.wait(lambda s: s["state"]["side"] == "ns", what="the undo of e5")
    assert "1. e5" not in snap["state"]["record"]


def test_loading_a_position_with_non_ascii_digits_answers_with_an_error(sim):
    # Position.parse raised ValueError from int('3²'): the server closed the connection
    text = "/".join(["........."] * 9) + " ns 3\u00b2 0 0"
    reply = sim.post({"action": "load", "text": text})
    assert reply["ok"] is False
    assert reply["error"] == "position: common reserve must be a number 0-36, got '3\u00b2'"
    reply = sim.post({"action": "load", "text": "[Variant \"xobo\"]\n\n1\u00b2. e5\n"})
    assert reply["ok"] is False and reply["error"].startswith("record: ")


def test_the_game_action_switches_the_game_and_names_the_games_the_board_has(sim):
    names = [g["name"] for g in sim.state()["games"]]
    assert "xobo" in names and "tiny" in names
    err = sim.post({"action": "game", "name": "chess"}, expect=400)["error"]
    assert err.startswith("unknown game 'chess'")
    sim.post({"action": "game", "name": "tiny"})
    snap = sim.wait(lambda s: s["state"]["game"] == "tiny", what="tiny")
    assert snap["state"]["area"]["cells"][0] == "d4"
    assert snap["box"] is None  # the test game's pieces are not counted
    err = sim.post({"action": "put", "cell": "j5"}, expect=400)["error"]
    assert "not a cell of this 9x9 board" in err


def test_play_it_for_me_plays_the_test_games_computer_move_with_the_pieces(sim):
    sim.post({"action": "game", "name": "tiny"})
    sim.command("set settle 200")
    sim.command("set opponent o")
    sim.post({"action": "put", "cell": "e5"})
    sim.wait(lambda s: s["state"]["expect"] is not None, timeout=10, what="o's move shown")
    played = sim.post({"action": "play"})["played"]
    snap = sim.wait(lambda s: s["state"]["ply"] == 2, timeout=5, what="o's move committed")
    assert played and sum(snap["counts"]) == 2


def test_the_backend_reads_typed_events_with_their_kind(sim):
    sim.command("set level random")
    kinds = [e[2] for e in sim.backend.events_after(0, kinds=True)]
    assert "setting" in kinds
    assert sim.state()["settings_seq"] >= 1


def test_play_it_for_me_plays_the_hint_the_board_shows_with_the_pieces(sim):
    sim.post({"action": "game", "name": "tiny"})
    sim.command("set settle 200")
    assert sim.state()["hint"] is None
    sim.post({"action": "press", "button": "hint"})
    sim.post({"action": "release", "button": "hint"})
    snap = sim.wait(lambda s: s["hint"] is not None, timeout=10, what="the hint shown")
    assert sim.post({"action": "play"})["played"] == snap["hint"]
    snap = sim.wait(lambda s: s["state"]["ply"] == 1, timeout=5, what="the hint committed")
    assert sum(snap["counts"]) == 1 and snap["hint"] is None


def test_play_it_for_me_is_not_offered_while_pieces_are_moved(sim):
    # a hint shown, then a piece lifted: the hint cannot be played from where the pieces are
    # (the page used to offer it and get 400s): it is offered again once they match
    sim.command("set game chain-reaction")
    snap = sim.wait(lambda s: s["state"]["game"] == "chain-reaction", what="chain reaction")
    for name in snap["state"]["fill"]:  # its pieces, as the board shows them
        sim.post({"action": "put", "cell": name})
    sim.wait(lambda s: s["state"]["inference"] == "match", what="the pieces set up")
    sim.command("hint")
    sim.wait(lambda s: s["hint"] is not None, what="the hint shown")
    sim.post({"action": "lift", "cell": "d2"})
    snap = sim.wait(lambda s: s["state"]["inference"] != "match", what="a move in progress")
    assert snap["hint"] is None
    sim.post({"action": "put", "cell": "d2"})  # the piece back where it was
    sim.wait(lambda s: s["state"]["inference"] == "match" and s["hint"] is not None,
             what="the hint offered again")


def test_a_click_on_a_taken_cell_says_why_the_pieces_do_not_stack(sim):
    sim.command("set game tiny")
    sim.wait(lambda s: s["state"]["game"] == "tiny", what="tiny")
    sim.post({"action": "put", "cell": "e5"})
    reply = sim.post({"action": "put", "cell": "e5"}, expect=400)
    assert reply["error"] == "e5 is taken: a cell holds one piece (TB2); lift it first to move it"
    assert sim.state()["counts"][40] == 1


def test_the_legend_lists_only_the_game_being_played_in_its_players_names(sim):
    meanings = [i["meaning"] for i in sim.post({"action": "guide"})["legend"]]
    assert any(m.startswith("Voïna") for m in meanings)
    assert any(m.startswith("North–South: its pieces") for m in meanings)
    sim.command("set game chain-reaction")
    sim.wait(lambda s: s["guide_key"] == "chain-reaction", what="chain reaction")
    meanings = [i["meaning"] for i in sim.post({"action": "guide"})["legend"]]
    assert any(m.startswith("Light: its pieces") for m in meanings)
    assert any(m.startswith("a tower, Light on top") for m in meanings)
    assert not any("Voïna" in m or "North–South" in m or "donjon" in m or "Red" in m
                   for m in meanings), meanings
    assert not any("cube" in m for m in meanings), meanings


def test_how_to_play_has_a_diagram_of_each_lesson_of_the_game_being_played(sim):
    guide = sim.post({"action": "guide"})["guide"]
    assert guide["game"] == "xobo" and guide["rules"] == "docs/rules/xobo.md"
    first = guide["steps"][0]
    assert first["title"] == "the goal" and 'data-look="e9"' in first["svg"]
    assert '<g data-at="e1" data-piece="cube" data-height="1">' in first["svg"]
    assert 'data-at="e9" data-piece' not in first["svg"]
    sim.command("set game chain-reaction")
    sim.wait(lambda s: s["guide_key"] == "chain-reaction", what="chain reaction")
    step = sim.post({"action": "guide"})["guide"]["steps"][0]
    assert '<g data-at="e2" data-piece="light"' in step["svg"]
    assert 'data-at="a1"' not in step["svg"]  # a score column: no cell of the field
    assert '<rect data-at="e9"' in step["svg"] and 'fill="#3b3714"' in step["svg"]


def test_play_it_for_me_plays_a_regroup_the_switches_cannot_tell_apart(sim):
    # e6->e8 and e7->e5 both empty e6 and e7: the page's hands lift the stack and put it
    # back, as the board asks (M2), and the regroup is committed
    column = "........./" + "/".join(["....1...."] * 8) + " ew 28 0 0"
    sim.post({"action": "load", "text": column})
    for rank in range(1, 9):
        sim.post({"action": "put", "cell": "e%d" % rank})
    sim.wait(lambda s: s["state"]["inference"] == "match", what="the column set up")
    assert sim.command("move e6->e8")["ok"]
    sim.post({"action": "play"})
    snap = sim.wait(lambda s: s["state"]["ply"] == 1, timeout=10, what="the regroup played")
    assert snap["counts"][7 * 9 + 4] == 3  # e8 holds the stack of 3


def _get_status(sim, path):
    import http.client
    from urllib.parse import urlparse

    u = urlparse(sim.url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    conn.request("GET", path)  # sent as written: no client-side normalisation of ../
    r = conn.getresponse()
    return r.status, r.read()


def test_the_rules_pages_are_served_rendered_with_their_diagrams(sim):
    status, headers, body = sim.get("/docs/rules/xobo.md")
    text = body.decode("utf-8")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert '<h1 id="xobo' in text and "<table>" in text  # the markdown rendered, tables too
    assert '<img src="diagrams/xobo-1.svg"' in text
    status, headers, body = sim.get("/docs/rules/diagrams/xobo-1.svg")
    assert status == 200 and headers["Content-Type"] == "image/svg+xml"
    assert body.startswith(b"<svg") or b"<svg" in body[:200]
    for name in ("x", "chain-reaction", "brochs", "tiny", "board"):
        assert sim.get("/docs/rules/%s.md" % name)[0] == 200


def test_only_the_projects_pages_are_served_and_no_path_climbs_out(sim):
    for path in ("/docs/../pyproject.toml", "/docs/rules/../../README.md",
                 "/docs/%2e%2e/pyproject.toml", "/docs/rules/nothing.md", "/docs/../../etc/passwd",
                 "/docs/./rules/x.md", "/etc/passwd", "/.git/config"):
        status, body = _get_status(sim, path)
        assert status == 404, (path, status, body[:80])


def test_a_position_with_a_chain_reaction_tower_loads_as_a_position_not_a_record(sim):
    # the tower's brackets ('[dl]', CB4) are not a record's tag line
    assert sim.post({"action": "game", "name": "chain-reaction"})["ok"] is not False
    tower = "..ddd../.ddddd./..[dl]dd../..ll.../...ll../..llll./...ll.. l 3 0 0 18"
    reply = sim.post({"action": "load", "text": tower})
    assert reply.get("loaded") == "position", reply
    sim.wait(lambda s: s["state"]["position"] == tower, what="the tower's position")


def test_a_piece_lifted_and_put_back_by_two_quick_clicks_is_seen_lifted(tmp_path):
    """Two clicks that reach a starved stepping thread together (here: no stepping thread at
    all) are still two changes of the switch: the put waits until the firmware has seen the
    lift, as a hand could never be quicker than the switches' debounce."""
    from xobo_host.sim.backend import SimBackend, make_virtual_board

    backend = SimBackend(make_virtual_board(str(tmp_path / "flash")))
    backend.action({"action": "put", "cell": "e5"})
    backend.action({"action": "lift", "cell": "e5"})
    backend.action({"action": "put", "cell": "e5"})
    backend.start()  # the stepping thread sees the last put (and nothing else is done)
    try:
        settled = False
        while not settled:  # until the firmware has seen every change of the switches
            backend.wait_change(backend.version, 0.1)
            with backend.lock:
                settled = not backend.board.settling()
        switches = [line for _, line in backend.events_after(0)
                    if line.startswith("event switch e5")]
    finally:
        backend.stop()
    assert switches == ["event switch e5 on", "event switch e5 off", "event switch e5 on"]
