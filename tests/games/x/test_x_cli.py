"""The X rules CLI (legal, play, show, result) under CPython and the MicroPython unix port: the
same output on both, errors as ``error: ...`` with status 2."""

import subprocess
import sys

import pytest
from conftest import FIRMWARE, run_micropython

VECTOR = "grggr/ggygg/yrryy/rrryy/gyryr"


def run(runtime, *args, stdin=None):
    if runtime == "micropython":
        return run_micropython(["-m", "xobo.games.x.cli", *args], input_text=stdin)
    return subprocess.run([sys.executable, "-m", "xobo.games.x.cli", *args], cwd=FIRMWARE,
                          capture_output=True, text=True, input=stdin, timeout=120)


RUNTIMES = pytest.mark.parametrize("runtime", ["cpython", "micropython"])


@RUNTIMES
def test_XS2_XE2_result_line_of_the_spec_vectors(runtime):
    out = run(runtime, "result", VECTOR)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "SW=r SE=y NW=g NE=g score 1-1-2 winner g\n"
    out = run(runtime, "result", "gyrr/ryrg/gryy/rgyg")
    assert out.stdout == "SW=g SE=y NW=g NE=y score 0-2-2 winner r\n"


@RUNTIMES
def test_XS3_result_while_the_game_goes_on(runtime):
    out = run(runtime, "result", "..../..../..../r... y")
    assert out.stdout == "SW=r SE=- NW=- NE=- score 1-0-0 winner -\n"


@RUNTIMES
def test_XM1_legal_lists_the_empty_cells_one_line_per_stdin_position(runtime):
    out = run(runtime, "legal", stdin="..../..../..../r... y\n..../..x./..../....\n\n")
    lines = out.stdout.splitlines()
    assert out.returncode == 1 and len(lines) == 3
    assert lines[0].split() == sorted(lines[0].split()) and len(lines[0].split()) == 15
    assert lines[1].startswith("error: ") and "'x' is not a cell" in lines[1]
    assert lines[2] == "error: empty line, expected a position"


@RUNTIMES
def test_XM2_play_prints_each_position_and_the_result(runtime):
    out = run(runtime, "play", "--size", "4", "--first", "yellow", "a1", "b1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["a1\t..../..../..../y... g\t*",
                                       "b1\t..../..../..../yg.. r\t*"]


@RUNTIMES
def test_show_draws_the_rhombus_corners_and_chains(runtime):
    out = run(runtime, "show", VECTOR)
    assert out.returncode == 0, out.stderr
    assert "corners: SW red (settled), SE yellow (settled)" in out.stdout
    assert "game over: green wins, score 1-1-2" in out.stdout
    assert "SW chain: c1 b2 a2" in out.stdout


@RUNTIMES
@pytest.mark.parametrize("args, words", [
    ([], "no rules command"),
    (["dance"], "unknown rules command"),
    (["perft"], "perft needs a depth, a whole number 0-5"),
    (["result", "..../..../..../rr.. y"], "impossible piece counts"),
    (["result", "..../..../..../rr.."], "impossible piece counts"),
    (["play", "--size", "12", "a1"], "--size must be a whole number 4-9"),
    (["play", "--first", "blue", "a1"], "--first must be red, yellow or green"),
    (["play", "--size", "4", "a1", "a1"], "move 2: a1 is taken by red"),
    (["play", "--size", "4", "e5"], "off the 4 x 4 board"),
    (["play", "--position", "rryg/ggrr/ygyr/gyyr", "a1"], "the game is over"),
    (["legal", "--bogus"], "unknown option"),
])
def test_errors_are_one_line_with_status_2(runtime, args, words):
    out = run(runtime, *args)
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and words in out.stderr.lower(), out.stderr
    assert "Traceback" not in out.stderr
