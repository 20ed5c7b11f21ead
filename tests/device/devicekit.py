"""Helpers of the device tests: the firmware built or compiled as on the device, run by the
MicroPython unix port in a Pico-sized heap (tests/device/test_boot_heap.py says why 320 KB
here is the Pico's heap)."""

import os
import subprocess

from conftest import ROOT, TESTS

from xobo_host.device.deploy import mpy_cross_executable

PICO_HEAP_HERE = "320K"  # the Pico's heap on this 64-bit port (tests/device/test_boot_heap.py)

# Runs firmware/main.py as the Pico does, after installing fake `machine`/`neopixel` modules.
MAIN_WRAPPER = """
import gc
import fakehw
fakehw.install()
gc.collect()
print("base alloc=%d" % gc.mem_alloc())
import xobo.compat
xobo.compat.NATIVE_CODE_UNLOADS = True  # as on the Pico's port: the computer's code unloads
exec(open("main.py").read())
"""


def measuring_env():
    """The unix port's environment for a measure of its heap: the firmware's own files by a
    relative path, as the device names them ("xobo/..."), which ``-m run_main`` keeps (run as
    a script, the unix port puts the script's absolute directory first on ``sys.path``, and
    every module's path in the heap then holds pytest's temporary directory, longer as runs
    and workers add to its name: the same build measured 196.3 KB allocated after boot in one
    directory and 198.1 KB in a worker's, and failed the budget in a run of make test)."""
    env = dict(os.environ)
    env["MICROPYPATH"] = ".:%s:.frozen" % (TESTS / "drivers")
    return env


def compile_firmware(out, script):
    """Every firmware file and the soak's ``script`` (a file of tests/device), compiled with
    mpy-cross into ``out`` as on the device: compiling source would need more RAM than the
    board ever does."""
    tool = mpy_cross_executable()
    sources = [(p, p.relative_to(ROOT / "firmware")) for p in (ROOT / "firmware" / "xobo").rglob(
        "*.py")] + [(TESTS / "device" / script, script)]
    for src, rel in sources:
        dst = out / str(rel).replace(".py", ".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([tool, "-O3", "-march=x64", "-o", str(dst), str(src)], check=True)
