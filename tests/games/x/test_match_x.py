"""xobo match --game x: every line-up of the seats, wins per level and per pair of levels."""

import re

import pytest

from xobo_host.bench.matchplay.lineups import lineups, run_game_match
from xobo_host.cli.main import main


def test_lineups_rotate_every_seat_for_three_players():
    lus = lineups(["random", "greedy"], 3)
    assert len(lus) == 6 and len(set(lus)) == 6
    assert all(len(set(lu)) == 2 for lu in lus)
    three = lineups(["a", "b", "c"], 3)
    assert len(three) == 24 and ("a", "b", "c") in three and ("c", "b", "a") in three


def test_match_x_tally_counts_every_seat_and_game():
    tally = run_game_match("x", ["random", "greedy"], 12, seed=3, settings_words=["size=5"],
                           workers=1)
    assert tally["games"] == 12
    assert tally["seats"] == {"random": 18, "greedy": 18}  # 12 games x 3 seats, evenly
    n, wr, wg, unfinished, drawn = tally["pairs"][("random", "greedy")]
    assert n == 12 and unfinished == drawn == 0 and wr + wg == 12  # X has no draw (XE2)
    assert tally["wins"] == {"random": wr, "greedy": wg}


def test_match_x_replays_exactly_for_a_seed():
    a = run_game_match("x", ["random", "greedy"], 6, seed=9, settings_words=["size=4"],
                       workers=1)
    b = run_game_match("x", ["random", "greedy"], 6, seed=9, settings_words=["size=4"],
                       workers=2)
    assert a == b


def test_match_x_greedy_beats_random_per_seat():
    tally = run_game_match("x", ["random", "greedy"], 60, seed=1, workers=2)
    assert tally["wins"]["greedy"] > 1.3 * tally["wins"]["random"], tally


def test_match_cli_game_x_prints_levels_and_pairs(capsys):
    assert main(["match", "--game", "x", "--games", "6", "--set", "size=4", "--workers", "1",
                 "--levels", "random,greedy", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert all(re.fullmatch(r"(random|greedy): \d+ wins in 9 seats \(\d\.\d\d a seat, fair"
                            r" 0\.33\)", line) for line in lines[:2]), lines
    assert re.fullmatch(r"greedy vs random: 6 games, greedy won \d, random \d, unfinished 0",
                        lines[2]), lines


@pytest.mark.parametrize("args, words", [
    (["--game", "x", "--levels", "greedy,pico"], "unknown level 'pico' for x"),
    (["--game", "x", "--levels", "greedy"], "two different levels"),
    (["--game", "x", "--set", "size=12"], "size must be a whole number 4-9"),
    (["--game", "x", "--set", "colour=red"], "KEY one of first, size"),
    (["--game", "x", "--a", "greedy"], "both --a and --b"),
    (["--game", "chess"], "unknown game 'chess'"),
    (["--game", "xobo", "--a", "random"], "needs --a and --b"),
])
def test_match_game_errors_are_one_line_with_status_2(args, words, capsys):
    try:
        status = main(["match"] + args)
    except SystemExit as exc:  # argparse's own check of --game (xobo_host.cli.argtypes)
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: ") and words in last, err
