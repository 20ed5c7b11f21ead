"""The rules commands of the test game (``xobo rules --game tiny ...``), CPython or MicroPython:
the commands of every game (``xobo.rulescli``: ``legal play perft show result hint``), and the
smallest example of a game's hooks: its name, its deepest perft, its drawing.

Usage::

    micropython -m xobo.games.tiny.cli legal "x.o/.x./... o"     # a1 a2 b1 b3 c1 c2
    micropython -m xobo.games.tiny.cli play --first o b2 a1      # one line a move
    micropython -m xobo.games.tiny.cli show "x.o/.x./..x o"
    micropython -m xobo.games.tiny.cli perft 9                   # 255168 games
    micropython -m xobo.games.tiny.cli hint "x.o/.x./... o"      # c1: o blocks the diagonal
"""

import sys

from xobo import rulescli
from xobo.games.tiny.position import PLAYER_NAMES, cell_name

NAME = "tiny"
MAX_PERFT_DEPTH = 9  # every game ends within 9 moves


def show_lines(pos):
    out = []
    for rank in (2, 1, 0):
        out.append("  %d  %s" % (rank + 1, "  ".join(".xo"[pos.owner[rank * 3 + f]]
                                                    for f in range(3))))
    out.append("     a  b  c")
    w = pos.winner()
    if w >= 0:
        out.append("game over: %s wins" % PLAYER_NAMES[w])
    elif pos.is_terminal():
        out.append("game over: a draw (the board is full)")
    else:
        out.append("%s to move; empty: %s" % (PLAYER_NAMES[pos.side],
                                             " ".join(cell_name(m) for m in pos.legal_actions())))
    return out


def main(argv):
    return rulescli.main(argv, globals())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
