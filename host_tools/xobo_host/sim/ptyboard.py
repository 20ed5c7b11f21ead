"""The serial stand-in's ``--pty`` mode: the board firmware on virtual drivers behind a
pseudo-terminal, so a host opens it with pyserial exactly as it opens a Pico's /dev/ttyACM0.

``xobo board serial --pty [--flash DIR] [--board NAME]`` runs the firmware
(``xobo.runtime``: the app, the inference, the light, the serial protocol, the flash) in real
time, a cycle every 10 ms, under CPython (the MicroPython unix port has no pseudo-terminals).
With ``--hands-clock`` the board's clock moves only with the players' lines (each hand 50 ms,
``press`` 150 ms, ``wait MS``), never by itself: a test of the board's timeouts (the
self-test's 10 s for a cube, a settle time) then checks the same thing on a loaded machine
as on an idle one; the serial line is still answered at once.
The first line it prints is ``pty DEVICE``: the serial port the host opens. The protocol
(docs/protocol.md) is spoken on that port only. The stand-in's own stdin takes the players'
hands: script lines (``put e5``, ``lift e5``, ``press ok``, ``serial set name terrace-3``...,
``xobo.runtime.script``); each answers with its output lines prefixed ``ok `` and a closing
``ok`` (or one ``error ...`` line) on stdout. End of stdin, or SIGTERM, unplugs the board.

Its board id (serial ``id``) is drawn at its first ``id`` and kept in its flash directory
(``board.id``): the same flash is the same board, plugged back on any port.

Like a Pico's USB serial with no host reading, what the board writes while nobody reads the
port is dropped once the terminal's buffer is full (the board never stalls on it).

Usage (``PtyBoard`` runs one in a child process, for tests and benchmarks)::

    xobo board serial --pty --flash /tmp/table-1 --hands-clock

    >>> from xobo_host.sim.ptyboard import PtyBoard
    >>> board = PtyBoard(flash_dir="t1", hands_clock=True).plug()
    >>> board.device                              # a link to its pty, open it with pyserial
    't1.tty0'
    >>> board.play("serial set name terrace-3")   # a line on the serial port: its reply
    ['name terrace-3']
    >>> board.play("put e5"), board.play("wait 1200")   # a player's hand, the settle time
    ([], [])
    >>> board.unplug()                            # the port goes away; the flash stays
    >>> board.plug().device                       # back, on a port of its own again
    't1.tty1'
    >>> board.play("serial state")                # the move it kept, the game's id
    ['state match side ew result * ply 1 gameid ...']
    >>> board.unplug()
"""

import errno
import os
import select
import subprocess
import sys

CYCLE_MS = 10


def open_pty():
    import pty
    import tty

    master, slave = pty.openpty()
    tty.setraw(slave)  # bytes as they are: no echo, no line editing, no CR/LF translation
    os.set_blocking(master, False)
    return master, slave


def _load_cubes(path, n):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data if len(data) == n else None


def _save_cubes(path, counts):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(bytes(counts))
    os.replace(tmp, path)


def play_lines(board, what):
    """``play MOVE`` / ``play expected``: the players' hands play a move (the one the board
    lights for the host or the computer: ``expected``), as script lines."""
    from xobo.runtime.script import ScriptError

    app = board.app
    if what in ("", "expected"):
        if app.pending < 0:
            raise ScriptError("play expected: no host or computer move waits for the pieces")
        m = app.pending
    else:
        try:
            m = app.pos.parse_move(what)
        except Exception as exc:
            raise ScriptError("play %s: %s" % (what, exc)) from None
        if not app.pos.is_legal(m):
            raise ScriptError("play %s: not a legal move now" % what)
    if what in ("", "expected"):
        return _script_lines(app, m)  # the board waits for this one: no button
    button = getattr(app.pos, "button_of", None)
    name = button(m) if button is not None else ""
    lines = _script_lines(app, m)
    if not lines:  # a move no switch sees (a pass, a resignation): the game's button
        for name in app.layers.BUTTON_NAMES:
            if app.layers.button_move(app.pos, name) == m:
                break
        else:
            raise ScriptError("play %s: no hand or button plays it" % what)
    return (["button " + name] if name else []) + lines


def play(board, runner, what, lineno=0):
    """``play MOVE`` / ``play expected`` done: the move's hand actions as one gesture, each
    taking the script's own time on the board's clock however long this process took between
    two of them (``VirtualClock.hold``): a starved process made a move's actions seconds
    apart, and the board judged the pieces half-way, as a hesitant player's (a partial
    regroup committed as the move; a spread taken for misplaced pieces, then offered as a
    move to confirm with ok): a benchmark's match stuck (docs/remote.md)."""
    lines = play_lines(board, what)
    board.clock.hold()
    try:
        for line in lines:
            hand_line(board, runner, line, lineno)
    finally:
        board.clock.release()


