"""The whole board on virtual drivers: the facade the simulator, the scripts and the tests use.

The cubes are real counts per cell (``switches.counts``); the switches report occupancy only,
exactly like the reed switches, so the app infers moves the same way as on the device. Time
is virtual (``advance(ms)`` steps the app every 10 ms) unless ``realtime=True``.

Usage::

    >>> from xobo.runtime.virtual_board import VirtualBoard
    >>> vb = VirtualBoard()                 # in-memory flash; flash_dir="DIR" keeps files on disk
    >>> vb.subscribe(print)                 # "event move e5", "event switch e5 on", ...
    >>> vb.put("e5"); vb.advance(1500)      # a placement, committed after the settle time
    event switch e5 on
    event move e5
    >>> vb.command("position")              # the position after it (N3)
    ['ok ........./........./........./........./....1..../... ew 35 0 0']
    >>> vb.cell_colors()[40]                # "rrggbb" of e5 as rendered: dark, a cube on it
    '000000'
    >>> vb.power_cut()                      # reboot from flash; the cubes stay where they are
    event boot resumed game: 1 moves
"""

from xobo.drivers import Drivers
from xobo.drivers.debounce import DEBOUNCE_MS, Debouncer
from xobo.drivers.virtual import (
    PowerCut,
    VirtualButtons,
    VirtualClock,
    VirtualFlash,
    VirtualLeds,
    VirtualSwitches,
    VirtualWatchdog,
)
from xobo.errors import XoboError
from xobo.runtime import guide
from xobo.runtime.app import CYCLE_MS, App
from xobo.runtime.events import POWER_CUT, format_event
from xobo.runtime.protocol import Protocol

EDGE_SIDES = ("N", "S", "E", "W")


def _boards_dirs():
    dirs = []
    try:
        import xobo

        f = xobo.__file__
        base = f[: f.rfind("/")] if "/" in f else "."
        dirs.append(base + "/../../boards")  # firmware/xobo -> repo/boards
    except (ImportError, AttributeError):
        pass
    dirs.append("boards")
    dirs.append("../boards")
    return dirs


def load_boarddef(board):
    """The board definition named ``board`` (boards/NAME.json), a path, or the default."""
    from xobo.drivers.boarddef import default_boarddef, load

    if board is None or board == "default" or board == "virtual":
        return default_boarddef()
    if hasattr(board, "cell_of_key"):
        return board
    if board.endswith(".json"):
        return load(board)
    for d in _boards_dirs():
        path = d + "/" + board + ".json"
        try:
            open(path).close()
        except OSError:
            continue
        return load(path)
    return default_boarddef()


def make_flash(flash_dir):
    if not flash_dir:
        return VirtualFlash()
    from xobo.drivers.flash import Flash

    try:
        import os

        os.mkdir(flash_dir)
    except OSError:
        pass  # exists
    return Flash(flash_dir)


