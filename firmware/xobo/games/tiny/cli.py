"""The rules commands of the test game (``xobo rules --game tiny ...``), CPython or MicroPython.

Usage::

    micropython -m xobo.games.tiny.cli legal "x.o/.x./... o"     # a1 a2 b1 b3 c1 c2
    micropython -m xobo.games.tiny.cli play --first o b2 a1      # one line a move
    micropython -m xobo.games.tiny.cli show "x.o/.x./..x o"
"""

import sys

from xobo.errors import XoboError
from xobo.games.tiny.position import PLAYER_NAMES, Position, cell_name

USAGE = """usage:
  legal POSITION                     the legal moves
  play [--position P | --first x|o] MOVE...
  show POSITION"""


def _position_arg(rest):
    # a position is one quoted argument, or its two fields unquoted
    if not rest:
        raise XoboError("a position is needed, like 'x.o/.x./... o'")
    return Position.parse(" ".join(rest))


def result_word(pos):
    w = pos.winner()
    if w >= 0:
        return PLAYER_NAMES[w]
    return "draw" if pos.is_terminal() else "*"


def cmd_legal(args):
    pos = _position_arg(args)
    print(" ".join(sorted(pos.move_text(m) for m in pos.legal_actions())))
    return 0


def cmd_play(args):
    pos = Position()
    moves = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--position", "--first"):
            if i + 1 >= len(args):
                raise XoboError("%s needs a value" % a)
            if a == "--position":
                pos = Position.parse(args[i + 1])
            elif args[i + 1] in PLAYER_NAMES:
                pos = Position(PLAYER_NAMES.index(args[i + 1]))
            else:
                raise XoboError("--first must be x or o, not '%s'" % args[i + 1])
            i += 2
        else:
            moves.append(a)
            i += 1
    if not moves:
        raise XoboError("play needs at least one move")
    for k in range(len(moves)):
        try:
            m = pos.parse_move(moves[k])
        except XoboError as exc:
            raise XoboError("move %d: %s" % (k + 1, exc))
        pos.apply(m)
        print("%s\t%s\t%s" % (pos.move_text(m), pos.to_string(), result_word(pos)))
    return 0


def cmd_show(args):
    pos = _position_arg(args)
    for rank in (2, 1, 0):
        print("  %d  %s" % (rank + 1, "  ".join(".xo"[pos.owner[rank * 3 + f]]
                                             for f in range(3))))
    print("     a  b  c")
    w = pos.winner()
    if w >= 0:
        print("game over: %s wins" % PLAYER_NAMES[w])
    elif pos.is_terminal():
        print("game over: a draw (the board is full)")
    else:
        print("%s to move; empty: %s" % (PLAYER_NAMES[pos.side],
                                         " ".join(cell_name(m) for m in pos.legal_actions())))
    return 0


COMMANDS = {"legal": cmd_legal, "play": cmd_play, "show": cmd_show}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        sys.stderr.write("error: %s\n" % ("unknown rules command '%s'" % argv[0] if argv
                                          else "no rules command"))
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except XoboError as exc:
        sys.stderr.write("error: %s\n" % exc)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
