# dual-runtime
"""Each game has its own id (``xobo.runtime.gameid``): drawn when the game starts, kept in
the game's save, said by ``state`` (``gameid 9c1e07a2b4f0``) and by ``record``'s header
(``[GameId "9c1e07a2b4f0"]``). It stays the game's through ``set game`` away and back, power
cuts at any instant of a save, and undos back to the start; a new game, a loaded position and
a game's first start have a new one. A save from before game ids still loads, gets an id at
once and keeps it; a save's damaged id never stops the board booting."""

import sys

from boardapp.boardkit import cut_at_every_operation
from boardapp.gamekit import game_board, play
from xobo.runtime.storage import SavedGame, adler32
from xobo.runtime.virtual_board import VirtualBoard

HEX = "0123456789abcdef"


def _state_id(vb):
    words = vb.command("state")[0].split()
    return words[words.index("gameid") + 1] if "gameid" in words else ""


def _record_id(vb):
    for line in vb.command("record"):
        if line.startswith('ok [GameId "'):
            return line[len('ok [GameId "'):-2]
    return ""


def _said_id(vb):
    """The game's id as ``state`` and ``record`` say it (they must agree)."""
    a = _state_id(vb)
    assert a == _record_id(vb), (a, vb.command("record"))
    return a


def _is_id(text):
    return len(text) == 12 and all(ch in HEX for ch in text)


def test_a_game_has_an_id_that_state_and_record_say_after_the_game_s_own_tags():
    vb = game_board("xobo")
    gid = _said_id(vb)
    assert _is_id(gid) and gid == vb.app.gameid
    play(vb, "e5")
    assert _said_id(vb) == gid  # a move changes no game's id
    assert vb.command("record") == ['ok [Variant "xobo"]', 'ok [First "NS"]',
                                    'ok [Result "*"]', 'ok [GameId "%s"]' % gid, "ok 1. e5",
                                    "ok end"]
    words = vb.command("#4 state")[0].split()
    assert words[:9] == ["#4", "ok", "state", "match", "side", "ew", "result", "*", "ply"]
    assert words[10:12] == ["gameid", gid]  # (after ply: the result's words run to ply)


def test_a_new_game_has_a_new_id_and_an_undo_to_the_start_keeps_the_game_s():
    vb = game_board("xobo")
    first = _said_id(vb)
    play(vb, "e5")
    assert vb.command("undo")[0] == "ok undo e5"
    assert _said_id(vb) == first and vb.app.pos.ply == 0  # back at the start: the same game
    vb.command("new")
    second = _said_id(vb)
    assert _is_id(second) and second != first
    both = VirtualBoard()  # another board, another game: another id
    assert both.app.gameid not in (first, second)


def test_a_loaded_position_is_a_new_game_with_a_new_id():
    vb = game_board("xobo")
    before = _said_id(vb)
    text = vb.app.pos.to_string()
    assert vb.command("load " + text)[0].startswith("ok load")
    assert _is_id(_said_id(vb)) and _said_id(vb) != before


def test_the_id_survives_set_game_away_and_back_and_a_game_s_first_start_has_its_own():
    vb = game_board("xobo")
    play(vb, "e5")
    xobo = _said_id(vb)
    assert vb.command("set game tiny")[0].startswith("ok game tiny")
    tiny = _said_id(vb)  # tiny had no save yet: its first game starts, with its own id
    assert _is_id(tiny) and tiny != xobo
    assert vb.command("set game xobo")[0].startswith("ok game xobo")
    assert _said_id(vb) == xobo and vb.app.pos.ply == 1
    assert vb.command("set game tiny")[0].startswith("ok game tiny")
    assert _said_id(vb) == tiny
    vb.advance(50)  # (the switch's writes are made after its first light)
    vb.power_cut()
    vb.advance(100)
    assert vb.app.settings["game"] == "tiny" and _said_id(vb) == tiny


def _xobo_after_e5():
    vb = game_board("xobo")
    play(vb, "e5")
    return vb


