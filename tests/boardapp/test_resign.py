# dual-runtime
"""A resignation on the board (serial ``resign PLAYER WINNER|none``, docs/protocol.md):
the host's word that a player resigned (a match between tables, docs/remote.md) ends the game
on the board as its rules' end would: ``state`` says ``over`` and the result
(``ew ns-resigned``), ``event result`` names the winner, the winner's edges are lit in its
colour and the resigner's are dark, no move or take-back is taken any more; the save keeps
it across a power cut, and a new game clears it. In every game; in X (three players) the
host may name no single winner (``none``: nobody's edges lit)."""

from boardapp.gamekit import game_board, play
from xobo.runtime.virtual_board import VirtualBoard


def _first_move(vb):
    pos = vb.app.pos
    return pos.move_text(pos.legal_actions()[0])


def _state(vb):
    return vb.command("state")[0].split()


def _result(vb):
    words = _state(vb)
    i = words.index("result")
    return " ".join(words[i + 1:i + 3]) if words[i + 1] != "*" else "*"


def _events(vb):
    seen = []
    vb.subscribe(seen.append)
    return seen


def test_a_resignation_ends_the_game_with_the_other_player_the_winner():
    vb = game_board("xobo")
    play(vb, "e5")
    seen = _events(vb)
    assert vb.command("resign ns ew") == ["ok resign ew ns-resigned"]
    assert _state(vb)[2] == "over" and _result(vb) == "ew ns-resigned"
    assert "event result ew ns-resigned" in seen
    assert vb.app.pos.ply == 1  # the position stays: the pieces as they were played
    st = vb.state()  # what the simulator's page shows
    assert st["result"] == "ew" and st["result_text"] == "ew ns-resigned"


def test_after_a_resignation_no_move_and_no_take_back_is_taken():
    vb = game_board("xobo")
    play(vb, "e5")
    vb.command("resign ew ns")
    assert vb.command("move d4") == ["error the game is over (ns ew-resigned)"]
    assert vb.command("undo") == ["error the game is over (ns ew-resigned)"]
    assert vb.command("resign ns ew") == ["error the game is over (ns ew-resigned)"]
    assert vb.app.pos.ply == 1


def test_the_winners_edges_are_lit_and_the_resigners_dark():
    vb = game_board("xobo")
    play(vb, "e5")
    vb.command("resign ns ew")
    vb.advance(100)
    app = vb.app
    edges = vb.edge_colors()
    names = app.topo.edges
    for e in app.layers.edges_of(0):  # ns resigned
        assert edges[names[e]] == "000000", edges
    for e in app.layers.edges_of(1):  # ew won
        assert edges[names[e]] != "000000", edges


def test_the_resignation_survives_a_power_cut_and_a_new_game_clears_it():
    vb = game_board("xobo")
    play(vb, "e5")
    play(vb, "d4")
    vb.command("resign ew ns")
    vb.power_cut()
    vb.advance(100)
    assert _result(vb) == "ns ew-resigned" and vb.app.pos.ply == 2
    assert vb.command("move c3")[0].startswith("error the game is over")
    assert vb.command("new")[0].startswith("ok new game")
    assert _result(vb) == "*"
    vb.power_cut()
    vb.advance(100)
    assert _result(vb) == "*" and vb.app.pos.ply == 0


def test_holding_ok_after_a_resignation_starts_the_next_game():
    vb = game_board("xobo")
    play(vb, "e5")
    vb.command("resign ns ew")
    vb.hold("ok", 1600)
    vb.advance(1700)
    assert _result(vb) == "*" and vb.app.pos.ply == 0


def test_in_x_a_resignation_has_no_single_winner_unless_the_host_names_one():
    vb = game_board("x")
    play(vb, _first_move(vb))
    assert vb.command("resign red none") == ["ok resign none red-resigned"]
    vb.advance(100)
    assert set(vb.edge_colors().values()) == {"000000"}  # nobody's turn, nobody won
    assert _state(vb)[2] == "over"
    vb2 = game_board("x")
    play(vb2, _first_move(vb2))
    assert vb2.command("resign yellow green") == ["ok resign green yellow-resigned"]
    vb2.power_cut()
    vb2.advance(100)
    assert _result(vb2) == "green yellow-resigned"


