"""What the page reads from a backend, shared by the simulator and the monitor: a snapshot
with a ``version`` that goes up on every change, a wait for the next change, and the event
lines the board sent (numbered, the last ``max_events`` kept, each with its kind: ``move``,
``setting``... as ``xobo.runtime.events`` names them).

The backend holds ``lock`` while it changes ``_snap`` or adds an event, and calls ``_bump()``
after a change; ``changed`` (a Condition) wakes the page's listeners.

Usage::

    >>> from xobo_host.sim.feed import PageFeed
    >>> class Counter(PageFeed):                  # a backend: the simulator's, the monitor's
    ...     def __init__(self):
    ...         PageFeed.__init__(self, max_events=200)
    ...         self._snap = {"count": 0}
    ...     def add(self, line):
    ...         with self.lock:                   # change _snap whole, add the event line
    ...             self._snap = {"count": self._snap["count"] + 1}
    ...             self._add_event(line, "move")
    ...         self._bump()                      # a new version; the page's waits wake
    >>> b = Counter()
    >>> snap = b.snapshot()                       # a copy, with "version"
    >>> snap
    {'count': 0, 'version': 0}
    >>> b.add("event move e5")
    >>> b.wait_change(snap["version"], 15.0)      # at once: the version moved on
    {'count': 1, 'version': 1}
    >>> b.events_after(0), b.events_after(0, kinds=True)
    ([(1, 'event move e5')], [(1, 'event move e5', 'move')])
"""

import collections
import threading


class PageFeed:
    def __init__(self, max_events=200):
        self.lock = threading.RLock()
        # the events have their own lock, and a snapshot is read without ``lock``: a page
        # keeps its view (a record's replay shows its progress) while a long action holds it
        self._ev_lock = threading.Lock()
        self.changed = threading.Condition(threading.Lock())
        self.events = collections.deque(maxlen=max_events)  # (seq, line, kind)
        self.event_seq = 0
        self.version = 0
        self._snap = None

    def _add_event(self, line, kind):
        """Number and keep one event line and its kind (lock held)."""
        with self._ev_lock:
            self.event_seq += 1
            self.events.append((self.event_seq, line, kind))

    def _bump(self):
        """What the page shows changed: a new version, the listeners woken."""
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def _wake_listeners(self):
        with self.changed:
            self.changed.notify_all()

    def snapshot(self):
        # ``_snap`` is replaced whole, never changed in place: no lock needed to copy it
        snap = dict(self._snap)
        snap["version"] = self.version
        return snap

    def wait_change(self, version, timeout):
        """Block until the version differs from ``version`` (or timeout); return the snapshot."""
        with self.changed:
            if self.version == version:
                self.changed.wait(timeout)
        return self.snapshot()

    def events_after(self, seq, kinds=False):
        with self._ev_lock:
            if kinds:
                return [e for e in self.events if e[0] > seq]
            return [(e[0], e[1]) for e in self.events if e[0] > seq]
