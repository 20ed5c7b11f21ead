"""Helpers of the simulator tests: a running simulator (server + firmware) and its API."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from xobo.games import part
from xobo_host.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: F401 (the tests' launch)

# Every test page is opened as a player who asked for less motion sees it (the system's
# "reduce motion": prefers-reduced-motion): the same page and script, its lights changing at
# once rather than fading over 120 ms. Headless Chromium paints in software: the fades'
# frames were a third of its CPU in the browser tests (test_browser.py checks both looks).
PAGE_CONTEXT = {"viewport": {"width": 1280, "height": 900}, "reduced_motion": "reduce"}


def new_context(browser, **options):
    """A browser context for a test page: ``PAGE_CONTEXT`` with ``options`` over it."""
    return browser.new_context(**dict(PAGE_CONTEXT, **options))


START = "........./........./........./........./........./........./........./........./" \
    "......... ns 36 0 0"


def start_xobo(args):
    """``xobo ARGS`` in a subprocess, its output unbuffered, in pipes (text)."""
    return subprocess.Popen(
        [sys.executable, "-m", "xobo_host.cli.main"] + list(args),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"))


def stop_with_ctrl_c(proc, timeout=20):
    """Send SIGINT (Ctrl-C) and collect the rest of the output: ``(out, err)``; the process is
    killed if it has not ended after ``timeout`` s."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


class Sim:
    """A running simulator: ``backend`` (SimBackend over VirtualBoard) and ``server``."""

    def __init__(self, flash_dir, settle=200, board="pico_gpio"):
        from xobo_host.sim.backend import SimBackend, make_virtual_board
        from xobo_host.sim.server import SimServer

        self.flash_dir = flash_dir
        self.backend = SimBackend(make_virtual_board(flash_dir=str(flash_dir),
                                                     board=board)).start()
        self.server = SimServer(self.backend).start()
        self.url = self.server.url
        self.command("set settle %d" % settle)

    def stop(self):
        self.server.stop()
        self.backend.stop()

    def post(self, obj, expect=200):
        data = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
        req = urllib.request.Request(self.url + "action", data=data, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "X-Xobo-Client": "tests"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                status, body = r.status, r.read()
        except urllib.error.HTTPError as exc:
            status, body = exc.code, exc.read()
        assert status == expect, (status, body)
        return json.loads(body)

    def get(self, path):
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=10) as r:
            return r.status, dict(r.headers), r.read()

    def state(self):
        return json.loads(self.get("/state")[2])

    def command(self, line):
        return self.post({"action": "command", "line": line})

    def wait(self, predicate, what="condition", timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            snap = self.state()
            if predicate(snap):
                return snap
            time.sleep(0.03)
        raise AssertionError("timed out waiting for %s; last state: %s"
                             % (what, json.dumps(self.state()["state"])[:600]))


def with_board_layer(monkeypatch, name):
    """Make game ``name`` playable on the board even where its board layer is not written yet
    (the games' board layers are written apart from the simulator): the runtime's default
    layers (``xobo.runtime.layers.GameLayers``: the pieces, the move in progress, the edges;
    ``xobo.runtime.words.FootprintWords``: the words)
    stand in for it. The game's rules are its own. Returns True when the stand-in was used."""
    import types

    from xobo import games
    from xobo.runtime.layers import GameLayers
    from xobo.runtime.words import FootprintWords

    pkg = games.load(name)
    try:
        part(pkg, "board")
        return False
    except ImportError:
        pass
    # the words a player reads (the computer's move, what is left of a move) from footprints
    stand_in = types.SimpleNamespace(Layers=type("Layers", (FootprintWords, GameLayers), {}))
    monkeypatch.setattr(pkg, "board_layer", lambda: stand_in)
    return True


# the page (tests/sim/test_browser*.py): a cell's selector, and waits for what it shows
def cell(name):
    return '[data-cell="%s"]' % name


def wait_record(pg, fragment, timeout=10000):
    pg.wait_for_function(
        "f => document.querySelector('[data-role=\"record\"]').textContent.includes(f)",
        arg=fragment, timeout=timeout)


def wait_led(pg, name, hexes, timeout=30000):
    """Until the cell's LED shows one of ``hexes`` (blinking lights are caught when on)."""
    pg.wait_for_function(
        "([c, hs]) => hs.includes(document.querySelector('[data-cell=\"' + c + '\"]')"
        ".dataset.led)", arg=[name, list(hexes)], timeout=timeout)


# positions and records the guidance tests play (XoBo, N2 and N3)
RECORD28 = ("1. f5 ; b3 2. h6 ; g1 3. b2 ; b9 4. f2 ; g6 5. i1 ; a9 6. f4 ; e1 7. h2 ; d8 "
            "8. b8 ; d2 9. d5 ; a3 (v) 10. c6 ; b5 (v) 11. d1 ; i8 (v) 12. i6 ; e2 (v) "
            "13. g6->i6 ; h3 (v) 14. e7 ; f7 (v)")
SPREAD4 = "........./........./........./........./....4..../...11..../........./....1..../" \
    "......... ew 29 0 0"
