"""``xobo selftest``: run the board's self-test and print its report.

On a real board (``--port``, default: the one Pico found) it sends ``selftest`` over the USB
serial line and prints the ``selftest ...`` lines the board sends (with or without the
protocol's ``event`` prefix) until ``selftest done ...``; meanwhile the user follows the board:
LEDs red/green/blue, then a cube on each lit cell and off again (docs/drivers.md).

With ``--virtual`` it runs on the virtual drivers with a simulated user, and faults to show:
``--stuck e5`` (switch stuck closed), ``--dead e5`` (never closes), ``--chatter e5``,
``--dead-row 3`` (matrix row wire broken), ``--dead-led e5``. Exit status: 0 when the report
ends ``selftest done ok``, 1 when it found problems, 2 when it could not run.
"""

import argparse
import sys
import time

from xobo_host.cli import argtypes
from xobo_host.cli.argtypes import positive, whole_number
from xobo_host.device import deploy

EPILOG = """examples:
  xobo selftest                      # the Pico on USB
  xobo selftest --port /dev/ttyACM0
  xobo selftest --virtual --stuck e5 --dead-row 3 --dead-led c7
"""


def register(sub):
    p = sub.add_parser("selftest", help="run the LED and switch self-test, print the report",
                       description=__doc__.split("\n\n")[0], epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", help="serial port of the board (default: the one Pico found)")
    p.add_argument("--timeout", type=positive, default=1800,
                   help="give up after this many seconds (default 1800)")
    p.add_argument("--virtual", action="store_true", help="run on the virtual board")
    p.add_argument("--board", type=argtypes.board,
                   help="board definition for --virtual (default: the reference)")
    p.add_argument("--stuck", action="append", default=[], metavar="CELL",
                   help="--virtual: this switch is stuck closed")
    p.add_argument("--dead", action="append", default=[], metavar="CELL",
                   help="--virtual: this switch never closes")
    p.add_argument("--chatter", action="append", default=[], metavar="CELL",
                   help="--virtual: this switch chatters")
    p.add_argument("--dead-row", action="append", default=[], type=whole_number, metavar="ROW",
                   help="--virtual: matrix row ROW (0-8) is broken")
    p.add_argument("--dead-led", action="append", default=[], metavar="CELL",
                   help="--virtual: this cell's LED is dead")
    p.set_defaults(func=run)


def parse_cell(name):
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in "abcdefghi" or name[1] not in "123456789":
        raise ValueError("%r is not a cell (a1..i9)" % name)
    return (int(name[1]) - 1) * 9 + "abcdefghi".index(name[0])


def run_virtual(args, echo=print):
    from xobo.drivers.virtual import make_virtual_drivers
    from xobo.runtime.selftest import simulate

    bd = None
    if args.board:
        from xobo.drivers.boarddef import BoardDefError, load

        try:
            bd = load(str(deploy.find_board(args.board)))
        except (BoardDefError, deploy.DeployError) as exc:
            echo("error: %s" % exc)
            return 2
    d = make_virtual_drivers(bd, auto_bounce_ms=3)
    try:
        for kind, cells in (("closed", args.stuck), ("open", args.dead),
                            ("chatter", args.chatter)):
            for name in cells:
                d.switches.fault(parse_cell(name), kind)
        for row in args.dead_row:
            if not 0 <= row <= 8:
                raise ValueError("matrix row %d is not 0..8" % row)
            d.switches.dead_row(row)
        for name in args.dead_led:
            d.leds.dead[d.leds.cells[parse_cell(name)]] = 1
    except ValueError as exc:
        echo("error: %s" % exc)
        return 2
    st = simulate(d)
    for line in st.report_lines():
        echo(line)
    echo("(virtual board: %.0f s of simulated time)" % (d.clock.ticks_ms() / 1000))
    return 0 if st.problems() == 0 else 1


def report_line(line):
    """The self-test line in a line from the board, or None: ``event selftest x`` ->
    ``selftest x``."""
    line = line.strip()
    if line.startswith("event "):
        line = line[6:]
    return line if line.startswith("selftest ") else None


def read_report(lines, echo=print):
    """Print the self-test lines among ``lines`` (an iterable of str) up to the done line;
    returns the exit status."""
    for raw in lines:
        line = report_line(raw)
        if line is None:
            continue
        echo(line)
        if line.startswith("selftest done"):
            return 0 if line == "selftest done ok" else 1
    echo("error: no 'selftest done' line from the board")
    return 2


class LineReader:
    """Lines from a serial port; one buffer shared by successive ``lines(deadline)`` calls, so
    nothing read ahead is lost between them."""

    def __init__(self, ser):
        self.ser = ser
        self.buf = b""

    def lines(self, deadline):
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                yield line.decode("utf-8", "replace").rstrip("\r")
            if time.monotonic() >= deadline:
                return
            self.buf += self.ser.read(256)


def run(args):
    if args.virtual:
        return run_virtual(args)
    try:
        dev = deploy.choose_port(args.port)
    except deploy.DeployError as exc:
        print("error: %s" % exc)
        return 2
    import serial

    try:
        ser = serial.Serial(dev, 115200, timeout=0.5)
    except serial.SerialException as exc:
        print("error: cannot open %s: %s" % (dev, exc))
        return 2
    with ser:
        ser.reset_input_buffer()
        ser.write(b"\nselftest\n")
        reader = LineReader(ser)
        status = wait_started(reader.lines(time.monotonic() + 5))
        if status:
            print(status)
            return 2
        print("self-test started on %s: watch the board (LEDs red, green, blue; then put a "
              "cube on each lit cell and take it off; undo = that cell's LED is dead, ok = "
              "skip the cell)" % dev, file=sys.stderr)
        return read_report(reader.lines(time.monotonic() + args.timeout))


def wait_started(lines, echo=print):
    """'' once the board acknowledged ``selftest``, else what went wrong; self-test lines that
    come before the acknowledgement (``event selftest start``) are printed."""
    for line in lines:
        if line.startswith("ok selftest"):
            return ""
        if report_line(line):
            echo(report_line(line))
        if line.startswith("error"):
            return "error: the board refused: %s" % line
    return ("error: the board did not answer 'selftest' within 5 s: is the XoBo "
            "firmware running on it? (xobo flash --board NAME)")
