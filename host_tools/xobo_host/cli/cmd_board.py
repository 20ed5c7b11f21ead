"""``xobo board``: the board firmware on virtual drivers, from the command line.

- ``xobo board run --script FILE [--flash DIR] [--runtime cpython|micropython]``: a scripted
  session (xobo.runtime.script); prints one line per event (``move e5 (v)``, ``undo e5``,
  ``result ns``) and the ``leds`` grids the script asks for. Exit 2 on a bad script line.
- ``xobo board serial [--flash DIR] [--runtime ...]``: the firmware in real time with the
  serial protocol on stdin/stdout (xobo.runtime.unix_main). With ``--pty`` the protocol is on
  a pseudo-terminal (its device printed first: ``pty /dev/pts/7``) that a host opens with
  pyserial as it opens a Pico, and stdin takes the players' script lines (xobo_host.sim.ptyboard).
- ``xobo board bench``: cycle time and heap use of one scan-debounce-infer-render cycle.
"""

import argparse
import subprocess
import sys

from xobo_host.cli import argtypes
from xobo_host.cli.argtypes import positive

BOARD_EPILOG = """examples:
  xobo board run --script game.txt
  xobo board run --script game.txt --runtime micropython --flash /tmp/xobo-flash
  printf 'position\\nnew\\n' | xobo board serial
  xobo board serial --pty --flash /tmp/table-1      (then: put e5, press ok... on stdin)
  xobo board bench
"""


def register(sub):
    board = sub.add_parser(
        "board", help="scripted sessions and the serial protocol on the virtual board",
        description="The board firmware on virtual drivers (switches, LEDs, buttons, flash).",
        epilog=BOARD_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bsub = board.add_subparsers(dest="board_command", metavar="SUBCOMMAND")
    bsub.required = True

    p = bsub.add_parser("run", help="run a scripted session (put/lift/wait/press/leds ...)")
    p.add_argument("--script", required=True, help="script file ('-' for stdin)")
    p.add_argument("--flash", help="keep the board's flash in this directory")
    p.add_argument("--runtime", type=argtypes.runtime, default="cpython",
                   metavar="{cpython,micropython}")
    p.set_defaults(func=_run)

    p = bsub.add_parser("serial", help="the firmware in real time, serial protocol on stdio")
    p.add_argument("--flash", help="keep the board's flash in this directory")
    p.add_argument("--runtime", type=argtypes.runtime, default="cpython",
                   metavar="{cpython,micropython}")
    p.add_argument("--pty", action="store_true",
                   help="the protocol on a pseudo-terminal (a stand-in USB port), the players' "
                   "script lines on stdin (CPython)")
    p.add_argument("--board", type=argtypes.board, default="pico_gpio",
                   help="boards/NAME.json or a .json path (with --pty)")
    p.add_argument("--hands-clock", action="store_true",
                   help="with --pty: the board's clock moves only with the players' lines "
                   "(put, press, wait MS), not with the wall clock")
    p.set_defaults(func=_serial)

    p = bsub.add_parser("bench", help="time and heap of one scan-debounce-infer-render cycle")
    p.add_argument("--cycles", type=positive, default=200)
    p.set_defaults(func=_bench)
    return bsub


def _upy(args_list):
    from xobo_host.upy import micropython_command

    cmd, env = micropython_command(args_list)
    sys.stdout.flush()
    return cmd, env


def _run(args):
    path = args.script
    if path != "-":
        return _run_file(args, path)
    import os
    import tempfile

    # bytes as they came: the script runner itself says when they are not UTF-8 text
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
        f.write(sys.stdin.buffer.read())
    try:
        return _run_file(args, f.name)
    finally:
        os.unlink(f.name)


def _run_file(args, path):
    if args.runtime == "cpython":
        from xobo.runtime.script import main

        return main([path] + (["--flash", args.flash] if args.flash else []))
    cmd, env = _upy(["-m", "xobo.runtime.script", path]
                    + (["--flash", args.flash] if args.flash else []))
    return subprocess.run(cmd, env=env).returncode


def _serial(args):
    extra = ["--flash", args.flash] if args.flash else []
    if args.pty:
        if args.runtime != "cpython":
            print("error: --pty runs the firmware under CPython (the MicroPython unix port has "
                  "no pseudo-terminals)", file=sys.stderr)
            return 2
        from xobo_host.sim.ptyboard import main

        return main(extra + ["--board", args.board]
                    + (["--hands-clock"] if args.hands_clock else []))
    if args.runtime == "cpython":
        from xobo.runtime.unix_main import main

        return main(extra)
    cmd, env = _upy(["-m", "xobo.runtime.unix_main"] + extra)
    return subprocess.run(cmd, env=env, stdin=sys.stdin).returncode


def _bench(args):
    from xobo_host.bench.board import main

    for line in main(cycles=args.cycles):
        print(line)
    return 0
