"""Scripted board sessions: a text script of hand actions, run on the virtual board.

The same runner works under CPython and MicroPython (``xobo board run --script FILE``).
Cubes come from and go to the players' hands without limit; the virtual board keeps the real
count of cubes per cell. Each physical action takes 50 ms of virtual time (a hand is not
instantaneous); ``wait`` lets time pass with the board running.

Script lines (``#`` starts a comment; cells like ``e5``):

    put CELL [N]        put N cubes (default 1) on the cell
    lift CELL           take every cube off the cell
    take CELL N         take N cubes off the cell
    bounce CELL [MS]    the cell's switch chatters for MS ms (default 4)
    wait MS             let MS ms pass
    board NAME [GAME]   start again on board NAME (boards/NAME.json, e.g. pico_15x15), empty
                        flash, playing GAME (default: the board's default game)
    press NAME          a short press of ok, undo or hint
    hold NAME MS        hold the button MS ms (1500 or more: a long press; ``hold hint 1600``
                        cycles the computer opponent)
    both MS             hold ok and undo together MS ms
    leds                print the cell colours as rendered (full brightness, before the
                        brightness setting and the power limiter; a blinking cell may be off)
    position            print 'position N3'
    state               print the board's state line
    serial LINE         send LINE over the serial protocol; its replies are printed
    power-cut           power lost and back at this instant
    cut-flash N         arm a power cut at the N-th flash operation from now

Output, one line per event: ``move NOTATION`` (`` (v)`` when it declares Voina),
``undo NOTATION``, ``result PLAYER`` (the protocol's ``event result`` without its reason:
``state`` has it), ``new ...``, ``error ...``, ``power-cut``,
``boot ...``, ``expect ...``, ``cancel host|computer NOTATION``, ``hint ...``, ``load ...``,
``setting KEY VALUE`` (a ``serial set``, or ``hold hint 1600``: the computer opponent);
``leds`` prints ``leds`` and a line per rank of the board (the top rank first), each a colour
``RRGGBB`` per cell. Cells are the board's (``put e5``); the events speak the game's notation
(docs/games.md: a 3 x 3 game on the 9 x 9 board sits on d4-f6, its a1 is the board's d4).

Usage::

    >>> from xobo.runtime.script import run_script
    >>> run_script("put e5\\nwait 1500\\nposition")   # the output lines (ScriptError: a bad one)
    ['move e5', 'position ........./........./........./........./....1..../... ew 35 0 0']
"""

from xobo.numbers import parse_uint
from xobo.runtime.virtual_board import VirtualBoard

HAND_MS = 50
# A cell cannot hold more cubes than the game has (B5): the counts are a bytearray, where 300
# raised on CPython and silently wrapped to 44 on MicroPython.
MAX_CUBES = 36
# One line lets at most a minute of virtual time pass: a longer wait is several lines, and a
# typo like 'wait 10000000' would step the board for hours.
MAX_MS = 60000
PRINTED_EVENTS = ("move", "undo", "result", "new", "error", "power-cut", "load", "expect",
                  "hint", "cancel", "setting")


class ScriptError(ValueError):
    pass


class CountedIds:
    """The games' ids of a scripted session (the drivers' ``entropy``: xobo.runtime.gameid):
    counted, not random, so that a script's output is the same at every run and on both
    runtimes (``gameid 000000000001`` for its first game, then 2...; a game resumed from
    ``--flash`` keeps its own)."""

    def __init__(self):
        self.count = 0

    def __call__(self, n):
        self.count += 1
        return bytes((self.count >> (8 * (n - 1 - k))) & 255 for k in range(n))


def _cell(board, text, lineno):
    try:
        return board.board_cell(text)
    except ValueError as exc:
        raise ScriptError("line %d: %s" % (lineno, exc)) from None


def _int(text, lineno, what, most):
    v = parse_uint(text)  # ASCII digits only, so both runtimes read the same numbers
    if v < 0 or v > most:
        raise ScriptError("line %d: %s must be a whole number 0-%d, not '%s'"
                          % (lineno, what, most, text))
    return v


def _put(board, cell, n, lineno):
    have = board.switches.counts[cell]
    if have + n > MAX_CUBES:
        raise ScriptError("line %d: a cell holds at most %d cubes (the whole game), %d + %d is "
                          "more" % (lineno, MAX_CUBES, have, n))
    board.switches.put(cell, n)


def _args(parts, n_min, n_max, lineno, usage):
    n = len(parts) - 1
    if n < n_min or n > n_max:
        raise ScriptError("line %d: usage: %s" % (lineno, usage))


def leds_lines(board):
    """'leds' then a line of colours per rank of the board, the top rank first."""
    cols = board.cell_colors()
    topo = board.app.topo
    w = topo.width
    out = ["leds"]
    for rank in range(topo.height - 1, -1, -1):
        out.append(" ".join(cols[rank * w + f].upper() for f in range(w)))
    return out


