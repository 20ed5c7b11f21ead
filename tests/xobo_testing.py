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
