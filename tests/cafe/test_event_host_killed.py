"""Nothing of an event is lost when its host dies: ``xobo cafe`` killed (SIGKILL) mid-round
and started again finds the event, its round, each game's table and every result; a game
that ended while the host was down is taken from its board when the host finds it again;
the event goes on to its end; a corrected result and its audit survive another kill."""

import os
import signal

from xobo_testing import wait_for

from cafe.cafekit import named_board
from xobo_host.cafe.events.evening import Client, ProcessHost

X_WINS = ("d4", "e4", "d5", "e5", "d6")


def play(board, cells, arrange=True):
    if arrange:
        board.play("arrange")
    for cell in cells:
        board.play("put " + cell)
        board.play("wait 300")


def test_the_host_killed_mid_round_and_started_again_finds_the_event_and_every_result(
        tmp_path):
    boards = {name: named_board(tmp_path, name, hands_clock=True) for name in ("t1", "t2")}
    host = ProcessHost(str(tmp_path), [b.device for b in boards.values()])
    try:
        client = Client(host.url)
        client.login()
        wait_for(lambda: sum(t["online"] for t in client.get("api/floor")["tables"]) == 2,
                 "both tables online")
        eid = client.post("api/event/new", {"name": "Killed night", "game": "tiny",
                                            "rounds": 2})["id"]
        for n in ("Alice", "Bruno", "Chloé", "Dmitri"):
            client.post("api/event/%d/action" % eid, {"action": "add_player", "name": n,
                                                      "checked_in": True})
        assert client.post("api/event/%d/action" % eid, {"action": "start"})["ok"]

        def games():
            return client.get("api/event/%d" % eid)["games"]

        wait_for(lambda: all(g["state"] == "playing" for g in games()), "round 1 playing")
        by_table = {g["table"]: g for g in games()}
        play(boards["t1"], X_WINS)  # t1's game ends while the host follows it
        wait_for(lambda: next(g for g in games() if g["table"] == "t1")["state"] == "over",
                 "t1's result taken")
        play(boards["t2"], X_WINS[:2])  # t2's game is under way...
        os.kill(host.proc.pid, signal.SIGKILL)  # ...when the host dies
        host.proc.wait(10)
        play(boards["t2"], X_WINS[2:], arrange=False)  # it ends while nobody follows it
        host.stop()
        host.start()
        client = Client(host.url)
        client.login()
        v = client.get("api/event/%d" % eid)
        # the event, its round, the tables and the result taken before the kill
        assert v["state"] == "running" and v["round"] in (1, 2)
        history = {g["id"]: g for g in v["history"]}
        t1 = history[by_table["t1"]["id"]]
        assert t1["state"] == "over" and t1["words"] == "x" and t1["table"] == "t1"
        # the game that ended while the host was down: read from its board once found
        wait_for(lambda: client.get("api/event/%d" % eid)["round"] == 2,
                 "t2's result taken after the restart, round 2 paired")
        v = client.get("api/event/%d" % eid)
        t2 = next(g for g in v["history"] if g["id"] == by_table["t2"]["id"])
        assert t2["state"] == "over" and t2["words"] == "x" and t2["table"] == "t2"
        # round 2 plays to the end; a result is corrected, then the host dies again
        wait_for(lambda: all(g["state"] == "playing" for g in games()), "round 2 playing")
        for g in games():
            play(boards[g["table"]], X_WINS)
        wait_for(lambda: client.get("api/event/%d" % eid)["state"] == "finished",
                 "the event's end")
        last = games()[0]
        out = client.post("api/event/%d/action" % eid, {
            "action": "correct", "game": last["id"], "places": [2, 1], "by": "Sam",
            "why": "a cube fell"})
        assert out["ok"], out
        os.kill(host.proc.pid, signal.SIGKILL)
        host.proc.wait(10)
        host.stop()
        host.start()
        client = Client(host.url)
        client.login()
        v = client.get("api/event/%d" % eid)
        assert v["state"] == "finished"
        assert [c["by_name"] for c in v["corrections"]] == ["Sam"]
        g = next(x for x in v["history"] if x["id"] == last["id"])
        assert g["how"] == "staff" and g["seats"][1]["place"] == 1
        assert sum(r["points"] for r in v["standings"]) == 4.0
    finally:
        host.stop()
        for b in boards.values():
            b.unplug()
