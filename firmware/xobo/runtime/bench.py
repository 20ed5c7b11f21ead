"""Benchmark of one scan-debounce-infer-render cycle, on whichever runtime runs it.

Measures on the virtual board (the fastest of 5 runs each) the mean time of a cycle
(``App.step``) of the game the board starts with (the first of the games), in the positions its
host module gives (``BOARD_BENCH``, xobo.hostkit: XoBo's): idle, with pieces lifted and a move
in progress (a stack lifted and a spread), and with pulsing cells (XoBo's Voina);
each against a baseline measured in the same run (a plain loop that reads and writes the 81
cells of a bytearray); under MicroPython also the heap a cycle allocates (``gc.mem_alloc``
with the collector off; the target is 0).

Usage::

    >>> from xobo.runtime.bench import measure
    >>> lines = measure(5)                # lines "key value" (micropython -m xobo.runtime.bench)
    >>> lines[:2]
    ['runtime cpython', 'game xobo']
"""

import gc
import sys

from xobo.compat import ticks_diff as _diff
from xobo.compat import ticks_us as _us

REPEAT = 5


def scenario():
    """(game, (position, hands, pulsing position)) of the bench: the game the board starts
    with and its host module's ``BOARD_BENCH`` (default: its start position, no hands, no
    pulsing position)."""
    from xobo import hostkit
    from xobo.games import GAMES, load

    name = GAMES[0]
    bench = hostkit.of(name).BOARD_BENCH
    if bench is None:
        game = load(name)
        bench = (game.new_position(dict(game.DEFAULTS)).to_string(), (), None)
    return name, bench


def _board(text, hands=()):
    """The virtual board in position ``text``, its pieces on the switches, then ``hands``
    (``("lift", cell)``, ``("put", cell)``: board cells by name) done."""
    from xobo.runtime.virtual_board import VirtualBoard

    vb = VirtualBoard()
    vb.advance(50)
    vb.command("load " + text)
    app = vb.app
    vb.set_cubes(app.game.parse_position(text, app.settings).heights)
    vb.advance(200)
    if hands:
        for what, cell in hands:
            (vb.lift if what == "lift" else vb.put)(cell)
        vb.advance(200)
    return vb


def _baseline(cycles):
    buf = bytearray(81)
    t0 = _us()
    for _ in range(cycles):
        s = 0
        for c in range(81):
            s += buf[c]
            buf[c] = s & 1
    return _diff(_us(), t0)


def _cycles(vb, cycles):
    app = vb.app
    clock = vb.clock
    t0 = _us()
    for _ in range(cycles):
        clock.advance(10)
        app.step(clock.ticks_ms())
    return _diff(_us(), t0)


def _heap(vb, cycles):
    if not hasattr(gc, "mem_alloc"):
        return -1
    app = vb.app
    clock = vb.clock
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(cycles):
            clock.advance(10)
            app.step(clock.ticks_ms())
        after = gc.mem_alloc()
    finally:
        gc.enable()
    return after - before


def _best(fn, runs=REPEAT):
    """The fastest of several runs: the least disturbed by other processes."""
    best = fn()
    for _ in range(runs - 1):
        t = fn()
        if t < best:
            best = t
    return best


def measure(cycles=200):
    """Lines 'key value': runtime, baseline_us, idle_us, lifted_us, ratios, heap bytes."""
    name, (text, hands, pulse_text) = scenario()
    out = ["runtime %s" % sys.implementation.name, "game %s" % name]
    base = _best(lambda: _baseline(cycles))
    boards = [("idle", _board(text))]
    if hands:
        boards.append(("lifted", _board(text, hands)))
    if pulse_text:  # pulsing cells: the LEDs are rewritten often
        boards.append(("pulsing", _board(pulse_text)))
    for _, vb in boards:
        _cycles(vb, 20)  # warm up
    times = [(key, _best(lambda vb=vb: _cycles(vb, cycles))) for key, vb in boards]
    out.append("baseline_us %d" % (base // cycles))
    for key, t in times:
        out.append("cycle_%s_us %d" % (key, t // cycles))
    for key, t in times:
        out.append("ratio_%s %.1f" % (key, t / base if base else 0))
    for key, vb in boards:
        out.append("heap_%s_bytes %d" % (key, _heap(vb, cycles)))
    for key, vb in boards[1:2] if hands else ():
        out.append("state_%s %s" % (key, vb.app.inf.state_name()))
    return out


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for line in measure(n):
        print(line)
