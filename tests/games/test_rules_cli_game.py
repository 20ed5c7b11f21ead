"""``xobo rules [--game G] ...``: every game's rules CLI from the one ``xobo`` command, the same
commands for each (``legal play perft show result hint``, xobo.rulescli) on both runtimes,
with the same errors as the rest of the CLI (issue 10: the game is a setting; issue 20: one
rules CLI)."""

import pytest

from xobo import games
from xobo_host.cli.main import main

EMPTY_X4 = "..../..../..../.... r"
GAMES = games.available()
RUNTIMES = pytest.mark.parametrize("runtime", ["cpython", "micropython"])
# perft 2 from each game's start position (its settings' defaults)
PERFT_2 = {"xobo": 6480, "x": 4032, "chain-reaction": 2348, "brochs": 149119, "tiny": 72}


@RUNTIMES
def test_rules_game_x_legal_runs_x_s_engine(runtime, capfd):
    assert main(["rules", "--game", "x", "legal", "--runtime", runtime, EMPTY_X4]) == 0
    assert capfd.readouterr().out.split() == [f + r for f in "abcd" for r in "1234"]


def test_rules_game_x_result_prints_the_corners_line(capfd):
    assert main(["rules", "--game=x", "result", "/".join(["." * 8] * 8) + " r"]) == 0
    assert capfd.readouterr().out.strip() == "SW=- SE=- NW=- NE=- score 0-0-0 winner -"


def test_rules_game_tiny_play_and_xobo_is_the_default_game(capfd):
    assert main(["rules", "--game", "tiny", "play", "b2"]) == 0
    assert capfd.readouterr().out.startswith("b2\t")
    assert main(["rules", "--game", "xobo", "perft", "1"]) == 0
    assert capfd.readouterr().out.strip() == "81"
    assert main(["rules", "perft", "1"]) == 0
    assert capfd.readouterr().out.strip() == "81"


def test_rules_unknown_game_is_one_error_line(capfd):
    assert main(["rules", "--game", "chess", "legal"]) == 2
    err = capfd.readouterr().err
    assert err.startswith("error: unknown game 'chess' (games: xobo, x, chain-reaction")


def test_rules_game_without_a_name_says_so(capfd):
    assert main(["rules", "--game"]) == 2
    assert "error: --game needs a game's name" in capfd.readouterr().err


@pytest.mark.parametrize("name", GAMES)
def test_help_of_each_game_names_it_its_commands_options_and_levels(name, capfd):
    game = games.load(name)
    assert main(["rules", "--game", name, "--help"]) == 0
    out = capfd.readouterr().out
    assert out.startswith("usage: xobo rules --game %s COMMAND" % name)
    assert game.TITLE in out
    for command in ("legal", "play", "perft", "show", "result", "hint"):
        assert "\n  %s " % command in out, command
    for key in game.SETTINGS:
        assert "--" + key.replace("_", "-") in out, key
    assert ", ".join(game.LEVELS) in out


def test_help_without_a_game_lists_every_game_and_command(capfd):
    assert main(["rules", "--help"]) == 0
    out = capfd.readouterr().out
    assert ", ".join(GAMES) in out and "legal" in out and "hint" in out
    assert "The XoBo rules engine" not in out


@RUNTIMES
@pytest.mark.parametrize("name", GAMES)
def test_show_without_a_position_is_the_start_and_result_says_it_goes_on(name, runtime, capfd):
    game = games.load(name)
    start = game.new_position(game.DEFAULTS)
    assert main(["rules", "--game", name, "--runtime", runtime, "show"]) == 0
    shown = capfd.readouterr().out
    assert main(["rules", "--game", name, "--runtime", runtime, "show", start.to_string()]) == 0
    assert capfd.readouterr().out == shown and shown
    assert main(["rules", "--game", name, "--runtime", runtime, "result"]) == 0
    out = capfd.readouterr().out.strip()
    assert out == "*" or out.endswith("winner -"), out  # X says its corners


@pytest.mark.parametrize("name", GAMES)
def test_perft_counts_from_the_start_of_every_game(name, capfd):
    assert main(["rules", "--game", name, "perft", "2"]) == 0
    assert capfd.readouterr().out == "%d\n" % PERFT_2[name]


@RUNTIMES
def test_perft_of_x_and_tiny_on_both_runtimes(runtime, capfd):
    assert main(["rules", "--game", "x", "--runtime", runtime, "perft", "--size", "4",
                 "3"]) == 0
    assert capfd.readouterr().out == "%d\n" % (16 * 15 * 14)
    # tiny to the end: the 255,168 games of tic-tac-toe
    assert main(["rules", "--game", "tiny", "--runtime", runtime, "perft", "9"]) == 0
    assert capfd.readouterr().out == "255168\n"


@pytest.mark.parametrize("name", GAMES)
def test_result_of_every_game_at_its_end(name, capfd):
    # play the game out at random, then ask its result as play said it
    import random

    game = games.load(name)
    pos = game.new_position(game.DEFAULTS)
    rng = random.Random(7)
    while not pos.is_terminal() and pos.ply < 3000:
        pos.apply(rng.choice(pos.legal_actions()))
    assert pos.is_terminal(), name
    w = pos.winner()
    word = game.PLAYER_NAMES[w] if w >= 0 else "draw"
    assert main(["rules", "--game", name, "result", pos.to_string()]) == 0
    out = capfd.readouterr().out.strip()
    assert out.startswith(word) or out.endswith("winner %s" % "rygx"[w] if w >= 0 else "-"), out


@RUNTIMES
@pytest.mark.parametrize("name", GAMES)
def test_hint_of_every_game_is_a_legal_move_of_the_start(name, runtime, capfd):
    game = games.load(name)
    start = game.new_position(game.DEFAULTS)
    assert main(["rules", "--game", name, "--runtime", runtime, "hint", "--level", "random",
                 "--seed", "3"]) == 0
    text = capfd.readouterr().out.strip()
    assert start.parse_move(text) in start.legal_actions(), text


def test_hint_at_the_end_and_with_a_bad_level_are_errors(capfd):
    assert main(["rules", "--game", "tiny", "hint", "xxx/oo./... o"]) == 2
    assert "the game is over (x): no move to suggest" in capfd.readouterr().err
    assert main(["rules", "--game", "tiny", "hint", "--level", "great"]) == 2
    assert "unknown level 'great' for tiny (levels: random, perfect)" in capfd.readouterr().err


def test_tiny_hint_blocks_the_diagonal(capfd):
    assert main(["rules", "--game", "tiny", "hint", "x.o/.x./... o"]) == 0
    assert capfd.readouterr().out == "c1\n"


def test_a_unique_start_of_an_option_is_enough_and_an_ambiguous_one_is_refused(capfd):
    assert main(["rules", "--game", "brochs", "show", "--imprecation", "white",
                 "--master", "master-moves"]) == 0
    capfd.readouterr()
    assert main(["rules", "--game", "chain-reaction", "show", "--f", "6"]) == 2
    assert "unknown option '--f' (options: --field" in capfd.readouterr().err
