# dual-runtime
"""A setting of the game's size (X's ``size``, XB2; Chain Reaction's ``field``, CB1) takes
effect at the next new game on the board: the new game is played at the new size (the
runtime's buffers follow it), and back again."""

from xobo.runtime.virtual_board import VirtualBoard


def _new_at(vb, key, value):
    assert vb.command("set %s %d" % (key, value))[0].startswith("ok")
    reply = vb.command("new")
    assert reply[0].startswith("ok new game"), reply
    vb.advance(100)


def test_XB2_a_new_game_after_set_size_is_played_on_the_new_size():
    vb = VirtualBoard(settings={"game": "x", "settle": 200})
    vb.advance(100)
    _new_at(vb, "size", 5)
    st = vb.state()
    assert st["area"]["width"] == 5 and len(st["area"]["cells"]) == 25
    assert st["area"]["cells"][0] == "c3"  # 5 x 5 centred on the 9 x 9 board
    vb.put("e5")  # the centre: a piece put there is Red's move c3
    vb.advance(1000)
    assert vb.state()["ply"] == 1 and vb.state()["position"] == "...../...../..r../...../..... y"
    _new_at(vb, "size", 8)
    assert len(vb.state()["area"]["cells"]) == 64 and vb.state()["ply"] == 0


def test_CB1_a_new_game_after_set_field_6_is_played_on_eight_ranks():
    vb = VirtualBoard(settings={"game": "chain-reaction", "settle": 200})
    vb.advance(100)
    _new_at(vb, "field", 6)
    st = vb.state()
    assert st["area"]["height"] == 8 and st["ply"] == 0
    _new_at(vb, "field", 7)
    assert vb.state()["area"]["height"] == 9


def test_a_size_given_with_the_game_at_power_up_boots_a_board_of_that_size():
    # the simulator's settings (xobo sim --game ...) come after the game is made: the first
    # new game must still get buffers of its size (it raised IndexError at boot)
    for settings, cells in (({"game": "chain-reaction", "field": 6}, 8 * 9),
                            ({"game": "x", "size": 5}, 25)):
        vb = VirtualBoard(settings=settings)
        vb.advance(100)
        assert vb.app.n == cells and len(vb.app.pos.heights) == cells, settings
