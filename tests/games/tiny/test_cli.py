"""The test game's rules CLI: the commands' output, and errors as one ``error:`` line."""

import pytest
from conftest import run_micropython

from xobo.games.tiny.cli import main


def _run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_legal_lists_the_empty_cells_sorted(capsys):
    assert _run(capsys, "legal", "x.o/.x./... o") == (0, "a1 a2 b1 b3 c1 c2\n", "")


def test_play_prints_each_move_position_and_result(capsys):
    code, out, _ = _run(capsys, "play", "--first", "o", "a1", "b1", "a2", "b2", "a3")
    assert code == 0
    assert out.splitlines()[-1] == "a3\to../ox./ox. x\to"
    code, out, _ = _run(capsys, "play", "b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1")
    assert out.splitlines()[-1] == "c1\toox/xxo/oxx o\tdraw"


def test_show_draws_the_area_and_says_who_moves(capsys):
    code, out, _ = _run(capsys, "show", "x.o/.x./... o")
    assert code == 0
    assert out.splitlines() == ["  3  x  .  o", "  2  .  x  .", "  1  .  .  .", "     a  b  c",
                                "o to move; empty: a1 b1 c1 a2 c2 b3"]


@pytest.mark.parametrize("args, words", [
    (["play", "b2", "b2"], "error: move 2: b2 is taken (by x)"),
    (["play", "--first", "z", "b2"], "error: --first must be x or o, not 'z'"),
    (["legal", "x.o/.x./..."], "error: a position has 2 fields"),
    (["show", "xx./o../... x"], "error: x has more pieces than o, so o is to move"),
    (["perft", "10"], "error: perft depth must be a whole number 0-9, not '10'"),
    (["play", "--fast", "b2"], "error: unknown option '--fast' (options: --first"),
    (["dance"], "error: unknown rules command 'dance'"),
])
def test_bad_input_is_one_error_line_and_status_2(capsys, args, words):
    code, _, err = _run(capsys, *args)
    assert code == 2 and err.startswith(words), err


def test_the_cli_answers_the_same_under_micropython():
    proc = run_micropython(["-m", "xobo.games.tiny.cli", "play", "b2", "a1", "c3"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "c3\t..x/.x./o.. o\t*"