class ScriptRunner:
    """Runs script lines on a VirtualBoard, collecting output lines in ``out``."""

    def __init__(self, board=None, flash_dir=None, emit=None, events=True):
        # (a board given, the serial stand-in's, keeps its own: random ids, as a board's)
        self.ids = board.entropy if board is not None else CountedIds()
        self.board = board or VirtualBoard(flash_dir=flash_dir, entropy=self.ids)
        self.out = []
        self.emit = emit
        if events:
            self.board.subscribe(self._event)
        self.board.step()

    def _print(self, line):
        self.out.append(line)
        if self.emit is not None:
            self.emit(line)

    def _event(self, line):
        if not line.startswith("event "):
            return
        body = line[6:]
        word = body.split(" ", 1)[0]
        if word == "result":  # the script format stays 'result ns|ew' ('state' says how)
            body = " ".join(body.split(" ")[:2])
        if word in PRINTED_EVENTS:
            self._print(body)

    def run_line(self, text, lineno):
        b = self.board
        line = text.split("#", 1)[0].strip() if not text.strip().startswith("serial") \
            else text.strip()
        if not line:
            return
        parts = line.split()
        cmd = parts[0].lower()
        try:
            if cmd == "put":
                _args(parts, 1, 2, lineno, "put CELL [N]")
                n = _int(parts[2], lineno, "N", MAX_CUBES) if len(parts) > 2 else 1
                _put(b, _cell(b, parts[1], lineno), n, lineno)
                b.advance(HAND_MS)
            elif cmd == "lift":
                _args(parts, 1, 1, lineno, "lift CELL")
                b.switches.lift(_cell(b, parts[1], lineno))
                b.advance(HAND_MS)
            elif cmd == "take":
                _args(parts, 2, 2, lineno, "take CELL N")
                n = _int(parts[2], lineno, "N", MAX_CUBES)
                b.switches.take(_cell(b, parts[1], lineno), n)
                b.advance(HAND_MS)
            elif cmd == "bounce":
                _args(parts, 1, 2, lineno, "bounce CELL [MS]")
                ms = _int(parts[2], lineno, "MS", MAX_MS) if len(parts) > 2 else 4
                b.bounce(_cell(b, parts[1], lineno), ms)
                b.advance(HAND_MS)
            elif cmd == "wait":
                _args(parts, 1, 1, lineno, "wait MS")
                b.advance(_int(parts[1], lineno, "MS", MAX_MS))
            elif cmd == "press":
                _args(parts, 1, 1, lineno, "press ok|undo|hint")
                b.hold(parts[1], 80)
                b.advance(150)
            elif cmd == "hold":
                _args(parts, 2, 2, lineno, "hold ok|undo|hint MS")
                ms = _int(parts[2], lineno, "MS", MAX_MS)
                b.hold(parts[1], ms)
                b.advance(ms + 50)
            elif cmd == "both":
                _args(parts, 1, 1, lineno, "both MS")
                ms = _int(parts[1], lineno, "MS", MAX_MS)
                b.hold("ok", ms)
                b.hold("undo", ms)
                b.advance(ms + 50)
            elif cmd == "leds":
                _args(parts, 0, 0, lineno, "leds")
                for out in leds_lines(b):
                    self._print(out)
            elif cmd == "position":
                _args(parts, 0, 0, lineno, "position")
                self._print("position " + b.app.pos.to_string())
            elif cmd == "state":
                _args(parts, 0, 0, lineno, "state")
                for r in b.command("state"):
                    self._print(r)
            elif cmd == "serial":
                rest = line[6:].strip()
                for r in b.command(rest):
                    self._print(r)
            elif cmd == "board":
                _args(parts, 1, 2, lineno, "board NAME [GAME]")
                settings = {"game": parts[2]} if len(parts) > 2 else None
                self.board = b = VirtualBoard(board=parts[1], settings=settings,
                                              entropy=self.ids)
                if b.bd.name != parts[1]:
                    raise ScriptError("line %d: no board '%s'" % (lineno, parts[1]))
                b.subscribe(self._event)
                b.step()
            elif cmd == "power-cut":
                _args(parts, 0, 0, lineno, "power-cut")
                b.power_cut()
                self._print("boot %s" % (b.app.note or "new game"))
            elif cmd == "cut-flash":
                _args(parts, 1, 1, lineno, "cut-flash N")
                if not hasattr(b.flash, "cut_after"):
                    raise ScriptError("line %d: cut-flash needs the in-memory flash (no --flash)"
                                      % lineno)
                b.flash.cut_after(_int(parts[1], lineno, "N", 999999999))
            else:
                raise ScriptError(
                    "line %d: unknown command '%s' (board, put, lift, take, bounce, wait, press, "
                    "hold, both, leds, position, state, serial, power-cut, cut-flash)"
                    % (lineno, cmd))
        except ScriptError:
            raise
        except ValueError as exc:  # a button name, too many cubes to take...
            raise ScriptError("line %d: %s" % (lineno, exc)) from None

    def run(self, text):
        lineno = 0
        for line in text.split("\n"):
            lineno += 1
            self.run_line(line, lineno)
        return self.out


def run_script(text, flash_dir=None, emit=None):
    """Run a whole script; returns the output lines (ScriptError names the bad line)."""
    return ScriptRunner(flash_dir=flash_dir, emit=emit).run(text)


def main(argv):
    """``micropython -m xobo.runtime.script FILE [--flash DIR]``: prints the output lines;
    exit status 2 on a bad script line."""
    path = None
    flash_dir = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--flash" and i + 1 < len(argv):
            flash_dir = argv[i + 1]
            i += 2
            continue
        path = a
        i += 1
    if path is None:
        print("error: usage: script FILE [--flash DIR]")
        return 2
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        print("error: cannot read %s: %s" % (path, exc))
        return 2
    try:
        text = data.decode()
    except UnicodeError:  # MicroPython's UnicodeError says nothing: name the file ourselves
        print("error: %s is not UTF-8 text" % path)
        return 2
    try:
        run_script(text, flash_dir, emit=print)
    except ScriptError as exc:
        print("error: %s" % exc)
        return 2
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
