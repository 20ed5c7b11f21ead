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
