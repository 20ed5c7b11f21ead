# dual-runtime
"""A game's ``record_text(pos)`` (docs/games.md) can be asked again and again: the function was
named ``record`` and the game's submodule ``record``, imported by its first call, replaced it
(the board's serial ``record`` and the simulator's state then failed with "'module' object is
not callable" from the second call on)."""

from xobo import games


def _twice(name):
    pkg = games.load(name)
    if not hasattr(pkg, "record_text"):
        return
    pos = pkg.new_position(pkg.DEFAULTS)
    first = pkg.record_text(pos)
    assert callable(pkg.record_text), name
    assert pkg.record_text(pos) == first, name


def test_record_text_of_every_game_can_be_asked_twice():
    for name in games.available():
        _twice(name)
