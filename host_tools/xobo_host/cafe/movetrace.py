"""Where a match's move waited on its way through a café host: with ``XOBO_MATCH_TRACE``
set to a file's path, the host appends a line at every hop of every move (the board's event
read, the table's worker woken, the matches' lock taken, the log saved, the message
published, a message of another café received, the move sent to a board) and at every
connection and disconnection of its broker, each stamped with the wall clock
(``time.time()``, the one the stand-in boards of ``remotebench --dump`` stamp with).
Unset (a café's normal run), ``trace`` does nothing.

Lines: ``TIME WHAT WORDS...``; ``remotebench --dump DIR`` sets it for both hosts and reads
them back (``remotebench.hops``).
"""

import os
import threading
import time

_PATH = os.environ.get("XOBO_MATCH_TRACE")
_FILE = open(_PATH, "a", buffering=1) if _PATH else None  # noqa: SIM115 (open for the run)
_LOCK = threading.Lock()
enabled = _FILE is not None


def trace(*words):
    if _FILE is not None:
        line = "%.6f %s\n" % (time.time(), " ".join(str(w) for w in words))
        with _LOCK:
            _FILE.write(line)
