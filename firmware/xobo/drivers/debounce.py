"""Debouncing of the 81 cell switches, with a preallocated ring buffer of change events.

A cell's change counts once its raw reading has stayed the same for ``stable_ms``; the event
carries the time the raw change began (the first scan that saw the new value). The scan path
(``update`` and ``get_into``) allocates nothing. Ticks wrap (``xobo.compat.ticks_diff``).

Usage::

    >>> from xobo.drivers.debounce import Debouncer
    >>> deb = Debouncer(n=81, stable_ms=20)
    >>> raw = bytearray(81)               # the scan's occupancy (SwitchMatrix.scan_into)
    >>> deb.prime(raw)                    # at power-up: what is on the board now is stable
    >>> ev = deb.new_event()
    >>> raw[40] = 1                       # a cube put on e5 at 1000 ms
    >>> deb.update(raw, 1000)             # not stable yet
    0
    >>> deb.update(raw, 1020)             # number of cells whose stable state changed
    1
    >>> while deb.get_into(ev):           # oldest first
    ...     print(ev)                     # [cell, occupied, ticks the change began]
    [40, 1, 1000]
    >>> deb.stable[40]                    # 0/1, debounced occupancy of e5
    1
"""

from array import array

from xobo.compat import const, ticks_diff
from xobo.drivers.eventq import EventQueue

# A reed switch bounces for about a millisecond; 20 ms of a steady reading is ample, and short
# enough that a change is answered within 50 ms (two 10 ms scans and the debounce) even while
# the computer thinks (measured on the emulated Pico: 54 ms with 30 ms).
DEBOUNCE_MS = const(20)


class Debouncer(EventQueue):
    """Change events queue as ``[cell, occupied, ticks]`` (``xobo.drivers.eventq``)."""

    def __init__(self, n=81, stable_ms=DEBOUNCE_MS, queue=64):
        self.n = n
        self.stable_ms = stable_ms
        self.stable = bytearray(n)  # debounced value per cell
        self._cand = bytearray(n)  # last raw value per cell
        self._since = array("i", [0] * n)  # ticks when _cand last changed
        EventQueue.__init__(self, queue, n >= 256)

    def new_event(self):
        """A reusable event for ``get_into``: ``[cell, occupied, ticks]``."""
        return [0, 0, 0]

    def prime(self, raw, now_ms=0):
        """Take ``raw`` as the stable state at once, without events (power-up, resync)."""
        for i in range(self.n):
            v = raw[i]
            self.stable[i] = v
            self._cand[i] = v
            self._since[i] = now_ms
        self._head = 0
        self._count = 0

    def settling(self):
        """True while a cell's reading differs from its debounced state (a change that has
        not yet lasted ``stable_ms``). Allocates nothing (one memcmp)."""
        return self._cand != self.stable

    def update(self, raw, now_ms):
        """Feed one scan; returns how many cells changed their stable state in this call."""
        cand = self._cand
        stable = self.stable
        if raw == cand and raw == stable:  # nothing new, nothing settling (two memcmp)
            return 0
        since = self._since
        stable_ms = self.stable_ms
        changed = 0
        for i in range(self.n):
            v = raw[i]
            if v != cand[i]:
                cand[i] = v
                since[i] = now_ms
                if v != stable[i] and stable_ms <= 0:
                    stable[i] = v
                    self._push(i, v, now_ms)
                    changed += 1
            elif v != stable[i] and ticks_diff(now_ms, since[i]) >= stable_ms:
                stable[i] = v
                self._push(i, v, since[i])
                changed += 1
        return changed

