"""Whole games of X on the (virtual) board as scripted sessions (sessions/*.txt, written by
session_maker.py), under CPython and the MicroPython unix port: a three-player game by hand
with a mistake fixed, an undo, a touch and a power cut; one person against two computers.
Both runtimes give the same output, and the board's game is the engine's."""

from pathlib import Path

import pytest

from xobo.games.x.rules import Position

SESSIONS = Path(__file__).resolve().parent / "sessions"


def _run(name, runtime, capfd):
    from xobo_host.cli.main import main

    status = main(["board", "run", "--script", str(SESSIONS / (name + ".txt")), "--runtime",
                   runtime])
    out = capfd.readouterr().out.splitlines()
    assert status == 0, out[-10:]
    assert not [x for x in out if x.startswith("error")], out
    return out


def _replayed(out):
    """The engine's position after the committed moves, undos taken into account."""
    pos = Position(8, 0)
    for line in out:
        if line.startswith("move "):
            pos.apply(pos.parse_move(line.split()[1]))
        elif line.startswith("undo "):
            pos.undo()
    return pos


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_whole_three_player_game_by_hand_with_a_mistake_an_undo_and_a_power_cut(runtime,
                                                                               capfd):
    out = _run("hand", runtime, capfd)
    # (X's game is the script's second: its id is the second it draws, kept by the power cut)
    assert "ok state fix side yellow result * ply 7 gameid 000000000002 fix clear d4 h5" \
        in out  # the mistake
    assert any(x.startswith("ok state offer side yellow") for x in out)  # fixed: ok plays it
    assert "undo e3" in out
    assert "ok state restore side green result * ply 11 gameid 000000000002 restore clear e3" \
        in out
    assert "boot resumed game: 31 moves" in out
    pos = _replayed(out)
    assert pos.is_terminal() and pos.ply == 64
    assert out[-1] == "position " + pos.to_string()
    assert "result %s" % ("red", "yellow", "green")[pos.winner()] in out
    assert out[-2].startswith("ok state over ") and out[-2].endswith(" gameid 000000000002")
    if runtime == "micropython":  # the same game as under CPython
        assert out == _run("hand", "cpython", capfd)


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_one_person_against_two_computers_plays_to_the_end(runtime, capfd):
    out = _run("vs_computer", runtime, capfd)
    assert "ok opponent yellow+green" in out
    expected = [x.split()[2] for x in out if x.startswith("expect computer ")]
    moves = [x.split()[1] for x in out if x.startswith("move ")]
    assert len(moves) == 64 and len(expected) == 42  # 21 moves each for yellow and green
    for k in range(len(moves)):  # every yellow and green move was the computer's
        if k % 3:
            assert moves[k] == expected.pop(0)
    pos = _replayed(out)
    assert out[-1] == "position " + pos.to_string()
    assert "result %s" % ("red", "yellow", "green")[pos.winner()] in out
