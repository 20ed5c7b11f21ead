# dual-runtime helpers for the Brochs tests (imported by test modules, collects no tests)
"""Build Brochs positions from a few pieces: ``board(w="e5 f6", b="e6", m="d4")``."""

from xobo.games.brochs.rules import MAN, MASTER, WHITE, Position, parse_cell

EMPTY_BOARD = "/".join(["..............."] * 15)


def board(w="", b="", m="", side="b", men=None, master=None, sub="-", **settings):
    """A position with White on ``w``, Black men on ``b``, the master on ``m`` (squares
    separated by spaces); the reserve fills Black up to 12 men and the master unless given."""
    pos = Position.parse(EMPTY_BOARD + " b 0 0 -", **settings)
    nb = 0
    for names, kind in ((w, WHITE), (b, MAN), (m, MASTER)):
        for name in names.split():
            c = parse_cell(name)
            assert c >= 0, name
            pos._put(c, kind)
            nb += kind == MAN
    text = pos.to_string().split()[0]
    if men is None:
        men = 12 - nb
    if master is None:
        master = 0 if m else 1
    return Position.parse("%s %s %d %d %s" % (text, side, men, master, sub), **settings)
