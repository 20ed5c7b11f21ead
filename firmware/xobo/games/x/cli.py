"""X's rules commands behind ``xobo rules --game x``, the same under CPython and MicroPython:
the commands of every game (``xobo.rulescli``), with X's drawing and result line.

Usage::

    micropython -m xobo.games.x.cli legal "<XN2 position>"
    micropython -m xobo.games.x.cli play [--size 8] [--first red] [--position P] d5 e4 c6
    micropython -m xobo.games.x.cli show "<XN2 position>"
    micropython -m xobo.games.x.cli result "<XN2 position>"
    micropython -m xobo.games.x.cli perft --size 4 3

``result`` prints one line, ``SW=r SE=- NW=g NE=y score 1-0-1 winner -``: each corner's owner
(XS2; ``-`` open), the corners won by red, yellow, green (XE2) and the winner (``-`` while the
game goes on or when it ends without one).
"""

import sys

from xobo import rulescli
from xobo.games.x import PLAYER_NAMES
from xobo.games.x.rules import CORNER_NAMES, FILES, PLAYER_LETTERS

NAME = "x"
# every empty cell is a move: 64 x 63 x 62 x ... from the start of the 8 x 8
MAX_PERFT_DEPTH = 5


def result_line(pos):
    """``SW=r SE=- NW=g NE=y score 1-0-1 winner -`` (XS2, XE2)."""
    parts = []
    for k in range(4):
        o = pos.corner_owner(k)
        parts.append("%s=%s" % (CORNER_NAMES[k], "-" if o < 0 else PLAYER_LETTERS[o]))
    s = pos.scores(bytearray(3))
    w = pos.winner()
    parts.append("score %d-%d-%d winner %s" % (s[0], s[1], s[2],
                                                "-" if w < 0 else PLAYER_LETTERS[w]))
    return " ".join(parts)


def show_lines(pos):
    """The rhombus drawn with its hexagonal shape: each rank is shifted half a cell right of
    the one below, so the six neighbours of a cell (XB3) are the cells touching it."""
    n = pos.size
    out = []
    out.append(" " * (n + 3) + " ".join(FILES[:n]))
    for r in range(n - 1, -1, -1):
        row = []
        for q in range(n):
            v = pos.owner[r * n + q]
            row.append("." if v == 0 else PLAYER_LETTERS[v - 1])
        out.append("%s%2d  %s  %d" % (" " * r, r + 1, " ".join(row), r + 1))
    out.append("    " + " ".join(FILES[:n]))
    corners = []
    for k in range(4):
        o = pos.corner_owner(k)
        if o < 0:
            corners.append("%s open" % CORNER_NAMES[k])
        else:
            corners.append("%s %s%s" % (CORNER_NAMES[k], PLAYER_NAMES[o],
                                        " (settled)" if pos.corner_settled(k) else ""))
    out.append("corners: " + ", ".join(corners))
    s = pos.scores(bytearray(3))
    w = pos.winner()
    if w >= 0:
        out.append("game over: %s wins, score %d-%d-%d" % (PLAYER_NAMES[w], s[0], s[1], s[2]))
    else:
        out.append("%s to move, %d empty cells; corners now %d-%d-%d"
                   % (PLAYER_NAMES[pos.side], pos.n_cells - pos.filled, s[0], s[1], s[2]))
    for k in range(4):
        chain = pos.corner_chain(k)
        if chain:
            out.append("%s chain: %s" % (CORNER_NAMES[k],
                                         " ".join(pos.move_text(c) for c in chain)))
    return out


def main(argv):
    return rulescli.main(argv, globals())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
