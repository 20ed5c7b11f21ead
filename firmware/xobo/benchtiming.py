"""Timing and heap measurement shared by the benchmark kernels (CPython and MicroPython).

Every figure ``make bench`` prints is divided by :func:`baseline` timed by the same
interpreter in the same run. Usage::

    >>> from xobo.benchtiming import baseline, measure, report
    >>> us, heap = measure(baseline, 5)      # best time of 5 calls, heap of one call
    >>> report("baseline", baseline, 5)      # doctest: +ELLIPSIS
    BENCH baseline ... -1
"""

import gc

from xobo.compat import ticks_diff, ticks_us


def heap_used():
    """Bytes allocated on the heap so far (MicroPython), or -1 where it cannot be told."""
    try:
        return gc.mem_alloc()
    except AttributeError:
        return -1


def measure(fn, repeat):
    """(best microseconds per call over ``repeat`` calls, heap bytes allocated by one call)."""
    fn()  # warm up
    gc.collect()
    gc.disable()
    h0 = heap_used()
    fn()
    h1 = heap_used()
    gc.enable()
    best = None
    for _ in range(repeat):
        gc.collect()  # no collection inside the timed call
        t0 = ticks_us()
        fn()
        dt = ticks_diff(ticks_us(), t0)
        if best is None or dt < best:
            best = dt
    heap = h1 - h0 if h0 >= 0 else -1
    return best, heap


def baseline():
    """The reference work every figure is divided by: a loop over an 81-cell bytearray."""
    cells = bytearray(81)
    for i in range(81):
        cells[i] = i & 7

    def run():
        total = 0
        for _ in range(100):
            for i in range(81):
                total += cells[i]
        return total

    return run


def report(name, fn, repeat):
    us, heap = measure(fn, repeat)
    print("BENCH %s %.1f %d" % (name, us, heap))
