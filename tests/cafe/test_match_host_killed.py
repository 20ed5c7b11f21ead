"""A café host killed (SIGKILL, no clean stop) mid-match and started again: ``xobo cafe
--cafe-name --broker FILE`` as its own process, on a real broker (Debian's mosquitto on
loopback, ``remotekit.Broker``), against a café in this process. The other café plays its
move while the host is dead; the restarted host finds the match in its database, reads its
board, lights the move it missed, and the game goes on to its end with one record."""

import os
import random
import signal

from sim.simkit import start_xobo, stop_with_ctrl_c

from cafe.cafekit import PASSWORD
from cafe.cafekit import api_request as _request
from cafe.remotekit import (
    Broker,
    Cafe,
    board_state,
    boards,
    commit,
    same_everywhere,
    wait_for,
)
from xobo_host.cafe.staff import Staff
from xobo_host.records.gamesdb import GamesDB


def test_a_cafe_host_killed_mid_match_resumes_it_with_no_move_lost(tmp_path):
    broker = Broker(tmp_path).start()
    bs = boards(tmp_path, ["k0", "k1"])
    bs["k0"].play("serial set game tiny")
    db_path = str(tmp_path / "killed.sqlite")
    Staff.create(str(tmp_path / "staff.json"), PASSWORD)
    args = ["cafe", "--port", bs["k0"].device, "--no-usb-scan", "--db", db_path,
            "--http-port", "0", "--no-browser", "--cafe-name", "cafe-k",
            "--broker", broker.cafes["cafe-k"]]

    def start_host():
        proc = start_xobo(args)
        line = proc.stdout.readline()
        assert line.startswith("XoBo cafe: http://"), line + proc.stderr.read()
        return proc, line.split()[2]

    proc, url = start_host()
    other = Cafe(tmp_path, "cafe-o", {"k1": bs["k1"]}, broker).start()
    try:
        # (the floor lists no table until its board said hello: a loaded machine's first
        # answers have none)
        wait_for(lambda: [t["online"] for t in _request(url + "api/floor")[1]["tables"]]
                 == [True], "k0 online at cafe-k")
        status, out, headers = _request(url + "api/login", {"password": PASSWORD})
        cookie = headers["Set-Cookie"].split(";")[0]
        status, inv, _ = _request(url + "api/invite", {"table": "k0", "seat": "x"},
                                  cookie=cookie)
        assert status == 200, inv
        ident = other.service.accept(inv["code"], "k1")["match"]
        wait_for(lambda: other.match(ident).state == "playing"
                 and "k1" in other.match(ident).prepared, "the match playing")
        wait_for(lambda: board_state(bs["k0"])[0] == 0, "k0 at the start")
        rng = random.Random(1)
        tables = {"k0": bs["k0"], "k1": bs["k1"]}
        killed = False
        while other.match(ident).state == "playing":
            match = other.match(ident)
            n = match.ply + 1
            mover = "k0" if match.side() == 0 else "k1"
            waiting = "k1" if mover == "k0" else "k0"
            wait_for(lambda b=tables[mover], k=n: board_state(b)[0] == k - 1,
                     "%s at ply %d" % (mover, n - 1))
            pos = match.position()
            move = pos.move_text(rng.choice(pos.legal_actions()))
            if mover == "k1" and not killed:
                os.kill(proc.pid, signal.SIGKILL)  # cafe-k dies: no clean stop
                proc.wait(10)
                killed = True
                commit(tables[mover], "play " + move)  # the other café plays meanwhile
                wait_for(lambda k=n: other.match(ident).ply == k, "the move in cafe-o's log")
                proc, url = start_host()
            else:
                commit(tables[mover], "play " + move)
            wait_for(lambda b=tables[waiting], mv=move: board_state(b)[2] == mv,
                     "%s lit at %s" % (move, waiting), timeout=30)
            commit(tables[waiting], "play expected")
        assert killed
        # cafe-k's log (its database) and its table's record have every move, once
        db = GamesDB(db_path, readonly=True)
        try:
            wait_for(lambda: db.list_games("k0", None, None)[-1]["n_moves"]
                     == other.match(ident).ply, "k0's record whole")
        finally:
            db.close()
        status, views, _ = _request(url + "api/matches")
        assert views["matches"][0]["moves"] == other.match(ident).moves
        same_everywhere([other], {"k1": (other, bs["k1"])}, ident)
        assert board_state(bs["k0"])[:2] == board_state(bs["k1"])[:2]
    finally:
        stop_with_ctrl_c(proc)
        other.stop()
        for b in bs.values():
            b.unplug()
        broker.kill()
