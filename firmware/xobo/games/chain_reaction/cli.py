"""Chain Reaction's rules commands behind ``xobo rules --game chain-reaction``, the same under
CPython and MicroPython: the commands of every game (``xobo.rulescli``), with its drawing. A
move is one segment in CN1 notation (a scoring segment names its re-entry square,
``e7:N+2@d2``); ``perft`` counts segment sequences.

Usage::

    micropython -m xobo.games.chain_reaction.cli legal [--variant blockade] "<CN2 position>"
    micropython -m xobo.games.chain_reaction.cli play --position "<CN2>" d4-d5 d5:N
    micropython -m xobo.games.chain_reaction.cli perft 3
    micropython -m xobo.games.chain_reaction.cli show --field 6
"""

import sys

from xobo import rulescli
from xobo.games.chain_reaction.rules import DIR_NAMES, PLAYER_WORDS, WIDTH, cell_name

NAME = "chain-reaction"
MOVE_WORD = "segment"
# about 30-fold a segment: depth 4 from the start takes a few seconds, 6 would take hours
MAX_PERFT_DEPTH = 6


def show_lines(pos):
    out = []
    header = "     " + "  ".join("abcdefghi")
    out.append(header)
    for r in range(pos.height - 1, -1, -1):
        row = []
        for f in range(WIDTH):
            c = r * WIDTH + f
            if not pos.used[c]:
                row.append(" ")
            elif pos.bot[c]:
                row.append("LD"[pos.top[c] - 1])  # a tower shows its controller in capitals
            elif pos.top[c]:
                row.append("ld"[pos.top[c] - 1])
            elif pos.goal_value(c):
                row.append(str(pos.goal_value(c)))
            else:
                row.append(".")
        out.append("%3d  %s  %d" % (r + 1, "  ".join(row), r + 1))
    out.append(header)
    side = PLAYER_WORDS[pos.side]
    out.append("field %d, target %d%s; score Light %d, Dark %d"
               % (pos.field, pos.target, ", blockade variant" if pos.blockade else "",
                  pos.score[0], pos.score[1]))
    w = pos.winner()
    if w >= 0:
        out.append("game over: %s wins%s" % (PLAYER_WORDS[w],
                                              " by blockade" if pos.blockade_winner == w
                                              and pos.score[w] < pos.target else ""))
        return out
    out.append("%s to move, segment %d of at most 5" % (side, pos.seg + 1))
    if pos.tower >= 0:
        t = pos.tower
        out.append("tower on %s: %s under %s" % (cell_name(t), PLAYER_WORDS[pos.top[t] - 1],
                                                  PLAYER_WORDS[pos.bot[t] - 1]))
        dirs = pos.tower_directions()
        if dirs:
            out.append("tower directions: " + " ".join(
                "%s(%s,%s%s)" % (DIR_NAMES[d], cell_name(s1), cell_name(s2),
                                 "+%d" % p if p else "") for d, s1, s2, p in dirs))
    if pos.penalty_due():
        out.append("%s has no legal segment: penalty (CS2)" % side)
    if pos.blockade_pending >= 0:
        out.append("%s's blockade must survive this turn (CE3)"
                   % PLAYER_WORDS[pos.blockade_pending])
    return out


def main(argv):
    return rulescli.main(argv, globals())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
