# dual-runtime helper (not a test module)
"""Helpers for the board tests, for CPython and MicroPython alike.

Usage::

    from boardapp.boardkit import board_at, EMPTY
    vb = board_at("........./... ns 32 0 0")   # a VirtualBoard whose cubes match the position
"""

from xobo.games.xobo.rules.position import Position
from xobo.runtime.virtual_board import VirtualBoard

EMPTY = "........./........./........./........./........./........./........./........./" \
    "......... ns 36 0 0"


def rows(*ranks_9_to_1):
    """N3 board part from 9 strings (rank 9 first)."""
    return "/".join(ranks_9_to_1)


def board_at(n3, settings=None, variant="xobo"):
    """A virtual board playing from position n3 with the cubes already on it."""
    vb = VirtualBoard(settings=settings)
    if variant != "xobo":
        vb.command("set variant " + variant)
    vb.advance(50)
    reply = vb.command("load " + n3)
    if not reply or not reply[0].startswith("ok"):
        raise ValueError("load failed: %s" % reply)
    pos = Position.parse(n3, variant)
    vb.set_cubes(pos.heights)
    vb.advance(100)
    return vb


def position(vb):
    return vb.app.pos.to_string()


class Recorder:
    """Collects event lines."""

    def __init__(self, vb):
        self.lines = []
        vb.subscribe(self.lines.append)

    def moves(self):
        return [x[11:] for x in self.lines if x.startswith("event move ")]

    def has(self, prefix):
        for x in self.lines:
            if x.startswith(prefix):
                return True
        return False


def play_by_hand(vb, m, order="late"):
    """Move the cubes for move m the way a player does (XoBo's host module, ``hands``: a
    place, a regroup cube by cube, a spread in ``order`` "late", "early" or "cube"); returns
    nothing (the board infers). Between hand actions 120 ms pass."""
    from xobo.games.xobo.host import hands

    sw = vb.switches
    for what, c, n in hands(vb.app.pos, m, order):
        if what == "put":
            sw.put(c)
        elif what == "lift":
            sw.lift(c)
        else:
            sw.take(c, n)
        vb.advance(120)


def touch_if_ambiguous(vb, m):
    """What a player does when the board pulses the possible stack cells of a regroup the
    switches cannot tell apart: lift the intended stack and put it back."""
    inf = vb.app.inf
    if inf.ambiguous and (m & 3) == 1:
        c = (m >> 2) & 127
        n = vb.switches.lift(c)
        vb.advance(120)
        vb.switches.put(c, n)
        vb.advance(120)
        return True
    return False
