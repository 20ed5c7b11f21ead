"""Whole numbers written with the ASCII digits 0-9 only, the same on CPython and MicroPython.

``str.isdigit()`` and ``int()`` disagree with each other and between the runtimes: on CPython
``"²".isdigit()`` is true but ``int("²")`` raises ValueError, ``int("３６")`` and ``int("٠")``
succeed, ``int("1_000")`` and ``int("+8")`` too; the MicroPython unix port accepts a different
set. Every number a parser reads (positions, records, perft depths, protocol and script
arguments) goes through :func:`parse_uint` instead, so bad input is one clear error everywhere.

Usage::

    >>> from xobo.numbers import parse_uint
    >>> parse_uint("36")      # 36
    36
    >>> parse_uint("３６")     # -1: not ASCII digits
    -1
    >>> parse_uint("1_000")   # -1
    -1
    >>> parse_uint("123", 2)  # -1: more than 2 digits
    -1
"""

# 9 digits stay below 2**30: a small int on MicroPython, never a long int.
MAX_DIGITS = 9


def parse_uint(text, max_digits=MAX_DIGITS):
    """The value of ``text`` when it is 1 to ``max_digits`` ASCII digits, else -1."""
    n = len(text)
    if n == 0 or n > max_digits:
        return -1
    v = 0
    for i in range(n):
        o = ord(text[i])
        if o < 48 or o > 57:
            return -1
        v = v * 10 + o - 48
    return v
