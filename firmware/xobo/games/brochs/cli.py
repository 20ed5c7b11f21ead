"""Brochs's rules commands behind ``xobo rules --game brochs``, the same on CPython and
MicroPython: the commands of every game (``xobo.rulescli``), with its drawing.

Usage::

    python -m xobo.games.brochs.cli legal [OPTIONS] [POSITION]   (none: one per stdin line)
    python -m xobo.games.brochs.cli play [OPTIONS] [--position P] MOVE...
    python -m xobo.games.brochs.cli perft [OPTIONS] DEPTH [POSITION]
    python -m xobo.games.brochs.cli show [OPTIONS] [POSITION]

OPTIONS: ``--donjon K`` (2-7, BB3), ``--imprecation black|white`` (BM3),
``--master-diagonal either|master-moves`` (BR3), ``--first black|white``. ``--`` alone is the
pass (BM4), a move.

``legal`` and ``perft`` list moves only: asking for submission ``(s?)`` is not a move (BR6) and
resigning ``(resign)`` ends the game (BE1); ``play`` takes them (``rules.is_move``). When a
question waits for its answer, ``legal`` lists the answers ``(s!)`` and ``(pass!)``.
"""

import sys

from xobo import rulescli
from xobo.games import load
from xobo.games.brochs.rules import N_CELLS, QUADRANT_NAMES, WIDTH, cell_name, moves_only

NAME = "brochs"
LITERAL_WORDS = ("--",)  # the pass (BM4): a move, not the end of the options
# perft grows about 400-fold a ply at the start: depth 3 already takes minutes
MAX_PERFT_DEPTH = 6


def listed_moves(pos, buf):
    """The moves ``legal`` and ``perft`` count: not the question, not the resignation (BR6,
    BE1)."""
    return moves_only(buf, pos.legal_moves(buf))


def result_line(pos):
    """The result word, and how the game ended (BE1-BE3)."""
    word = rulescli.result_word(load(NAME), pos)
    return word if word == "*" else "%s (%s)" % (word, pos.end_reason())


def show_lines(pos):
    out = []
    header = "      " + " ".join(FILES_ROW)
    out.append(header)
    isd = bytearray(N_CELLS)
    for c in pos.donjons:
        isd[c] = 1
    for rank in range(WIDTH - 1, -1, -1):
        row = []
        for f in range(WIDTH):
            c = rank * WIDTH + f
            ch = ".bmw"[pos.cells[c]]
            if ch == "." and isd[c]:
                ch = "#"
            elif ch == "." and (f == 7 or rank == 7):
                ch = "+"
            row.append(ch)
        out.append("  %2d  %s  %d" % (rank + 1, " ".join(row), rank + 1))
    out.append(header)
    out.append("%s to act; Black reserve: %d men, master %s; submission %s"
               % (("Black", "White")[pos.side], pos.res_men,
                  "in reserve" if pos.res_master else
                  ("on " + cell_name(pos.master_cell()) if pos.master_cell() >= 0
                   else "captured"), pos.submission()))
    owners = []
    for q in range(4):
        o = pos.donjon_owner(q)
        owners.append("%s %s %s" % (QUADRANT_NAMES[q], cell_name(pos.donjons[q]),
                                    ("nobody", "black", "white")[o + 1]))
    out.append("donjons: " + ", ".join(owners))
    if pos.pick >= 0:
        out.append("White must pick a piece of %s to remove" % QUADRANT_NAMES[pos.pick])
    mask = pos.remote_quadrants()
    if mask and pos.pick < 0:
        out.append("remote capture possible into: " + " ".join(
            QUADRANT_NAMES[q] for q in range(4) if (mask >> q) & 1))
    if pos.is_terminal():
        w = pos.winner()
        out.append("game over (%s): %s" % (pos.end_reason(),
                                           "draw" if w < 0 else ("black", "white")[w] + " wins"))
    return out


FILES_ROW = "abcdefghijklmno"


def main(argv):
    return rulescli.main(argv, globals())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
