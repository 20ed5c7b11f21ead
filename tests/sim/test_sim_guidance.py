"""The simulator as a set of 36 cubes, the computer's move played for the player, a record's
replay with its progress, and the firmware's words in the snapshot (no browser)."""

import threading
import time

from sim.simkit import RECORD28, SPREAD4
from xobo.games.xobo.rules.notation import parse_move
from xobo.games.xobo.rules.position import Position

# a 28-move game (random legal moves), as the players' report: its replay showed no progress
VOINA = "........./........./........./........./1111.1111/........./........./........./" \
    "111...... ns 25 0 0"


def test_B1_the_simulator_has_36_cubes_and_says_when_the_box_is_empty(sim):
    for _ in range(36):
        sim.post({"action": "put", "cell": "a1"})
    assert sim.state()["box"] == 0
    err = sim.post({"action": "put", "cell": "b1"}, expect=400)["error"]
    assert err.startswith("no cube left in the box: the set has 36"), err
    assert sim.state()["counts"][1] == 0 and sim.state()["counts"][0] == 36


def test_B1_cubes_taken_off_go_back_to_the_box(sim):
    for _ in range(36):
        sim.post({"action": "put", "cell": "a1"})
    sim.post({"action": "take", "cell": "a1", "n": 2})
    assert sim.state()["box"] == 2
    assert sim.post({"action": "put", "cell": "b1"})["from"] == "box"
    sim.post({"action": "lift", "cell": "a1"})  # 34 in the hand: not in the box
    assert sim.state()["box"] == 1
    sim.post({"action": "drop"})
    assert sim.state()["box"] == 35


def test_a_record_replay_shows_its_progress_while_it_runs(sim):
    seen = []
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            seen.append(sim.state().get("loading"))
            time.sleep(0.005)

    t = threading.Thread(target=watch)
    t.start()
    try:
        reply = sim.post({"action": "load", "text": RECORD28})
    finally:
        stop.set()
        t.join()
    assert reply["ok"] and reply["moves"] == 28, reply
    progress = [p for p in seen if p]
    assert progress and all(p["total"] == 28 for p in progress), seen[:5]
    assert any(0 < p["done"] < 28 for p in progress), progress
    assert sim.state()["loading"] is None
    assert "14. e7 ; f7 (v)" in sim.state()["state"]["record"]


def _played_for_me(sim, start, expect):
    reply = sim.post({"action": "play"})
    assert reply["played"] == expect
    after = Position.parse(start)
    after.apply(parse_move(expect, after))
    snap = sim.wait(lambda s: s["state"]["position"] == after.to_string(),
                    what="%s committed" % expect)
    assert snap["counts"] == list(after.heights) and snap["hand"] == 0


def test_M3_play_for_me_spreads_the_waiting_stack_and_takes_the_pairs_off(sim):
    sim.post({"action": "load", "text": SPREAD4})
    sim.wait(lambda s: s["state"]["inference"] == "match", what="the loaded cubes")
    assert sim.command("move e5xe4")["ok"]
    snap = sim.wait(lambda s: s["say"], what="the words of the host's move")
    assert snap["say"] == "the host plays e5xe4: spread e5 towards e4"
    _played_for_me(sim, SPREAD4, "e5xe4")


def test_play_for_me_plays_the_computers_move_with_the_cubes(sim):
    sim.post({"action": "load", "text": SPREAD4})
    sim.command("set level random")
    sim.command("set opponent ew")
    snap = sim.wait(lambda s: s["state"]["expect"], what="the computer's move")
    expect = snap["state"]["expect"]
    assert snap["say"].startswith("the computer plays %s: " % expect), snap["say"]
    _played_for_me(sim, SPREAD4, expect)


def test_play_for_me_without_a_waiting_move_says_why(sim):
    err = sim.post({"action": "play"}, expect=400)["error"]
    assert err.startswith("no move waits for the cubes"), err


def test_snapshot_says_the_ambiguous_regroup_in_words(sim):
    amb = "...1...../........./11......./1......../...1...../...11..../.1.111..1/1.1111.1./" \
        "..1111.11 ns 4 2 6"
    sim.post({"action": "load", "text": amb})
    sim.wait(lambda s: s["state"]["inference"] == "match", what="the loaded cubes")
    sim.post({"action": "lift", "cell": "e2"})
    sim.post({"action": "lift", "cell": "d2"})
    sim.post({"action": "put", "cell": "c2"})
    sim.post({"action": "put", "cell": "c2"})
    snap = sim.wait(lambda s: s["say"].startswith("c2 or f2?"), what="the words")
    assert snap["say"] == "c2 or f2? lift the stack you chose and put it back"


def test_a_click_that_would_spoil_a_waiting_move_waits_for_its_commit(sim):
    sim.command("set settle 1000")
    sim.post({"action": "put", "cell": "e5"})
    snap = sim.wait(lambda s: s["settle"], what="e5 waiting for stillness")
    assert snap["settle"]["move"] == "e5" and snap["settle"]["ms"] == 1000
    sim.post({"action": "put", "cell": "d4"})  # at once: held until e5 is committed
    snap = sim.wait(lambda s: s["state"]["ply"] == 2, what="e5 and d4 both played")
    assert snap["state"]["inference"] == "match" and snap["settle"] is None


def test_taking_back_the_waiting_move_s_own_cube_does_not_wait(sim):
    sim.command("set settle 5000")
    sim.post({"action": "put", "cell": "e5"})
    sim.post({"action": "lift", "cell": "e5"})  # a change of mind: no commit waited for
    snap = sim.wait(lambda s: s["state"]["inference"] == "match", timeout=3,
                    what="the cube taken back")
    assert snap["state"]["ply"] == 0


def test_set_up_is_refused_when_no_lesson_waits_for_its_pieces(sim):
    assert sim.state()["setup"] is False
    err = sim.post({"action": "setup"}, expect=400)["error"]
    assert err.startswith("no lesson waits for its pieces"), err
    sim.command("learn")
    sim.post({"action": "put", "cell": "a1"})  # a cube the first lesson has not
    sim.wait(lambda s: s["setup"], what="the lesson waiting for its pieces")
    assert sim.post({"action": "setup"})["changed"] >= 1
    sim.wait(lambda s: s["state"]["inference"] == "match" and not s["setup"],
             what="the lesson set up")
