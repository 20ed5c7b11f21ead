"""Time: wrapping millisecond ticks and sleeping (``xobo.compat`` on CPython and MicroPython).

Usage::

    >>> from xobo.drivers.clock import Clock
    >>> clk = Clock()
    >>> t0 = clk.ticks_ms()
    >>> clk.sleep_ms(5)
    >>> clk.ticks_diff(clk.ticks_ms(), t0) >= 5   # correct across the 2**30 wrap
    True
"""

import time

from xobo.compat import ticks_add, ticks_diff, ticks_ms


class Clock:
    def ticks_ms(self):
        return ticks_ms()

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)

    def ticks_add(self, t, ms):
        return ticks_add(t, ms)

    def sleep_ms(self, ms):
        if ms <= 0:
            return
        try:
            time.sleep_ms(ms)
        except AttributeError:  # CPython
            time.sleep(ms / 1000)
