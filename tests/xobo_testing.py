# dual-runtime
"""Test helpers that work under both pytest (CPython) and tests/upy/runner.py (MicroPython)."""


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception of exc_type it raises; fail if it raises none."""
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        return exc
    raise AssertionError("%s not raised by %s" % (exc_type.__name__, getattr(fn, "__name__", fn)))


def message_of(exc_type, fn, *args, **kwargs):
    """The message of the exception fn raises (lower case), for checking what an error says."""
    return str(raises(exc_type, fn, *args, **kwargs)).lower()


try:
    import micropython

    _heap_lock = micropython.heap_lock
    _heap_unlock = micropython.heap_unlock
    HEAP_LOCK_WORKS = True  # MicroPython: an allocation while locked raises MemoryError
except (ImportError, AttributeError):  # CPython: the same code runs, without the lock
    _heap_lock = _heap_unlock = None
    HEAP_LOCK_WORKS = False


def run_with_heap_locked(fn, *args):
    """Return fn(*args), called with the heap locked under MicroPython (always unlocked after).

    Up to four arguments, passed one by one: a call with *args would itself allocate.
    Usage: ``assert run_with_heap_locked(scan, matrix, raw) == 1``.
    """
    n = len(args)
    if n > 4:
        raise TypeError("run_with_heap_locked takes up to 4 arguments for fn, got %d" % n)
    if HEAP_LOCK_WORKS:
        _heap_lock()
    try:
        if n == 0:
            return fn()
        if n == 1:
            return fn(args[0])
        if n == 2:
            return fn(args[0], args[1])
        if n == 3:
            return fn(args[0], args[1], args[2])
        return fn(args[0], args[1], args[2], args[3])
    finally:
        if HEAP_LOCK_WORKS:
            _heap_unlock()


def wait_for(pred, what, timeout=60.0):
    """Wait for ``pred()`` to be true (the state a test asserts; returns its value), checking
    every 20 ms; ``what`` names that state in the failure. The timeout only turns a hang into
    a failure: a test waits for a state, never for the machine's speed (CPython only)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.02)
