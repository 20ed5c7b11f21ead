"""Small shims so one source runs under CPython and MicroPython.

Usage::

    >>> from xobo.compat import const, ticks_ms, ticks_us, ticks_diff, IS_MICROPYTHON
    >>> from xobo.compat import collect, mem_free, mem_alloc   # heap figures; -1 on CPython
"""

import gc as _gc
import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"

try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(x):
        return x


try:
    from time import ticks_add, ticks_diff, ticks_ms, ticks_us  # noqa: F401  (MicroPython)
except ImportError:
    import time as _time

    try:  # CircuitPython: supervisor.ticks_ms wraps at 2**29 and keeps its precision
        from supervisor import ticks_ms  # noqa: F401

        _TICKS_PERIOD = 1 << 29
    except ImportError:  # CPython: emulate MicroPython's wrapping 30-bit millisecond ticks
        _TICKS_PERIOD = 1 << 30

        def ticks_ms():
            return int(_time.monotonic() * 1000) & (_TICKS_PERIOD - 1)

    _TICKS_HALF = _TICKS_PERIOD // 2

    def ticks_us():
        """Microsecond ticks with the same period as ticks_ms (ticks_diff serves both)."""
        return (_time.monotonic_ns() // 1000) & (_TICKS_PERIOD - 1)

    def ticks_add(t, delta):
        return (t + delta) & (_TICKS_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _TICKS_HALF) & (_TICKS_PERIOD - 1)) - _TICKS_HALF


# Native code emitters. ``@micropython.native`` and ``@micropython.viper`` are read by the
# MicroPython compiler itself (the decorator is never called), so a module writes them
# literally after ``from xobo.compat import micropython, ptr8``. Under CPython the stand-in
# below makes both decorators the identity, and ``ptr8(buf)`` (a compile-time cast inside a
# viper function, where this global is never looked up) is the buffer itself: one source,
# the same results on both runtimes. (CPython may well import a ``micropython`` module, e.g.
# Adafruit Blinka's, whose viper raises: the runtime decides, not the import.)
if IS_MICROPYTHON:
    import micropython  # noqa: F401
else:

    class micropython:  # noqa: N801  (stands in for the module of the same name)
        @staticmethod
        def native(f):
            return f

        @staticmethod
        def viper(f):
            return f


# Whether a module of native code (``@micropython.native``/``viper``, compiled into an .mpy)
# gives its memory back when it is unloaded and imported again. The Pico's port (rp2), like
# the other bare-metal ports listed, allocates native code in the collected heap: unloaded, it
# is freed. The unix port maps it into memory that is never freed and is scanned as a root of
# every collection (its MP_PLAT_ALLOC_EXEC), so each import again keeps the code's constants in
# the heap for good (measured here: 32 B a viper function an import; the XoBo computer about
# 200 B a search, a soak's heap run down in 500 moves); esp32, esp8266 and nrf keep it in
# executable RAM that is never freed. Where it does not unload, the runtime keeps such modules
# loaded (as it keeps frozen ones: xobo.runtime.computer.Computer.done).
NATIVE_CODE_UNLOADS = not IS_MICROPYTHON or sys.platform in ("rp2", "pyboard", "mimxrt",
                                                             "samd")


def ptr8(buf):
    return buf


def ptr16(buf):
    return buf


def ptr32(buf):
    return buf


if IS_MICROPYTHON:
    collect = _gc.collect
else:

    def collect():
        """The firmware collects before what needs the Pico's heap (a save, a search, a
        game's start). CPython frees by reference counting and collects cycles by itself; a
        full collection there walks every object of the host process (13 ms in a test
        worker: 93 % of a power-cut test's time), so only the youngest generation goes."""
        _gc.collect(0)


def mem_free():
    """Free bytes of the MicroPython heap (-1 on CPython, which has no such heap)."""
    f = getattr(_gc, "mem_free", None)
    return f() if f is not None else -1


def mem_alloc():
    """Allocated bytes of the MicroPython heap (-1 on CPython)."""
    f = getattr(_gc, "mem_alloc", None)
    return f() if f is not None else -1


def is_frozen(module):
    """True when ``module`` runs from a firmware image's frozen bytecode (in flash: importing
    it again is quick and its code takes none of the heap), False when it was loaded from a
    file (the filesystem's .mpy on a stock firmware: its code lives in the heap)."""
    path = getattr(module, "__file__", None)
    if not path:
        return IS_MICROPYTHON  # (MicroPython gives frozen modules no __file__ without it)
    try:
        open(path, "rb").close()
        return False
    except OSError:
        return True  # MicroPython names a frozen module by its source path in the image


def forget_module(name):
    """Forget the module ``name`` (``sys.modules`` and its package's attribute): its code is
    freed at the next collection once nothing else refers to it (the Pico's heap holds every
    imported .mpy)."""
    sys.modules.pop(name, None)
    parent, _, child = name.rpartition(".")
    pkg = sys.modules.get(parent)
    if pkg is not None and child in pkg.__dict__:
        delattr(pkg, child)
