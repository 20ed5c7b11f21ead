"""Shared pytest set-up: import paths and the MicroPython unix port."""

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


def soak_moves(full, short):
    """A soak's length: ``full`` under ``make soak`` (XOBO_SOAK=full), ``short`` in
    ``make test`` (which keeps each test under a minute; the heap checks catch a leak in the
    shorter run too: a XoBo soak once lost 200 B a move)."""
    import os

    return full if os.environ.get("XOBO_SOAK") == "full" else short


def run_micropython(args, heapsize="2M", extra_path=(), timeout=600, input_text=None, cwd=None):
    """Run the unix port with firmware/ and tests/ on MICROPYPATH; returns CompletedProcess.

    The interpreter and MICROPYPATH come from xobo_host.upy, as for the CLI and the bench."""
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(args, heapsize=heapsize,
                                   extra_path=[TESTS] + list(extra_path))
    return subprocess.run(
        cmd, env=env, capture_output=True, text=True, timeout=timeout, input=input_text, cwd=cwd
    )


@pytest.fixture
def upy():
    return run_micropython
