# dual-runtime
"""Whole sessions on the virtual board, cubes moved by hand (real counts per cell), in the
orders people really use: placements, regroups, spreads with captures, noise, fixes, undo,
buttons, a host move and the computer opponent."""

from boardapp.boardkit import EMPTY, Recorder, board_at, position
from xobo.games.xobo.rules.position import Position
from xobo.runtime.virtual_board import VirtualBoard

SPREAD4 = "........./........./........./........./....4..../...11..../........./....1..../" \
    "......... ns 29 0 0"
VOINA = "........./........./........./........./1111.1111/........./........./........./" \
    "111...... ns 25 0 0"


def _place(vb, cell, wait=1200):
    vb.put(cell)
    vb.advance(wait)


def test_E3_a_whole_game_of_placements_ends_with_the_winner_and_the_chain():
    vb = VirtualBoard()
    rec = Recorder(vb)
    vb.advance(100)
    for k in range(1, 9):
        _place(vb, "e%d" % k)
        _place(vb, "a%d" % k)
    _place(vb, "e9")
    vb.advance(500)  # after the confirmation flash
    moves = rec.moves()
    assert moves[:3] == ["e1", "a1", "e2"]
    assert "e8 (v)" in moves  # V2: NS threatens e9
    assert moves[-1] == "e9"
    assert rec.has("event result ns")
    assert vb.app.result_name() == "ns"
    from xobo.runtime import colours as C

    for k in range(1, 10):
        assert vb.app.light.code[(k - 1) * 9 + 4] == C.WIN_NS
    assert vb.app.light.code[0] == C.OFF  # a1 is not on the chain


def test_M3_M4_spread_lift_the_stack_put_cubes_one_by_one_then_take_the_pairs_off():
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    assert vb.lift("e5") == 4
    for cell in ("e4", "e3", "e2", "e1"):  # e4 and e2 now hold 2 cubes
        vb.put(cell)
        vb.advance(300)
    vb.advance(3000)
    assert rec.moves() == []  # the pairs are still on the board
    vb.take("e4", 2)
    vb.advance(200)
    vb.take("e2", 2)
    vb.advance(1200)
    assert rec.moves() == ["e5xe4"]
    pos = vb.app.pos
    assert pos.own[0] == 4  # M4: two pairs into NS's reserve
    assert position(vb).startswith("........./........./........./........./........./"
                                   "...1...../....1..../........./....1....")


def test_M4_spread_pairs_taken_off_as_they_form():
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    vb.lift("e5")
    vb.put("d4")
    vb.take("d4", 2)  # SW: the captured pair at once
    vb.advance(300)
    for cell in ("c3", "b2", "a1"):
        vb.put(cell)
        vb.advance(300)
    vb.advance(1200)
    assert rec.moves() == ["e5xd4"]
    assert vb.app.pos.own[0] == 2


def test_M3_stack_taken_cube_by_cube_is_one_spread_not_a_placement():
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    for cell in ("e4", "e3", "e2", "e1"):
        vb.take("e5", 1)
        vb.put(cell)
        vb.advance(400)
    vb.take("e4", 2)
    vb.take("e2", 2)
    vb.advance(1500)
    assert rec.moves() == ["e5xe4"]


def test_M2_regroup_by_hand_under_voina():
    vb = board_at(VOINA)
    rec = Recorder(vb)
    assert vb.app.pos.under_voina()
    vb.take("a1", 1)
    vb.put("c1")
    vb.take("b1", 1)
    vb.put("c1")
    vb.advance(1200)
    assert rec.moves() == ["a1->c1"]
    assert vb.app.pos.heights[2] == 3


def test_noise_bounce_lift_and_put_back_and_brush_commit_nothing():
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    vb.bounce("d4", 25)  # chattering switch
    vb.advance(2000)
    vb.lift("d4")  # a player lifts a cube to look at it
    vb.advance(600)
    vb.put("d4")
    vb.advance(2000)
    vb.put("a9")  # a cube brushing a9 on its way
    vb.advance(300)
    vb.lift("a9")
    vb.advance(3000)
    assert rec.moves() == []
    assert position(vb) == SPREAD4


