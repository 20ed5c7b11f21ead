"""Helpers of the PCB tests: KiCad's pcbnew, which Debian's own Python has (make kicad)."""

import subprocess
from pathlib import Path

DEBIAN_PYTHON = "/usr/bin/python3"


def has_pcbnew():
    if not Path(DEBIAN_PYTHON).exists():
        return False
    probe = subprocess.run([DEBIAN_PYTHON, "-c", "import pcbnew"], capture_output=True)
    return probe.returncode == 0
