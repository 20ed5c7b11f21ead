"""The longest game the board keeps (the game's MAX_PLIES, docs/firmware.md "The longest
games"): the move that reaches it ends the game there, with a message on serial and in words;
no hint, no computer move, and an undo plays on."""

from device.long_games import long_game

from boardapp.boardkit import Recorder
from xobo.runtime.storage import SavedGame
from xobo.runtime.virtual_board import VirtualBoard


def test_the_move_that_reaches_the_longest_game_ends_it_with_a_message():
    vb = VirtualBoard()
    moves = long_game("xobo", 1000)
    SavedGame(vb.flash).save("xobo", {"variant": "xobo"}, 0, "", list(moves[:999]))
    vb.power_cut()
    app = vb.app
    assert app.pos.ply == 999
    vb.set_cubes(app.pos.heights)
    vb.advance(200)
    rec = Recorder(vb)
    after = app.pos.clone()
    after.apply(after.parse_move(moves[999]))
    assert vb.command("move " + moves[999])[0].startswith("ok move")
    vb.set_cubes(after.heights)
    vb.advance(1500)
    assert app.pos.ply == 1000 and not app.pos.is_terminal()
    text = "the game has reached 1000 moves, the longest this board keeps: undo, or start a " \
        "new game"
    assert rec.has("event say " + text), rec.lines
    assert app.inf.state_name() == "over"
    assert vb.command("hint") == ["error " + text]
    assert app.guide_text() == text  # in words too (serial `state`, the page)
    vb.power_cut()  # the full game is saved and resumed
    assert app.pos.ply == 1000 or vb.app.pos.ply == 1000
    assert vb.command("undo")[0].startswith("ok undo")
    assert vb.app.pos.ply == 999
