"""The test game's scripted session (sessions/whole_game.txt: a game by hand with an offer,
an undo and a power cut) gives the reviewed output (whole_game.out) under both runtimes."""

from pathlib import Path

import pytest

SESSIONS = Path(__file__).resolve().parent / "sessions"


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_tiny_whole_game_session_by_hand(runtime, capfd):
    from xobo_host.cli.main import main

    status = main(["board", "run", "--script", str(SESSIONS / "whole_game.txt"),
                   "--runtime", runtime])
    out = capfd.readouterr().out
    assert status == 0, out
    assert out == (SESSIONS / "whole_game.out").read_text()
