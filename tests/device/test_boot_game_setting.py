"""The built firmware (as `xobo flash` builds it) in a Pico-sized heap, booted from its own
main.py under the MicroPython unix port (tests/device/test_boot_heap.py says how): a saved
`game` setting naming a game this 9 x 9 board cannot play boots XoBo with a note saying why,
and `set game brochs` is refused with nothing changed (issue 18: both were a boot loop)."""

import subprocess

from device.devicekit import MAIN_WRAPPER, PICO_HEAP_HERE, measuring_env
from xobo.drivers.flash import Flash
from xobo.runtime.storage import Settings
from xobo_host.device import deploy
from xobo_host.upy import micropython_executable


def _boot(out, lines):
    env = measuring_env()
    return subprocess.run([micropython_executable(), "-X", "heapsize=" + PICO_HEAP_HERE,
                           "-m", "run_main"], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, cwd=str(out), env=env, timeout=300)


def test_a_saved_game_that_cannot_run_here_boots_xobo_and_set_game_brochs_changes_nothing(
        tmp_path):
    out = tmp_path / "flash"
    deploy.build(deploy.find_board("pico_gpio"), out, march="x64")
    (out / "run_main.py").write_text(MAIN_WRAPPER)
    for name in ("brochs", "chess"):
        Settings(Flash(str(out))).save({"game": name, "brightness": 50})
        proc = _boot(out, ["settings", "set game brochs", "set brightness 40", "position"])
        text = proc.stdout + proc.stderr
        assert proc.returncode == 0 and "Traceback" not in text, text
        # (the boot note goes out before the serial task runs: the dual-runtime tests read it)
        lines = proc.stdout.splitlines()
        assert "ok game xobo" in lines and "ok brightness 50" in lines, lines
        assert "error brochs needs a 15x15 board; this board is 9x9" in lines, lines
        assert "ok brightness 40" in lines and lines[-1].startswith("ok ........./"), lines
        # the settings on flash now name XoBo: the next boot has nothing to say of them
        proc = _boot(out, ["settings"])
        assert proc.returncode == 0 and "not playable" not in proc.stdout, proc.stdout
        assert "ok game xobo" in proc.stdout.splitlines()


_OUT_OF_MEMORY_ONCE = """
import fakehw
fakehw.install()
from xobo.runtime import device
resumed = device.build


def build(*args, **kwargs):  # the boot that resumes the saved game runs out of memory
    if kwargs.get("resume", True):
        raise MemoryError("memory allocation failed, allocating 1280 bytes")
    return resumed(*args, **kwargs)


device.build = build
device.run()
"""


def test_a_boot_that_runs_out_of_memory_boots_again_with_a_new_game_and_says_so(tmp_path):
    out = tmp_path / "flash"
    deploy.build(deploy.find_board("pico_gpio"), out, march="x64")
    (out / "run_main.py").write_text(_OUT_OF_MEMORY_ONCE)
    proc = _boot(out, ["position", "undo"])
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Traceback" not in text, text
    lines = proc.stdout.splitlines()
    assert any(x.startswith("xobo: saved game not resumed: out of memory at power-up (")
               and x.endswith("bytes free); new game") for x in lines), lines
    assert "ok ........./........./........./........./........./........./........./" \
        "........./......... ns 36 0 0" in lines, lines  # the start: a new game, playable
    assert "error nothing to undo: this is the start of the game" in lines, lines


_SOFT_RESET = """
import fakehw
machine, _ = fakehw.install()


def soft_reset():  # machine.soft_reset: here the process ends, and the test boots again
    print("-- soft reset --")
    raise SystemExit


machine.soft_reset = soft_reset
exec(open("main.py").read(), {})
"""


def test_a_game_switch_on_a_stock_firmware_restarts_the_board_into_the_game(tmp_path):
    # the board's code is the flash's .mpy files (it lives in the heap): a switch restarts
    # the board once the reply is out, and the boot plays the new game from a clean heap
    out = tmp_path / "flash"
    deploy.build(deploy.find_board("pico_gpio"), out, march="x64")
    (out / "run_main.py").write_text(_SOFT_RESET)
    proc = _boot(out, ["set game x", "position"])
    text = proc.stdout + proc.stderr
    assert "Traceback" not in text, text
    lines = proc.stdout.splitlines()
    assert lines[-2:] == ["ok game x (the board restarts to load it)", "-- soft reset --"], \
        lines  # (nothing read after the switch: it is for the board after its restart)
    assert Settings(Flash(str(out))).load()["game"] == "x"
    proc = _boot(out, ["settings", "position"])
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Traceback" not in text, text
    lines = proc.stdout.splitlines()
    assert "ok game x" in lines and lines[-1].startswith("ok "), lines
