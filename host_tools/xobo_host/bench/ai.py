"""Bench of the computer opponents: a ``pico``-level move under CPython and MicroPython.

For each game whose host module names an AI bench kernel (``AI_BENCH``, xobo.hostkit: XoBo's
``xobo.games.xobo.ai.bench``), each runtime times itself on the kernel's positions: the best
time of a move, also as a ratio to a baseline loop timed in the same run, the nodes searched
(the level's budget), the time per node, under MicroPython the heap one move allocates, and
the longest gap between two calls of the search's ``poll`` (what the board's scan loop waits
at most). The time on a Pico is not estimated here: docs/ai.md has the figures measured on
an emulated RP2040.

Usage::

    python -m xobo_host.bench.ai          # the report, both runtimes (make bench runs it)

    >>> from xobo_host.bench import ai
    >>> ai.ai_kernels()                    # the games it times: (game, title, kernel)
    [('xobo', 'XoBo (Vincent Everaert)', 'xobo.games.xobo.ai.bench')]
    >>> # for line in ai.main(): print(line)   (not run here: it takes minutes)
"""

import subprocess
import sys

HEAPSIZE = "256K"


def ai_kernels():
    """[(game, title, module)] of every game whose host module names an AI bench kernel, in
    the games' order."""
    from xobo import games, hostkit

    return [(name, games.load(name).TITLE, hostkit.of(name).AI_BENCH)
            for name in games.GAMES if hostkit.of(name).AI_BENCH]


def _run(module, runtime, level, gap=False):
    args = ["-m", module, level] + (["gap"] if gap else [])
    if runtime == "micropython":
        from xobo_host.upy import micropython_command

        cmd, env = micropython_command(args, heapsize="1M" if gap else HEAPSIZE)
    else:
        import os
        from pathlib import Path

        import xobo

        env = dict(os.environ)
        fw = str(Path(xobo.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join([fw, env.get("PYTHONPATH", "")])
        cmd = [sys.executable] + args
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1200)
    if proc.returncode != 0:
        raise RuntimeError("ai bench %s under %s failed:\n%s" % (module, runtime,
                                                              proc.stderr[-3000:]))
    rows = {}
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            _, name, us, heap, nodes = line.split()
            rows[name] = (int(us), int(heap), int(nodes))
        elif line.startswith("GAP "):
            _, name, us = line.split()
            rows[name] = int(us)
    return rows


def main(level="pico", run=None):
    """The bench report as lines of text: a table for each game with an AI bench kernel;
    ``run`` (a ``benchresults.Run``), when given, gets its figures."""
    lines = []
    for name, title, module in ai_kernels():
        if lines:
            lines.append("")
        lines += game_table(title, module, level, run, name)
    return lines


def game_table(title, module, level, run=None, name=None):
    """The bench of one game's computer (kernel ``module``) as lines of text (its figures
    into ``run``, named after the game ``name``, when given)."""
    cp = _run(module, "cpython", level)
    up = _run(module, "micropython", level)
    gaps = _run(module, "micropython", level, gap=True)
    base_c = cp["baseline"][0]
    base_u = up["baseline"][0]
    lines = [
        "Computer opponent: %s (%s level, one move; MicroPython: unix port, -X heapsize=%s)"
        % (title, level, HEAPSIZE),
        "%-12s %5s %10s %6s %11s %6s %8s %9s %8s"
        % ("position", "nodes", "CPython ms", "x base", "MicroPy ms", "x base", "us/node",
           "upy heap", "poll gap"),
    ]
    worst = (0, "")
    worst_heap = 0
    worst_gap = 0
    worst_node = 0
    for position in cp:
        if position == "baseline":
            continue
        c_us, _, nodes = cp[position]
        u_us, u_heap, _ = up[position]
        u_gap = gaps[position]
        per_node = u_us / max(nodes, 1)
        if u_us > worst[0]:
            worst = (u_us, position)
        worst_heap = max(worst_heap, u_heap)
        worst_gap = max(worst_gap, u_gap)
        worst_node = max(worst_node, per_node)
        lines.append(
            "%-12s %5d %10.1f %6.0f %11.1f %6.0f %8.0f %9s %8s"
            % (position, nodes, c_us / 1000, c_us / base_c, u_us / 1000, u_us / base_u,
               per_node, "%d B" % u_heap, "%d us" % u_gap)
        )
        if run is not None:
            key = "%s.%s." % (name, position.lower())
            at = "%s, one %s move at %s" % (title, level, position)
            run.figure(key + "nodes", nodes, "nodes", at + ": nodes searched")
            run.figure(key + "cpy", round(c_us / 1000, 1), "ms", at + ": CPython")
            run.figure(key + "upy", round(u_us / 1000, 1), "ms", at + ": MicroPython unix port")
            run.figure(key + "upy-heap", u_heap, "B", at + ": heap allocated (unix port)")
            run.figure(key + "poll-gap", u_gap, "us",
                       at + ": longest gap between two polls of the board (unix port)")
    lines.append(
        "baseline = 8,100 bytearray reads (%.2f ms CPython, %.2f ms MicroPython)"
        % (base_c / 1000, base_u / 1000)
    )
    if run is not None:
        key = "%s.%s." % (name, level)
        at = "%s, %s level, the bench's positions" % (title, level)
        run.figure(key + "slowest", round(worst[0] / 1000, 1), "ms",
                   at + ": the slowest move, MicroPython unix port (%s)" % worst[1])
        run.figure(key + "per-node", round(worst_node), "us",
                   at + ": the most time a node took (unix port)")
        run.figure(key + "heap", worst_heap, "B", at + ": the most heap a move allocated "
                   "(unix port)")
        run.figure(key + "poll-gap", worst_gap, "us",
                   at + ": the longest gap between two polls of the board (unix port)")
    lines.append(
        "unix port: slowest move %.1f ms (%s), <= %.0f us per node, heap per move <= %d B, "
        "poll gap <= %d us; Pico figures: make pico-check (docs/figures.md)"
        % (worst[0] / 1000, worst[1], worst_node, worst_heap, worst_gap)
    )
    return lines


if __name__ == "__main__":
    for line in main(*sys.argv[1:]):
        print(line)
