# dual-runtime helpers (no tests here)
"""Building positions for rules tests: ``make_pos("e5 e4 c4=3", side=NS)``."""

from xobo.games.xobo.rules.geometry import EW, NS, parse_cell
from xobo.games.xobo.rules.notation import format_move, parse_move
from xobo.games.xobo.rules.position import Position


def make_pos(cells="", side=NS, own_ns=0, own_ew=0, common=None, variant="xobo"):
    """Cells as 'e5 e4 c4=3' (height 1 unless '=h'); common reserve makes up 36 (B5)."""
    pos = Position(variant, side)
    total = 0
    for word in cells.split():
        if "=" in word:
            name, h = word.split("=")
            h = int(h)
        else:
            name, h = word, 1
        pos.heights[parse_cell(name)] = h
        total += h
    pos.own[0] = own_ns
    pos.own[1] = own_ew
    pos.common = 36 - total - own_ns - own_ew if common is None else common
    pos.side = side
    return pos


def column(file, ranks):
    """'e', '1-4 6' -> 'e1 e2 e3 e4 e6'."""
    out = []
    for part in ranks.split():
        if "-" in part:
            a, b = part.split("-")
            for r in range(int(a), int(b) + 1):
                out.append("%s%d" % (file, r))
        else:
            out.append("%s%s" % (file, part))
    return " ".join(out)


def row(rank, files):
    """'5', 'a-d' -> 'a5 b5 c5 d5'."""
    out = []
    for part in files.split():
        if "-" in part:
            a, b = part.split("-")
            for f in range(ord(a), ord(b) + 1):
                out.append("%s%s" % (chr(f), rank))
        else:
            out.append("%s%s" % (part, rank))
    return " ".join(out)


def legal_names(pos):
    names = [format_move(m) for m in pos.legal_actions()]
    names.sort()
    return names


def play(pos, *texts):
    for t in texts:
        pos.play(parse_move(t, pos))
    return pos


__all__ = ["make_pos", "column", "row", "legal_names", "play", "NS", "EW"]
