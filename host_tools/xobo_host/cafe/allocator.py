"""The C allocator of a café host that runs for weeks: glibc's per-thread caches off.

glibc's malloc keeps, in every thread, a cache of the blocks that thread freed (its
``tcache``: up to 7 blocks of each of 64 sizes, up to 1 KB). ``xobo cafe`` runs about 90
threads (each table's serial reader and mirror, the page's workers): measured on 32 boards
playing, the memory the caches hold grew all along a 12,000-move run (the C heap "in use"
15.0 -> 17.8 MB, the host's RSS 44.9 -> 49.6 MB, still rising), while the host's own data
stayed the same (Python's objects, SQLite's caches: flat). With the caches off the C heap
stays flat (docs/cafe.md, "Measured"). They are switched off by glibc's tunable
``glibc.malloc.tcache_count=0``, which glibc reads only when a program starts: ``xobo cafe``
starts itself again once with it (``restart_with_bounded_caches``), and the benchmark starts
its host with it (``environment``). Elsewhere than glibc (macOS, musl) nothing changes.

Usage::

    >>> import os
    >>> from xobo_host.cafe import allocator
    >>> env = allocator.environment({"PATH": "/usr/bin"})   # a child host's environment
    >>> env.get("GLIBC_TUNABLES") == ("glibc.malloc.tcache_count=0" if allocator.on_glibc()
    ...                               else None)
    True
    >>> # at the start of `xobo cafe` (not run here: it may start the process again):
    >>> # allocator.restart_with_bounded_caches()
"""

import os
import platform
import sys

TUNABLE = "glibc.malloc.tcache_count"
SETTING = TUNABLE + "=0"


def on_glibc():
    return sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def environment(env):
    """``env`` with glibc's per-thread caches off (a tunable already given is kept)."""
    env = dict(env)
    current = env.get("GLIBC_TUNABLES", "")
    if on_glibc() and TUNABLE not in current:
        env["GLIBC_TUNABLES"] = current + ":" + SETTING if current else SETTING
    return env


def restart_with_bounded_caches():
    """Start this process again (same pid, arguments, descriptors) with the caches off, when
    it runs on glibc without them; returns when nothing needs doing."""
    env = environment(os.environ)
    if env.get("GLIBC_TUNABLES") == os.environ.get("GLIBC_TUNABLES"):
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, sys.orig_argv, env)
    except OSError as exc:  # the host still runs, its memory as before: said, not fatal
        print("xobo cafe: cannot start again with glibc's per-thread caches off (%s); "
              "running with them" % exc, file=sys.stderr)
