# dual-runtime
"""A saved game is checked field by field at power-up: a checksum only proves that the bytes are
the ones written. A save that makes no game falls back to the other slot, then to a new game,
and the boot says why; it never crashes the board (a `first 7` once did, on both runtimes)."""

from boardapp.boardkit import Recorder
from xobo.games.xobo.rules.geometry import parse_cell
from xobo.runtime.storage import SavedGame
from xobo.runtime.virtual_board import VirtualBoard


def _board_with_two_moves():
    vb = VirtualBoard()
    vb.advance(50)
    for cell in ("e5", "d4"):
        vb.switches.put(parse_cell(cell))
        vb.advance(1500)
    assert vb.app.pos.ply == 2
    return vb


def _boot_after_writing(vb, variant, first, start, moves):
    # the newest slot, with a valid checksum
    SavedGame(vb.flash).save("xobo", {"variant": variant}, first, start, moves)
    rec = Recorder(vb)
    vb.power_cut()
    boots = [x for x in rec.lines if x.startswith("event boot")]
    assert len(boots) == 1
    return boots[0]


def test_boot_first_out_of_range_falls_back_to_the_older_slot():
    vb = _board_with_two_moves()
    line = _boot_after_writing(vb, "xobo", 7, "", ["e5", "d4", "c3"])
    assert vb.app.pos.ply == 2  # the older save: e5 d4
    assert "first 7" in line and "it must be 0 (ns) or 1 (ew)" in line
    assert "resumed game: 2 moves" in line


def test_boot_illegal_saved_move_names_it_and_falls_back():
    vb = _board_with_two_moves()
    line = _boot_after_writing(vb, "xobo", 0, "", ["e5", "d4", "d4"])
    assert vb.app.pos.ply == 2
    assert "move 3 'd4' is not legal there" in line


def test_boot_unknown_variant_falls_back():
    vb = _board_with_two_moves()
    line = _boot_after_writing(vb, "chess", 0, "", ["e5"])
    assert vb.app.pos.ply == 2
    assert "variant must be one of xobo|kv, not 'chess'" in line


def test_boot_bad_start_position_falls_back():
    vb = _board_with_two_moves()
    line = _boot_after_writing(vb, "xobo", 0, "not a position", [])
    assert vb.app.pos.ply == 2
    assert "start position not valid" in line


def test_boot_both_saves_unusable_starts_a_new_game_and_names_both():
    vb = _board_with_two_moves()
    SavedGame(vb.flash).save("xobo", {"variant": "xobo"}, 9, "", ["e5"])
    line = _boot_after_writing(vb, "xobo", 0, "", ["zz9"])
    assert vb.app.pos.ply == 0
    assert "first 9" in line and "move 1 'zz9'" in line and line.endswith("new game")
    # and the board plays on, saving over the bad slots
    vb.set_cubes(bytearray(81))
    vb.advance(100)
    vb.switches.put(parse_cell("c3"))
    vb.advance(1500)
    assert vb.app.pos.ply == 1
    vb.power_cut()
    assert vb.app.pos.ply == 1


def _older_slot(vb):
    """The slot that does not hold the newest save (the board alternates between the two, and
    a new game is saved at once, so which one that is depends on the game's history)."""
    def seq(name):
        if not vb.flash.exists(name):
            return -1
        return int(bytes(vb.flash.read(name)).split(b"\n")[1].split()[1])
    return "game.a" if seq("game.a") < seq("game.b") else "game.b"


def _write_slot(vb, body):
    """Over the older slot, a save with a valid end line and checksum around ``body`` (bytes)
    and a newer sequence number, as if the board had written it: only its size or its lines
    are wrong."""
    from xobo.runtime.storage import adler32

    data = b"xobo-save 1\nseq 99\n" + body
    vb.flash.write_atomic(_older_slot(vb),
                          data + ("end %d %s\n" % (len(data), adler32(data))).encode())


def test_boot_a_save_longer_than_the_longest_game_is_refused_and_the_other_slot_used():
    # 5,000 moves: more than XoBo's 1,000 (MAX_PLIES); checksum-valid
    vb = _board_with_two_moves()
    moves = " ".join(["e5", "d4"] * 2500)
    _write_slot(vb, ("game xobo\nparam variant xobo\nfirst 0\nstart \nmoves %s\n"
                               % moves).encode())
    rec = Recorder(vb)
    vb.power_cut()
    line = [x for x in rec.lines if x.startswith("event boot")][0]
    assert vb.app.pos.ply == 2, line
    assert "resumed game: 2 moves (the other save was damaged: too large: " in line, line


def test_boot_a_line_longer_than_any_save_has_is_refused():
    # a 300 KB start line, checksum-valid: refused by its size before it is read
    vb = _board_with_two_moves()
    _write_slot(vb, b"game xobo\nstart " + b"." * 300000 + b"\nmoves \n")
    rec = Recorder(vb)
    vb.power_cut()
    line = [x for x in rec.lines if x.startswith("event boot")][0]
    assert vb.app.pos.ply == 2 and "too large" in line, line
    # a long line within the size bound: refused by its length
    vb = _board_with_two_moves()
    _write_slot(vb, b"game xobo\nstart " + b"." * 3000 + b"\nmoves \n")
    rec = Recorder(vb)
    vb.power_cut()
    line = [x for x in rec.lines if x.startswith("event boot")][0]
    assert vb.app.pos.ply == 2, line
    assert "characters long, more than any save has" in line, line


def test_boot_note_keeps_the_storage_s_reason_when_the_newest_slot_is_damaged():
    vb = _board_with_two_moves()
    vb.switches.put(parse_cell("c3"))
    vb.advance(1500)
    assert vb.app.pos.ply == 3  # saved in seq 4's slot; e5 d4 is in the other one
    seq = vb.app.saved.seq
    name = ("game.a", "game.b")[seq & 1]
    data = bytearray(vb.flash.read(name))
    data[-20] ^= 1  # a bit flipped in the moves: bad checksum
    vb.flash.write_atomic(name, bytes(data))
    rec = Recorder(vb)
    vb.power_cut()
    line = [x for x in rec.lines if x.startswith("event boot")][0]
    assert vb.app.pos.ply == 2, line
    assert "resumed game: 2 moves (the newest save was damaged: bad checksum; one move lost)" \
        in line, line


def test_a_board_saved_before_the_games_resumes_its_game_and_settings():
    # before there were games the board saved its one game without a "game" line (its
    # variant a line of its own) and its settings without a game's prefix: a board updated
    # from then resumes that game with those settings (xobo.games.saved_before_the_games)
    from xobo.games import DEFAULT, saved_before_the_games
    from xobo.runtime.storage import RecordFile, Settings

    assert saved_before_the_games(DEFAULT)
    vb = _board_with_two_moves()
    Settings(vb.flash).save({"variant": "kv", "brightness": 40})
    RecordFile(vb.flash, "game").write(["variant kv", "first 0", "start ", "moves e5 d4 c3"])
    rec = Recorder(vb)
    vb.power_cut()
    boots = [x for x in rec.lines if x.startswith("event boot")]
    assert len(boots) == 1 and "resumed game: 3 moves" in boots[0], boots
    assert vb.app.settings["game"] == DEFAULT
    assert vb.app.settings["variant"] == "kv" and vb.app.settings["brightness"] == 40
    assert vb.app.pos.ply == 3
