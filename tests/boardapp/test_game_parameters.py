# dual-runtime
"""A saved game keeps its own parameters (issue 18): a setting that takes effect at the next
new game (X's size, Chain Reaction's target and field, Brochs's donjon, XoBo's variant...)
says so in its reply and changes nothing of the game in progress: its position, its save,
its record, its resume after a power cut, and ``set game`` away and back. The parameters live
in the save's header; the settings hold what the next new game uses."""

from boardapp.gamekit import game_board, legal_texts, play


def _some_moves(vb, n):
    for k in range(n):
        moves = legal_texts(vb.app.pos)
        play(vb, moves[(7 * k + 3) % len(moves)])


def _game_now(vb):
    app = vb.app
    out = [app.settings["game"], app.pos.to_string(), app.pos.ply, app.n,
           sorted(app.game_params().items()), app.first]
    if getattr(app.game, "record_text", None) is not None:
        out.append(vb.command("record"))
    return out


def _keeps_its_parameters(game, board, key, value, away):
    vb = game_board(game, board)
    _some_moves(vb, 2)
    params = dict(vb.app.game_params())
    assert params[key] != value
    before = _game_now(vb)
    assert vb.command("set %s %s" % (key, value)) == [
        "ok %s %s (from the next new game)" % (key, value)]
    assert vb.app.settings[key] == value
    assert _game_now(vb) == before  # nothing of the game in progress changed
    _some_moves(vb, 1)
    assert vb.app.game_params() == params
    now = _game_now(vb)
    vb.power_cut()
    assert vb.app.note.startswith("resumed game"), vb.app.note
    assert _game_now(vb) == now
    assert vb.app.settings[key] == value  # the setting stays for the next new game
    vb.advance(200)
    assert vb.app.inf.state_name() == "match"
    assert vb.command("set game " + away)[0].startswith("ok game " + away)
    vb.advance(100)
    assert vb.command("set game " + game)[0].startswith("ok game " + game)
    vb.advance(100)
    assert _game_now(vb) == now
    # the next new game is played with it
    assert vb.command("new")[0].startswith("ok new game")
    assert vb.app.game_params()[key] == value
    vb.advance(100)
    vb.power_cut()
    assert vb.app.game_params()[key] == value and vb.app.pos.ply == 0
    return vb


def test_XB2_set_size_mid_game_is_for_the_next_new_game():
    vb = _keeps_its_parameters("x", "pico_gpio", "size", 5, "tiny")
    assert vb.app.n == 25


def test_CB5_set_target_mid_game_is_for_the_next_new_game():
    vb = _keeps_its_parameters("chain-reaction", "pico_gpio", "target", 14, "xobo")
    assert vb.app.pos.target == 14


def test_CB1_set_field_mid_game_is_for_the_next_new_game():
    vb = _keeps_its_parameters("chain-reaction", "pico_gpio", "field", 6, "tiny")
    assert vb.app.pos.field == 6


def test_BB3_set_donjon_mid_game_is_for_the_next_new_game():
    _keeps_its_parameters("brochs", "pico_15x15", "donjon", 6, "tiny")


def test_V1_set_variant_mid_game_is_for_the_next_new_game_and_the_record_says_xobo():
    vb = game_board("xobo")
    _some_moves(vb, 2)
    vb.command("set variant kv")
    _some_moves(vb, 1)
    vb.power_cut()
    assert '[Variant "xobo"]' in " ".join(vb.command("record"))
    assert vb.app.pos.variant == "xobo"
    _keeps_its_parameters("xobo", "pico_gpio", "variant", "kv", "x")


def test_a_setting_equal_to_the_game_in_progress_says_nothing_more():
    vb = game_board("x")
    assert vb.command("set size 8") == ["ok size 8"]
    assert vb.command("set size 5") == ["ok size 5 (from the next new game)"]
    assert vb.command("set size 8") == ["ok size 8"]


def test_XB2_a_position_loaded_after_set_size_is_played_at_the_settings_size():
    vb = game_board("x")
    _some_moves(vb, 2)
    assert vb.command("set size 5") == ["ok size 5 (from the next new game)"]
    assert vb.command("load ...../...../..r../...../..... y")[0].startswith("ok load")
    assert vb.app.n == 25 and vb.app.game_params()["size"] == 5
    vb.advance(100)
    vb.power_cut()
    assert vb.app.pos.to_string() == "...../...../..r../...../..... y" and vb.app.n == 25
    vb.advance(100)
