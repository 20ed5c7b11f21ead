"""AI benchmark kernel, for both runtimes: the time of a ``pico``-level move, its node count,
the heap one move allocates, and the longest gap between two calls of the search's ``poll``.

Prints ``BENCH name microseconds heap_bytes nodes`` lines (heap -1 on CPython), or with
``gap`` ``GAP name microseconds`` lines. Run by ``xobo_host.bench.ai`` (``make bench``)::

    micropython -X heapsize=256K -m xobo.games.xobo.ai.bench pico
    micropython -X heapsize=1M -m xobo.games.xobo.ai.bench pico gap
"""

import array
import gc
import sys

from xobo.benchtiming import baseline, measure
from xobo.compat import ticks_diff, ticks_us
from xobo.games.xobo.ai import STATS, choose_move
from xobo.games.xobo.rules.position import Position

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

_MAX_POLLS = 2500  # a pico move polls about 2,000 times


class GapPoll:
    """A ``poll`` that records the time since its previous call (or since ``start``), in
    microseconds up to 65,535 (2 bytes each: the bench runs in a 256 KB heap)."""

    def __init__(self):
        self.gaps = array.array("H", bytes(2 * (_MAX_POLLS + 1)))
        self.n = 0
        self.t = 0

    def start(self):
        self.n = 0
        self.t = ticks_us()

    def __call__(self):
        t = ticks_us()
        if self.n < _MAX_POLLS:
            self.gaps[self.n] = min(ticks_diff(t, self.t), 65535)
            self.n += 1
        self.t = t
        return False

    def stop(self):
        # from the last poll to the move
        self.gaps[self.n] = min(ticks_diff(ticks_us(), self.t), 65535)
        self.n += 1


def poll_gap(pos, level, poll, best, repeat=3):
    """The longest time between two polls (or a poll and either end of the move), in us:
    each interval is the same work in every repeat (the search is deterministic), so its
    shortest time over the repeats drops the interruptions of a busy machine. ``poll`` (a
    GapPoll) and ``best`` (array('H') as long as its gaps) are made once by the caller."""
    n = 0
    for k in range(repeat):
        gc.collect()
        poll.start()
        choose_move(pos, level=level, seed=0, poll=poll)
        poll.stop()
        n = poll.n
        for i in range(n):
            if k == 0 or poll.gaps[i] < best[i]:
                best[i] = poll.gaps[i]
    return max(best[i] for i in range(n))


def measure_move(text, level="pico", repeat=2):
    """(best microseconds, heap bytes allocated by one move, nodes searched)."""
    pos = Position.parse(text)
    us, heap = measure(lambda: choose_move(pos, level=level, seed=0), repeat)
    return us, heap, STATS[0]


def main(argv):
    """``[level]``: BENCH lines (time, heap, nodes) for each position; ``[level] gap``: GAP
    lines (longest poll gap, us), run apart: its buffers would not fit beside the compiled
    engine in the 256 KB heap of the timing run."""
    level = argv[0] if argv else "pico"
    if "gap" in argv:
        poll = GapPoll()
        best = array.array("H", bytes(2 * (_MAX_POLLS + 1)))
        for i in range(len(POSITIONS)):
            gap = poll_gap(Position.parse(POSITIONS[i]), level, poll, best)
            print("GAP %s_ply%d %d" % (level, i * 8, gap))
        return
    us, _ = measure(baseline(), 20)
    print("BENCH baseline %d -1 0" % us)
    for i in range(len(POSITIONS)):
        us, heap, nodes = measure_move(POSITIONS[i], level, 3)
        print("BENCH %s_ply%d %d %d %d" % (level, i * 8, us, heap, nodes))


if __name__ == "__main__":
    main(sys.argv[1:])
