"""Regenerate docs/screenshot.png: the simulator page in the middle of a game.

It starts the simulator (temporary flash), replays a game up to a regroup under Voina and lifts
the stack of three into the hand, so the board lights every spread it can make (cubes to put,
pairs to take off), then photographs the page in headless Chromium (Debian's
/usr/bin/chromium, never a download).

With ``--learn`` it photographs a lesson of every game instead (docs/learn-GAME.png): the
board's learn mode, the lesson's pieces set up as its words say, its cells lit.

Usage::

    python -m xobo_host.sim.screenshot                      # docs/screenshot.png
    python -m xobo_host.sim.screenshot --out shot.png --phone phone.png
    python -m xobo_host.sim.screenshot --learn              # docs/learn-xobo.png, ...
"""

import argparse
import os
import sys
import tempfile
import time

from xobo_host.chromium import CHROMIUM, CHROMIUM_ARGS
from xobo_host.sim.legend import ROOT

GAME = ("1. e1 ; a1 2. e2 ; a3 3. e3 ; g8 4. e4 ; a5 5. e5 ; a7 6. e6 ; a9 7. e7 ; i1 "
        "8. e8 (v) ; e8->e6")


def stage(backend):
    """Bring the simulated board to the middle of a spread."""
    reply = backend.action({"action": "load", "text": GAME})
    if not reply.get("ok"):
        raise RuntimeError("could not replay the game: %s" % reply.get("error"))
    backend.action({"action": "lift", "cell": "e6"})
    time.sleep(0.4)


def lesson_shots():
    """[(game, lesson, board)]: the lesson photographed for each game (1-based) and the board
    it is played on, from the games' host modules (``LESSON_SHOT``, xobo.hostkit)."""
    from xobo import hostkit
    from xobo.games import GAMES

    return [(name,) + hostkit.of(name).LESSON_SHOT for name in GAMES]


def stage_lesson(backend, game, lesson):
    """The board in lesson ``lesson`` of ``game``'s course, its pieces set up."""
    for line in ("set game " + game, "set settle 200", "learn"):
        reply = backend.action({"action": "command", "line": line})
        if not reply.get("ok"):
            raise RuntimeError("%s: %s" % (line, reply.get("error") or reply.get("reply")))
    for _ in range(lesson - 1):
        backend.action({"action": "command", "line": "learn next"})
    st = backend.snapshot()["state"]
    area = st["area"]  # where the game's grid sits on the board

    def board_cell(name):
        return chr(ord(name[0]) + area["x"]) + str(int(name[1:]) + area["y"])

    for name in st["clear"]:
        backend.action({"action": "take", "cell": board_cell(name), "n": 8})
    for name in st["fill"]:
        for _ in range(st["fill_heights"].get(name, 1)):
            backend.action({"action": "put", "cell": board_cell(name)})
    for name, h in st["heights"].items():
        while backend.snapshot()["counts"][_index(backend, board_cell(name))] < h:
            backend.action({"action": "put", "cell": board_cell(name)})
    backend.action({"action": "drop"}) if backend.snapshot()["hand"] else None
    deadline = time.monotonic() + 10
    while backend.snapshot()["state"]["inference"] != "match":
        if time.monotonic() > deadline:
            raise RuntimeError("lesson %d of %s: the pieces do not match" % (lesson, game))
        time.sleep(0.05)


def _index(backend, name):
    topo = backend.board.app.topo
    return topo.parse_cell(name)


def shoot(url, out, width, height, mobile=False, ready=None):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            ctx = browser.new_context(viewport={"width": width, "height": height},
                                      device_scale_factor=2 if mobile else 1,
                                      is_mobile=mobile, has_touch=mobile)
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=10000)
            if ready is not None:
                ready(page)
            else:
                page.wait_for_selector('[data-role="hand"][data-count="3"]', timeout=10000)
                # a moment when the blinking "take off" lights (g8, e5) are on
                page.wait_for_function(
                    "() => ['g8', 'e5'].every(c => document.querySelector("
                    "'[data-cell=\"' + c + '\"]').dataset.led !== '000000')", timeout=5000,
                    polling=20)
            page.screenshot(path=out)
        finally:
            browser.close()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m xobo_host.sim.screenshot",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "screenshot.png"))
    ap.add_argument("--phone", default=None, help="also a phone-sized shot to this file")
    ap.add_argument("--size", default="1280x900", help="desktop viewport WIDTHxHEIGHT")
    ap.add_argument("--learn", action="store_true",
                    help="a lesson of every game instead: docs/learn-GAME.png")
    args = ap.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        print("%s is absent: apt-get install chromium (make browser)" % CHROMIUM,
              file=sys.stderr)
        return 1
    from xobo_host.sim.backend import SimBackend, make_virtual_board
    from xobo_host.sim.server import SimServer

    w, h = (int(x) for x in args.size.split("x"))
    if args.learn:
        return learn_shots(w, h)
    with tempfile.TemporaryDirectory() as flash:
        backend = SimBackend(make_virtual_board(flash_dir=flash)).start()
        server = SimServer(backend).start()
        try:
            backend.action({"action": "command", "line": "set settle 200"})
            stage(backend)
            shoot(server.url, args.out, w, h)
            print("wrote %s" % args.out)
            if args.phone:
                shoot(server.url, args.phone, 390, 844, mobile=True)
                print("wrote %s" % args.phone)
        finally:
            server.stop()
            backend.stop()
    return 0


def _lesson_lit(page):
    page.wait_for_selector('[data-role="conn"][data-state="live"]', timeout=10000)
    page.wait_for_selector('[data-role="learn-card"][data-learning="yes"]', timeout=10000)
    page.wait_for_function(
        "() => !document.querySelector('[data-role=\"learn-words\"]').textContent"
        ".includes('Set up')", timeout=10000)
    page.wait_for_timeout(700)  # the page has drawn the pieces and the lesson's light


def learn_shots(w, h):
    """docs/learn-GAME.png: a lesson of every game, its pieces set up."""
    from xobo_host.sim.backend import SimBackend, make_virtual_board
    from xobo_host.sim.server import SimServer

    for game, lesson, board in lesson_shots():
        out = os.path.join(ROOT, "docs", "learn-%s.png" % game)
        with tempfile.TemporaryDirectory() as flash:
            backend = SimBackend(make_virtual_board(flash_dir=flash, board=board)).start()
            server = SimServer(backend).start()
            try:
                stage_lesson(backend, game, lesson)
                shoot(server.url, out, w, h, ready=_lesson_lit)
                print("wrote %s" % out)
            finally:
                server.stop()
                backend.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
