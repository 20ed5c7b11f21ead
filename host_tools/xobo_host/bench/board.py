"""Bench of the board's scan-debounce-infer-render cycle under MicroPython and CPython.

Each runtime measures itself (firmware ``xobo.runtime.bench``, in the game the board starts
with, in the positions of its host module's ``BOARD_BENCH``): the mean time of one cycle, idle
with a stack lifted and a spread in progress, and with pulsing cells (the LEDs rewritten
every cycle), as a ratio against a baseline measured in
the same run (a plain loop over the 81 cells), and under MicroPython the heap one cycle
allocates (target: 0 bytes).

Usage::

    python -m xobo_host.bench.board       # the report (make bench runs it)
    xobo board bench                      # the same

    >>> from xobo_host.bench import board
    >>> for line in board.main(cycles=5): print(line)     # a short run (make bench: 200)
    board cycle (scan+debounce+infer+render, virtual drivers), 5 cycles
    micropython baseline ... us | idle ... us (x...) | stack lifted ... | pulsing cells ...
    cpython     baseline ... us | idle ... us (x...) | stack lifted ... | pulsing cells ...
    micropython heap per 5 cycles: idle 0 bytes, stack lifted 0 bytes, pulsing 0 bytes (target 0)
    ...
"""

import subprocess


def _parse(lines):
    out = {}
    for line in lines:
        parts = line.split(None, 1)
        if len(parts) == 2:
            out[parts[0]] = parts[1]
    return out


def run_micropython(cycles):
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(["-m", "xobo.runtime.bench", str(cycles)])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("micropython bench failed:\n" + proc.stdout + proc.stderr)
    return proc.stdout.splitlines()


def main(cycles=200, run=None):
    """The bench report as lines of text; ``run`` (a ``benchresults.Run``), when given, gets
    its figures."""
    from xobo.runtime.bench import measure

    report = []
    upy = _parse(run_micropython(cycles))
    cpy = _parse(measure(cycles))
    report.append("board cycle (scan+debounce+infer+render, virtual drivers), %d cycles" % cycles)
    for name, r in (("micropython", upy), ("cpython", cpy)):
        report.append(
            "%-11s baseline %s us | idle %s us (x%s) | stack lifted %s us (x%s) | "
            "pulsing cells (LEDs rewritten ~30 times a second) %s us (x%s)"
            % (name, r.get("baseline_us"), r.get("cycle_idle_us"), r.get("ratio_idle"),
               r.get("cycle_lifted_us"), r.get("ratio_lifted"), r.get("cycle_pulsing_us"),
               r.get("ratio_pulsing")))
    report.append("micropython heap per %d cycles: idle %s bytes, stack lifted %s bytes, "
                  "pulsing %s bytes (target 0)"
                  % (cycles, upy.get("heap_idle_bytes"), upy.get("heap_lifted_bytes"),
                     upy.get("heap_pulsing_bytes")))
    if run is not None:
        record(run, cycles, upy, cpy)
    try:
        ratio = float(upy["cycle_idle_us"]) / float(cpy["cycle_idle_us"])
        report.append("micropython/cpython idle cycle time: x%.1f" % ratio)
    except (KeyError, ValueError, ZeroDivisionError):
        pass
    pico = emulated_idle_cycle_us()
    if pico is not None and upy.get("cycle_idle_us"):
        report.append("emulated Pico idle cycle (scan + light means, latest make pico-check): "
                      "%d us = x%.0f the unix port's %s us (the factor to use for this kernel)"
                      % (pico, pico / float(upy["cycle_idle_us"]), upy["cycle_idle_us"]))
    return report


CASES = (("idle", "idle"), ("lifted", "a stack lifted in a spread"),
         ("pulsing", "pulsing cells, the LEDs rewritten"))


def record(run, cycles, upy, cpy):
    """The figures of ``main`` into ``run`` (benchresults.Run)."""
    for key, runtime, who in (("upy", upy, "MicroPython unix port"), ("cpy", cpy, "CPython")):
        run.figure(key + ".baseline", int(runtime["baseline_us"]), "us",
                   "the baseline loop (81 cells read), %s" % who)
        for case, words in CASES:
            if "cycle_%s_us" % case not in runtime:
                continue  # (the game's host module names no such position)
            run.figure("%s.%s" % (key, case), int(runtime["cycle_%s_us" % case]), "us",
                       "one board cycle, %s, %s (mean of %d)" % (words, who, cycles))
            run.figure("%s.%s-ratio" % (key, case), float(runtime["ratio_%s" % case]), "x",
                       "one board cycle, %s, over the baseline, %s" % (words, who))
    for case, words in CASES:
        if "heap_%s_bytes" % case not in upy:
            continue
        run.figure("upy.%s-heap" % case, int(upy["heap_%s_bytes" % case]), "B",
                   "heap %d cycles allocate, %s, MicroPython unix port" % (cycles, words))
    run.figure("upy-over-cpy", round(float(upy["cycle_idle_us"]) / float(cpy["cycle_idle_us"]),
                                     1), "x", "the idle cycle's time, MicroPython over CPython")


def emulated_idle_cycle_us(folder=None, bench="pico-check-pico_gpio-image"):
    """scan mean + light mean (us) of the latest device check of the 9x9 board with the
    image (its results file: picocheck.results), or None."""
    from xobo_host.bench import results as benchresults

    data = benchresults.latest(bench, folder)
    figure = (data or {}).get("figures", {}).get("cycle.total")
    return figure["value"] if figure else None


if __name__ == "__main__":
    for line in main():
        print(line)
