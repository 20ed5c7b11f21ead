# dual-runtime
"""The test game on the board (issue 10's proof that the runtime knows nothing of XoBo): its
3 x 3 sits on d4-f6 of the 9 x 9 board, pieces lit in their owners' colours, the computer's
moves shown and committed by the pieces, and the game a setting like any other."""

from xobo.games.tiny import ai
from xobo.runtime import colours as C
from xobo.runtime.virtual_board import VirtualBoard

RGB = {C.NS_COLOUR: "0072b2", C.EW_COLOUR: "e69f00"}


def _tiny(**settings):
    s = {"game": "tiny"}
    s.update(settings)
    vb = VirtualBoard(settings=s)
    vb.advance(100)
    return vb


def _play(vb, cell):
    vb.put(cell)
    vb.advance(1500)


def test_TB1_the_3x3_sits_in_the_middle_of_the_board_and_the_rest_stays_dark():
    vb = _tiny()
    st = vb.state()
    assert st["game"] == "tiny" and st["area"]["x"] == 3 and st["area"]["y"] == 3
    assert st["area"]["cells"][0] == "d4" and st["area"]["cells"][-1] == "f6"
    _play(vb, "e5")
    cols = vb.cell_colors()
    lit = [k for k in range(81) if cols[k] != "000000"]
    assert lit == [40]  # e5 alone: x's piece, in x's colour
    assert cols[40] == RGB[C.NS_COLOUR]
    assert vb.app.pos.to_string() == ".../.x./... o"


def test_a_piece_outside_the_games_area_is_no_move_and_nothing_to_fix():
    vb = _tiny()
    _play(vb, "a1")
    assert vb.app.pos.ply == 0 and vb.app.inf.state_name() == "match"
    _play(vb, "d4")
    assert vb.app.pos.to_string() == ".../.../x.. o"


def test_TE1_o_wins_its_line_pulses_and_the_result_is_announced():
    vb = _tiny()
    lines = []
    vb.subscribe(lines.append)
    for cell in ("e5", "d4", "f6", "f4", "f5", "d5", "e4", "d6"):
        _play(vb, cell)
    assert "event result o" in lines
    assert vb.app.result_name() == "o"
    code = vb.app.light.code
    for c in (0, 3, 6):  # a1 a2 a3 of the game: o's line
        assert code[c] == C.WIN_EW


def test_a_whole_game_against_the_computer_ends_in_a_draw():
    vb = _tiny(opponent="o", level="perfect")
    while not vb.app.pos.is_terminal():
        app = vb.app
        if app.pending >= 0:  # the computer's move: the pieces commit it
            g = app.pending
        else:  # x plays perfectly too
            g = ai.choose_move(app.pos.clone(), "perfect", seed=app.pos.ply)
        vb.put(vb.app.place.to_board[g])
        vb.advance(1500)
    assert vb.app.result_name() == "draw"
    assert vb.state()["result_text"] == "draw"


def test_set_game_keeps_each_games_saved_game():
    vb = VirtualBoard()
    vb.advance(100)
    _play(vb, "e5")  # a XoBo move
    assert vb.command("set game tiny") == ["ok game tiny"]
    vb.set_cubes(bytearray(81))
    vb.advance(100)
    _play(vb, "d4")  # the test game's a1
    assert vb.app.pos.to_string() == ".../.../x.. o"
    assert vb.command("set game xobo") == ["ok game xobo (resumed game: 1 moves)"]
    assert vb.app.pos.ply == 1 and vb.app.pos.to_string().startswith("........./")
    vb.advance(20)  # the switch's setting reaches the flash after its first light
    vb.power_cut()
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.ply == 1
    assert vb.command("set game tiny") == ["ok game tiny (resumed game: 1 moves)"]
    assert vb.app.pos.to_string() == ".../.../x.. o"


def test_a_power_cut_before_the_switch_is_written_boots_the_game_that_was_playing():
    # a switch answers and lights the new game first, then writes its setting (App.save_due):
    # a power cut in between is as if the switch had not been asked; both games' saves stay
    vb = VirtualBoard()
    vb.advance(100)
    _play(vb, "e5")
    assert vb.command("set game tiny") == ["ok game tiny"]
    vb.power_cut()
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.ply == 1
    assert vb.command("set game tiny") == ["ok game tiny"]
    vb.advance(20)
    vb.power_cut()
    assert vb.app.settings["game"] == "tiny" and vb.app.pos.ply == 0


def test_unknown_game_is_refused_with_the_games_listed():
    vb = VirtualBoard()
    assert vb.command("set game chess")[0].startswith(
        "error game must be one of xobo|x|chain-reaction|brochs|tiny, not 'chess'")


def test_a_game_whose_board_layer_is_missing_is_refused_and_the_game_goes_on():
    from xobo import games

    vb = VirtualBoard()
    vb.advance(100)
    _play(vb, "e5")
    tiny = games.load("tiny")
    kept = tiny.PARTS
    tiny.PARTS = dict(kept)
    tiny.PARTS["board"] = "no_such_board"  # as on a board built without its module
    try:
        reply = vb.command("set game tiny")
    finally:
        tiny.PARTS = kept
    assert reply[0].startswith("error tiny is not installed completely on this board")
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.ply == 1
    assert vb.state()["game"] == "xobo"


def test_ok_held_at_the_start_of_a_game_cycles_the_games_and_flashes_the_new_games_cells():
    vb = VirtualBoard()
    vb.advance(100)
    lines = []
    vb.subscribe(lines.append)
    vb.hold("ok", 1600)
    vb.advance(1700)  # a long press: sent at 1.5 s
    assert vb.app.settings["game"] == "x"  # the next of xobo.games.GAMES
    assert "event game x X (Mark Steere)" in lines
    code = vb.app.light.code
    assert all(code[c] == C.GAME_SHOWN for c in range(vb.app.n))  # its cells, for 1.2 s
    vb.advance(1500)
    assert all(code[c] != C.GAME_SHOWN for c in range(vb.app.n))


def test_ok_held_after_a_move_is_no_game_change():
    vb = VirtualBoard()
    vb.advance(100)
    _play(vb, "e5")
    vb.hold("ok", 1600)
    vb.advance(1700)
    assert vb.app.settings["game"] == "xobo" and vb.app.pos.ply == 1


def test_tiny_record_tn3_lists_the_moves_and_the_set_up_start():
    from xobo.games import tiny

    pos = tiny.new_position(tiny.DEFAULTS)
    for text in ("b2", "a1", "c3"):
        pos.play(pos.parse_move(text))
    assert tiny.record_text(pos) == ('[Game "Three in a row"]\n[First "x"]\n[Result "*"]\n\n'
                                     '1. b2 a1 2. c3\n')
    pos = tiny.parse_position("x../.o./... x", {})
    pos.play(pos.parse_move("c1"))
    assert '[Position "x../.o./... x"]' in tiny.record_text(pos)
    assert tiny.record_text(pos).endswith("1. c1\n")
