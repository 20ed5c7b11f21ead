"""``xobo pico-check``: the board's firmware on an emulated Pico, with a report of boot, heap,
cycle times, the LEDs and the AI in emulated time (docs/device-check.md).

Exit status: 0 when every target is met, 1 when one is missed, 2 when the check cannot run
(a missing or wrong .uf2 or bootrom, no node or npm).
"""

import argparse
import os

from xobo_host.cli import argtypes
from xobo_host.cli.argtypes import whole_number

EPILOG = """examples:
  xobo pico-check --uf2 RPI_PICO-20260101-v1.28.0.uf2 --bootrom bootrom.bin
  XOBO_PICO_UF2=RPI_PICO.uf2 XOBO_PICO_BOOTROM=bootrom.bin xobo pico-check
  make pico-check UF2=RPI_PICO.uf2 BOOTROM=bootrom.bin
"""


def register(sub):
    p = sub.add_parser(
        "pico-check", help="run the firmware on an emulated Pico (rp2040js) and check its timings",
        description="Boot the stock MicroPython RPI_PICO firmware in rp2040js with this "
                    "firmware on its littlefs, drive the switches and buttons, decode the LEDs, "
                    "talk over USB serial, and report boot, heap, cycle times and the AI's "
                    "move time in emulated time (a lower bound: no XIP cache misses).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--uf2", default=os.environ.get("XOBO_PICO_UF2"),
                   help="MicroPython RPI_PICO firmware .uf2 (default $XOBO_PICO_UF2)")
    p.add_argument("--bootrom", default=os.environ.get("XOBO_PICO_BOOTROM"),
                   help="raw 16 KiB RP2040 bootrom (default $XOBO_PICO_BOOTROM)")
    p.add_argument("--board", type=argtypes.board, default="pico_gpio",
                   help="board definition: a name in boards/ or a .json path (default pico_gpio)")
    p.add_argument("--cache", help="folder for rp2040js and the images (default "
                                   "build/pico-check)")
    p.add_argument("--games", help="the games to check, comma-separated (default: every game "
                                   "that fits the board)")
    p.add_argument("--session", type=whole_number, default=None, metavar="PLIES",
                   help="the length of each game's computer-against-computer session "
                        "(default 40; 0: none)")
    p.add_argument("--no-flash-writes", action="store_true",
                   help="leave the flash read-only (saving the game then fails)")
    p.set_defaults(func=run)


def run(args):
    from xobo_host.device.deploy import DeployError
    from xobo_host.device.picocheck import check
    from xobo_host.device.picocheck.image import ImageError
    from xobo_host.device.picocheck.runner import HarnessError

    missing = [n for n, v in (("--uf2 (or XOBO_PICO_UF2)", args.uf2),
                              ("--bootrom (or XOBO_PICO_BOOTROM)", args.bootrom)) if not v]
    if missing:
        print("error: pico-check needs %s: see docs/device-check.md for where to get them"
              % " and ".join(missing))
        return 2
    try:
        results = check.run_check(
            args.uf2, args.bootrom, args.board, args.cache,
            flash_writes=not args.no_flash_writes,
            games=args.games.split(",") if args.games else None,
            session_plies=check.SESSION_PLIES if args.session is None else args.session)
    except (ImageError, HarnessError, DeployError) as exc:
        print("error: %s" % exc)
        return 2
    return 0 if all(r.passed for r in results) else 1
