"""``make bench``: performance figures for CPython and MicroPython, as ratios to a baseline.

Each kernel runs under both interpreters in the same run; every figure is divided by the
baseline (a loop over an 81-cell bytearray) measured by the same interpreter in the same
process, so the ratios compare across machines. Heap is the bytes one call allocates under
MicroPython (0 is the target on the hot paths). The kernels are the games' own (their host
modules' ``RULES_BENCH``, ``AI_BENCH``: docs/games.md, "The host module"): a game that names
one gets its table.
"""

import importlib
import os
import subprocess
import sys
from pathlib import Path

from xobo_host.upy import FIRMWARE_DIR, micropython_command


def run_kernel(module, runtime):
    """{name: (microseconds, heap bytes)} of the ``BENCH`` lines of kernel ``module`` (run
    with ``-m``) under ``runtime``."""
    args = ["-m", module]
    if runtime == "cpython":
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(FIRMWARE_DIR), env.get("PYTHONPATH", "")])
        cmd = [sys.executable] + args
    else:
        cmd, env = micropython_command(args, heapsize="8M")
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError("%s under %s failed:\n%s" % (module, runtime, proc.stderr[-3000:]))
    rows = {}
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            _, name, us, heap = line.split()
            rows[name] = (float(us), int(heap))
    return rows


def table(title, module):
    lines = [title, "%-36s %12s %9s %12s %9s %10s" % (
        "kernel", "CPython ms", "x base", "MicroPy ms", "x base", "upy heap")]
    results = {rt: run_kernel(module, rt) for rt in ("cpython", "micropython")}
    base_c = results["cpython"]["baseline"][0]
    base_u = results["micropython"]["baseline"][0]
    for name in results["cpython"]:
        c_us = results["cpython"][name][0]
        u_us, u_heap = results["micropython"].get(name, (float("nan"), -1))
        lines.append("%-36s %12.3f %9.2f %12.3f %9.2f %10s" % (
            name, c_us / 1000, c_us / base_c, u_us / 1000, u_us / base_u,
            "%d B" % u_heap if u_heap >= 0 else "n/a"))
    lines.append("baseline = 8,100 bytearray reads in a loop; MicroPython/CPython baseline ratio "
                 "%.1f" % (base_u / base_c))
    return lines


def rules_kernels():
    """[(game, title, module)] of every game whose host module names a rules bench kernel
    (``RULES_BENCH``, xobo.hostkit), in the games' order."""
    from xobo import games, hostkit

    return [(name, games.load(name).TITLE, hostkit.of(name).RULES_BENCH)
            for name in games.GAMES if hostkit.of(name).RULES_BENCH]


def emulated_pico(report_path=None):
    """The last ``make pico-check`` report (figures measured on the emulated Pico), or a line
    saying how to get one."""
    from xobo_host.deploy import ROOT

    path = Path(report_path) if report_path else ROOT / "build" / "pico-check" / \
        "last-report.txt"
    if not path.exists():
        return ["Emulated Pico: no report yet (make pico-check UF2=RPI_PICO.uf2 "
                "BOOTROM=bootrom.bin writes build/pico-check/last-report.txt)"]
    text = path.read_text().splitlines()
    return ["Emulated Pico (rp2040js, stock MicroPython; %s):" % text[0].lstrip("# ")] + [
        "  " + line for line in text[1:] if line.strip()]


def main():
    for k, (_name, title, module) in enumerate(rules_kernels()):
        if k:
            print()
        for line in table("Rules engine: %s (%s)" % (title, module), module):
            print(line)
    for extra in ("xobo_host.bench_board", "xobo_host.bench_ai", "xobo_host.bench_ladder"):
        try:
            module = importlib.import_module(extra)
        except ModuleNotFoundError as exc:
            if exc.name == extra:
                continue
            raise
        print()
        for line in module.main():
            print(line)
    print()
    for line in emulated_pico():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
