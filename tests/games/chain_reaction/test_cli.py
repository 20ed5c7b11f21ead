"""The rules CLI (legal, play, perft, show) under CPython and the MicroPython unix port: the
same output, errors as 'error: ...' with status 2."""

import subprocess
import sys

import pytest
from conftest import FIRMWARE, run_micropython

START = "..ddd../.ddddd./..ddd../......./..lll../.lllll./..lll.. l 0 0 0 18"
MODULE = "xobo.games.chain_reaction.cli"


def run(runtime, *args, stdin=None):
    if runtime == "micropython":
        return run_micropython(["-m", MODULE, *args], input_text=stdin)
    return subprocess.run([sys.executable, "-m", MODULE, *args], capture_output=True,
                          text=True, input=stdin, cwd=str(FIRMWARE), timeout=600)


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_CN1_legal_lists_sorted_segments(runtime):
    out = run(runtime, "legal", START)
    assert out.returncode == 0, out.stderr
    moves = out.stdout.split()
    assert len(moves) == 79 and moves == sorted(moves) and "e4-e5" in moves


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_CM4_play_prints_each_segment_and_the_turn_state(runtime):
    out = run(runtime, "play", "e4-e5", "e5:N")
    assert out.returncode == 2 and out.stderr.startswith("error: segment 2 (e5:N): no tower")
    out = run(runtime, "play", "e4-e5", "e6-e5", "e5:S")
    assert out.returncode == 0 and out.stdout.splitlines()[1].split("\t")[1].endswith(
        " d 1 0 0 18")  # Dark's tower on e5: Dark's turn goes on (CM4)
    out = run(runtime, "play", "e4-e5", "d6-d5", "e4-e5")
    assert out.returncode == 2 and "holds no piece" in out.stderr
    out = run(runtime, "play", "e4-e5", "e6-d5")
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and len(lines) == 2
    assert lines[1].split("\t")[0] == "e6-d5" and lines[1].endswith("\t*")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_perft_counts_segment_sequences(runtime):
    out = run(runtime, "perft", "2")
    assert out.returncode == 0 and out.stdout.strip() == "2348"
    out = run(runtime, "perft", "9")
    assert out.returncode == 2 and "0-6" in out.stderr


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_show_and_errors(runtime):
    out = run(runtime, "show", START)
    assert out.returncode == 0 and "Light to move, segment 1" in out.stdout
    bad = run(runtime, "show", START.replace(" 18", " 30"))
    assert bad.returncode == 2 and bad.stderr.startswith("error: ") and "12 to 24" in bad.stderr
    none = run(runtime, "frobnicate")
    assert none.returncode == 2 and "unknown rules command" in none.stderr
    opt = run(runtime, "perft", "--field", "5", "1")
    assert opt.returncode == 2 and "6 or 7" in opt.stderr


def test_both_runtimes_agree_on_positions_from_stdin():
    from games.chain_reaction.util import play_game

    lines = ""
    for seed in range(8):
        pos = play_game(seed, 40 + 10 * seed, False)
        lines += pos.to_string() + "\n"
    lines += "nonsense\n"
    a = run("cpython", "legal", stdin=lines)
    b = run("micropython", "legal", stdin=lines)
    assert a.stdout == b.stdout and a.returncode == b.returncode == 1
    assert a.stdout.splitlines()[-1].startswith("error: a position has")
