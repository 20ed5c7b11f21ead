# dual-runtime
"""The saved game survives a power cut at every point of a flash write (board.md): the virtual
flash cuts the power at the n-th primitive operation (create, a chunk written half-way,
rename, remove) for every n of a save; the board reboots, resumes the game before or after
the move, and shows any cell that does not match."""

from boardapp.boardkit import Recorder, cut_at_every_operation
from xobo.runtime.virtual_board import VirtualBoard


def _place(vb, cell, wait=1200):
    vb.put(cell)
    vb.advance(wait)


def _board_with_two_moves():
    vb = VirtualBoard()
    vb.advance(50)
    _place(vb, "e5")
    _place(vb, "d4")
    assert vb.app.pos.ply == 2
    return vb


def test_power_cut_at_every_operation_of_a_move_save():
    def complete():
        vb = _board_with_two_moves()
        vb.put("c3")
        vb.advance(500)  # complete, not yet committed
        return vb

    def booted(vb, n, cut):
        ply = vb.app.pos.ply
        assert ply in (2, 3), (n, ply)
        inf = vb.app.inf
        if ply == 2:  # the move was lost: the board shows the cube on c3 as extra
            assert inf.state_name() == "restore", n
            assert [c for c in range(81) if inf.clear[c]] == [20]
        else:
            assert inf.state_name() == "match", n
        # the game goes on from there, and the next save is whole again
        if ply == 2:
            vb.lift("c3")
            vb.advance(100)
            _place(vb, "c3")
        _place(vb, "b2")
        vb.power_cut()
        assert vb.app.pos.ply == 4, n

    # (committed, saved: the cut happens during the save)
    cuts = cut_at_every_operation(complete, lambda vb: vb.advance(1000), booted)
    assert cuts >= 3, cuts  # a save is several operations


def test_power_cut_during_an_undo_save_keeps_the_move_or_its_undo():
    def booted(vb, n, cut):
        assert vb.app.pos.ply in (1, 2), n

    cuts = cut_at_every_operation(_board_with_two_moves, lambda vb: vb.command("undo"),
                                  booted)
    assert cuts >= 3


def test_power_cut_during_a_settings_save_keeps_old_or_new_value():
    def fresh():
        vb = VirtualBoard()
        vb.advance(20)
        return vb

    def booted(vb, n, cut):
        assert vb.app.settings["settle"] in (1000, 700), n
        if not cut:
            assert vb.app.settings["settle"] == 700

    cuts = cut_at_every_operation(fresh, lambda vb: vb.command("set settle 700"), booted)
    assert cuts >= 3


def test_reboot_resumes_the_whole_game_and_its_record():
    vb = _board_with_two_moves()
    rec_before = vb.command("record")
    vb.power_cut()
    assert vb.command("record") == rec_before
    assert vb.app.inf.state_name() == "match"


def test_the_cut_board_is_dead_until_power_comes_back():
    vb = _board_with_two_moves()
    rec = Recorder(vb)
    vb.put("c3")
    vb.flash.cut_after(0)
    vb.advance(1500)
    assert not vb.powered
    assert rec.has("event power-cut")
    assert vb.command("position") == ["error the board has no power"]
    vb.power_cut()
    assert vb.powered


def test_power_cut_at_every_byte_of_a_move_save():
    n = 0
    cuts = 0
    while n < 5000:
        vb = _board_with_two_moves()
        vb.put("c3")
        vb.advance(500)
        vb.flash.cut_after_bytes(n)
        vb.advance(1000)
        cut = not vb.powered
        vb.power_cut()
        ply = vb.app.pos.ply
        assert ply in (2, 3), (n, ply)
        expect = "restore" if ply == 2 else "match"
        assert vb.app.inf.state_name() == expect, (n, ply)
        if not cut:
            break
        cuts += 1
        n += 1
    assert cuts > 20, cuts  # every byte of the save (tens of bytes) was cut once
