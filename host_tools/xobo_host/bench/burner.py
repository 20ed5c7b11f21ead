"""A CPU burner for a benchmark's loaded run: one process that spins on one core for as long
as the run lasts, so that a café's figures are also measured on a machine that is doing
something else (a café's host is a shared computer: a till, a music player, an update).

The burner runs at the benchmark's own priority (not niced: it takes its core as a busy
program would) and is pinned to the last core this process may use, where the system lets
it; it is stopped when the run ends, whatever way it ends.

Usage::

    >>> from xobo_host.bench.burner import Burner
    >>> with Burner() as burner:          # one core busy meanwhile
    ...     burner.running()
    True
    >>> burner.running()
    False
"""

import os
import subprocess
import sys

SPIN = "while True:\n    pass\n"


class Burner:
    """One process spinning on one core while the ``with`` block runs."""

    def __init__(self):
        self.proc = None
        self.core = None  # the core it is pinned to (None: wherever the system runs it)

    def __enter__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", SPIN], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if len(cores) > 1:  # (one core of several: the others are the benchmark's)
            try:
                os.sched_setaffinity(self.proc.pid, {cores[-1]})
                self.core = cores[-1]
            except OSError:
                self.core = None
        return self

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def __exit__(self, *exc):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        return False

    def words(self):
        """What the results file notes about it."""
        where = "core %d" % self.core if self.core is not None else "one core"
        return "A CPU burner (a process spinning at the benchmark's priority) ran on %s " \
            "all along." % where
