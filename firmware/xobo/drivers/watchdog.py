"""Watchdog: a hung board resets and the saved game brings it back.

``Watchdog`` wraps ``machine.WDT`` (rp2: timeout at most 8388 ms; once started it cannot be
stopped, so a program that stops feeding it, e.g. at the REPL, resets). ``NullWatchdog`` does
nothing (CPython, Blinka, or while debugging). The virtual twin is
``xobo.drivers.virtual.VirtualWatchdog``.

Usage::

    from xobo.drivers.watchdog import Watchdog
    wdt = Watchdog(timeout_ms=8000)
    while True:
        ...
        wdt.feed()
"""

from xobo.compat import const

RP2_MAX_TIMEOUT_MS = const(8388)


class NullWatchdog:
    def __init__(self, timeout_ms=8000):
        self.timeout_ms = timeout_ms
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class Watchdog:
    def __init__(self, timeout_ms=8000):
        import machine  # lazy: only on the device

        if timeout_ms > RP2_MAX_TIMEOUT_MS:
            timeout_ms = RP2_MAX_TIMEOUT_MS
        self.timeout_ms = timeout_ms
        self._wdt = machine.WDT(timeout=timeout_ms)

    def feed(self):
        self._wdt.feed()
