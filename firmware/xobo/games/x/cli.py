"""The X rules commands behind ``xobo rules --game x``, the same under CPython and MicroPython.

Usage::

    micropython -m xobo.games.x.cli legal "<XN2 position>"
    micropython -m xobo.games.x.cli play [--size 8] [--first red] [--position P] d5 e4 c6
    micropython -m xobo.games.x.cli show "<XN2 position>"
    micropython -m xobo.games.x.cli result "<XN2 position>"

``result`` prints one line, ``SW=r SE=- NW=g NE=y score 1-0-1 winner -``: each corner's owner
(XS2; ``-`` open), the corners won by red, yellow, green (XE2) and the winner (``-`` while the
game goes on).
"""

import sys

from xobo import rulescli
from xobo.errors import XoboError
from xobo.games.x.rules import (
    CORNER_NAMES,
    DEFAULT_SIZE,
    FILES,
    MAX_SIZE,
    MIN_SIZE,
    PLAYER_LETTERS,
    Position,
    new_move_buffer,
)
from xobo.numbers import parse_uint

PLAYER_NAMES = ("red", "yellow", "green")

USAGE = """usage:
  legal [--first F] [POSITION]    legal moves (POSITION omitted: one per stdin line)
  play [--size N] [--first F] [--position P] MOVE...
  show [--first F] POSITION
  result [--first F] POSITION     corner owners, score and winner in one line
F: red, yellow or green (who moved first, default red); N: 4-9 (default 8)"""


def _err(msg):
    sys.stderr.write("error: %s\n" % msg)


def _options(args):
    """Split ``--size N``, ``--first F`` and ``--position P`` from the other arguments."""
    opts = {"size": str(DEFAULT_SIZE), "first": "red", "position": None}
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        key = None
        for name in ("size", "first", "position"):
            if a == "--" + name:
                if i + 1 >= len(args):
                    raise XoboError("%s needs a value" % a)
                opts[name] = args[i + 1]
                key = name
                i += 2
                break
            if a.startswith("--" + name + "="):
                opts[name] = a[len(name) + 3:]
                key = name
                i += 1
                break
        if key is None:
            if a.startswith("--"):
                raise XoboError("unknown option '%s'" % a)
            rest.append(a)
            i += 1
    if opts["first"] not in PLAYER_NAMES:
        raise XoboError("--first must be red, yellow or green, not '%s'" % opts["first"])
    opts["first"] = PLAYER_NAMES.index(opts["first"])
    size = parse_uint(opts["size"], 2)
    if size < MIN_SIZE or size > MAX_SIZE:
        raise XoboError("--size must be a whole number %d-%d, not '%s'"
                        % (MIN_SIZE, MAX_SIZE, opts["size"]))
    opts["size"] = size
    return opts, rest


def _position_arg(rest, opts):
    if not rest:
        raise XoboError("a position is needed (XN2), like '..../..../..../.... r'")
    return Position.parse(" ".join(rest), opts["first"])






def cmd_legal(args):
    opts, rest = _options(args)
    return rulescli.cmd_legal(rest, lambda text: Position.parse(text, opts["first"]),
                              new_move_buffer())


def result_word(pos):
    w = pos.winner()
    return "*" if w < 0 else PLAYER_NAMES[w]


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


def cmd_play(args):
    opts, rest = _options(args)
    if opts["position"]:
        pos = Position.parse(opts["position"], opts["first"])
    else:
        pos = Position(opts["size"], opts["first"])
    if not rest:
        raise XoboError("play needs at least one move")
    k = 0
    for text in rest:
        k += 1
        if pos.is_terminal():
            raise XoboError("move %d (%s): the game is over, the board is full" % (k, text))
        try:
            m = pos.parse_move(text)
        except XoboError as exc:
            raise XoboError("move %d: %s" % (k, exc))
        pos.apply(m)
        print("%s\t%s\t%s" % (pos.move_text(m), pos.to_string(), result_word(pos)))
    return 0


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


def cmd_show(args):
    opts, rest = _options(args)
    for line in show_lines(_position_arg(rest, opts)):
        print(line)
    return 0


def cmd_result(args):
    opts, rest = _options(args)
    print(result_line(_position_arg(rest, opts)))
    return 0


COMMANDS = {"legal": cmd_legal, "play": cmd_play, "show": cmd_show, "result": cmd_result}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        _err("unknown rules command '%s'" % argv[0] if argv else "no rules command")
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except XoboError as exc:
        _err(str(exc))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
