"""What every game's rules CLI (``xobo rules --game G legal``) shares, under CPython and the
MicroPython unix port alike: the legal moves of a position given as arguments, or of each
line of stdin, one output line per input line (an error line for a bad one).

Usage (a game's cli.py)::

    from xobo import rulescli
    return rulescli.cmd_legal(rest, lambda text: Position.parse(text), new_move_buffer())
"""

import sys

from xobo.errors import XoboError


def legal_line(pos, buf, moves=None):
    """The legal moves of ``pos`` in its notation, sorted, on one line; ``moves(pos, buf) -> n``
    fills ``buf`` when a game lists fewer than ``pos.legal_moves`` (Brochs: no buttons)."""
    n = moves(pos, buf) if moves is not None else pos.legal_moves(buf)
    names = [pos.move_text(buf[i]) for i in range(n)]
    names.sort()
    return " ".join(names)


def stdin_lines():
    """The lines of stdin as bytes: text decoding would stop at the first invalid byte."""
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    while True:
        line = stdin.readline()
        if not line:
            return
        if isinstance(line, str):
            line = line.encode()
        yield line


def cmd_legal(rest, parse, buf, moves=None):
    """``legal``: of the position the words ``rest`` make, or of each stdin line when there
    are none (``parse(text)`` makes a position or raises XoboError); the exit status.
    ``moves``: as for ``legal_line``."""
    if rest:
        print(legal_line(parse(" ".join(rest)), buf, moves))
        return 0
    status = 0
    lineno = 0
    for raw in stdin_lines():
        lineno += 1
        try:
            line = raw.decode().strip()
        except UnicodeError:  # one bad line must not end the others (nor be a traceback)
            print("error: line %d is not UTF-8 text" % lineno)
            status = 1
            continue
        if not line:
            print("error: empty line, expected a position")  # one output line per input line
            status = 1
            continue
        try:
            print(legal_line(parse(line), buf, moves))
        except XoboError as exc:
            print("error: %s" % exc)
            status = 1
    return status