def test_illegal_situation_shows_cells_to_clear_and_changes_nothing():
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    vb.put("a9")
    vb.put("i9")
    vb.advance(1500)
    assert vb.app.inf.state_name() == "fix"
    from xobo.runtime import colours as C

    assert vb.app.light.code[72] == C.CLEAR and vb.app.light.code[80] == C.CLEAR
    assert rec.has("event fix clear a9 i9")
    vb.lift("a9")
    vb.advance(100)
    # i9 alone is a legal placement: offered to ok (white pulse), never committed by time
    assert vb.app.light.code[80] == C.WAITING and vb.app.inf.state_name() == "offer"
    vb.advance(4000)
    assert rec.moves() == []
    vb.lift("i9")
    vb.advance(2000)
    assert rec.moves() == []
    assert position(vb) == SPREAD4


def test_undo_again_and_again_to_the_start_shows_what_to_restore():
    vb = VirtualBoard()
    rec = Recorder(vb)
    vb.advance(100)
    for cell in ("e5", "d4", "c3"):
        _place(vb, cell)
    assert len(rec.moves()) == 3
    for cell in ("c3", "d4", "e5"):
        vb.hold("undo", 100)
        vb.advance(200)
        assert rec.has("event undo " + cell)
        assert vb.app.inf.state_name() == "restore"
        vb.advance(3000)  # the board waits: nothing is re-committed
        assert vb.app.inf.state_name() == "restore"
        vb.lift(cell)
        vb.advance(100)
        assert vb.app.inf.state_name() == "match"
    assert position(vb) == EMPTY
    vb.hold("undo", 100)
    vb.advance(200)
    assert rec.has("event error nothing to undo")
    assert position(vb) == EMPTY


def _spread_e5xd4_by_hand_then_undo(vb, rec):
    # on SPREAD4: the stack lifted, the pair on d4 taken off at once, the singles put down
    vb.lift("e5")
    vb.put("d4")
    vb.take("d4", 2)
    for cell in ("c3", "b2", "a1"):
        vb.put(cell)
    vb.advance(1500)
    assert rec.moves() == ["e5xd4"]
    vb.command("undo")
    vb.advance(50)


def test_undo_of_a_spread_asks_for_the_stack_and_the_captured_singles_back():
    vb = board_at(SPREAD4)
    _spread_e5xd4_by_hand_then_undo(vb, Recorder(vb))
    inf = vb.app.inf
    fill = [c for c in range(81) if inf.fill[c]]
    clear = [c for c in range(81) if inf.clear[c]]
    assert fill == [30, 40]  # d4 and the stack on e5
    assert clear == [0, 10, 20]  # a1, b2, c3
    vb.put("e5", 4)
    vb.put("d4")
    for cell in ("a1", "b2", "c3"):
        vb.lift(cell)
    vb.advance(100)
    assert inf.state_name() == "match"
    assert position(vb) == SPREAD4


def test_undo_of_a_spread_says_how_tall_the_stack_to_rebuild_is():
    # one cube closes e5's switch, but e5 must hold 4 again: the text says e5=4 and the
    # light blinks white on e5 while restoring and 5 s after (formerly "fill d4 e5", FILL)
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    vb.command("follow on")
    _spread_e5xd4_by_hand_then_undo(vb, rec)
    assert rec.has("event restore fill d4 e5=4 clear a1 b2 c3")
    assert vb.command("state") == [
        "ok state restore side ns result * ply 0 gameid %s restore fill d4 e5=4 clear a1 b2 c3"
        % vb.app.gameid]
    from xobo.runtime import colours as C

    light = vb.app.light
    assert light.code[40] == C.ADJUST  # e5: a stack goes here
    assert light.code[30] == C.FILL  # d4: a single
    vb.advance(6000)
    assert light.code[40] == C.ADJUST  # as long as the board restores
    vb.put("e5", 4)
    vb.put("d4")
    for cell in ("a1", "b2", "c3"):
        vb.lift(cell)
    vb.advance(100)
    assert vb.app.inf.state_name() == "match"
    assert light.code[40] == C.ADJUST  # then 5 s more
    vb.advance(5100)
    assert light.code[40] == C.OFF


