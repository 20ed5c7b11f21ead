"""``xobo rules --game G ...``: each game's own rules CLI from the one ``xobo`` command, on
both runtimes, with the same errors as the rest of the CLI (issue 10: the game is a setting)."""

import pytest

from xobo_host.cli import main

EMPTY_X4 = "..../..../..../.... r"


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_rules_game_x_legal_runs_x_s_engine(runtime, capfd):
    assert main(["rules", "--game", "x", "legal", "--runtime", runtime, EMPTY_X4]) == 0
    assert capfd.readouterr().out.split() == [f + r for f in "abcd" for r in "1234"]


def test_rules_game_x_result_prints_the_corners_line(capfd):
    assert main(["rules", "--game=x", "result", "/".join(["." * 8] * 8) + " r"]) == 0
    assert capfd.readouterr().out.strip() == "SW=- SE=- NW=- NE=- score 0-0-0 winner -"


def test_rules_game_tiny_play_and_xobo_keeps_its_own_commands(capfd):
    assert main(["rules", "--game", "tiny", "play", "b2"]) == 0
    assert capfd.readouterr().out.startswith("b2\t")
    assert main(["rules", "--game", "xobo", "perft", "1"]) == 0
    assert capfd.readouterr().out.strip() == "81"


def test_rules_unknown_game_is_one_error_line(capfd):
    assert main(["rules", "--game", "chess", "legal"]) == 2
    err = capfd.readouterr().err
    assert err.startswith("error: unknown game 'chess' (games: xobo, x, chain-reaction")


def test_rules_game_without_a_name_says_so(capfd):
    assert main(["rules", "--game"]) == 2
    assert "error: --game needs a game's name" in capfd.readouterr().err
