"""``make bench``: performance figures for CPython and MicroPython, as ratios to a baseline.

Each kernel runs under both interpreters in the same run; every figure is divided by the
baseline (a loop over an 81-cell bytearray) measured by the same interpreter in the same
process, so the ratios compare across machines. Heap is the bytes one call allocates under
MicroPython (0 is the target on the hot paths). The kernels are the games' own (their host
modules' ``RULES_BENCH``, ``AI_BENCH``: docs/games.md, "The host module"): a game that names
one gets its table.

Each part writes its results file (``xobo_host.bench.results``: ``bench-results/rules/``,
``board-cycle/``, ``ai/``, ``ladder/``), which docs/figures.md shows (``make figures``).
"""

import importlib
import os
import subprocess
import sys

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


def table(title, module, run=None, name=None, label=None):
    """The rules kernels of ``module`` as lines of text (their figures into ``run``, named
    after the game ``name`` and described as ``label``'s, when given)."""
    lines = [title, "%-36s %12s %9s %12s %9s %10s" % (
        "kernel", "CPython ms", "x base", "MicroPy ms", "x base", "upy heap")]
    results = {rt: run_kernel(module, rt) for rt in ("cpython", "micropython")}
    base_c = results["cpython"]["baseline"][0]
    base_u = results["micropython"]["baseline"][0]
    for kernel in results["cpython"]:
        c_us = results["cpython"][kernel][0]
        u_us, u_heap = results["micropython"].get(kernel, (float("nan"), -1))
        lines.append("%-36s %12.3f %9.2f %12.3f %9.2f %10s" % (
            kernel, c_us / 1000, c_us / base_c, u_us / 1000, u_us / base_u,
            "%d B" % u_heap if u_heap >= 0 else "n/a"))
        if run is not None and kernel != "baseline":
            key = "%s.%s." % (name, kernel.lower())
            run.figure(key + "cpy", round(c_us / 1000, 3), "ms", "%s's rules: %s, CPython" % (
                label, kernel))
            run.figure(key + "upy", round(u_us / 1000, 3), "ms", "%s's rules: %s, MicroPython "
                       "unix port" % (label, kernel))
            if u_heap >= 0:
                run.figure(key + "upy-heap", u_heap, "B", "%s's rules: %s, heap one call "
                           "allocates (unix port)" % (label, kernel))
    lines.append("baseline = 8,100 bytearray reads in a loop; MicroPython/CPython baseline ratio "
                 "%.1f" % (base_u / base_c))
    return lines


def rules_kernels():
    """[(game, title, module)] of every game whose host module names a rules bench kernel
    (``RULES_BENCH``, xobo.hostkit), in the games' order."""
    from xobo import games, hostkit

    return [(name, games.load(name).TITLE, hostkit.of(name).RULES_BENCH)
            for name in games.GAMES if hostkit.of(name).RULES_BENCH]


def emulated_pico(folder=None):
    """The latest device check's results on the emulated Pico (``make pico-check``, its
    results files: picocheck.results), one line a board and firmware, or a line saying how
    to get them."""
    from xobo_host.bench import results as benchresults

    lines = []
    for bench, data in sorted(benchresults.all_latest(folder).items()):
        if not bench.startswith("pico-check-"):
            continue
        figs = data["figures"]
        lines.append("  %s (%s): %s passed, %s failed%s" % (
            bench, data["date"], figs["passed"]["value"], figs["failed"]["value"],
            "; %s" % data["source"] if data.get("source") else ""))
    if not lines:
        return ["Emulated Pico: no results yet (make pico-check UF2=RPI_PICO.uf2 "
                "BOOTROM=bootrom.bin writes bench-results/pico-check-*/)"]
    return ["Emulated Pico (rp2040js, emulated time; docs/figures.md has the figures):"] + lines


# the benches of make bench after the rules': (results name, title, module); each module's
# main(run=...) returns its lines and puts its figures into the run
BENCHES = (
    ("board-cycle", "The board's cycle (scan, debounce, infer, render) on virtual drivers",
     "xobo_host.bench.board"),
    ("ai", "The computer opponents: one move at the level the board plays", "xobo_host.bench.ai"),
    ("ladder", "Strength ladder: every level of every game against plain UCT; time a move on "
     "the MicroPython unix port", "xobo_host.bench.ladder"),
)


def main():
    from xobo_host.bench import results as benchresults

    run = benchresults.Run("rules", "The rules engines' kernels, CPython and MicroPython",
                           command="make bench")
    for k, (name, title, module) in enumerate(rules_kernels()):
        if k:
            print()
        for line in table("Rules engine: %s (%s)" % (title, module), module, run, name,
                          title.split(" (")[0]):
            print(line)
    print("results: %s" % run.write())
    for bench, title, extra in BENCHES:
        try:
            module = importlib.import_module(extra)
        except ModuleNotFoundError as exc:
            if exc.name == extra:
                continue
            raise
        print()
        run = benchresults.Run(bench, title, command="make bench")
        for line in module.main(run=run):
            print(line, flush=True)
        print("results: %s" % run.write())
    print()
    for line in emulated_pico():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
