"""The move encoding shared by the engine, the board and the AI: one small int per move.

``kind | cell << 2 | dir << 9 | count << 12`` (always < 2**16, so an ``array('H')`` holds it):

- place:   ``cell`` gets one cube (count 1);
- regroup: the ``count`` singles ``cell, ray(cell, dir)[:count-1]`` all go onto ``cell``;
- spread:  the ``count`` cubes of ``cell`` go one by one onto ``ray(cell, dir)[:count]``.

Usage::

    >>> from xobo.games.xobo.rules.moves import make_spread, move_kind, SPREAD, new_move_buffer
    >>> m = make_spread(40, 5, 4)      # e5 spread towards SW, 4 cubes
    >>> move_kind(m) == SPREAD
    True
    >>> buf = new_move_buffer()        # for Position.legal_moves(buf)
"""

import array

from xobo.compat import const

PLACE = const(0)
REGROUP = const(1)
SPREAD = const(2)
KIND_NAMES = ("place", "regroup", "spread")

# Upper bound of legal moves in any position: 81 placements, regroups (at most 4 lines x
# segments x 2 ends through the singles) and spreads (at most 8 per stack): 1024 is ample
# (a full board of singles has 81*4 lines*... far fewer distinct segments of length >= 3 than
# this: counted exactly in tests).
MAX_MOVES = const(1024)


def make_place(cell):
    return PLACE | (cell << 2) | (1 << 12)


def make_regroup(stack_cell, direction, count):
    return REGROUP | (stack_cell << 2) | (direction << 9) | (count << 12)


def make_spread(source, direction, count):
    return SPREAD | (source << 2) | (direction << 9) | (count << 12)


def move_kind(m):
    return m & 3


def move_cell(m):
    return (m >> 2) & 127


def move_dir(m):
    return (m >> 9) & 7


def move_count(m):
    return m >> 12


def new_move_buffer():
    return array.array("H", bytes(2 * MAX_MOVES))
