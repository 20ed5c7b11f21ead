"""argparse types of the ``xobo`` command: whole numbers in ASCII digits only.

``type=int`` took '３', '٠', '1_000' and '+5' (CPython's int() reads them), unlike the engine
and the firmware, which read ASCII digits only (xobo.numbers).

Usage::

    p.add_argument("--port", type=whole_number, default=0)
    p.add_argument("--games", type=positive, default=10)
"""

import argparse

from xobo.numbers import parse_uint


def whole_number(text):
    """A whole number >= 0 written with the digits 0-9."""
    value = parse_uint(text)
    if value < 0:
        raise argparse.ArgumentTypeError("'%s' is not a whole number (digits 0-9)" % text)
    return value


def positive(text):
    """A whole number of at least 1 (games, moves, workers, milliseconds)."""
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % value)
    return value
