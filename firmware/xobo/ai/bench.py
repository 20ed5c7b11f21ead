"""AI benchmark kernel, for both runtimes: the time of a ``pico``-level move as a ratio to a
baseline loop timed in the same run, its node count and the heap one move allocates.

Prints ``BENCH name microseconds heap_bytes nodes`` lines (heap -1 on CPython). Run by
``xobo_host.bench_ai`` (``make bench``)::

    micropython -X heapsize=256K -m xobo.ai.bench
"""

import gc
import sys

from xobo.ai import STATS, choose_move
from xobo.rules.position import Position

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1e6)

    def ticks_diff(a, b):
        return a - b


# positions from a beginner-pico game (plies 0, 8, 16, 24, 32, 40)
POSITIONS = (
    "........./........./........./........./........./........./........./........./........."
    " ns 36 0 0",
    "..1....../..1....../........./........./1......../........./........./.....11.1/..11....."
    " ns 28 0 0",
    "..1....../..1....../..1....../........./1......../........./..1.1..1./..1..11.1/...4....."
    " ns 21 0 0",
    "..1....../..1....../..3....../........./.......1./......1../..1...1../..1.111.1/.1......."
    " ns 17 2 2",
    "..11...../..11...../........./........1/..1....1./..1...1../..1.1.1../1.1.11111/.1......."
    " ns 10 4 2",
    "..31...../..1....../........./...1....1/.......1./.11.1.1../..1...111/1.1....../.1......."
    " ns 7 8 2",
)


def _heap():
    try:
        return gc.mem_alloc()
    except AttributeError:
        return -1


def baseline_us():
    """The reference work (as in the rules bench): 8,100 reads of an 81-cell bytearray."""
    cells = bytearray(81)
    for i in range(81):
        cells[i] = i & 7
    best = None
    for _ in range(20):
        t0 = ticks_us()
        total = 0
        for _ in range(100):
            for i in range(81):
                total += cells[i]
        dt = ticks_diff(ticks_us(), t0)
        if best is None or dt < best:
            best = dt
    return best


def measure_move(text, level="pico", repeat=2):
    """(best microseconds, heap bytes allocated by one move, nodes searched)."""
    pos = Position.parse(text)
    choose_move(pos, level=level, seed=0)  # warm up
    gc.collect()
    gc.disable()
    h0 = _heap()
    choose_move(pos, level=level, seed=0)
    h1 = _heap()
    gc.enable()
    nodes = STATS[0]
    best = None
    for _ in range(repeat):
        gc.collect()
        t0 = ticks_us()
        choose_move(pos, level=level, seed=0)
        dt = ticks_diff(ticks_us(), t0)
        if best is None or dt < best:
            best = dt
    return best, (h1 - h0) if h0 >= 0 else -1, nodes


def main(argv):
    level = argv[0] if argv else "pico"
    print("BENCH baseline %d -1 0" % baseline_us())
    for i in range(len(POSITIONS)):
        us, heap, nodes = measure_move(POSITIONS[i], level)
        print("BENCH %s_ply%d %d %d %d" % (level, i * 8, us, heap, nodes))


if __name__ == "__main__":
    main(sys.argv[1:])
