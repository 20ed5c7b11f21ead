"""The rules commands behind ``xobo rules``, runnable under CPython and MicroPython alike.

The host CLI parses options and calls :func:`main`; with ``--runtime micropython`` it runs
``micropython -m xobo.games.xobo.rules.cli ARGS``, so both engines answer the same question.

Usage::

    micropython -m xobo.games.xobo.rules.cli legal --variant kv "<N3 position>"
    micropython -m xobo.games.xobo.rules.cli play --position "<N3>" e5 d4
    micropython -m xobo.games.xobo.rules.cli perft 2
    micropython -m xobo.games.xobo.rules.cli show "<N3>"
"""

import sys

from xobo import rulescli
from xobo.errors import XoboError
from xobo.games.xobo.rules.geometry import N_CELLS, NS, cell_name
from xobo.games.xobo.rules.moves import new_move_buffer
from xobo.games.xobo.rules.notation import format_move, parse_move, strip_voina_mark
from xobo.games.xobo.rules.position import Position, perft
from xobo.numbers import parse_uint

# perft's count grows about 80-fold a ply: depth 4 from the start already takes a minute, and a
# depth past this would only hang (and allocate a move buffer per ply) instead of answering.
MAX_PERFT_DEPTH = 8

USAGE = """usage:
  legal [--variant V] [POSITION]     legal moves (POSITION omitted: one per stdin line)
  play [--variant V] [--position P] MOVE...
  perft [--variant V] DEPTH [POSITION]
  show [--variant V] POSITION"""


def _err(msg):
    sys.stderr.write("error: %s\n" % msg)


def _options(args):
    """Split ``--variant V`` and ``--position P`` from the positional arguments."""
    opts = {"variant": "xobo", "position": None}
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--variant", "--position"):
            if i + 1 >= len(args):
                raise XoboError("%s needs a value" % a)
            opts[a[2:]] = args[i + 1]
            i += 2
        elif a.startswith("--variant="):
            opts["variant"] = a[10:]
            i += 1
        elif a.startswith("--position="):
            opts["position"] = a[11:]
            i += 1
        else:
            rest.append(a)
            i += 1
    if opts["variant"] not in ("xobo", "kv"):
        raise XoboError("unknown variant '%s': use xobo or kv" % opts["variant"])
    return opts, rest


def _position_arg(rest, variant):
    # a position is one quoted argument, or its five fields unquoted
    return Position.parse(" ".join(rest), variant)






def cmd_legal(args):
    opts, rest = _options(args)
    return rulescli.cmd_legal(rest, lambda text: Position.parse(text, opts["variant"]),
                              new_move_buffer())


def result_word(pos):
    w = pos.winner()
    if w < 0:
        return "*"
    return "ns" if w == NS else "ew"


def cmd_play(args):
    opts, rest = _options(args)
    if opts["position"]:
        pos = Position.parse(opts["position"], opts["variant"])
    else:
        pos = Position(opts["variant"])
    if not rest:
        raise XoboError("play needs at least one move")
    # a Voina mark may be glued to its move ('e5 (v)') or be the next argument ('(v)')
    moves = []
    for text in rest:
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
        print("%s\t%s\t%s" % (shown, pos.to_string(), result_word(pos)))
    return 0


def cmd_perft(args):
    opts, rest = _options(args)
    if not rest:
        raise XoboError("perft needs a depth, a whole number 0-%d" % MAX_PERFT_DEPTH)
    depth = parse_uint(rest[0], 3)
    if depth < 0 or depth > MAX_PERFT_DEPTH:
        raise XoboError("perft depth must be a whole number 0-%d, not '%s'"
                        % (MAX_PERFT_DEPTH, rest[0]))
    if len(rest) > 1:
        pos = _position_arg(rest[1:], opts["variant"])
    else:
        pos = Position(opts["variant"])
    print(perft(pos, depth))
    return 0


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


def cmd_show(args):
    opts, rest = _options(args)
    pos = _position_arg(rest, opts["variant"])
    for line in show_lines(pos):
        print(line)
    return 0


COMMANDS = {"legal": cmd_legal, "play": cmd_play, "perft": cmd_perft, "show": cmd_show}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        _err("unknown rules command" if argv else "no rules command")
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        return COMMANDS[argv[0]](argv[1:])
    except XoboError as exc:
        _err(str(exc))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
