"""Where a match's move waited on its way through a café host: with ``XOBO_MATCH_TRACE``
set to a file's path, the host appends a line at every hop of every move (the board's event
read, the table's worker woken, the matches' lock taken, the log saved, the message
published, a message of another café received, the move sent to a board) and at every
connection and disconnection of its broker, each stamped with the wall clock
(``time.time()``, the one the stand-in boards of ``remotebench --dump`` stamp with).
Unset (a café's normal run), ``trace`` does nothing.

Lines: ``TIME WHAT WORDS...``; ``remotebench --dump DIR`` sets it for both hosts and reads
them back (``remotebench.hops``). Traced, the matches' locks (``new_lock``: the list's and
each match's) are ``HeldLock``s: they say who held one, or waited for one, 20 ms or longer.
"""

import os
import sys
import threading
import time

_PATH = os.environ.get("XOBO_MATCH_TRACE")
_FILE = open(_PATH, "a", buffering=1) if _PATH else None  # noqa: SIM115 (open for the run)
_LOCK = threading.Lock()
_PENDING = []  # the collections' lines, written by the next trace
enabled = _FILE is not None


def _collected(phase, info, started=[0.0]):  # noqa: B006 (the collection's start, kept)
    if phase == "start":
        started[0] = time.perf_counter()
    elif time.perf_counter() - started[0] >= 0.005:  # (a collection that held the host)
        ms = (time.perf_counter() - started[0]) * 1000
        # (a whole collection: how many objects it went through, the frozen ones left out)
        tracked = len(gc.get_objects()) if info.get("generation") == 2 else ""
        # (not trace(): a collection can start inside trace's own write, on the thread
        # that holds _LOCK, and waiting for it there would hang the host; the line is
        # written by the next trace)
        _PENDING.append("%.6f gc %s %.1f %s\n" % (time.time(), info.get("generation"), ms,
                                                 tracked))


if enabled:  # (Python's garbage collections of 5 ms or longer: every thread waits for them)
    import gc

    gc.callbacks.append(_collected)


def trace(*words):
    if _FILE is not None:
        line = "%.6f %s\n" % (time.time(), " ".join(str(w) for w in words))
        with _LOCK:
            if _PENDING:  # (those pending now: a collection in this write adds its own)
                pending = _PENDING[:]
                del _PENDING[:len(pending)]
                _FILE.write("".join(pending))
            _FILE.write(line)


def new_lock():
    """A reentrant lock: a ``HeldLock`` when traced."""
    return HeldLock() if enabled else threading.RLock()


class HeldLock:
    """A reentrant lock that, traced, says who held it 20 ms or longer (``held MS WHERE``)
    and who waited that long for it (``waited MS WHERE``)."""

    def __init__(self):
        self._lock = threading.RLock()
        self._depth = 0
        self._since = 0.0
        self._where = ""

    def __enter__(self):
        t = time.monotonic()
        self._lock.acquire()
        self._depth += 1
        if self._depth == 1:
            self._since = time.monotonic()
            f = sys._getframe(1)
            self._where = "%s<%s<%s" % (f.f_code.co_name, f.f_back.f_code.co_name,
                                        f.f_back.f_back.f_code.co_name if f.f_back.f_back
                                        else "")
            if self._since - t >= 0.02:
                trace("waited", "%.0f" % ((self._since - t) * 1000), self._where)
        return self

    def __exit__(self, *exc):
        self._depth -= 1
        if self._depth == 0:
            held = time.monotonic() - self._since
            if held >= 0.02:
                trace("held", "%.0f" % (held * 1000), self._where)
        self._lock.release()
