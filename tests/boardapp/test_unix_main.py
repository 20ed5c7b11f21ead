"""unix_main: the firmware in real time with the serial protocol on stdin/stdout, under the
MicroPython unix port and CPython; several lines arriving at once are all answered."""

import subprocess
import sys

import pytest
from conftest import FIRMWARE, ROOT, run_micropython

INPUT = (b"version\nposition\nfollow on\n!put e5\n!wait 1200\nposition\nfoo\n"
         b"\x01\x02junk\nrecord\n")


def _check(out):
    lines = out.splitlines()
    for line in lines:
        assert line.startswith("ok") or line.startswith("error ") or \
            line.startswith("event "), line
    assert lines[0].startswith("ok xobo-board ")
    assert "event move e5" in lines
    assert "ok ........./........./........./........./....1..../........./........./" \
        "........./......... ew 35 0 0" in lines
    assert "error unknown command 'foo' (try help)" in lines
    assert any("not printable" in x for x in lines)
    assert lines[-1] == "ok end"


def test_unix_main_under_cpython():
    env = {"PYTHONPATH": str(FIRMWARE)}
    proc = subprocess.run([sys.executable, "-m", "xobo.runtime.unix_main"], input=INPUT,
                          capture_output=True, timeout=60, cwd=str(ROOT), env=env)
    assert proc.returncode == 0, proc.stderr
    _check(proc.stdout.decode())


@pytest.mark.parametrize("runtime", ["micropython"])
def test_unix_main_under_micropython(runtime):
    proc = run_micropython(["-m", "xobo.runtime.unix_main"], input_text=INPUT.decode("latin-1"),
                           timeout=60)
    assert proc.returncode == 0, proc.stderr
    _check(proc.stdout)


_MAIN = ("import sys\n"
         "sys.path.insert(0, %r)\n"
         "from xobo.runtime.app import App\n"
         "from xobo.runtime.protocol import Protocol\n"
         "from xobo.runtime.tasks import serve\n"
         "from xobo.drivers.virtual import make_virtual_drivers\n"
         "d = make_virtual_drivers(realtime=True)\n"
         "app = App(d)\n"
         "serve(app, Protocol(app))\n"
         "print('feeds', d.watchdog.feeds > 0, 'ply', app.pos.ply)\n" % str(FIRMWARE))
_MAIN_INPUT = "version\nset settle 700\nposition\n" + "x" * 400 + "\nsettings\n"


@pytest.mark.parametrize("runtime", ["micropython", "cpython"])
def test_device_main_loop_runs_its_asyncio_tasks(runtime):
    # the tasks as on the Pico (scan, light, watchdog and serial tasks), on virtual drivers;
    # it returns at the end of input
    if runtime == "micropython":
        proc = run_micropython(["-c", _MAIN], input_text=_MAIN_INPUT, timeout=60)
    else:
        proc = subprocess.run([sys.executable, "-c", _MAIN], input=_MAIN_INPUT, text=True,
                              capture_output=True, timeout=60)
    out = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out[0].startswith("ok xobo-board")
    assert "ok settle 700" in out
    assert any(x.startswith("error line too long") for x in out)
    assert "ok end" in out
    assert out[-1] == "feeds True ply 0"


POWER_CUT_INPUT = b"follow on\n!put e5\n!wait 1200\n!power-cut\nposition\nversion\n"


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_the_serial_stand_in_still_answers_after_a_power_cut(runtime):
    # each boot makes a new Protocol: its writer was set once, so every reply after
    # '!power-cut' went nowhere
    if runtime == "micropython":
        proc = run_micropython(["-m", "xobo.runtime.unix_main"],
                               input_text=POWER_CUT_INPUT.decode(), timeout=60)
        out = proc.stdout
    else:
        proc = subprocess.run([sys.executable, "-m", "xobo.runtime.unix_main"],
                              input=POWER_CUT_INPUT, capture_output=True, timeout=60,
                              cwd=str(ROOT), env={"PYTHONPATH": str(FIRMWARE)})
        out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    lines = out.splitlines()
    boot = [i for i, x in enumerate(lines) if x.startswith("ok boot")]
    assert boot, lines
    after = lines[boot[0] + 1:]
    assert "ok ........./........./........./........./....1..../........./........./" \
        "........./......... ew 35 0 0" in after
    assert after[-1].startswith("ok xobo-board ")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_script_line_that_is_not_utf8_says_so_on_both_runtimes(runtime):
    data = b"!put e5 \xff\nposition\n"
    if runtime == "micropython":
        from xobo_host.upy import micropython_command

        cmd, env = micropython_command(["-m", "xobo.runtime.unix_main"])
        proc = subprocess.run(cmd, env=env, input=data, capture_output=True, timeout=60)
        out = proc.stdout.decode()
    else:
        proc = subprocess.run([sys.executable, "-m", "xobo.runtime.unix_main"], input=data,
                              capture_output=True, timeout=60, cwd=str(ROOT),
                              env={"PYTHONPATH": str(FIRMWARE)})
        out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    lines = out.splitlines()
    assert lines[0] == "error line 1 is not UTF-8 text: ignored"  # was a bare 'error '
    assert lines[1].startswith("ok ........./")
