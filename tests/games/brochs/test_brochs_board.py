"""Brochs's light and buttons on the 15x15 board (VirtualBoard(board="pico_15x15")), and XoBo
on a 9x9 area of the same board."""

from xobo.runtime import colours as C
from xobo.runtime.virtual_board import VirtualBoard


def _start(settings=None):
    s = {"game": "brochs"}
    s.update(settings or {})
    vb = VirtualBoard(board="pico_15x15", settings=s)
    vb.set_cubes(vb.app.pos.heights)
    vb.advance(300)
    return vb


def _code(vb, cell):
    vb.advance(700)  # past the confirmation flash
    return vb.app.light.code[vb.app.topo.parse_cell(cell)]


def _play(vb, *steps, wait=3200):
    for s in steps:
        if s.startswith("-"):
            vb.lift(s[1:])
        else:
            vb.put(s)
        vb.advance(60)
    vb.advance(wait)


def test_owners_donjons_and_the_cross_are_always_shown():
    vb = _start()
    assert vb.state()["inference"] == "match"
    assert _code(vb, "f1") == C.EW_COLOUR  # a White man
    assert _code(vb, "d4") == C.BR_DONJON_WHITE  # a donjon White holds
    assert _code(vb, "h5") == C.BR_CROSS and _code(vb, "c8") == C.BR_CROSS
    assert _code(vb, "e5") == C.OFF
    _play(vb, "e5")
    assert vb.app.pos.move_text(vb.app.pos.last_move()) == "*e5"
    assert _code(vb, "e5") == C.NS_COLOUR  # a Black man


def test_BM1_the_master_is_declared_with_its_button():
    vb = _start()
    vb.put("e5")
    vb.advance(500)
    assert vb.state()["inference"] == "wait-longer"  # a man unless master is pressed
    assert vb.app.guide_text() == ("a man on e5: it counts when the pieces stay still (for "
                                    "your master instead, hold ok now)")
    assert vb.command("press master") == ["ok played M*e5"]
    assert _code(vb, "e5") == C.BR_MASTER
    vb2 = _start()
    vb2.hold("ok", 1600)  # the gesture before the drop: ok held at the start changes the game
    vb2.advance(1700)
    assert vb2.app.settings["game"] != "brochs"


def test_BM1_ok_held_on_a_waiting_drop_makes_it_the_master():
    vb = _start()
    vb.put("e12")
    vb.advance(500)
    vb.hold("ok", 1600)
    vb.advance(1700)
    assert vb.app.pos.to_string().split()[3] == "0"  # the master left the reserve
    assert _code(vb, "e12") == C.BR_MASTER


def test_a_lifted_piece_lights_its_legal_squares_and_captures_blink_until_off():
    vb = _start()
    _play(vb, "e5")
    _play(vb, "-f1", "f3")
    vb.command("press master")
    _play(vb, "e3")
    vb.command("press pass")
    vb.advance(100)
    vb.put("g3")
    vb.advance(300)
    assert _code(vb, "f3") == C.TAKE  # caught between g3 and the master: take it off
    vb.advance(3000)
    assert vb.app.pos.ply == 4  # not played while the captured piece is on
    _play(vb, "-f3", wait=1200)
    assert vb.app.pos.ply == 5 and vb.app.pos.cells[vb.app.topo.parse_cell("f3")] == 0
    vb.command("press pass")
    vb.advance(100)
    vb.lift("e5")
    vb.advance(200)
    assert _code(vb, "e6") == C.PUT and _code(vb, "e4") == C.PUT
    assert _code(vb, "a5") == C.PUT and _code(vb, "e3") == C.BR_MASTER


def test_BM3_remote_capture_lights_the_quadrant_and_waits_for_the_lift():
    vb = _start()
    # Black on the NW donjon d12 with the master in play on f13; no Black piece in SE
    ranks = vb.app.pos.to_string().split()[0].split("/")
    ranks[2] = ".....m........."
    ranks[3] = "...b.......w..."
    vb.app.load_position("/".join(ranks) + " b 10 0 -", vb.clock.ticks_ms())
    vb.set_cubes(vb.app.pos.heights)
    vb.advance(300)
    assert vb.state()["inference"] == "match"
    assert _code(vb, "l4") == C.BR_REMOTE  # the SE donjon's occupant may be taken
    assert _code(vb, "i1") == C.BR_REMOTE and _code(vb, "o6") == C.BR_REMOTE
    assert _code(vb, "d4") != C.BR_REMOTE  # SW: not facing a Black donjon
    _play(vb, "-l4")
    assert vb.app.pos.move_text(vb.app.pos.last_move()) == "!l4"


def test_BR6_the_submission_question_blinks_the_edges_until_answered():
    vb = _start()
    _play(vb, "e5")
    assert vb.command("press submission")[0].startswith("ok played")
    vb.advance(100)
    assert set(vb.app.light.edge_code) == {C.BR_ASKED}
    assert vb.command("press pass") == ["ok played (pass!)"]
    vb.advance(100)
    assert C.BR_ASKED not in vb.app.light.edge_code


def test_press_names_a_missing_button_or_one_that_does_nothing():
    vb = _start()
    assert vb.command("press foo")[0].startswith("error brochs has no button 'foo'")
    assert vb.command("press accept") == ["error accept does nothing now"]
    assert vb.command("press") == [
        "error usage: press BUTTON (the game's button, like master or pass)"]


def test_xobo_on_the_15x15_board_sits_centred_and_the_rest_stays_dark():
    vb = VirtualBoard(board="pico_15x15", settings={"game": "xobo"})
    vb.advance(300)
    place = vb.app.place
    # the game's a1 and i9 are the board's d4 and l12 (the words speak the game's notation)
    topo = vb.app.topo
    assert topo.cell_name(place.to_board[0]) == "d4"
    assert topo.cell_name(place.to_board[80]) == "l12"
    assert vb.app.cell_name(0) == "a1" and vb.app.cell_name(80) == "i9"
    vb.put("h8")
    vb.advance(1500)
    vb.put("g8")
    vb.advance(1060)  # just committed: the confirmation flash
    assert vb.app.pos.ply == 2 and vb.app.pos.move_text(vb.app.pos.last_move()) == "d5"
    colours = vb.cell_colors()
    inside = set(place.to_board[c] for c in range(81))
    for b in range(225):
        if b not in inside:
            assert colours[b] == "000000", vb.app.topo.cell_name(b)
    assert colours[vb.app.topo.parse_cell("g8")] == "ffffff"
    vb.put("a1")  # outside the game: never a move
    vb.advance(1500)
    assert vb.app.pos.ply == 2 and vb.state()["inference"] == "match"


def test_the_words_of_a_move_in_progress_say_what_is_left_of_it():
    # the board layer's remaining_words called the runtime's base class, which has none: the
    # guide's words (the simulator's state) failed while a piece was lifted
    vb = _start()
    assert vb.app.pos.side == 0  # Black drops first (BB5)
    _play(vb, "h8")  # a man dropped on the centre
    assert vb.app.pos.ply == 1 and vb.app.pos.side == 1
    vb.lift("g1")  # a White man lifted: where it goes is left
    vb.advance(100)
    app = vb.app
    inf = app.inf
    words = app.layers.remaining_words(app.pos, inf, 0)  # the first legal move's
    assert words.startswith("put a piece on "), words