def test_fix_of_a_lifted_stack_says_its_height():
    vb = board_at(SPREAD4)
    vb.put("a9")
    vb.put("i9")
    for cell in ("e5", "d4", "e4"):  # two stray cubes and three cells lifted: back to E
        vb.lift(cell)
    vb.advance(1200)
    assert vb.command("state")[0].endswith(" fix fill d4 e4 e5=4 clear a9 i9")


def test_ok_button_commits_a_move_that_waits_for_a_longer_one():
    vb = board_at(VOINA)
    rec = Recorder(vb)
    vb.lift("a5")
    vb.lift("b5")
    vb.put("c5", 2)
    vb.advance(300)
    assert vb.app.inf.state_name() == "wait-longer"
    vb.hold("ok", 80)
    vb.advance(150)
    assert rec.moves() == ["a5->c5"]


def test_both_buttons_start_a_new_game_and_the_board_asks_to_clear_the_cubes():
    vb = VirtualBoard()
    rec = Recorder(vb)
    _place(vb, "e5")
    vb.hold("ok", 1300)
    vb.hold("undo", 1300)
    vb.advance(1400)
    assert rec.has("event new")
    assert position(vb) == EMPTY
    assert vb.app.inf.state_name() == "restore"
    vb.lift("e5")
    vb.advance(100)
    assert vb.app.inf.state_name() == "match"


def test_long_undo_right_after_an_undo_is_one_more_undo_not_a_new_game():
    # docs/rules/board.md: undo goes back move after move to the start, and a wrong move on
    # the board never loses anything: a long press on undo abandons the game only right after
    # power-up (formerly it abandoned it whenever the board was restoring: QA's bug)
    vb = VirtualBoard()
    rec = Recorder(vb)
    for cell in ("e5", "d4", "e4", "f6"):
        _place(vb, cell)
    vb.hold("undo", 100)  # undo f6: now restoring
    vb.advance(200)
    assert vb.app.inf.state_name() == "restore"
    vb.hold("undo", 1600)  # a long press while restoring: one more undo
    vb.advance(1800)
    assert not rec.has("event new")
    assert [x for x in rec.lines if x.startswith("event undo")] == ["event undo f6",
                                                                    "event undo e4"]
    assert vb.app.pos.ply == 2
    r = vb.command("record")
    assert "ok 1. e5 ; d4" in r, r


def test_long_undo_after_power_up_then_an_undo_is_an_undo():
    vb = VirtualBoard()
    rec = Recorder(vb)
    for cell in ("e5", "d4", "e4"):
        _place(vb, cell)
    vb.power_cut()
    vb.hold("undo", 100)  # the first undo since the boot: the resumed game is kept
    vb.advance(200)
    vb.hold("undo", 1700)
    vb.advance(1800)
    assert not rec.has("event new") and vb.app.pos.ply == 1


def test_long_undo_after_power_up_then_a_move_is_an_undo():
    vb = VirtualBoard()
    rec = Recorder(vb)
    _place(vb, "e5")
    vb.power_cut()
    _place(vb, "d4")
    vb.hold("undo", 1700)
    vb.advance(1800)
    assert not rec.has("event new") and vb.app.pos.ply == 1


