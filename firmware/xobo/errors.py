"""Errors of every game's rules engine. Every message says what is wrong, in words a player
reads, and cites the rule of the game that raised it (its rules page, docs/rules/).

Usage::

    >>> from xobo.errors import MoveError, XoboError
    >>> try:
    ...     raise MoveError("'z9' is off the board")
    ... except XoboError as exc:
    ...     print(exc)
    'z9' is off the board
"""


class XoboError(ValueError):
    """Base class: bad input to a game's rules engine."""


class PositionError(XoboError):
    """A position that does not follow the game's notation, or one its rules forbid."""


class MoveError(XoboError):
    """A move that does not follow the game's notation, or one not legal in the position."""


class RecordError(XoboError):
    """A game record that does not follow the game's record format, or whose moves cannot be
    replayed."""


def is_power_cut(exc):
    """True for the virtual flash's simulated power cut (``xobo.drivers.virtual.PowerCut``),
    which must pass every handler that keeps the board going, as a real one would."""
    return exc.__class__.__name__ == "PowerCut"
