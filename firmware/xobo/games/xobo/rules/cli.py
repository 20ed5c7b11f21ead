"""XoBo's rules commands behind ``xobo rules`` (``--game xobo``), the same under CPython and
MicroPython: the commands of every game (``xobo.rulescli``), with XoBo's drawing and its Voina
mark in ``play``.

Usage::

    micropython -m xobo.games.xobo.rules.cli legal --variant kv "<N3 position>"
    micropython -m xobo.games.xobo.rules.cli play --position "<N3>" e5 d4
    micropython -m xobo.games.xobo.rules.cli perft 2
    micropython -m xobo.games.xobo.rules.cli show              # the start position
    micropython -m xobo.games.xobo.rules.cli hint --level greedy "<N3>"
"""

import sys

from xobo import rulescli
from xobo.errors import XoboError
from xobo.games.xobo.rules.geometry import N_CELLS, NS, cell_name
from xobo.games.xobo.rules.notation import format_move, parse_move, strip_voina_mark

NAME = "xobo"
# perft's count grows about 80-fold a ply: depth 4 from the start already takes a minute, and a
# depth past this would only hang (and allocate a move buffer per ply) instead of answering.
MAX_PERFT_DEPTH = 8


def play(pos, words, print_move):
    """``play``: a Voina mark may be glued to its move ('e5 (v)') or be the next word."""
    moves = []
    for text in words:
        if text.strip() == "(v)" and moves:
            moves[-1] = (moves[-1][0], True)
        else:
            body, marked = strip_voina_mark(text)
            moves.append((body, marked))
    k = 0
    for text, marked in moves:
        k += 1
        if pos.winner() >= 0:
            raise XoboError("move %d (%s): the game is over" % (k, text))
        try:
            m = parse_move(text, pos)
        except XoboError as exc:
            raise XoboError("move %d: %s" % (k, exc))
        pos.apply(m)
        shown = format_move(m)
        if pos.declared_voina():
            shown += " (v)"
        elif marked:
            raise XoboError("move %d (%s) is marked (v) but does not declare Voïna" % (k, text))
        print_move(shown)


def show_lines(pos):
    out = []
    header = "     " + "  ".join("abcdefghi")
    out.append(header)
    for rank in range(8, -1, -1):
        row = []
        for f in range(9):
            v = pos.heights[rank * 9 + f]
            row.append("." if v == 0 else str(v))
        out.append("  %d  %s  %d" % (rank + 1, "  ".join(row), rank + 1))
    out.append(header)
    side = "NS" if pos.side == NS else "EW"
    out.append(
        "variant %s, %s to move; common reserve %d, own NS %d, own EW %d"
        % (pos.variant, side, pos.common, pos.own[0], pos.own[1])
    )
    w = pos.winner()
    if w >= 0:
        out.append("game over: %s wins" % ("NS" if w == NS else "EW"))
        chain = pos.winning_chain()
        if chain:
            out.append("winning chain: " + " ".join(cell_name(c) for c in chain))
        return out
    if pos.under_voina():
        out.append("%s is under Voïna (may regroup)" % side)
    cells = bytearray(N_CELLS)
    for p in (0, 1):
        n = pos.voina_cells(p, cells)
        name = "NS" if p == NS else "EW"
        if n:
            names = [cell_name(c) for c in range(N_CELLS) if cells[c]]
            out.append("Voïna cells of %s: %s" % (name, " ".join(names)))
        spreads = pos.voina_spreads(p)
        if spreads:
            out.append("Voïna spreads of %s: %s" % (name, " ".join(format_move(m)
                                                                  for m in spreads)))
    return out


def main(argv):
    return rulescli.main(argv, globals())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
