"""The café host's move trace (``cafe/movetrace.py``, ``remotebench --dump``): a garbage
collection that starts while a thread writes a trace line must not hang the host. The
collections' callback wrote its own line through the same lock, so a collection that began
inside a write waited for a lock its own thread held: a traced benchmark's host stopped
dead mid-run (every match stuck at one ply)."""

import os
import subprocess
import sys

SCRIPT = r"""
import gc, sys, time
from xobo_host.cafe import movetrace

def slow(phase, info):  # (every collection lasts long enough to be traced: first at its end)
    if phase == "stop":
        time.sleep(0.006)

gc.callbacks.insert(0, slow)


class CollectingFile:
    # the trace's file, with a collection started inside its write (as one can start at
    # any allocation of the writing thread)
    def __init__(self, f):
        self.f = f

    def write(self, text):
        gc.collect()
        return self.f.write(text)


movetrace._FILE = CollectingFile(movetrace._FILE)  # noqa: the condition under test
movetrace.trace("first")
movetrace.trace("second")
print("done")
"""


def test_a_collection_inside_a_trace_write_does_not_hang_the_host(tmp_path):
    path = tmp_path / "host.trace"
    env = dict(os.environ, XOBO_MATCH_TRACE=str(path))
    try:
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                             text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the traced process hung in its own trace") from None
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"
    words = [line.split()[1] for line in path.read_text().splitlines()]
    assert "first" in words and "second" in words
    assert "gc" in words  # (the collections are still traced, by the next line's write)
