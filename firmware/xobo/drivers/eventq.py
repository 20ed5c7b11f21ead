"""A preallocated ring buffer of ``[a, b, ticks]`` events: the queue behind the switch
debouncer (``[cell, occupied, ticks]``) and the buttons (``[kind, button, ticks]``).

``_push`` and ``get_into`` allocate nothing; when the queue is full a new event is dropped and
counted in ``overflows``. ``a`` is a byte (0..255), or 0..65535 with ``wide_a``; ``b`` is a
byte; ``ticks`` a signed 32-bit int.

Usage::

    >>> from xobo.drivers.eventq import EventQueue
    >>> class Debouncer(EventQueue):
    ...     def __init__(self, queue=64):
    ...         EventQueue.__init__(self, queue)
    >>> q = Debouncer()
    >>> q._push(40, 1, 1000)              # by the owner, as events happen (cell, value, now)
    >>> ev = [0, 0, 0]
    >>> while q.get_into(ev):             # oldest first
    ...     print(ev)
    [40, 1, 1000]
"""

from array import array


class EventQueue:
    def __init__(self, queue, wide_a=False):
        self._qlen = queue
        self._qa = array("H", [0] * queue) if wide_a else bytearray(queue)
        self._qb = bytearray(queue)
        self._qt = array("i", [0] * queue)
        self._head = 0  # next to read
        self._count = 0
        self.overflows = 0  # events dropped because the queue was full

    def _push(self, a, b, t):
        if self._count >= self._qlen:
            self.overflows += 1
            return
        j = self._head + self._count
        if j >= self._qlen:
            j -= self._qlen
        self._qa[j] = a
        self._qb[j] = b
        self._qt[j] = t
        self._count += 1

    def pending(self):
        """Number of events waiting in the queue."""
        return self._count

    def get_into(self, ev):
        """Move the oldest event into ``ev`` (``[a, b, ticks]``); False if none."""
        if not self._count:
            return False
        j = self._head
        ev[0] = self._qa[j]
        ev[1] = self._qb[j]
        ev[2] = self._qt[j]
        j += 1
        if j >= self._qlen:
            j = 0
        self._head = j
        self._count -= 1
        return True

    def clear_events(self):
        self._head = 0
        self._count = 0