def _script_lines(app, m):
    """Move ``m`` as the players' hands play it (the game's host module, ``xobo.hostkit``),
    as script lines of ``xobo.runtime.script`` in the board's cell names (``lift e5``,
    ``put d4``, ``take c3 1``)."""
    from xobo import hostkit

    name = app.topo.cell_name
    to_board = app.place.to_board
    out = []
    for what, g, n in hostkit.of(app.settings["game"]).hands(app.pos, m):
        cell = name(to_board[g])
        out.append("take %s %d" % (cell, n) if what == "take" else "%s %s" % (what, cell))
    return out


def hand_line(board, runner, line, lineno):
    """A hands' line: ``button NAME`` presses the game's button NAME on the board (the
    gesture the board definition gives it: Brochs's master, pass); else a script line."""
    from xobo.errors import XoboError
    from xobo.runtime.script import ScriptError

    if line.startswith("button "):
        try:
            board.app.controls.press(line[7:].strip(), board.clock.ticks_ms())
        except XoboError as exc:
            raise ScriptError("%s: %s" % (line, exc)) from None
        board.advance(50)
        return
    runner.run_line(line, lineno)


def look(board):
    """``look``: what the players see, without a word on the serial line (a ``serial``
    line's replies go to the host too): ``ply N expect MOVE|- position TEXT``."""
    app = board.app
    pos = app.pos
    expect = pos.move_text(app.pending) if app.pending >= 0 else "-"
    return "ply %d expect %s position %s" % (pos.ply, expect, pos.to_string())


def look_result(board):
    """``look result``: how the game ended as the board shows it (no serial):
    ``result ew ns-resigned edges N=rrggbb S=... E=... W=...`` (``result *`` while it goes
    on)."""
    edges = board.edge_colors()
    return "result %s edges %s" % (board.app.result_text(), " ".join(
        "%s=%s" % (k, edges[k]) for k in sorted(edges)))


def serve(flash_dir=None, board_name="pico_gpio", out=sys.stdout, stdin_fd=None,
          cubes_file=None, events_file=None, hands_clock=False):
    """Run the board behind a new pty until stdin ends; prints ``pty DEVICE`` first.
    ``cubes_file``: the cubes on the table, kept there when the board is unplugged (the
    players' hands write it; the board finds them when it is plugged back in).
    ``events_file``: every event line the board emits, appended with the host's clock
    (``1764134400.123456 event move e5``): the benchmark's moment of each move.
    ``hands_clock``: the board's time passes only with the players' lines."""
    from xobo.runtime.script import ScriptError, ScriptRunner
    from xobo.runtime.virtual_board import VirtualBoard

    master, slave = open_pty()
    # keep the slave open: with no process holding it, the master reads EIO (a host that
    # closes the port is not the board unplugged)
    stdin_fd = sys.stdin.fileno() if stdin_fd is None else stdin_fd
    # the cubes left on the table: the board boots with them (once: a second boot would
    # hide what the first one said, ``event boot``)
    saved = None
    if cubes_file is not None:
        from xobo.runtime.virtual_board import load_boarddef

        saved = _load_cubes(cubes_file, load_boarddef(board_name).n_cells)
    board = VirtualBoard(flash_dir=flash_dir, board=board_name, realtime=not hands_clock,
                         counts=saved)
    counts = board.switches.counts

    def write_serial(line):
        data = (line + "\n").encode("utf-8", "replace")
        try:
            os.write(master, data)
        except OSError as exc:  # nobody reads: the terminal's buffer is full, the line is lost
            if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO):
                raise

    board.set_writer(write_serial)
    if events_file is not None:
        import time

        log = open(events_file, "a", buffering=1)
        board.subscribe(lambda line: log.write("%.6f %s\n" % (time.time(), line)))
    runner = ScriptRunner(board=board, emit=None, events=False)

    def say(line):
        out.write(line + "\n")
        out.flush()

    say("pty %s" % os.ttyname(slave))
    board.step()
    poller = select.poll()
    poller.register(master, select.POLLIN)
    poller.register(stdin_fd, select.POLLIN)
    serial_in = bytearray()
    hands_in = bytearray()
    lineno = 0
    try:
        while True:
            board.step()
            for fd, _ in poller.poll(CYCLE_MS):
                if fd == master:
                    try:
                        data = os.read(master, 4096)
                    except (BlockingIOError, InterruptedError):
                        continue
                    serial_in.extend(data)
                    cut = serial_in.rfind(b"\n")
                    if cut >= 0 or len(serial_in) > 4096:  # whole lines (or junk) to the board
                        end = cut + 1 if cut >= 0 else len(serial_in)
                        board.feed(bytes(serial_in[:end]))
                        del serial_in[:end]
                    continue
                data = os.read(stdin_fd, 4096)
                if not data:
                    return 0  # the players left: the board is unplugged
                hands_in.extend(data)
                while True:
                    i = hands_in.find(b"\n")
                    if i < 0:
                        break
                    text = bytes(hands_in[:i]).decode("utf-8", "replace").strip()
                    del hands_in[:i + 1]
                    lineno += 1
                    if not text or text.startswith("#"):
                        continue
                    try:
                        runner.out = []
                        if text == "look":  # the players look at the board (no serial)
                            runner.out.append(look(board))
                        elif text == "look result":
                            runner.out.append(look_result(board))
                        elif text == "arrange":  # the pieces set out as the board shows
                            board.switches.set_counts(bytearray(board.bd.n_cells))
                            board.set_cubes(board.app.pos.heights)
                            board.advance(50)
                        elif text.startswith("play ") or text == "play":
                            play(board, runner, text[5:].strip(), lineno)
                        elif text.startswith("button "):
                            hand_line(board, runner, text, lineno)
                        else:
                            runner.run_line(text.lstrip("!"), lineno)
                        for line in runner.out:
                            say(line if line.startswith(("ok", "error")) else "ok " + line)
                        if cubes_file is not None:
                            _save_cubes(cubes_file, counts)
                        say("ok")
                    except ScriptError as exc:
                        say("error %s" % exc)
    finally:
        os.close(master)
        os.close(slave)


