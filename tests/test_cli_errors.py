"""Every error of the ``xobo`` command reads ``error: ...`` (argparse's too), and numbers on the
command line are ASCII digits, as in the engine and the firmware."""

import subprocess
import sys

import pytest


def xobo(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "xobo_host.cli", *args], capture_output=True,
                          text=True, input=stdin, timeout=120)


def _error_line(proc):
    lines = proc.stderr.strip().splitlines()
    assert lines, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return lines[-1]


@pytest.mark.parametrize("args, words", [
    (["rules", "perftx"], "unknown rules command 'perftx'"),
    (["rules", "hint", "--seed", "\uff13", "x"], "'\uff13' is not a whole number"),
    (["records", "show", "\u0663"], "is not a whole number (digits 0-9)"),
    (["match", "--a", "pico", "--b", "random", "--games", "1_0"], "'1_0' is not a whole"),
    (["sim", "--port", "+80"], "'+80' is not a whole number"),
    (["board", "bench", "--cycles", "-5"], "argument --cycles"),
])
def test_usage_errors_read_error_colon_and_exit_2(args, words):
    proc = xobo(*args)
    assert proc.returncode == 2
    line = _error_line(proc)
    assert line.startswith("error: ") and words in line, line


def test_commands_say_error_colon(tmp_path):
    proc = xobo("records", "--db", str(tmp_path / "none.sqlite"), "list")
    assert proc.returncode == 1
    assert _error_line(proc).startswith("error: no games database at ")
    proc = xobo("sim", "--no-browser", "--port", "99999", "--flash", str(tmp_path / "f"))
    assert proc.returncode == 1
    assert _error_line(proc).startswith("error: cannot serve on 127.0.0.1:99999")
    proc = xobo("selftest", "--virtual", "--dead-row", "12")
    assert proc.stdout.strip().splitlines()[-1] == "error: matrix row 12 is not 0..8"