def _touch_session(put_back):
    vb = board_at(VOINA)
    rec = Recorder(vb)
    vb.lift("b5")
    vb.lift("c5")  # the hand holds 2: onto a5 or onto d5?
    vb.advance(4000)
    n = vb.lift("d5")  # the touch (QA's rg2: lifted for 1.1 s)
    vb.advance(1100)
    assert rec.moves() == []  # formerly d5->a5, then a phantom placement d5
    vb.put("d5", put_back(n))
    vb.advance(4000)
    return vb, rec


def test_M2_touch_longer_than_the_settle_time_with_all_cubes_onto_the_stack():
    vb, rec = _touch_session(lambda n: n + 2)  # the hand's 2 cubes and d5's own
    assert rec.moves() == ["b5->d5"]
    assert position(vb).startswith("........./........./........./........./1..3.1111/")
    assert vb.app.inf.state_name() == "match"


def test_M2_touch_longer_than_the_settle_time_putting_back_one_cube():
    vb, rec = _touch_session(lambda n: n)
    assert rec.moves() == ["b5->d5"]


COL_E = "/".join(["....1...."] * 4 + ["........."] + ["....1...."] * 4)


def test_E2_after_the_end_the_board_is_over_nothing_to_fix():
    # EW fills the gap of NS's column: NS wins (E2); then players clear the board freely
    vb = board_at(COL_E + " ew 28 0 0")
    rec = Recorder(vb)
    vb.command("follow on")
    vb.put("e5")
    vb.advance(1500)
    assert rec.has("event result ns connected-opponent")
    vb.lift("e9")
    vb.put("a4")
    vb.advance(3000)
    assert vb.command("state") == [
        "ok state over side ns result ns connected-opponent ply 1 gameid " + vb.app.gameid]
    assert not rec.has("event fix") and not rec.has("event restore")
    assert vb.app.inf.n_fix == 0
    vb.hold("undo", 100)  # an undo brings the game (and the fixes) back
    vb.advance(200)
    assert vb.app.inf.state_name() == "restore"


def test_E2_blocus_is_named_in_the_result():
    # two chains crossing like an X at e5 (d4-f6 North-South, d6-f4 East-West): NS fills e5
    # and connects both pairs of edges: EW wins by blocus (E2)
    n3 = "/".join([".....1..."] * 3 + ["1111.1...", ".........", "...1.1111"]
                  + ["...1....."] * 3) + " ns 20 0 0"
    vb = board_at(n3)
    rec = Recorder(vb)
    vb.command("follow on")
    vb.put("e5")
    vb.advance(1500)
    assert rec.has("event result ew blocus")
    assert vb.command("state")[0] == "ok state over side ew result ew blocus ply 1 gameid " + \
        vb.app.gameid
    assert vb.state()["result_reason"] == "blocus"


def test_E3_E4_result_reasons_connected_and_exhaustion():
    vb = board_at(COL_E + " ns 28 0 0")
    rec = Recorder(vb)
    vb.command("follow on")
    vb.put("e5")
    vb.advance(1500)
    assert rec.has("event result ns connected")
    stacks = "3.3.3.3.."
    n3 = "/".join([stacks, ".........", stacks, ".........", stacks] + ["........."] * 4) \
        + " ns 0 0 0"
    vb = board_at(n3, variant="kv")  # NS has no cubes left (E4, kv)
    assert vb.command("state")[0] == "ok state over side ns result ew exhaustion ply 0 " \
        "gameid " + vb.app.gameid


def test_a_finished_game_resumes_over_at_power_up_not_restoring():
    vb = board_at(COL_E + " ew 28 0 0")
    vb.put("e5")
    vb.advance(1500)
    for k in range(1, 10):
        vb.lift("e%d" % k)  # the board is cleared after the end, then the power goes
    vb.power_cut()
    assert vb.app.inf.state_name() == "over" and vb.app.result_name() == "ns"


