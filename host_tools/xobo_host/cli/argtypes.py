"""The ``xobo`` command's arguments, checked one way: numbers, boards, games and levels.

Every command reads its numbers and names through these, so a wrong one gets the same kind of
one-line error wherever it is typed:

- a number is written with the ASCII digits 0-9 only, like the engine and the firmware read
  them (``xobo.numbers``; ``type=int`` took '３', '٠', '1_000' and '+5'): otherwise
  ``'x' is not a whole number (digits 0-9)``;
- a number outside what the option takes names the range, in the words the board's serial
  protocol and the rules CLI use: ``must be a whole number 1-999999999, not '0'``; a number
  of more digits than any option takes is out of range too, not "not a number";
- a name that is none of the choices lists them: ``unknown board 'nosuch' (boards: ...)``,
  ``unknown game ...``, ``unknown level 'nosuch' for xobo (levels: ...)``.

argparse prints ``error: argument --games: must be a whole number 1-999999999, not '0'`` (after
the command's usage, ``xobo_host.cli.main.XoboArgumentParser``).

Usage::

    >>> import argparse
    >>> from xobo_host.cli.argtypes import board, game, in_range, level_error, positive
    >>> p = argparse.ArgumentParser(prog="xobo demo", exit_on_error=False)
    >>> _ = p.add_argument("--games", type=positive, default=10)  # also whole_number, port
    >>> _ = p.add_argument("--rows", type=in_range(1, 15))
    >>> _ = p.add_argument("--board", type=board, default="pico_gpio")  # boards/ or a .json
    >>> _ = p.add_argument("--game", type=game)                    # a game of xobo.games
    >>> p.parse_args(["--games", "30", "--game", "x"])
    Namespace(games=30, rows=None, board='pico_gpio', game='x')
    >>> p.parse_args(["--games", "99999999999999999999"])
    Traceback (most recent call last):
    ...
    argparse.ArgumentError: argument --games: must be a whole number 1-999999999, not '99...'
    >>> p.parse_args(["--game", "chess"])
    Traceback (most recent call last):
    ...
    argparse.ArgumentError: argument --game: unknown game 'chess' (games: xobo, x, ...)
    >>> level_error("xobo", "nosuch", ("random", "greedy"))       # for a ValueError
    "unknown level 'nosuch' for xobo (levels: random, greedy)"
"""

import argparse
from pathlib import Path

from xobo.numbers import MAX_DIGITS, parse_uint

MOST = 10 ** MAX_DIGITS - 1  # the largest number the command line (and the board) reads


def range_error(text, low, high):
    """The message for a number outside ``low``..``high``."""
    return "must be a whole number %d-%d, not '%s'" % (low, high, text)


def unknown(kind, text, choices, plural=None):
    """The message for a name that is none of ``choices``: ``unknown KIND 'TEXT' (KINDs: ...)``."""
    return "unknown %s '%s' (%s: %s)" % (kind, text, plural or kind + "s",
                                         ", ".join(choices) or "none")


def number(text, low=0, high=MOST):
    """``text`` as a whole number in ``low``..``high``; ValueError with the message otherwise."""
    digits = text.isascii() and text.isdigit()
    if not digits:
        raise ValueError("'%s' is not a whole number (digits 0-9)" % text)
    value = parse_uint(text)
    if value < 0 or not low <= value <= high:  # (more digits than parse_uint reads: too large)
        raise ValueError(range_error(text, low, high))
    return value


def in_range(low, high):
    """An argparse type: a whole number in ``low``..``high``."""
    def whole_number_in_range(text):
        try:
            return number(text, low, high)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    whole_number_in_range.__name__ = "whole number %d to %d" % (low, high)
    return whole_number_in_range


whole_number = in_range(0, MOST)   # a count, a seed, an id: 0 or more
positive = in_range(1, MOST)       # games, moves, workers, milliseconds: at least 1
port = in_range(0, 65535)          # a TCP port (0: any free one)


def board_names():
    """The board definitions of boards/, by name."""
    from xobo_host.device import deploy

    return deploy.available_boards()


def board(text):
    """An argparse type: a board definition's name in boards/ (``pico_gpio``), or the path of a
    ``.json`` definition that exists; returned as given."""
    if text in board_names() or (text.endswith(".json") and Path(text).is_file()):
        return text
    raise argparse.ArgumentTypeError(board_error(text))


def board_error(text):
    """The message for a board that is no definition of boards/ and no .json file."""
    return unknown("board", text, board_names() + ["or the path of a .json definition"])


def game_names():
    """The games of this checkout, in the board's order."""
    from xobo import games

    return games.available()


def game(text):
    """An argparse type: the name of a game (``xobo``, ``x``, ``chain-reaction``...)."""
    if text in game_names():
        return text
    raise argparse.ArgumentTypeError(unknown("game", text, game_names()))


RUNTIMES = ("cpython", "micropython")


def runtime(text):
    """An argparse type: the interpreter that runs the firmware's code (``cpython`` or
    ``micropython``, the MicroPython unix port)."""
    if text in RUNTIMES:
        return text
    raise argparse.ArgumentTypeError(unknown("runtime", text, RUNTIMES))


def level_error(game_name, level, levels):
    """The message for a computer level that game ``game_name`` does not have."""
    return unknown("level", level, levels).replace(" (levels", " for %s (levels" % game_name, 1)


def check_level(game_name, level, levels):
    """``level`` when it is one of ``levels``; ValueError with the message otherwise."""
    if level not in levels:
        raise ValueError(level_error(game_name, level, levels))
    return level
