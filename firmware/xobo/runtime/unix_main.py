"""The board firmware on a desktop: virtual drivers in real time, serial protocol on stdio.

Runs under the MicroPython unix port and CPython alike. Each line on stdin is a protocol
command (docs/protocol.md); replies and (with ``follow on``) events go to stdout. Besides the
protocol, lines starting with ``!`` are script lines (xobo.runtime.script) acting on the virtual
board: ``!put e5``, ``!lift e5``, ``!take e5 2``, ``!press ok``, ``!leds``; their output lines
are prefixed ``ok `` and closed by a line ``ok``. The board keeps running (10 ms cycles) between
lines; end of input stops it.

Usage::

    micropython -m xobo.runtime.unix_main [--flash DIR] [--board NAME]   (MICROPYPATH=firmware)
    python -m xobo.runtime.unix_main [--flash DIR] [--board NAME]   (boards/NAME.json)
"""

import sys

from xobo.runtime.script import ScriptError, ScriptRunner
from xobo.runtime.virtual_board import VirtualBoard

CYCLE_MS = 10


def _out(line):
    sys.stdout.write(line + "\n")
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


def _stdin_reader():
    """read() -> the bytes available on stdin now (b"" at end of input). CPython reads the
    raw file descriptor (a buffered reader would hide lines from poll); the MicroPython
    unix port's stdin is unbuffered: one byte per poll."""
    try:
        import os

        fd = sys.stdin.fileno()
        read = os.read
        return lambda: read(fd, 4096)
    except (ImportError, AttributeError, OSError, ValueError):
        buf = getattr(sys.stdin, "buffer", None)
        if buf is not None:
            return lambda: buf.read(1)
        return lambda: sys.stdin.read(1).encode()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    opts = {"--flash": None, "--board": "pico_gpio"}
    while len(argv) >= 2 and argv[0] in opts:
        opts[argv[0]] = argv[1]
        argv = argv[2:]
    board = VirtualBoard(flash_dir=opts["--flash"], board=opts["--board"], realtime=True)
    board.set_writer(_out)
    runner = ScriptRunner(board=board, emit=None, events=False)
    board.step()
    import select

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    read = _stdin_reader()
    pending = bytearray()
    lineno = 0
    while True:
        board.step()
        if not poller.poll(CYCLE_MS):
            continue
        data = read()
        if not data:
            if pending:
                board.feed(bytes(pending) + b"\n")
            return 0  # end of input
        pending.extend(data)
        while True:
            i = pending.find(b"\n")
            if i < 0:
                if len(pending) > 4096:  # a line this long is junk: let the protocol say so
                    board.feed(bytes(pending))
                    pending = bytearray()
                break
            line = bytes(pending[:i + 1])
            pending = pending[i + 1:]
            lineno += 1
            _line(board, runner, line, lineno)


def _line(board, runner, line, lineno):
    if line[:1] == b"!":
        try:
            text = line[1:].decode().strip()
        except UnicodeError:  # MicroPython's UnicodeError has no message: say it ourselves
            _out("error line %d is not UTF-8 text: ignored" % lineno)
            return
        try:
            runner.out = []
            runner.run_line(text, lineno)
            for out in runner.out:
                _out(out if out.startswith("ok") or out.startswith("error") else "ok " + out)
            _out("ok")
        except ScriptError as exc:
            _out("error %s" % exc)
        return
    board.feed(line)

if __name__ == "__main__":
    sys.exit(main())
