"""``xobo match --game tiny``: a full board without three in a row is a draw (TE2), never an
unfinished game."""

from xobo_host.bench.matchplay.lineups import run_game_match
from xobo_host.cli.main import main


def test_TE2_a_drawn_game_is_counted_drawn_not_unfinished():
    tally = run_game_match("tiny", ["random", "perfect"], 12, seed=0, workers=1)
    n, a_won, b_won, unfinished, drawn = tally["pairs"][("random", "perfect")]
    assert n == 12 and unfinished == 0 and drawn >= 1 and a_won == 0  # perfect never loses
    assert a_won + b_won + drawn == 12


def test_TE2_the_match_line_says_drawn_and_the_progress_a_draw(capsys):
    assert main(["match", "--game", "tiny", "--games", "12", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "a draw after 9 moves" in out and "unfinished after" not in out
    assert out.splitlines()[-1].endswith(", drawn 1, unfinished 0"), out


def test_TE2_two_levels_of_the_test_game_get_the_elo_line_with_its_draws(capsys):
    # the same match as XoBo's (--a, --b): draws are counted apart from unfinished games
    assert main(["match", "--game", "tiny", "--a", "random", "--b", "perfect", "--games", "12",
                 "--workers", "1", "--quiet"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("random 0 wins, ") and " drawn, 0 unfinished; Elo -" in line, line
