"""Runs dual-runtime test modules under the MicroPython unix port.

A dual-runtime test module is a plain module whose first line is ``# dual-runtime``: its
``test_*`` functions take no arguments, use only ``assert`` and ``xobo_testing`` helpers, and
import nothing MicroPython lacks. pytest collects the same modules under CPython.

Usage (what ``tests/test_micropython_suite.py`` runs)::

    MICROPYPATH=firmware:tests micropython tests/upy/runner.py rules.test_geometry ...

A module may be followed by ``:GAME`` to run only its tests that name that game (the
conformance suite's ``test_<game>_...``: each game is its own test in the suite)::

    MICROPYPATH=firmware:tests micropython tests/upy/runner.py games.test_conformance:brochs

Prints one line per test (``PASS name`` or ``FAIL name: error``) and a closing line
``upy: N passed, M failed``.
"""

import sys


def _names_game(name, game):
    """True when test ``name`` is about ``game`` (``chain-reaction``: ``_chain_reaction_``)."""
    return ("_%s_" % game.replace("-", "_")) in (name + "_")


def _run_module(modname, counts):
    game = None
    if ":" in modname:
        modname, game = modname.split(":")
    try:
        __import__(modname)
        module = sys.modules[modname]
    except Exception as exc:  # a module that does not import is one failure
        print("FAIL %s (import): %s: %s" % (modname, type(exc).__name__, exc))
        counts[1] += 1
        return
    # the module's dict too: MicroPython's dir() lists only names that are interned strings,
    # and misses tests a module makes at import (tests/games/test_conformance.py, per game)
    names = set(n for n in dir(module) if n.startswith("test_"))
    names.update(n for n in getattr(module, "__dict__", {}) if n.startswith("test_"))
    names = sorted(n for n in names if game is None or _names_game(n, game))
    for name in names:
        fn = getattr(module, name)
        if not callable(fn):
            continue
        try:
            fn()
        except Exception as exc:
            counts[1] += 1
            print("FAIL %s.%s: %s: %s" % (modname, name, type(exc).__name__, exc))
            try:
                sys.print_exception(exc)
            except AttributeError:
                pass
        else:
            counts[0] += 1
            print("PASS %s.%s" % (modname, name))


def main(argv):
    counts = [0, 0]
    for modname in argv:
        _run_module(modname, counts)
    print("upy: %d passed, %d failed" % (counts[0], counts[1]))
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
