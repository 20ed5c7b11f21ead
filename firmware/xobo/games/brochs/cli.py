"""The Brochs rules commands behind ``xobo rules --game brochs``, the same on CPython and
MicroPython.

Usage::

    python -m xobo.games.brochs.cli legal [OPTIONS] [POSITION]   (none: one per stdin line)
    python -m xobo.games.brochs.cli play [OPTIONS] [--position P] MOVE...
    python -m xobo.games.brochs.cli perft [OPTIONS] DEPTH [POSITION]
    python -m xobo.games.brochs.cli show [OPTIONS] [POSITION]

OPTIONS: ``--donjon K`` (2-7, BB3), ``--imprecation black|white`` (BM3),
``--master-diagonal either|master-moves`` (BR3). ``--`` alone is the pass (BM4), a move.

``legal`` and ``perft`` list moves only: asking for submission ``(s?)`` is not a move (BR6) and
resigning ``(resign)`` ends the game (BE1); ``play`` takes them (``rules.is_move``). When a
question waits for its answer, ``legal`` lists the answers ``(s!)`` and ``(pass!)``.
"""

import sys

from xobo import rulescli
from xobo.errors import XoboError
from xobo.games.brochs.record import result_word
from xobo.games.brochs.rules import (
    N_CELLS,
    QUADRANT_NAMES,
    WIDTH,
    Position,
    cell_name,
    moves_only,
    new_move_buffer,
    perft,
)
from xobo.numbers import parse_uint

# perft grows about 400-fold a ply at the start: depth 3 already takes minutes
MAX_PERFT_DEPTH = 6

USAGE = """usage:
  legal [OPTIONS] [POSITION]     legal moves, no (s?) nor (resign) (POSITION omitted: stdin)
  play [OPTIONS] [--position P] MOVE...
  perft [OPTIONS] DEPTH [POSITION]
  show [OPTIONS] [POSITION]
OPTIONS: --donjon K (2-7), --imprecation black|white, --master-diagonal either|master-moves
A MOVE of -- is the pass."""

_VALUED = ("--donjon", "--imprecation", "--master-diagonal", "--position")


def _err(msg):
    sys.stderr.write("error: %s\n" % msg)


def _options(args):
    opts = {"donjon": "4", "imprecation": "black", "master-diagonal": "either",
            "position": None}
    rest = []
    i = 0
    while i < len(args):
        a = args[i]
        name = a.split("=", 1)[0]
        if name in _VALUED:
            if "=" in a:
                opts[name[2:]] = a.split("=", 1)[1]
                i += 1
            else:
                if i + 1 >= len(args):
                    raise XoboError("%s needs a value" % a)
                opts[a[2:]] = args[i + 1]
                i += 2
        elif a.startswith("--") and a != "--":  # "--" alone is the pass, a move
            raise XoboError("unknown option '%s'" % a)
        else:
            rest.append(a)
            i += 1
    k = parse_uint(opts["donjon"], 1)
    if k < 2 or k > 7:
        raise XoboError("--donjon must be a whole number 2-7, not '%s'" % opts["donjon"])
    opts["donjon"] = k
    return opts, rest


def _new(opts):
    return Position(opts["donjon"], opts["imprecation"], opts["master-diagonal"])


def _parse(text, opts):
    return Position.parse(text, opts["donjon"], opts["imprecation"], opts["master-diagonal"])



def cmd_legal(args):
    opts, rest = _options(args)
    return rulescli.cmd_legal(rest, lambda text: _parse(text, opts), new_move_buffer(),
                              _moves)


def _moves(pos, buf):
    """The moves ``legal`` lists: not the question, not the resignation (BR6, BE1)."""
    return moves_only(buf, pos.legal_moves(buf))


def cmd_play(args):
    opts, rest = _options(args)
    pos = _parse(opts["position"], opts) if opts["position"] else _new(opts)
    if not rest:
        raise XoboError("play needs at least one move")
    k = 0
    for text in rest:
        k += 1
        if pos.is_terminal():
            raise XoboError("move %d (%s): the game is over (%s)" % (k, text, pos.end_reason()))
        try:
            m = pos.parse_move(text)
        except XoboError as exc:
            raise XoboError("move %d: %s" % (k, exc))
        shown = pos.move_text(m)
        pos.apply(m)
        print("%s\t%s\t%s" % (shown, pos.to_string(), result_word(pos)))
    return 0


def cmd_perft(args):
    opts, rest = _options(args)
    if not rest:
        raise XoboError("perft needs a depth, a whole number 0-%d" % MAX_PERFT_DEPTH)
    depth = parse_uint(rest[0], 2)
    if depth < 0 or depth > MAX_PERFT_DEPTH:
        raise XoboError("perft depth must be a whole number 0-%d, not '%s'"
                        % (MAX_PERFT_DEPTH, rest[0]))
    pos = _parse(" ".join(rest[1:]), opts) if len(rest) > 1 else _new(opts)
    print(perft(pos, depth))
    return 0


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


def cmd_show(args):
    opts, rest = _options(args)
    pos = _parse(" ".join(rest), opts) if rest else _new(opts)
    for line in show_lines(pos):
        print(line)
    return 0


COMMANDS = {"legal": cmd_legal, "play": cmd_play, "perft": cmd_perft, "show": cmd_show}


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
