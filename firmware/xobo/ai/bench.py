"""AI benchmark kernel, for both runtimes: the time of a ``pico``-level move as a ratio to a
baseline loop timed in the same run, its node count and the heap one move allocates.

Prints ``BENCH name microseconds heap_bytes nodes`` lines (heap -1 on CPython). Run by
``xobo_host.bench_ai`` (``make bench``)::

    micropython -X heapsize=256K -m xobo.ai.bench
"""

import sys

from xobo.ai import STATS, choose_move
from xobo.benchtiming import baseline, measure
from xobo.rules.position import Position

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


def measure_move(text, level="pico", repeat=2):
    """(best microseconds, heap bytes allocated by one move, nodes searched)."""
    pos = Position.parse(text)
    us, heap = measure(lambda: choose_move(pos, level=level, seed=0), repeat)
    return us, heap, STATS[0]


def main(argv):
    level = argv[0] if argv else "pico"
    us, _ = measure(baseline(), 20)
    print("BENCH baseline %d -1 0" % us)
    for i in range(len(POSITIONS)):
        us, heap, nodes = measure_move(POSITIONS[i], level)
        print("BENCH %s_ply%d %d %d %d" % (level, i * 8, us, heap, nodes))


if __name__ == "__main__":
    main(sys.argv[1:])
