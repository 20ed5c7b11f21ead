"""``xobo sim``: the desktop simulator, the very firmware with virtual switches, LEDs, buttons.

The firmware runs in this process through ``xobo.runtime.virtual_board.VirtualBoard`` in real
time; the board is drawn by a local web page (127.0.0.1) that shows what the LEDs light and
sends physical actions (put a cube, lift a stack, press a button) back.

Usage::

    xobo sim                         # a free port, opens the browser
    xobo sim --port 8765 --no-browser
    xobo sim --flash /tmp/xobo-flash # where the simulated flash (the saved game) lives
    xobo sim --board pico_15x15 --game brochs   # the 15 x 15 board, playing Brochs
"""

import signal
import sys
import threading
import webbrowser

from xobo_host.cli import argtypes
from xobo_host.cli.argtypes import port


def register(subparsers):
    p = subparsers.add_parser(
        "sim",
        help="desktop simulator: the firmware with a virtual board in a web page",
        description="Run the board firmware with virtual switches, LEDs and buttons, and draw "
        "the board in a local web page.",
    )
    p.add_argument("--port", type=port, default=0, help="HTTP port (default: a free port)")
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--flash", metavar="DIR", default=None,
                   help="directory of the simulated flash, where the game is saved "
                   "(default: ~/.local/share/xobo/sim-flash)")
    p.add_argument("--board", type=argtypes.board, default="pico_gpio",
                   help="board definition: a name in boards/ or a .json path (default pico_gpio)")
    p.add_argument("--game", type=argtypes.game, default=None,
                   help="the game to play (serial 'set game'; default: the board's setting)")
    p.set_defaults(func=run)


NOT_LOOPBACK_WARNING = """\
WARNING: xobo sim serves on %s, which is not a loopback address: anyone who can reach
WARNING: this machine on that network can open the page and play, load or wipe the game
WARNING: (requests must still name that address in Host). Use --host 127.0.0.1 unless you
WARNING: mean to share the board on a network you trust."""


def run(args):
    from xobo_host.sim.backend import SimBackend, default_flash_dir, make_virtual_board
    from xobo_host.sim.server import SimServer, is_loopback

    flash = args.flash or default_flash_dir()
    try:
        board = make_virtual_board(flash_dir=flash, board=args.board)
    except ImportError as exc:
        print("error: the board firmware is not available: %s" % exc, file=sys.stderr)
        return 1
    # Ctrl-C (or SIGTERM) sets a stop flag from the moment the simulator starts, so it never
    # lands as a KeyboardInterrupt outside the clean shutdown below.
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        backend = SimBackend(board)
        if args.game:
            from xobo_host.sim.backend import ActionError

            try:
                reply = backend.action({"action": "game", "name": args.game})
            except ActionError as exc:
                print("error: %s" % exc, file=sys.stderr)
                return 2
            if not reply["ok"]:
                print("error: %s" % reply.get("error", "the board refused the game"),
                      file=sys.stderr)
                return 2
        backend.start()
        try:
            server = SimServer(backend, host=args.host, port=args.port)
        except OSError as exc:  # a port in use (argtypes.port has kept it within 0-65535)
            backend.stop()
            print("error: cannot serve on %s:%s: %s" % (args.host, args.port, exc),
                  file=sys.stderr)
            return 1
        server.start()
        if not is_loopback(args.host):
            print(NOT_LOOPBACK_WARNING % args.host, file=sys.stderr, flush=True)
        print("XoBo simulator: %s  (flash: %s; Ctrl-C to stop)" % (server.url, flash),
              flush=True)
        if not args.no_browser:
            webbrowser.open(server.url)
        try:
            while not stop.wait(0.5):
                pass
            print("stopping", file=sys.stderr)
        finally:
            server.stop()
            backend.stop()
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
