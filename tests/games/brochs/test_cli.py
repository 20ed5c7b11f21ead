"""``xobo rules --game brochs``: legal, play, perft and show, on CPython and under MicroPython
(the same output)."""

import io
import sys

import pytest
from conftest import run_micropython

from xobo.games.brochs import cli

START = (
    ".....wwwww...../.............../.............../...w.......w.../.............../"
    "w.............w/w.............w/w.............w/w.............w/w.............w/"
    ".............../...w.......w.../.............../.............../.....wwwww..... b 12 1 -")


def cpython(args, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO(stdin)
    try:
        status = cli.main(args)
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return status, out.getvalue(), err.getvalue()


def upy(args):
    proc = run_micropython(["-m", "xobo.games.brochs.cli", *args])
    return proc.returncode, proc.stdout, proc.stderr


CASES = [
    ["perft", "1"],
    ["legal", START.replace(" 12 1 -", " 0 0 -").replace("....w.......w.../......", "...w"
                                                         ".......w.../......", 1)],
    ["play", "M*e5", "d4-d5", "*c5", "(s?)", "(pass!)"],
    ["play", "*e5", "--", "--"],
    ["show", START],
    ["show", "--imprecation", "white", "--donjon", "3"],
]


@pytest.mark.parametrize("args", CASES)
def test_cli_same_answers_on_both_runtimes(args):
    a = cpython(args)
    b = upy(args)
    assert a[0] == b[0] == 0, (a, b)
    assert a[1] == b[1]


def test_cli_perft_counts_moves_only_not_the_question_nor_resigning_br6_be1():
    # 201 empty squares x (man or master) + the pass; then each of those times White's moves
    assert cpython(["perft", "1"])[1] == "403\n"
    assert cpython(["perft", "2"])[1] == "149119\n"


def test_cli_legal_lists_no_question_nor_resignation_br6_be1():
    status, out, _ = cpython(["legal", START])
    moves = out.split()
    assert status == 0 and len(moves) == 403
    assert "--" in moves and "(s?)" not in moves and "(resign)" not in moves


def test_cli_legal_lists_the_answers_while_a_question_waits_br6():
    _, out, _ = cpython(["play", "*e5", "(s?)"])
    asked = out.splitlines()[-1].split("\t")[1]
    status, out, _ = cpython(["legal", asked])
    assert status == 0 and out.split() == ["(pass!)", "(s!)"]


def test_cli_play_takes_the_pass_written_as_two_dashes_bm4():
    status, out, err = cpython(["play", "*e5", "--", "--"])
    assert status == 0, err
    assert [line.split("\t")[0] for line in out.splitlines()] == ["*e5", "--", "--"]
    status, out, err = cpython(["play", "--position", START, "--"])
    assert status == 0 and out.startswith("--\t"), err


def test_cli_play_still_takes_the_question_and_resigning_as_the_board_does():
    status, out, _ = cpython(["play", "*e5", "(resign)"])
    assert status == 0 and out.splitlines()[-1].endswith("\tblack")


def test_cli_play_shows_captures_and_the_result():
    status, out, _ = cpython(["play", "M*e5", "d4-d5", "*c5"])
    lines = out.splitlines()
    assert status == 0 and lines[2].startswith("*c5xd5\t") and lines[2].endswith("\t*")


@pytest.mark.parametrize("args,words", [
    ([], "no rules command"),
    (["dance"], "unknown rules command"),
    (["perft", "9"], "perft depth"),
    (["play", "zz"], "move 1: 'zz' is no move"),
    (["play", "*e5", "*e5"], "move 2: *e5: only Black drops"),
    (["show", "nonsense"], "a position has 5 fields"),
    (["show", "--donjon", "9"], "--donjon must be"),
    (["legal", "--frob"], "unknown option"),
])
def test_cli_errors_are_one_line_and_status_2(args, words):
    for status, _, err in (cpython(args), upy(args)):
        assert status == 2 and err.startswith("error: ") and words in err, err
        assert "Traceback" not in err


def test_cli_legal_reads_positions_from_stdin():
    status, out, _ = cpython(["legal"], stdin=START + "\nbad\n")
    lines = out.splitlines()
    assert status == 1 and len(lines) == 2 and lines[1].startswith("error: ")
    assert "*a1" in lines[0].split()


def test_xobo_rules_play_takes_the_pass_through_the_host_command(capsys):
    from xobo_host.cli.main import main

    assert main(["rules", "--game", "brochs", "play", "--"]) == 0
    assert capsys.readouterr().out.startswith("--\t")
    assert main(["rules", "--game", "brochs", "perft", "1"]) == 0
    assert capsys.readouterr().out == "403\n"
