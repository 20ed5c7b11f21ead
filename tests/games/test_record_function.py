# dual-runtime
"""A game's ``record(pos)`` (docs/games.md) stays the package's function after its first call:
it imports the game's submodule ``record``, whose import set the package's attribute of that
name to the module (the board's serial ``record`` and the simulator's state then failed with
"'module' object is not callable" from the second call on)."""

from xobo import games


def _twice(name):
    pkg = games.load(name)
    if not hasattr(pkg, "record"):
        return
    pos = pkg.new_position(pkg.DEFAULTS)
    first = pkg.record(pos)
    assert callable(pkg.record), name
    assert pkg.record(pos) == first, name


def test_record_of_every_game_can_be_asked_twice():
    for name in games.available():
        _twice(name)
