"""``xobo rules``: legal, play, perft and show, on CPython and under the MicroPython unix port."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from xobo.games.xobo.rules.position import Position

XOBO = str(Path(sys.executable).parent / "xobo")
START = ("........./........./........./........./........./........./........./........./"
         "......... ns 36 0 0")
MIDGAME = ("...1...../..1.3..1./.1...1.../1...1..../...1.3.1./..1....1./.1..1..../"
           "....1...1/..1...... ns 10 2 2")


def xobo(*args, stdin=None):
    return subprocess.run([XOBO, *args], capture_output=True, text=True, input=stdin,
                          timeout=600)


def random_positions(count, seed):
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pos = Position("kv" if i % 3 == 0 else "xobo")
        for _ in range(rng.randrange(0, 60)):
            moves = pos.legal_actions()
            if not moves:
                break
            pos.apply(rng.choice(moves))
        out.append((pos.variant, pos.to_string()))
    return out


def test_midgame_fixture_is_a_valid_crowded_position():
    pos = Position.parse(MIDGAME)
    assert sum(1 for h in pos.heights if h >= 3) == 2 and pos.common == 10


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_legal_lists_sorted_moves_of_one_position(runtime):
    out = xobo("rules", "legal", "--runtime", runtime, START)
    assert out.returncode == 0, out.stderr
    moves = out.stdout.split()
    assert len(moves) == 81 and moves == sorted(moves) and moves[0] == "a1"


def test_legal_reads_positions_from_stdin_and_both_runtimes_agree():
    positions = random_positions(40, seed=11)
    for variant in ("xobo", "kv"):
        lines = "".join(p + "\n" for v, p in positions if v == variant)
        a = xobo("rules", "legal", "--variant", variant, stdin=lines)
        b = xobo("rules", "legal", "--variant", variant, "--runtime", "micropython", stdin=lines)
        assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
        assert len(a.stdout.splitlines()) == lines.count("\n")
        assert a.stdout == b.stdout


def test_legal_reports_a_malformed_line_and_goes_on():
    out = xobo("rules", "legal", stdin="nonsense\n" + START + "\n")
    assert out.returncode != 0
    first, second = out.stdout.splitlines()
    assert first.startswith("error:") and "5 fields" in first
    assert len(second.split()) == 81


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_play_prints_move_position_result_with_voina_mark(runtime):
    setup = Position.parse(START)
    for name in "e1 a9 e2 b9 e3 c9 e4 a7 e6 c7 e7 a5 e8 c5".split():
        from xobo.games.xobo.rules.notation import parse_move

        setup.apply(parse_move(name, setup))
    out = xobo("rules", "play", "--runtime", runtime, "--position", setup.to_string(),
               "e9", "d5")
    assert out.returncode == 0, out.stderr
    lines = [line.split("\t") for line in out.stdout.splitlines()]
    assert lines[0][0] == "e9 (v)" and lines[0][2] == "*" and lines[0][1].split()[1] == "ew"
    assert lines[1][0] == "d5" and lines[1][2] == "ns"  # d5 links e4 and e6 for NS (E2)
    assert len(lines) == 2
    more = xobo("rules", "play", "--runtime", runtime, "--position", setup.to_string(),
                "e9", "d5", "e5")
    assert more.returncode != 0 and "game is over" in more.stderr


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_play_stops_on_an_illegal_move_with_a_clear_error(runtime):
    out = xobo("rules", "play", "--runtime", runtime, "e5", "e5", "d4")
    assert out.returncode != 0
    assert len(out.stdout.splitlines()) == 1
    assert "move 2" in out.stderr and "not empty" in out.stderr


def test_play_side_to_move_after_a_winning_move_is_the_opponent():
    pos = ("....1..../....1..../....1..../....1..../........./....1..../....1..../"
           "....1..../....1.... ns 28 0 0")
    out = xobo("rules", "play", "--position", pos, "e5")
    move, after, result = out.stdout.strip().split("\t")
    assert (move, after.split()[1], result) == ("e5", "ew", "ns")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_perft_from_the_start(runtime):
    out = xobo("rules", "perft", "--runtime", runtime, "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "6480"


def test_perft_of_a_crowded_midgame_agrees_between_runtimes():
    a = xobo("rules", "perft", "2", MIDGAME)
    b = xobo("rules", "perft", "--runtime", "micropython", "2", MIDGAME)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert a.stdout.splitlines()[-1] == b.stdout.splitlines()[-1]
    assert int(a.stdout.splitlines()[-1]) > 1000


def test_show_draws_the_board_and_the_voina_cells():
    pos = ("....1..../....1..../....1..../....1..../........./....1..../....1..../"
           "....1..../....1.... ew 28 0 0")
    out = xobo("rules", "show", pos)
    assert out.returncode == 0, out.stderr
    assert "Voïna cells of NS: d5 e5 f5" in out.stdout
    assert "EW is under Voïna" in out.stdout
    assert out.stdout.splitlines()[1].split()[0] == "9"


def test_bad_position_argument_gets_a_clear_error():
    out = xobo("rules", "legal", "........./ ns 36 0 0")
    assert out.returncode != 0 and "9 ranks" in out.stderr


def test_help_shows_examples():
    out = xobo("rules", "--help")
    assert "examples" in out.stdout and "perft" in out.stdout


def test_legal_keeps_one_output_line_per_input_line_even_for_blank_lines():
    out = xobo("rules", "legal", stdin=START + "\n\n" + START + "\n")
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and lines[1].startswith("error:") and len(lines[2].split()) == 81


@pytest.mark.parametrize("args", [["e5", "d4 (v)"], ["e5", "d4", "(v)"]])
def test_play_refuses_a_voina_mark_on_a_move_that_declares_nothing(args):
    out = xobo("rules", "play", *args)
    assert out.returncode != 0 and "marked (v)" in out.stderr
    assert len(out.stdout.splitlines()) == 1


def test_play_accepts_a_correct_voina_mark_as_a_separate_argument():
    pos = ("....1..../....1..../....1..../....1..../........./........./....1..../"
           "....1..../....1.... ns 29 0 0")
    out = xobo("rules", "play", "--position", pos, "e4", "(v)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\t")[0] == "e4 (v)"


AFTER_E5 = ("........./........./........./........./....1..../........./........./"
            "........./......... ew %s 0 0")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("reserve", ["3²", "３５", "٠"])
def test_show_with_non_ascii_digits_is_an_error_line_not_a_traceback(runtime, reserve):
    out = xobo("rules", "show", "--runtime", runtime, AFTER_E5 % reserve)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr == "error: common reserve must be a number 0-36, got '%s'\n" % reserve


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_legal_on_stdin_goes_on_after_non_ascii_digits_and_invalid_utf8(runtime):
    data = (b"\xff\xfe\n" + (AFTER_E5 % "3\u00b2").encode() + b"\n"
            + (AFTER_E5 % "35").encode() + b"\n")
    proc = subprocess.run([XOBO, "rules", "legal", "--runtime", runtime], input=data,
                          capture_output=True, timeout=600)
    assert b"Traceback" not in proc.stderr and proc.returncode == 1
    lines = proc.stdout.decode().splitlines()
    assert lines[0] == "error: line 1 is not UTF-8 text"
    assert lines[1].startswith("error: common reserve must be a number 0-36")
    assert len(lines[2].split()) == 80


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("depth", ["99999999999999999999", "9", "２", "-1", "1_0"])
def test_perft_with_an_absurd_depth_is_refused_at_once(runtime, depth):
    out = xobo("rules", "perft", "--runtime", runtime, "--", depth)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr == "error: perft depth must be a whole number 0-8, not '%s'\n" % depth


def test_legal_waiting_on_a_terminal_says_what_it_expects():
    import os
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([XOBO, "rules", "legal"], stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        os.write(master, (START + "\n").encode())
        os.write(master, b"\x04")  # Ctrl-D: end of input at a terminal
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    assert "legal: reading positions from stdin, one per line" in err and "Ctrl-D" in err
    assert len(out.split()) == 81


def test_legal_from_a_pipe_prints_no_prompt():
    out = xobo("rules", "legal", stdin=START + "\n")
    assert out.stderr == "" and len(out.stdout.split()) == 81


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_show_and_errors_write_Voina_with_the_diaeresis_on_both_runtimes(runtime):
    # one spelling for people: 'Voïna' (machine words such as the event 'voina' stay ASCII)
    pos = ("....1..../....1..../....1..../....1..../........./....1..../....1..../"
           "....1..../....1.... ew 28 0 0")
    proc = subprocess.run([XOBO, "rules", "show", "--runtime", runtime, pos],
                          capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert b"EW is under Vo\xc3\xafna (may regroup)" in proc.stdout  # UTF-8 from both
    assert b"Voina" not in proc.stdout
    out = xobo("rules", "play", "--runtime", runtime, "e5", "e4", "e5->e3")
    assert "a regroup is allowed only under Voïna (M2, V2)" in out.stderr
