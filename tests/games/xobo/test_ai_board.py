"""A whole game against the computer on the (virtual) board, as a scripted session.

``sessions/vs_computer_ew_pico.txt`` (written by ``session_maker.py``): the board plays EW at
level pico; the player's NS moves are cubes put, lifted and regrouped by hand. The computer's
moves are announced (``expect computer ...``), shown in light and committed only when the
cubes match, including the computer's regroup d7->b9 and its spread b9xc9 whose captured pair
on c9 the player takes off (M4). The same script gives the same game under CPython and
MicroPython: the computer is deterministic (node budget, seeded choices).
"""

from pathlib import Path

import pytest

from xobo.games.xobo.rules.notation import parse_move
from xobo.games.xobo.rules.position import Position

SESSION = Path(__file__).resolve().parent / "sessions" / "vs_computer_ew_pico.txt"


def _run(runtime, capfd):
    from xobo_host.cli.main import main

    status = main(["board", "run", "--script", str(SESSION), "--runtime", runtime])
    out = capfd.readouterr().out.splitlines()
    assert status == 0, out[-10:]
    return out


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_whole_game_against_the_computer_with_a_spread_and_its_captures(runtime, capfd):
    out = _run(runtime, capfd)
    assert not [x for x in out if x.startswith("error")], out
    expected = [x.split()[2] for x in out if x.startswith("expect computer ")]
    moves = [x.split()[1] for x in out if x.startswith("move ")]
    # every computer move was announced before the cubes committed it
    assert "d7->b9" in expected and "b9xc9" in expected
    for m in expected:
        assert m in moves
    assert out[-2] == "result ew"
    # the board's final position is the game replayed by the engine
    pos = Position()
    for text in moves:
        pos.apply(parse_move(text, pos))
    assert out[-1] == "position " + pos.to_string()
    assert pos.winner() == 1


def test_hint_on_the_board_is_the_ai_hint(tmp_path, capfd):
    from xobo.games.xobo.ai import hint
    from xobo.games.xobo.rules.notation import format_move
    from xobo_host.cli.main import main

    script = tmp_path / "hint.txt"
    script.write_text("put e5\nwait 1500\nput d4\nwait 1500\nserial hint\npress hint\nposition\n")
    assert main(["board", "run", "--script", str(script)]) == 0
    out = capfd.readouterr().out.splitlines()
    pos = Position.parse(out[-1].split(" ", 1)[1])
    # the board seeds its hint with the ply (2 here), as it seeds its own move: the hint is the
    # move the computer would play
    expected = format_move(hint(pos, seed=2))
    assert "ok hint " + expected in out
    assert out.count("hint " + expected) == 2  # the serial command and the button
