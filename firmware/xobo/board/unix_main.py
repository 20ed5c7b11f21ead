"""The board firmware on a desktop: virtual drivers in real time, serial protocol on stdio.

Runs under the MicroPython unix port and CPython alike. Each line on stdin is a protocol
command (docs/protocol.md); replies and (with ``follow on``) events go to stdout. Besides the
protocol, lines starting with ``!`` are script lines (xobo.board.script) acting on the virtual
board: ``!put e5``, ``!lift e5``, ``!take e5 2``, ``!press ok``, ``!leds``; their output lines
are prefixed ``ok `` and closed by a line ``ok``. The board keeps running (10 ms cycles) between
lines; end of input stops it.

Usage::

    micropython -m xobo.board.unix_main [--flash DIR]     (MICROPYPATH=firmware)
    python -m xobo.board.unix_main [--flash DIR]
"""

import sys

from xobo.board.script import ScriptError, ScriptRunner
from xobo.board.virtual_board import VirtualBoard

CYCLE_MS = 10


def _out(line):
    sys.stdout.write(line + "\n")
    try:
        sys.stdout.flush()
    except AttributeError:
        pass


def _stdin_bytes_reader():
    buf = getattr(sys.stdin, "buffer", None)
    if buf is not None:
        return buf.readline
    return lambda: sys.stdin.readline().encode()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    flash_dir = None
    if len(argv) >= 2 and argv[0] == "--flash":
        flash_dir = argv[1]
    board = VirtualBoard(flash_dir=flash_dir, realtime=True)
    board.protocol.writer = _out
    runner = ScriptRunner(board=board, emit=None, events=False)
    board.step()
    import select

    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    readline = _stdin_bytes_reader()
    lineno = 0
    while True:
        board.step()
        ready = poller.poll(CYCLE_MS)
        if not ready:
            continue
        data = readline()
        if not data:
            return 0  # end of input
        lineno += 1
        if data[:1] == b"!":
            try:
                runner.out = []
                runner.run_line(data[1:].decode().strip(), lineno)
                for line in runner.out:
                    _out(line if line.startswith("ok") or line.startswith("error")
                         else "ok " + line)
                _out("ok")
            except (ScriptError, UnicodeError) as exc:
                _out("error %s" % exc)
            continue
        board.feed(data if data.endswith(b"\n") else data + b"\n")


if __name__ == "__main__":
    sys.exit(main())