def test_the_id_survives_a_power_cut_at_every_operation_of_a_move_save():
    ids = {}

    def move(vb):
        ids["game"] = vb.app.gameid
        vb.command("move d4")
        after = vb.app.pos.clone()
        after.apply(after.parse_move("d4"))
        vb.set_cubes(after.heights)
        vb.advance(1000)  # committed, saved: the cut happens during the save

    def booted(vb, n, cut):
        vb.advance(100)
        assert vb.app.pos.ply in (1, 2), n
        assert _said_id(vb) == ids["game"], n  # the move or not: the same game

    assert cut_at_every_operation(_xobo_after_e5, move, booted) >= 3


def test_a_power_cut_while_a_new_game_is_saved_boots_one_game_or_the_other_with_its_id():
    ids = {}

    def new_game(vb):
        ids["old"] = vb.app.gameid
        vb.command("new")
        ids["new"] = vb.app.gameid

    def booted(vb, n, cut):
        vb.advance(100)
        ply = vb.app.pos.ply
        # the new game saved (ply 0, its id) or not (the old game, its moves and id)
        assert (ply, _said_id(vb)) in ((1, ids["old"]), (0, ids["new"])), (n, ply)

    assert cut_at_every_operation(_xobo_after_e5, new_game, booted) >= 3


def _save_without_id(vb, moves):
    """The newest slot: a save as a board from before game ids wrote it (no gameid line)."""
    SavedGame(vb.flash).save("xobo", {"variant": "xobo"}, 0, "", moves)


def test_a_save_from_before_game_ids_loads_gets_an_id_and_keeps_it_after_a_power_cut():
    vb = game_board("xobo")
    _save_without_id(vb, ["e5", "d4"])
    assert "gameid" not in SavedGame(vb.flash).load()  # (as the old board left it)
    vb.power_cut()
    vb.advance(100)
    assert vb.app.pos.ply == 2 and not vb.app.fallback  # resumed as it was
    gid = _said_id(vb)
    assert _is_id(gid)
    vb.power_cut()  # before any move: the id was saved at once
    vb.advance(100)
    assert vb.app.pos.ply == 2 and _said_id(vb) == gid


def test_a_save_whose_id_is_not_one_a_board_writes_loads_with_a_new_id_and_boots():
    for bad in ("zz", "NOTHEX123456", "0123456789abcdef0", "12 34"):
        vb = game_board("xobo")
        app = vb.app
        body = ("game xobo\nparam variant xobo\nfirst 0\nstart \nmoves e5\ngameid %s\n"
                % bad).encode()
        data = b"xobo-save 1\nseq 99\n" + body
        vb.flash.write_atomic("game.b" if 99 & 1 else "game.a",
                              data + ("end %d %s\n" % (len(data), adler32(data))).encode())
        vb.power_cut()
        vb.advance(100)
        app = vb.app
        assert app.pos.ply == 1, (bad, app.note)  # the game resumed: only its id is new
        assert _is_id(_said_id(vb)) and _said_id(vb) != bad, bad


def test_the_lessons_have_no_id_and_the_player_s_game_has_its_own_back_after():
    vb = game_board("xobo")
    play(vb, "e5")
    gid = _said_id(vb)
    assert vb.command("learn")[0].startswith("ok learn 1/")
    assert _said_id(vb) == ""  # (no host takes a lesson's moves for the player's game)
    assert not any(x.startswith('ok [GameId') for x in vb.command("record"))
    assert vb.command("learn off") == ["ok learn off"]
    assert _said_id(vb) == gid and vb.app.pos.ply == 1


def test_the_id_is_drawn_once_a_game_and_its_code_not_kept():
    vb = game_board("xobo")
    gid = vb.app.gameid
    assert "xobo.runtime.gameid" not in sys.modules  # (forgotten after the draw)
    for _ in range(100):
        vb.advance(10)
    assert vb.app.gameid is gid  # the same string: nothing drawn or made again per cycle


def test_every_game_has_its_id_in_its_record():
    for game, board in (("xobo", "pico_gpio"), ("x", "pico_gpio"),
                        ("chain-reaction", "pico_gpio"), ("tiny", "pico_gpio"),
                        ("brochs", "pico_15x15")):
        vb = game_board(game, board)
        gid = _said_id(vb)
        assert _is_id(gid), (game, vb.command("record"))
        tags = [x for x in vb.command("record") if x.startswith("ok [")]
        assert tags[-1] == 'ok [GameId "%s"]' % gid, (game, tags)
