"""The games the board can host, by name (docs/games.md is the interface).

Only the selected game's package is imported (on the device the others never take RAM)::

    from xobo.games import load, GAMES
    game = load("xobo")              # the package: NAME, PLAYERS, SETTINGS, rules(), ...
    Position = game.rules().Position
"""

# the order in which the board's game gesture cycles them
GAMES = ("xobo", "x", "chain-reaction", "brochs", "tiny")
_PACKAGES = {"chain-reaction": "chain_reaction"}  # names that are not Python identifiers


def package_name(name):
    """The package of game ``name``: ``chain-reaction`` -> ``xobo.games.chain_reaction``."""
    return "xobo.games." + _PACKAGES.get(name, name)


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
    mod = __import__(package_name(name))
    for part in package_name(name).split(".")[1:]:
        mod = getattr(mod, part)
    return mod