def test_every_game_takes_a_resignation():
    for game, board in (("xobo", "pico_gpio"), ("x", "pico_gpio"),
                        ("chain-reaction", "pico_gpio"), ("tiny", "pico_gpio"),
                        ("brochs", "pico_15x15")):
        vb = game_board(game, board)
        play(vb, _first_move(vb))
        names = vb.app.names
        reply = vb.command("resign %s %s" % (names[0], names[1]))
        assert reply == ["ok resign %s %s-resigned" % (names[1], names[0])], (game, reply)
        assert _state(vb)[2] == "over", game
        vb.power_cut()
        vb.advance(100)
        assert _result(vb) == "%s %s-resigned" % (names[1], names[0]), game


def test_a_bad_resignation_is_refused_with_its_reason():
    vb = game_board("xobo")
    usage = ["error usage: resign PLAYER WINNER|none"]
    for line in ("resign", "resign ns", "resign blue ew", "resign ns ns", "resign ns purple",
                 "resign ns ew x", "resign none ns"):
        assert vb.command(line) == usage, line
    assert _result(vb) == "*"


def test_a_save_with_a_damaged_resignation_is_not_resumed_and_the_board_boots():
    vb = game_board("xobo")
    play(vb, "e5")
    app = vb.app
    app.saved.save("xobo", app.game_params(), app.first, "", ["e5"], resigned=["ns", "ns"])
    vb.power_cut()
    vb.advance(100)
    assert _result(vb) == "*"  # that save refused (the one before it, or a new game)
    assert isinstance(vb, VirtualBoard) and vb.powered


def _record_text(vb):
    """The board's ``record`` as text (the protocol drops the blank line after the tags)."""
    lines = [x[3:] for x in vb.command("record")[:-1]]
    k = 0
    while k < len(lines) and lines[k][:1] == "[":
        k += 1
    return "\n".join(lines[:k] + [""] + lines[k:]) + "\n"


def test_a_resigned_game_s_record_names_the_winner_and_says_who_resigned_in_every_game():
    from xobo.games import load, part

    for game, board, win in (("xobo", "pico_gpio", "EW"), ("x", "pico_gpio", "Yellow"),
                             ("chain-reaction", "pico_gpio", "Dark"),
                             ("tiny", "pico_gpio", "o"), ("brochs", "pico_15x15", "white")):
        vb = game_board(game, board)
        play(vb, _first_move(vb))
        names = vb.app.names
        assert '[Result "*"]' in _record_text(vb), game
        vb.command("resign %s %s" % (names[0], names[1]))
        for _ in (0, 1):  # and after a power cut: the save keeps the resignation
            text = _record_text(vb)
            assert '[Result "%s"]' % win in text, (game, text)
            assert '[Termination "%s %s-resigned"]' % (names[1], names[0]) in text, text
            # the game's own record parser reads it: the moves and who won
            rec = part(load(game), "records").parse_record(text)
            assert len(rec.moves) == 1, game
            vb.power_cut()
            vb.advance(100)


def test_a_resignation_with_no_single_winner_leaves_the_record_s_result_open():
    vb = game_board("x")
    play(vb, _first_move(vb))
    vb.command("resign red none")
    text = _record_text(vb)
    assert '[Result "*"]' in text and '[Termination "none red-resigned"]' in text, text


def test_a_record_that_says_a_resignation_names_a_winner_who_did_not_resign():
    from xobo.errors import RecordError
    from xobo.games.tiny.record import parse_record

    head = '[Game "Three in a row"]\n[First "x"]\n[Result "%s"]\n[Termination "%s"]\n\n1. b2\n'
    assert len(parse_record(head % ("o", "o x-resigned")).moves) == 1
    for result, termination in (("x", "o x-resigned"), ("o", "o normal")):
        try:
            parse_record(head % (result, termination))
        except RecordError:
            continue
        raise AssertionError("accepted: %s, %s" % (result, termination))
