"""Regenerate docs/cafe-floor.png: the café's floor view with a few tables at play.

Stand-in boards behind pseudo-terminals (``xobo_host.sim.ptyboard``): a table for each game whose
host module gives a ``FLOOR_SHOT`` (the cells put there, xobo.hostkit), and one more of the
first such game, unplugged (offline); the floor photographed in headless Chromium (Debian's
/usr/bin/chromium).

Usage::

    python -m xobo_host.cafe.screenshot            # docs/cafe-floor.png
    python -m xobo_host.cafe.screenshot --out shot.png
"""

import argparse
import os
import sys
import tempfile
import time

from xobo_host.chromium import CHROMIUM, CHROMIUM_ARGS
from xobo_host.sim.legend import ROOT

TABLE_NAMES = ("bar-1", "terrace-1", "terrace-2", "terrace-3", "terrace-4", "terrace-5")
OFFLINE_TABLE = "window-1"


def tables():
    """``[(table, game, cells put)]``: the games with a ``FLOOR_SHOT`` in their order, then
    the offline table (the first of them, its first cell)."""
    from xobo import hostkit
    from xobo.games import GAMES

    shots = [(name, hostkit.of(name).FLOOR_SHOT) for name in GAMES]
    shots = [(game, cells) for game, cells in shots if cells][:len(TABLE_NAMES)]
    if not shots:
        raise RuntimeError("no game's host module gives a FLOOR_SHOT")
    out = [(table, game, cells) for table, (game, cells) in zip(TABLE_NAMES, shots, strict=False)]
    return out + [(OFFLINE_TABLE, shots[0][0], shots[0][1][:1])]


def _wait(pred, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise RuntimeError("the floor did not reach the state to photograph")
        time.sleep(0.05)


def _small_png(path, colours=256):
    """The picture in a palette of ``colours``: a few tens of KB in the repository."""
    from PIL import Image

    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colours, method=Image.Quantize.FASTOCTREE)
    small.save(path, optimize=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m xobo_host.cafe.screenshot")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "cafe-floor.png"))
    args = p.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from xobo_host.cafe.floor import Floor
    from xobo_host.cafe.staff import Staff
    from xobo_host.cafe.web import CafeServer
    from xobo_host.records.gamesdb import GamesDB
    from xobo_host.sim.ptyboard import PtyBoard

    tmp = tempfile.mkdtemp(prefix="xobo-cafe-shot-")
    boards = []
    shot = tables()
    for name, game, moves in shot:
        b = PtyBoard(os.path.join(tmp, name)).plug()
        b.play("serial set name " + name)
        b.play("serial set settle 200")
        b.play("serial set game " + game)
        for cell in moves:
            b.play("put " + cell)
            b.play("wait 300")
        boards.append(b)
    db_path = os.path.join(tmp, "games.sqlite")
    GamesDB(db_path).close()
    floor = Floor(db_path, ports=[b.device for b in boards], scan_usb=False, scan_s=0.2).start()
    server = CafeServer(floor, Staff.create(os.path.join(tmp, "staff.json"), "screenshot"),
                        db_path).start()
    try:
        _wait(lambda: sum(1 for v in floor.views() if v["online"]) == len(shot))
        boards[-1].unplug()
        _wait(lambda: floor.table(OFFLINE_TABLE).view()["health"] == "offline")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1040, "height": 430})
            page.goto(server.url)
            page.wait_for_selector('[data-table="%s"][data-health="offline"]' % OFFLINE_TABLE)
            # each miniature drawn after its last piece with its light: the LEDs of its
            # cells or its edges (they are read after the position)
            for name, _game, moves in shot[:-1]:
                page.wait_for_selector(
                    '[data-table="%s"] canvas[data-ply="%d"]:is([data-lit]:not([data-lit=""]),'
                    ' [data-edges]:not([data-edges=""]))' % (name, len(moves)))
            page.screenshot(path=args.out)
            browser.close()
        _small_png(args.out)
    finally:
        server.stop()
        floor.stop()
        for b in boards:
            b.unplug()
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
