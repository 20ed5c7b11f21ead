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
