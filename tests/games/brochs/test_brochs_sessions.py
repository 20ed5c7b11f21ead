"""Whole Brochs games on the 15x15 board as scripted sessions, under both interpreters: one by
hand (drops, the master declared with its button, rook moves, a custody capture taken off,
passes by the ok gesture and over serial, an undo, a power cut) and one against the computer
(``session_maker.py`` wrote it: White at level greedy, to the end)."""

from pathlib import Path

import pytest

from xobo.games.brochs.rules import Position

SESSIONS = Path(__file__).resolve().parent / "sessions"


def _run(name, runtime, capfd):
    from xobo_host.cli.main import main

    status = main(["board", "run", "--script", str(SESSIONS / name), "--runtime", runtime])
    out = capfd.readouterr().out.splitlines()
    assert status == 0, out[-10:]
    assert not [x for x in out if x.startswith("error")], out
    return out


def _replay(out):
    pos = Position()
    for x in out:
        if x.startswith("move "):
            pos.play(pos.parse_move(x.split()[1]))
        elif x.startswith("undo "):
            pos.undo()
    return pos


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_brochs_game_by_hand_on_the_15x15_board(runtime, capfd):
    out = _run("by_hand.txt", runtime, capfd)
    moves = [x.split()[1] for x in out if x.startswith("move ")]
    assert moves == ["*e5", "f1-f3", "M*e3", "--", "*g3xf3", "--", "e5-e7"]
    assert "undo e5-e7" in out
    assert "boot resumed game: 6 moves" in out
    pos = _replay(out)
    positions = [x for x in out if x.startswith("position ")]
    assert positions == ["position " + pos.to_string()] * 2
    assert out[-1] == "ok state match side black result * ply 6 gameid 000000000002"


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_brochs_whole_game_against_the_computer(runtime, capfd):
    out = _run("vs_computer_greedy.txt", runtime, capfd)
    expected = [x.split()[2] for x in out if x.startswith("expect computer ")]
    moves = [x.split()[1] for x in out if x.startswith("move ")]
    assert len(expected) > 20
    for m in expected:
        assert m in moves
    pos = _replay(out)
    assert pos.is_terminal()
    assert out[-2] == "result %s" % ("black", "white")[pos.winner()]
    assert out[-1] == "position " + pos.to_string()
