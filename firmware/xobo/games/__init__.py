"""The games the board can host, by name (docs/games.md is the interface).

A game is one folder of ``xobo/games/``: adding a game is adding its folder. Its package's
``NAME`` is its name and ``ORDER`` its place in the list of games (the game gesture cycles
them in this order, the menus list them so: lower first). The games are found

- on the device, in the registry the build writes (``xobo.games.installed``: ``xobo flash``
  and ``make build`` put it on the flash, ``make firmware`` freezes it; a frozen image cannot
  list a folder), read at import;
- in a source tree (the desktop, the unix port, tests) by listing this folder
  (``xobo.games.folders``, host only).

Only the selected game's package is imported (on the device the others never take RAM).

Usage::

    >>> from xobo.games import load, part, GAMES, DEFAULT
    >>> game = load("xobo")              # the package: NAME, PLAYERS, SETTINGS, PARTS, ...
    >>> DEFAULT                          # the first game in ORDER: what a new board plays
    'xobo'
    >>> Position = part(game, "engine").Position
    >>> Position().to_string()[-9:]
    'ns 36 0 0'
"""

import sys


def package_name(name):
    """The package of game ``name``: ``chain-reaction`` -> ``xobo.games.chain_reaction``."""
    return "xobo.games." + _PACKAGES.get(name, name)


# the parts a game names in its package's PARTS (docs/games.md, "The game's parts"): each a
# module of its folder, reached with ``part``; a game without a record notation leaves out
# "records"
PARTS = ("engine", "board", "computer", "cli", "records", "lessons", "host")
OPTIONAL_PARTS = ("records",)


def part(game, name):
    """The module that is part ``name`` of the game package ``game`` (one of ``PARTS``),
    imported: ``part(game, "engine").Position``. ImportError when the game has no such part
    or it is not installed on this board (a device built without it)."""
    module = game.PARTS.get(name)
    if module is None:
        raise ImportError("%s has no %s part" % (game.NAME, name))
    module = game.__name__ + "." + module
    __import__(module)
    return sys.modules[module]


def available():
    """The names of the games whose package is installed, in GAMES order."""
    out = []
    for name in GAMES:
        try:
            load(name)
        except (ImportError, ValueError):
            continue
        out.append(name)
    return out


def load(name):
    """The package of game ``name``; ValueError for a name that is no game, ImportError when
    the game is not installed (a device built without it)."""
    if name not in GAMES:
        raise ValueError("unknown game '%s' (games: %s)" % (name, ", ".join(GAMES)))
    return _package(_PACKAGES.get(name, name))


def _package(folder):
    name = "xobo.games." + folder
    __import__(name)
    return sys.modules[name]


# the games in the order the board's game gesture cycles them, and {name: folder} for the
# names that are not their folder's
try:
    from xobo.games.installed import GAMES  # written by the build (the device)
    from xobo.games.installed import PACKAGES as _PACKAGES
except ImportError:  # a source tree (the desktop, the unix port): its folders
    from xobo.games.folders import discover

    GAMES, _PACKAGES = discover()

# the game a board plays when its settings name none, or one it cannot play (the first in
# ORDER: docs/games.md)
DEFAULT = GAMES[0]


def saved_before_the_games(name):
    """True for the game whose package says SAVED_BEFORE_THE_GAMES: the board's only game
    before there were games. A board updated from then keeps its save and settings: the game's
    save file is ``game`` (the others' ``game-<name>``), its settings may be stored without
    the "<game>." prefix and a save without a ``game`` line is its."""
    return getattr(load(name), "SAVED_BEFORE_THE_GAMES", False)


def save_file(name):
    """The name of game ``name``'s save file on the flash."""
    return "game" if saved_before_the_games(name) else "game-" + name