def test_host_move_is_shown_and_the_cubes_commit_it():
    vb = board_at(SPREAD4)
    rec = Recorder(vb)
    assert vb.command("move b8") == ["ok move b8 waiting for the cubes"]
    vb.advance(100)
    from xobo.runtime import colours as C

    assert vb.app.light.code[64] == C.PENDING_PUT  # b8
    vb.advance(3000)
    assert rec.moves() == []  # the host move waits for the cubes
    vb.put("a9")  # not the expected move
    vb.advance(1500)
    assert rec.moves() == [] and vb.app.inf.state_name() == "fix"
    vb.lift("a9")
    vb.put("b8")
    vb.advance(1200)
    assert rec.moves() == ["b8"]


def test_host_move_illegal_is_refused_and_changes_nothing():
    vb = board_at(SPREAD4)
    r = vb.command("move e5")  # occupied
    assert r[0].startswith("error ")
    assert vb.app.pending == -1


def test_computer_opponent_move_is_shown_then_played_with_the_cubes():
    vb = VirtualBoard(settings={"opponent": "ew", "level": "random"})
    rec = Recorder(vb)
    vb.advance(100)
    _place(vb, "e5")
    assert rec.moves() == ["e5"]
    vb.advance(100)
    m = vb.app.pending
    assert m >= 0, rec.lines
    assert rec.has("event expect computer ")
    after = vb.app.pos.clone()
    after.apply(m)
    vb.set_cubes(after.heights)  # the human plays the computer's move with the cubes
    vb.advance(1500)
    assert len(rec.moves()) == 2
    assert vb.app.pos.side == 0


def test_resume_at_power_up_shows_cells_that_no_longer_match():
    vb = VirtualBoard()
    _place(vb, "e5")
    _place(vb, "d4")
    vb.lift("d4")  # while the power is off, a cube is knocked off
    vb.power_cut()
    assert vb.app.pos.ply == 2
    inf = vb.app.inf
    assert inf.state_name() == "restore"
    assert [c for c in range(81) if inf.fill[c]] == [30]
    vb.put("d4")
    vb.advance(100)
    assert inf.state_name() == "match"


def test_start_from_a_loaded_position_waits_for_the_cubes():
    vb = VirtualBoard()
    vb.advance(100)
    assert vb.command("load " + SPREAD4)[0].startswith("ok load")
    vb.advance(2000)
    assert vb.app.inf.state_name() == "restore"
    vb.set_cubes(Position.parse(SPREAD4).heights)
    vb.advance(100)
    assert vb.app.inf.state_name() == "match"


def test_long_undo_after_power_up_abandons_the_resumed_game():
    vb = VirtualBoard()
    rec = Recorder(vb)
    _place(vb, "e5")
    _place(vb, "d4")
    vb.power_cut()  # resumed, every cube in place
    assert vb.app.inf.state_name() == "match" and vb.app.pos.ply == 2
    vb.hold("undo", 1700)
    vb.advance(1800)
    assert rec.has("event new") and vb.app.pos.ply == 0


def test_short_undo_after_power_up_is_an_undo():
    vb = VirtualBoard()
    _place(vb, "e5")
    _place(vb, "d4")
    vb.power_cut()
    vb.hold("undo", 100)
    vb.advance(200)
    assert vb.app.pos.ply == 1


def test_settle_times_hold_across_the_ticks_wrap():
    # MicroPython ticks wrap at 2**30 ms on the Pico (~12 days): settle timers use ticks_diff
    from xobo.compat import ticks_diff

    if ticks_diff(0, (1 << 30) - 1) != 1:
        return  # the 64-bit unix port wraps its ticks at 2**62, the virtual clock at 2**30
    vb = VirtualBoard()
    rec = Recorder(vb)
    vb.clock._t = (1 << 30) - 400  # test-only: jump near the wrap
    vb.advance(100)
    vb.put("e5")
    vb.advance(600)  # across the wrap, not yet settled
    assert rec.moves() == []
    vb.advance(700)
    assert rec.moves() == ["e5"]
    assert vb.clock.ticks_ms() < 5000