class VirtualBoard:
    """The app on virtual drivers (see the module docstring)."""

    def __init__(self, flash_dir=None, board="pico_gpio", realtime=False, settings=None,
                 counts=None, entropy=None):
        self.bd = load_boarddef(board)
        self.clock = VirtualClock(realtime=realtime)
        self.switches = VirtualSwitches(self.clock, self.bd.cell_of_key)
        if counts is not None:  # the pieces on the board when the power comes on
            self.switches.set_counts(counts)
        self.flash = make_flash(flash_dir)
        self.realtime = realtime
        self._settings = settings
        self.entropy = entropy  # the games' ids' random bytes (its drivers'), kept by reboots
        self._subscribers = []
        self._event_subscribers = []
        self.writer = None  # the protocol's writer, kept across reboots (set_writer)
        self.powered = True
        self.boots = 0
        self._boot()

    # ------------------------------------------------------------ power

    def _boot(self, held=()):
        bd = self.bd
        clock = self.clock
        self.leds = VirtualLeds(bd.led_count, bd.led_cells, bd.led_edges, bd.limiter())
        self.buttons = VirtualButtons(clock, tuple(bd.button_names()))
        for name in held:  # buttons held while the power comes on
            self.buttons.press(name)
        self.watchdog = VirtualWatchdog(clock)
        self.drivers = Drivers(
            boarddef=bd,
            matrix=self.switches,
            debouncer=Debouncer(bd.n_cells, DEBOUNCE_MS),
            leds=self.leds,
            buttons=self.buttons,
            clock=clock,
            watchdog=self.watchdog,
            flash=self.flash,
        )
        self.drivers.switches = self.switches
        # random bytes for the games' ids (``n -> bytes``, xobo.runtime.gameid), or None: the
        # system's; the scripted sessions give theirs, the same at every run
        self.drivers.entropy = self.entropy
        self.app = App(self.drivers, self._settings if not self.boots else None,
                       listener=self._forward)
        self.boots += 1
        self.protocol = Protocol(self.app, writer=self.writer)
        self.powered = True

    def power_cut(self, held=()):
        """Power lost and back: the app restarts from the flash; the cubes stay. ``held``:
        buttons held down at power-up (("ok", "undo") starts the self-test); release them
        with release()."""
        if hasattr(self.flash, "restore_power"):
            self.flash.restore_power()
        self._boot(held)
        self.step()

    def _forward(self, ev):
        for cb in self._event_subscribers:
            cb(ev)
        if self._subscribers:
            line = format_event(ev)
            for cb in self._subscribers:
                cb(line)

    def subscribe(self, callback):
        """callback(line) for every event line ('event move e5 (v)', 'event switch e5 on')."""
        self._subscribers.append(callback)

    def subscribe_events(self, callback):
        """callback(event) for every typed event (``xobo.runtime.events``)."""
        self._event_subscribers.append(callback)

    # ------------------------------------------------------------ time

    def step(self):
        """One cycle at the clock's now. A power cut during a flash write stops the board
        until power_cut() (the reboot)."""
        if not self.powered:
            return
        try:
            self.app.step(self.clock.ticks_ms())
        except PowerCut:
            self.powered = False
            self._forward((POWER_CUT,))

    def advance(self, ms):
        """Let ``ms`` of virtual time pass, a cycle every 10 ms."""
        left = ms
        while left > 0:
            dt = CYCLE_MS if left > CYCLE_MS else left
            self.clock.advance(dt)
            left -= dt
            self.step()

    def settling(self):
        """True while a switch's change has not yet lasted the debounce (the firmware has not
        seen it yet)."""
        return self.powered and self.drivers.debouncer.settling()

    # ------------------------------------------------------------ hands and buttons

    def board_cell(self, cell):
        """The board cell of a name ('e5') or a board cell number."""
        topo = self.app.topo
        if isinstance(cell, str):
            c = topo.parse_cell(cell)
            if c < 0:
                raise ValueError("'%s' is not a cell of this %dx%d board" % (
                    cell, topo.width, topo.height))
            return c
        if cell < 0 or cell >= topo.n_cells:
            raise ValueError("cell %d is off the board (0-%d)" % (cell, topo.n_cells - 1))
        return cell

    def put(self, cell, n=1):
        self.switches.put(self.board_cell(cell), n)

    def lift(self, cell):
        """Take every cube off the cell; returns how many there were."""
        return self.switches.lift(self.board_cell(cell))

    def take(self, cell, n=1):
        self.switches.take(self.board_cell(cell), n)

    def bounce(self, cell, ms=4):
        self.switches.bounce(self.board_cell(cell), self.clock.ticks_ms(), ms)

    def press(self, name):
        self.buttons.press(name)

    def release(self, name):
        self.buttons.release(name)

    def hold(self, name, ms):
        self.buttons.hold(name, ms)

    def set_cubes(self, heights):
        """Put the pieces of a position on the board: counts per game cell (a position's
        ``heights``, placed where the game sits) or per board cell (as many as the board
        has)."""
        app = self.app
        place = app.place
        if len(heights) == app.topo.n_cells:
            self.switches.set_counts(heights)
            return
        counts = bytearray(app.topo.n_cells)
        for g in range(len(heights)):
            b = place.to_board[g]
            if b != 255:
                counts[b] = heights[g]
        self.switches.set_counts(counts)

    # ------------------------------------------------------------ serial

    def set_writer(self, writer):
        """writer(line) gets every protocol reply and event, also after a power cut (each
        boot makes a new Protocol: setting ``protocol.writer`` lasted until the first one)."""
        self.writer = writer
        self.protocol.writer = writer

    def command(self, line):
        """One serial line; returns its reply lines."""
        if not self.powered:
            return ["error the board has no power"]
        try:
            return self.protocol.handle(line)
        except PowerCut:
            self.powered = False
            self._forward((POWER_CUT,))
            return []

    def feed(self, data):
        """Raw serial bytes; returns the reply lines of the lines they complete."""
        if not self.powered:
            return []
        try:
            return self.protocol.feed(data)
        except PowerCut:
            self.powered = False
            return []

    # ------------------------------------------------------------ what a page shows

    def cell_colors(self, shown=False):
        """'rrggbb' of every board cell (a1 first): the colours as rendered, or with
        ``shown`` as the LEDs show them after brightness and the power limiter. Cells outside
        the game are dark."""
        out = []
        n = self.bd.n_cells
        if shown:
            for c in range(n):
                r, g, b = self.leds.cell_rgb(c)
                out.append("%02x%02x%02x" % (r, g, b))
        else:
            light = self.app.light
            to_game = self.app.place.to_game
            if self.app.layers.LIGHTS_UNUSED:  # the game's unused cells are lit too
                at = self.app.place.at_board
                to_game = bytearray(b"\xff" * n)
                for g in range(len(at)):
                    to_game[at[g]] = g
            for c in range(n):
                g = to_game[c]
                out.append(light.cell_hex(g) if g != 255 else "000000")
        return out

    def edge_colors(self, shown=False):
        """{'N': 'rrggbb', ...}: each edge's colour."""
        out = {}
        if shown:
            for side in EDGE_SIDES:
                leds = self.leds.edge_rgb(side)
                r, g, b = leds[0] if leds else (0, 0, 0)
                out[side] = "%02x%02x%02x" % (r, g, b)
            return out
        e = self.app.light.edges
        names = self.app.topo.edges
        for k in range(len(names)):
            out[names[k]] = "%02x%02x%02x" % (e[3 * k], e[3 * k + 1], e[3 * k + 2])
        return out

    def state(self):
        """Everything a page needs, as plain data (the game's own fields under their names:
        XoBo's ``voina``, ``reserves``, ``result_reason``)."""
        app = self.app
        pos = app.pos
        inf = app.inf
        fill = []
        clear = []
        fill_heights = {}
        heights = {}
        name = app.cell_name
        if inf.state in (5, 6):
            fill = [name(c) for c in range(app.n) if inf.fill[c]]
            clear = [name(c) for c in range(app.n) if inf.clear[c]]
            for c in range(app.n):
                if inf.fill[c] and inf.heights[c] >= 2:
                    fill_heights[name(c)] = inf.heights[c]
            for w in guide.height_words(app):  # 'a5=1': an occupied cell whose height must change
                cell, h = w.split("=")
                heights[cell] = int(h)
        record = getattr(app.game, "record_text", None)
        out = {
            "game": app.settings["game"],
            "title": app.game.TITLE,
            "players": list(app.names),
            "board": {"width": app.topo.width, "height": app.topo.height,
                      "edges": list(app.topo.edges)},
            "area": {"width": pos.width, "height": pos.height, "x": app.place.ox,
                     "y": app.place.oy, "cells": [self.bd_cell_name(b)
                                                  for b in app.place.board_cells()]},
            "position": pos.to_string(),
            "record": self._record(record, pos),
            "side": app.side_name(),
            "result": app.result_name(),
            "result_text": app.result_text(),
            "counts": list(self.switches.counts),
            "ply": pos.ply,
            "inference": inf.state_name(),
            "fill": fill,
            "fill_heights": fill_heights,
            "heights": heights,
            "clear": clear,
            "expect": pos.move_text(app.pending) if app.pending >= 0 else None,
            "settings": dict(app.settings),
            "powered": self.powered,
            "selftest": app.selftest is not None,
            # the learn mode's lesson ('learn 2/7', 'learn done'), None while playing
            "learn": app.mode.state_field() if hasattr(app.mode, "state_field") else None,
            "power_ma": self.leds.last_ma,
        }
        extra = getattr(app.layers, "state_extra", None)
        if extra is not None:
            out.update(extra(pos))
        return out

    def _record(self, record, pos):
        """The game's record, "" when it has none or none can be written (X's record starts
        from the empty board: a loaded position or a lesson has none)."""
        if record is None:
            return ""
        try:
            return record(pos)
        except XoboError:
            return ""

    def bd_cell_name(self, b):
        return self.app.topo.cell_name(b)
