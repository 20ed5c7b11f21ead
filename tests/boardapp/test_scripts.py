"""Scripted sessions (xobo board run) give the same output under CPython and MicroPython, and
the expected one (tests/boardapp/scripts/*.out, reviewed by hand); bad lines name their number;
--flash keeps the game between runs."""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_micropython

SCRIPTS = Path(__file__).resolve().parent / "scripts"
NAMES = sorted(p.stem for p in SCRIPTS.glob("*.txt"))


def _cpython(args):
    return subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "board", "run"] + args,
                          capture_output=True, text=True, timeout=300, cwd=str(ROOT))


@pytest.mark.parametrize("name", NAMES)
def test_script_output_is_the_expected_one_under_cpython(name):
    proc = _cpython(["--script", str(SCRIPTS / (name + ".txt"))])
    expected = (SCRIPTS / (name + ".out")).read_text()
    assert proc.stdout == expected, proc.stdout + proc.stderr


@pytest.mark.parametrize("name", NAMES)
def test_script_output_is_the_same_under_micropython(name):
    proc = run_micropython(["-m", "xobo.runtime.script", str(SCRIPTS / (name + ".txt"))],
                           heapsize="4M")
    expected = (SCRIPTS / (name + ".out")).read_text()
    assert proc.stdout == expected, proc.stdout + proc.stderr


def test_script_key_events_spread_with_captures():
    out = (SCRIPTS / "spread_captures.out").read_text().splitlines()
    assert "move e5xe4" in out
    assert out[-1].endswith(" ew 29 4 0")  # M4: two pairs in NS's own reserve


def test_bad_script_line_names_its_number_and_exits_2():
    proc = _cpython(["--script", str(SCRIPTS / "bad_line.txt")])
    assert proc.returncode == 2
    assert "line 3: unknown command 'pot'" in proc.stdout


def test_bad_script_line_under_micropython_too():
    proc = run_micropython(["-m", "xobo.runtime.script", str(SCRIPTS / "bad_line.txt")])
    assert proc.returncode == 2
    assert "line 3: unknown command 'pot'" in proc.stdout


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_flash_dir_keeps_the_game_between_runs(tmp_path, runtime):
    first = tmp_path / "a.txt"
    first.write_text("put e5\nwait 1200\nput d4\nwait 1200\n")
    second = tmp_path / "b.txt"
    second.write_text("position\nstate\n")
    flash = tmp_path / "flash"
    for script in (first, second):
        proc = _cpython(["--script", str(script), "--flash", str(flash), "--runtime", runtime])
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "position ........./........./........./........./....1..../...1...../" in \
        proc.stdout
    # the virtual cubes are not kept between runs: the resumed game asks for them back; it is
    # the same game (its id, the first a script draws, is kept with it)
    assert "ok state restore side ns result * ply 2 gameid 000000000001 restore fill d4 e5" \
        in proc.stdout


def test_script_result_line_stays_result_ns_or_ew_and_state_says_how():
    from xobo.runtime.script import run_script

    col = "/".join(["....1...."] * 4 + ["........."] + ["....1...."] * 4)
    lines = ["serial load %s ns 28 0 0" % col]
    lines += ["put e%d" % k for k in (1, 2, 3, 4, 6, 7, 8, 9)]
    lines += ["wait 200", "put e5", "wait 1500", "state"]
    out = run_script("\n".join(lines))
    # (the loaded position is a new game: the second id the script draws)
    assert out[-2:] == ["result ns",
                        "ok state over side ew result ns connected ply 1 gameid 000000000002"]


def _both(tmp_path, data, runtime):
    script = tmp_path / "s.txt"
    script.write_bytes(data)
    return _cpython(["--script", str(script), "--runtime", runtime])


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_put_more_cubes_than_the_game_has_is_the_same_error_on_both_runtimes(tmp_path, runtime):
    # the counts are a bytearray: 300 raised on CPython and wrapped to 44 on MicroPython
    proc = _both(tmp_path, b"put e5 300\n", runtime)
    assert proc.returncode == 2
    assert proc.stdout == "error: line 1: N must be a whole number 0-36, not '300'\n"
    proc = _both(tmp_path, b"put e5 30\nput e5 7\n", runtime)
    assert proc.stdout == "error: line 2: a cell holds at most 36 cubes (the whole game), " \
        "30 + 7 is more\n"


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("line", ["wait 99999999999", "wait \u0662", "put e5 \uff13",
                                  "hold ok 1_000"])
def test_script_numbers_are_ascii_digits_within_bounds(tmp_path, runtime, line):
    proc = _both(tmp_path, (line + "\n").encode(), runtime)
    assert proc.returncode == 2 and proc.stdout.startswith("error: line 1: ")
    assert "must be a whole number 0-" in proc.stdout and "Traceback" not in proc.stderr


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_script_file_that_is_not_utf8_is_an_error_not_a_traceback(tmp_path, runtime):
    proc = _both(tmp_path, b"put e5\n\xff\xfe\n", runtime)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stdout == "error: %s is not UTF-8 text\n" % (tmp_path / "s.txt")


def test_a_script_on_stdin_that_is_not_utf8_is_an_error_not_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "xobo_host.cli.main", "board", "run", "--script",
                           "-"], input=b"put e5\n\xff\n", capture_output=True, timeout=300,
                          cwd=str(ROOT))
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert proc.stdout.startswith(b"error: ") and b"is not UTF-8 text" in proc.stdout
