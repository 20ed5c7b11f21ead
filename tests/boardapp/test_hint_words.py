# dual-runtime
"""Hints say what to do in every game, as the computer's moves do (the board's `say` words),
and Chain Reaction says between the segments of a turn that the turn goes on (CM4)."""

from xobo.runtime.virtual_board import VirtualBoard

MID_TURN = "..ddd../.ddddd./...dd../...[dl].../..l.l../.lllll./..lll.. l 1 0 0 18"


def _board(game, position=None, board="pico_gpio"):
    vb = VirtualBoard(board=board, settings={"game": game, "level": "random"})
    vb.advance(50)
    if position:
        assert vb.command("load " + position)[0].startswith("ok"), position
    vb.set_cubes(vb.app.pos.heights)
    vb.advance(100)
    return vb


def _say(vb):
    line = vb.command("state")[0]
    return line.split(" say ", 1)[1] if " say " in line else ""


def test_chain_reaction_says_the_turn_goes_on_with_the_tower_cm4():
    vb = _board("chain-reaction", MID_TURN)
    assert _say(vb) == "the turn goes on: move your tower on e5 (segment 2 of 5 at most)"


def test_chain_reaction_hint_says_the_tower_move_in_words():
    vb = _board("chain-reaction", MID_TURN)
    reply = vb.command("hint")[0]
    move = reply.split()[2]
    words = _say(vb)
    assert words.startswith("hint %s: move the tower on e5 " % move), words


def test_brochs_hint_says_the_drop_in_words():
    vb = _board("brochs", board="pico_15x15")
    move = vb.command("hint")[0].split()[2]
    words = _say(vb)
    assert words.startswith("hint %s: " % move) and len(words) > len(move) + 8, words


def test_a_hint_is_no_longer_said_once_a_move_was_played():
    vb = _board("tiny")
    vb.command("hint")
    assert _say(vb).startswith("hint ")
    vb.put("d4")
    vb.advance(1500)
    assert not _say(vb).startswith("hint "), _say(vb)


CUSTODY = (".....wwwww...../.............../.............../...w.......w.../.............../"
           "w.............w/w.............w/w.............w/w.............w/w...b.........w/"
           "....w........../...w.....b.w.../.............../.............../......wwww..... "
           "b 10 1 -")


def test_brochs_a_man_moved_off_its_lines_says_the_rule_and_what_to_put_back_bm2():
    vb = _board("brochs", CUSTODY, board="pico_15x15")
    vb.lift("j4")
    vb.put("k5")
    vb.advance(3500)
    assert _say(vb) == ("j4 to k5 is not allowed: a piece moves along its rank or file only "
                        "(BM2); take the piece off k5; put a man on j4 (it came from there)"), \
        _say(vb)
    vb.lift("k5")
    vb.put("j4")
    vb.advance(3500)
    assert vb.command("state")[0].startswith("ok state match"), vb.command("state")


def test_brochs_a_drop_waiting_says_the_master_in_the_boards_own_buttons():
    vb = _board("brochs", board="pico_15x15")
    vb.put("e5")
    vb.advance(500)
    words = _say(vb)
    assert words == ("a man on e5: it counts when the pieces stay still (for your master "
                     "instead, hold ok now)"), words
    assert "press master" not in words and "*e5" not in words


def test_chain_reaction_a_lifted_piece_is_first_told_where_it_goes_then_the_touch():
    # the switches see e4 lifted only: the piece may still be in the hand
    vb = _board("chain-reaction", "..ddd../.ddddd./...dd../...d.../..lll../.lllll./..lll.. "
                                  "l 0 0 0 18")
    vb.lift("e4")
    vb.advance(300)
    words = _say(vb)
    assert words.startswith("put your piece on a square next to where it stood; if it went "
                            "onto a piece (one of "), words


def test_chain_reaction_a_scoring_piece_on_its_goal_square_is_taken_off_and_comes_back_cs1():
    # the tower's move as its words say it: the top piece onto e9, where it scores, then back
    # on a home square (CS1)
    vb = _board("chain-reaction", "..ddd../.[dl]dddd./..ddd../......./..l.l../.lllll./..lll.. "
                                  "l 2 0 0 18")
    vb.lift("c7")
    vb.put("e9")
    vb.advance(3500)
    assert _say(vb) == ("2 points on e9: take the piece off e9; put a piece on e4 (it comes "
                        "back in play on your home row)"), _say(vb)
    vb.lift("e9")
    vb.put("e4")
    vb.advance(3500)
    assert vb.app.pos.move_text(vb.app.pos.last_move()) == "c7:NE+2@e4"


def test_chain_reaction_a_touch_waits_for_its_piece_however_long_it_is_held():
    # the learner lifts the piece its own went onto (to show which) and takes its time: the
    # board keeps asking for it back, and putting it back decides the step (no fix meanwhile)
    vb = _board("chain-reaction", "..ddd../.ddddd./...dd../...d.../..lll../.lllll./..lll.. "
                                  "l 0 0 0 18")
    vb.lift("e4")
    vb.advance(300)
    n = vb.lift("e5")
    vb.advance(10000)
    assert vb.command("state")[0].startswith("ok state unknown"), vb.command("state")
    assert _say(vb) == "put e5 back: the piece goes on top of it", _say(vb)
    vb.put("e5", n + 1)
    vb.advance(3500)
    assert vb.app.pos.move_text(vb.app.pos.move_at(0)) == "e4-e5", vb.app.pos.history()
