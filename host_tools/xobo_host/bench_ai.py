"""Bench of the computer opponent: a ``pico``-level move under CPython and MicroPython.

Each runtime times itself (firmware ``xobo.ai.bench``) on six positions of one game: the best
time of a move, as a ratio to a baseline loop timed in the same run, the nodes searched (the
level's budget), and under MicroPython the heap one move allocates. The last lines estimate
the time on a Pico (RP2040, 125 MHz) as the unix-port time times 20-40 (docs/ai.md).

Usage::

    from xobo_host.bench_ai import main
    for line in main(): print(line)       # make bench
"""

import subprocess
import sys

PICO_FACTOR = 30  # unix port on a desktop x86 core -> RP2040 at 125 MHz (20-40, docs/ai.md)
PICO_FACTOR_HIGH = 40
HEAPSIZE = "256K"


def _run(runtime, level):
    if runtime == "micropython":
        from xobo_host.upy import micropython_command

        cmd, env = micropython_command(["-m", "xobo.ai.bench", level], heapsize=HEAPSIZE)
    else:
        import os
        from pathlib import Path

        import xobo

        env = dict(os.environ)
        fw = str(Path(xobo.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join([fw, env.get("PYTHONPATH", "")])
        cmd = [sys.executable, "-m", "xobo.ai.bench", level]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        raise RuntimeError("ai bench under %s failed:\n%s" % (runtime, proc.stderr[-3000:]))
    rows = {}
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            _, name, us, heap, nodes = line.split()
            rows[name] = (int(us), int(heap), int(nodes))
    return rows


def main(level="pico"):
    """The bench report as lines of text."""
    cp = _run("cpython", level)
    up = _run("micropython", level)
    base_c = cp["baseline"][0]
    base_u = up["baseline"][0]
    lines = [
        "Computer opponent (%s level, one move; heap under MicroPython -X heapsize=%s)"
        % (level, HEAPSIZE),
        "%-16s %6s %11s %8s %13s %8s %10s"
        % ("position", "nodes", "CPython ms", "x base", "MicroPy ms", "x base", "upy heap"),
    ]
    worst_u = 0
    worst_heap = 0
    for name in cp:
        if name == "baseline":
            continue
        c_us, _, nodes = cp[name]
        u_us, u_heap, _ = up[name]
        worst_u = max(worst_u, u_us)
        worst_heap = max(worst_heap, u_heap)
        lines.append(
            "%-16s %6d %11.1f %8.0f %13.1f %8.0f %10s"
            % (name, nodes, c_us / 1000, c_us / base_c, u_us / 1000, u_us / base_u,
               "%d B" % u_heap)
        )
    lines.append(
        "baseline = 8,100 bytearray reads; MicroPython/CPython baseline ratio %.1f"
        % (base_u / base_c)
    )
    lines.append(
        "Pico estimate (unix port x %d, x %d at worst): slowest move %.1f s (%.1f s), "
        "heap per move <= %d B"
        % (PICO_FACTOR, PICO_FACTOR_HIGH, worst_u * PICO_FACTOR / 1e6,
           worst_u * PICO_FACTOR_HIGH / 1e6, worst_heap)
    )
    return lines


if __name__ == "__main__":
    for line in main(*sys.argv[1:]):
        print(line)
