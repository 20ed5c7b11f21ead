"""Errors of the rules engine. Every message says what is wrong, in words a player reads.

Usage::

    from xobo.errors import MoveError
    raise MoveError("g6xf5: g6 holds no stack")
"""


class XoboError(ValueError):
    """Base class: bad input to the rules engine."""


class PositionError(XoboError):
    """A malformed position string (N3) or one that breaks B5/B6."""


class MoveError(XoboError):
    """A malformed move (N1) or a move that is not legal in the position."""


class RecordError(XoboError):
    """A malformed game record (N2), or one whose moves cannot be replayed."""


def is_power_cut(exc):
    """True for the virtual flash's simulated power cut (``xobo.drivers.virtual.PowerCut``),
    which must pass every handler that keeps the board going, as a real one would."""
    return exc.__class__.__name__ == "PowerCut"
