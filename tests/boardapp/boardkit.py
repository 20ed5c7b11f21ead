# dual-runtime helper (not a test module)
"""Helpers for the board tests, for CPython and MicroPython alike.

Usage::

    from boardapp.boardkit import board_at, EMPTY
    vb = board_at("........./... ns 32 0 0")   # a VirtualBoard whose cubes match the position
    cuts = cut_at_every_operation(start, operation, booted)  # a save cut at each of its steps
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


def hands_on_board(vb, m, order=None):
    """Move ``m`` of the game the board plays as a player's hands do it, in the board's cells:
    ``[(what, board cell, n)]`` from the game's host module (``xobo.hostkit``: ``hands``;
    ``order`` is XoBo's spread order, "late", "early" or "cube")."""
    from xobo import hostkit

    app = vb.app
    hands = hostkit.of(app.settings["game"]).hands
    acts = hands(app.pos, m, order) if order else hands(app.pos, m)
    to_board = app.place.to_board
    return [(what, to_board[c], n) for what, c, n in acts]


def hand_lines(game, pos, m, name, order=None):
    """Move ``m`` of ``pos`` (game ``game``) as a scripted session's lines
    (``xobo.runtime.script``: ``put CELL``, ``lift CELL``, ``take CELL N``), the hands from the
    game's host module; ``name(cell)`` names a game's cell as the script does."""
    from xobo import hostkit

    hands = hostkit.of(game).hands
    acts = hands(pos, m, order) if order else hands(pos, m)
    out = []
    for what, c, n in acts:
        out.append("take %s %d" % (name(c), n) if what == "take" else "%s %s" % (what, name(c)))
    return out


def play_by_hand(vb, m, order=None):
    """Move the pieces for move m the way a player does (the game's host module's ``hands``:
    XoBo's a place, a regroup cube by cube, a spread in ``order``); returns nothing (the board
    infers). Between hand actions 120 ms pass."""
    sw = vb.switches
    for what, c, n in hands_on_board(vb, m, order):
        if what == "put":
            sw.put(c)
        elif what == "lift":
            sw.lift(c)
        else:
            sw.take(c, n)
        vb.advance(120)


def touch_if_ambiguous(vb, m):
    """What a player does when the board pulses the cells to touch (moves of one footprint,
    XoBo's regroup the switches cannot tell apart): lift the move's touch cell and put it
    back."""
    app = vb.app
    c = app.pos.touch_cell(m) if app.inf.ambiguous else -1
    if c < 0:
        return False
    c = app.place.to_board[c]
    n = vb.switches.lift(c)
    vb.advance(120)
    vb.switches.put(c, n)
    vb.advance(120)
    return True


def cut_at_every_operation(start, operation, booted, most=200):
    """A power cut at every point of ``operation(vb)``'s flash writes: for n = 0, 1, ... a
    board made by ``start()`` has its power cut after its n-th flash operation (the virtual
    flash's ``cut_after``) while ``operation`` runs, then boots again (``power_cut``) and
    ``booted(vb, n, cut)`` checks it (``cut``: the operation was cut). Ends at the first n
    the operation runs through (its board cut and booted after it all the same); returns how
    many times it was cut."""
    for n in range(most):
        vb = start()
        vb.flash.cut_after(n)
        operation(vb)
        cut = not vb.powered
        vb.power_cut()
        booted(vb, n, cut)
        if not cut:
            return n
    raise AssertionError("still cut after %d flash operations" % most)
