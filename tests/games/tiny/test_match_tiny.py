"""``xobo match --game tiny``: a full board without three in a row is a draw (TE2), never an
unfinished game."""

from xobo_host.cli import main
from xobo_host.cmd_match import run_game_match


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
