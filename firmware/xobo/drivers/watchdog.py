"""Watchdog: a hung board resets and the saved game brings it back.

``Watchdog`` wraps ``machine.WDT`` (rp2: timeout at most 8388 ms; once started it cannot be
stopped, so a program that stops feeding it, e.g. at the REPL, resets). ``NullWatchdog`` does
nothing (CPython, Blinka, or while debugging). The virtual twin is
``xobo.drivers.virtual.VirtualWatchdog``.

Usage::

    >>> from xobo.drivers.watchdog import Watchdog
    >>> wdt = Watchdog(timeout_ms=8000)    # started: it cannot be stopped
    >>> for cycle in range(3):             # the main loop: while True
    ...     wdt.feed()                     # within every 8 s, or the board resets
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


def make(platform, watchdog_ms=8000):
    """The hardware watchdog for ``platform`` (a board definition's: started now; on rp2 it
    cannot be stopped but by ``disable``), or a ``NullWatchdog`` for 0 ms or where there is
    none. Here, not in ``xobo.drivers.boarddef``, so that the boot can unload the definition's
    code before the saved game is resumed (``xobo.runtime.device.build``)."""
    if not watchdog_ms:
        return NullWatchdog()
    if platform == "micropython-rp2":
        return Watchdog(watchdog_ms)
    if platform == "circuitpython":
        try:
            import microcontroller
            import watchdog as cpwd

            class _CPWatchdog:
                def __init__(self, ms):
                    self._w = microcontroller.watchdog
                    self._w.timeout = ms / 1000
                    self._w.mode = cpwd.WatchDogMode.RESET

                def feed(self):
                    self._w.feed()

            return _CPWatchdog(watchdog_ms)
        except (ImportError, AttributeError):
            pass
    return NullWatchdog(watchdog_ms)


# WATCHDOG CTRL, atomic bit-clear alias (+0x3000); bit 30 = ENABLE (pico-sdk watchdog_disable)
_CTRL_CLR = (("RP2040", 0x40058000 + 0x3000), ("RP2350", 0x400D8000 + 0x3000))


def disable():
    """Stop the rp2 hardware watchdog, for an interactive session: ``firmware/main.py`` calls it
    when the app is interrupted (Ctrl-C from the REPL or ``mpremote``), so copying files does
    not get the board reset half-way. Returns True if a known chip was found."""
    import sys

    try:
        import machine

        name = sys.implementation._machine
    except (ImportError, AttributeError):
        return False
    for chip, addr in _CTRL_CLR:
        if chip in name:
            machine.mem32[addr] = 1 << 30
            return True
    return False
