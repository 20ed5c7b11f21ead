"""The games of a source tree, found by listing their folders (host only: the desktop, the
unix port, the tests). The device reads the registry the build writes instead
(``xobo.games.installed``, from ``xobo_host.device.deploy.registry_text``, which uses this).

Usage::

    >>> from xobo.games.folders import discover
    >>> names, packages = discover()   # ('xobo', 'x', ...), {'chain-reaction': 'chain_reaction'}
"""

import os
import sys


def package(folder):
    """The package of the game folder ``folder`` (ImportError when it is none)."""
    name = "xobo.games." + folder
    __import__(name)
    return sys.modules[name]


def discover(folder=None):
    """The game folders of ``folder`` (this package's, by default): ``(names, packages)``, the
    games' names in their ORDER (then by name) and ``{name: folder}`` for the names that are
    not their folder's (``chain-reaction``: ``chain_reaction``). A folder is a game when it is
    a package with a NAME. What the build writes into the registry (xobo_host.device.deploy)."""
    if folder is None:
        f = __file__  # (this module is beside the games' folders)
        folder = f[:max(f.rfind("/"), f.rfind("\\"))]
    found = []
    for entry in sorted(os.listdir(folder)):
        if entry[0] in "_." or "." in entry:  # a folder: not __pycache__, a file, hidden
            continue
        try:
            pkg = package(entry)
        except ImportError:  # not a package (a stray file, a folder without __init__)
            continue
        name = getattr(pkg, "NAME", None)
        if name is not None:
            found.append((getattr(pkg, "ORDER", 1000), name, entry))
    found.sort()
    packages = {}
    for _order, name, entry in found:
        if name != entry:
            packages[name] = entry
    return tuple(x[1] for x in found), packages