def main(argv=None):
    import argparse

    from xobo_host.cli import argtypes

    p = argparse.ArgumentParser(prog="xobo board serial --pty", description=__doc__.split(
        "\n\n")[0])
    p.add_argument("--flash", help="keep the board's flash in this directory")
    p.add_argument("--board", type=argtypes.board, default="pico_gpio",
                   help="boards/NAME.json or a .json path (default pico_gpio)")
    p.add_argument("--cubes", metavar="FILE",
                   help="keep the cubes on the table in this file (they stay when the board is "
                   "unplugged and are there when it is plugged back in)")
    p.add_argument("--events", metavar="FILE",
                   help="append every event line the board emits to FILE, with the time")
    p.add_argument("--hands-clock", action="store_true",
                   help="the board's clock moves only with the players' lines (put, press, "
                   "wait MS), not with the wall clock: timing tests that a slow machine "
                   "cannot break")
    args = p.parse_args(argv)
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        return serve(args.flash, args.board, cubes_file=args.cubes,
                     events_file=args.events, hands_clock=args.hands_clock)
    except KeyboardInterrupt:
        return 0


class PtyBoardError(RuntimeError):
    """The stand-in did not start, or a player's line failed."""


class PtyBoard:
    """One stand-in board in a child process: plug(), play(line), unplug(). The cubes the
    players put stay on the table (``FLASH_DIR.cubes``) while it is unplugged.
    ``hands_clock``: the board's time passes only with the players' lines (``--hands-clock``).

    ``device`` is a path of this board's own, ``FLASH_DIR.ttyN`` (N: how many times it was
    plugged in before), a link to its pseudo-terminal that goes when it is unplugged, as a
    USB board's ``/dev/serial/by-id`` name does. Why not the pseudo-terminal's own name: the
    kernel gives a freed number to the next process that asks, so a host still trying an
    unplugged board's port (as a café host does, for the board to come back) opened another
    process's board there, and the two hosts took each other's replies."""

    def __init__(self, flash_dir, board="pico_gpio", events_file=None, hands_clock=False):
        self.flash_dir = str(flash_dir)
        self.board = board
        self.events_file = events_file
        self.hands_clock = hands_clock
        self.proc = None
        self.device = None
        self.plugged = 0  # how many times it was plugged in

    def plug(self):
        """Start the board (its flash as it was left); returns self, ``device`` set."""
        if self.proc is not None:
            raise PtyBoardError("the board is plugged in already (%s)" % self.device)
        os.makedirs(self.flash_dir, exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xobo_host.sim.ptyboard", "--flash", self.flash_dir,
             "--board", self.board, "--cubes", self.flash_dir + ".cubes"]
            + (["--events", str(self.events_file)] if self.events_file else [])
            + (["--hands-clock"] if self.hands_clock else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1)
        first = self.proc.stdout.readline().strip()
        if not first.startswith("pty "):
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.unplug()
            raise PtyBoardError("the stand-in did not start: %r %s" % (first, err[-400:]))
        link = "%s.tty%d" % (self.flash_dir, self.plugged)
        self.plugged += 1
        if os.path.lexists(link):  # (left by a stand-in that was not unplugged)
            os.unlink(link)
        os.symlink(first[4:], link)  # (to the pseudo-terminal the stand-in opened)
        self.device = link
        return self

    def play(self, line):
        """One script line (``put e5``, ``serial new``); returns its output lines."""
        if self.proc is None:
            raise PtyBoardError("the board is unplugged")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = []
        while True:
            reply = self.proc.stdout.readline()
            if not reply:
                raise PtyBoardError("the stand-in ended: %s" % self.proc.stderr.read()[-400:])
            reply = reply.rstrip("\n")
            if reply.startswith("error"):
                raise PtyBoardError("%s: %s" % (line, reply))
            if reply == "ok":
                return out
            out.append(reply[3:])

    def unplug(self):
        """Pull the cable: the process and its port end; the flash stays."""
        proc, self.proc = self.proc, None
        if self.device is not None and os.path.lexists(self.device):
            os.unlink(self.device)
        self.device = None
        if proc is None:
            return
        proc.kill()
        proc.wait(10)
        for f in (proc.stdin, proc.stdout, proc.stderr):
            try:
                f.close()
            except OSError:
                pass


if __name__ == "__main__":
    sys.exit(main())
