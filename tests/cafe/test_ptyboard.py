"""The serial stand-in's ``--pty`` mode: the firmware on virtual drivers behind a
pseudo-terminal, opened by the host with pyserial as a Pico is; the players' hands on its
stdin; its table name kept in its flash across being unplugged and plugged in elsewhere."""

import os
import subprocess
import sys

from xobo_host.sim.monitor import SerialLink
from xobo_host.sim.ptyboard import PtyBoard


def test_a_pty_board_speaks_the_protocol_through_pyserial_and_players_move_its_cubes(tmp_path):
    board = PtyBoard(tmp_path / "flash").plug()
    link = SerialLink.open(board.device)
    try:
        assert link.command("version")[0].startswith("ok xobo-board ")
        assert link.command("set settle 200") == ["ok settle 200"]
        assert board.play("put e5") == []
        board.play("wait 400")  # the settle time: the board commits the move itself
        assert link.command("record")[-2:] == ["ok 1. e5", "ok end"]
        assert board.play("serial set name terrace-3") == ["name terrace-3"]
    finally:
        link.close()
        board.unplug()


def test_a_pty_board_keeps_its_name_when_plugged_back_on_another_port(tmp_path):
    board = PtyBoard(tmp_path / "flash").plug()
    board.play("serial set name bar-1")
    first = board.device
    board.unplug()
    assert not os.path.lexists(first)  # (a host still trying it opens nobody's board)
    try:
        board.plug()  # (its own path again, another one: FLASH.tty1)
        assert board.device != first
        link = SerialLink.open(board.device)
        try:
            assert "ok name bar-1" in link.command("settings")
        finally:
            link.close()
    finally:
        board.unplug()


def test_xobo_board_serial_pty_refuses_the_micropython_runtime():
    r = subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "board", "serial", "--pty",
                        "--runtime", "micropython"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "CPython" in r.stderr


def test_the_players_hands_play_a_move_the_lit_move_and_look_without_serial(tmp_path):
    board = PtyBoard(tmp_path / "flash").plug()
    link = SerialLink.open(board.device)
    try:
        link.command("set settle 200")
        board.play("play e5")  # a move as the players' hands make it
        board.play("wait 400")
        assert board.play("look") == ["ply 1 expect - position " + link.command(
            "position")[0][3:]]
        assert link.command("move d4")[0].startswith("ok move d4")
        assert board.play("look")[0].startswith("ply 1 expect d4 ")
        board.play("play expected")  # the move the board lights for the host
        board.play("wait 400")
        assert board.play("look")[0].startswith("ply 2 expect - ")
        link.command("new")  # the board now shows the cubes to clear
        board.play("arrange")
        assert link.command("state")[0].startswith("ok state match ")
        try:
            board.play("play z9")
        except Exception as exc:
            assert "z9" in str(exc)
        else:
            raise AssertionError("a move that is no move was played")
    finally:
        link.close()
        board.unplug()
