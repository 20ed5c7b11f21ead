"""Board definitions: load and check ``boards/*.json`` (on the device: ``board.json``), and
build the drivers for the definition's platform.

Format (written by ``hardware/design.py``)::

    {"name": "pico_gpio", "description": "...", "platform": "micropython-rp2",
     "matrix": {"rows": [9 output pins], "cols": [9 input pins], "row_active": 0,
                "col_pull": "up", "settle_us": 10, "cell_of_key": [81 cells, key = row*9+col]},
     "leds": {"pin": "GP22", "count": 117, "order": "GRB", "cells": [81 chain indices],
              "edges": {"N": [...], "S": [...], "E": [...], "W": [...]},
              "ma_per_channel": 20, "idle_ma_per_led": 1},
     "buttons": {"ok": {"pin": "GP26", "active": 0}, "undo": {...}, "hint": {...}},
     "power": {"supply": "usb", "supply_ma": 500, "budget_ma": 500, "base_ma": 50}}

Platforms ``micropython-rp2`` and ``circuitpython`` use pins ``GP0``..``GP28``; ``blinka`` (a
Raspberry Pi) uses ``D0``..``D27``. Every error says what is wrong, e.g. ``leds.cells: chain
index 5 is used twice (cells a1 and f1)``.

Usage::

    >>> from xobo.drivers.boarddef import load, make_drivers
    >>> bd = load("boards/pico_gpio.json")      # BoardDef, or BoardDefError
    >>> bd.cell_of_key[0], bd.led_cells[40], bd.led_edges["N"], bd.budget_ma
    (0, 40, (89, 88, 87, 86, 85, 84, 83, 82, 81), 450)
    >>> drivers = make_drivers(bd)              # real drivers (imports machine/neopixel lazily)
"""

import json

from xobo.numbers import parse_uint

PLATFORMS = ("micropython-rp2", "circuitpython", "blinka")
SIDES = ("N", "S", "E", "W")
BUTTON_ORDER = ("ok", "undo", "hint")


class BoardDefError(ValueError):
    pass


def _cell_name(c, width=9):
    return "abcdefghijklmnopqrstuvwxyz"[c % width] + str(c // width + 1)


def _valid_pin(platform, pin):
    if not isinstance(pin, str):
        return False
    if platform == "blinka":
        return pin.startswith("D") and 0 <= parse_uint(pin[1:], 2) <= 27
    return pin.startswith("GP") and 0 <= parse_uint(pin[2:], 2) <= 28


def _pin_hint(platform):
    return "D0..D27" if platform == "blinka" else "GP0..GP28"


def _section(d, name):
    s = d.get(name)
    if not isinstance(s, dict):
        raise BoardDefError("section %r is missing (or not an object)" % name)
    return s


def _int(section, sname, key, default=None, lo=None, hi=None):
    if key not in section:
        if default is None:
            raise BoardDefError("%s.%s is missing" % (sname, key))
        return default
    v = section[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise BoardDefError("%s.%s should be an integer, got %r" % (sname, key, v))
    if lo is not None and v < lo:
        raise BoardDefError("%s.%s is %d, should be at least %d" % (sname, key, v, lo))
    if hi is not None and v > hi:
        raise BoardDefError("%s.%s is %d, should be at most %d" % (sname, key, v, hi))
    return v


def _int_list(section, sname, key, length):
    v = section.get(key)
    if not isinstance(v, list):
        raise BoardDefError("%s.%s is missing (a list of %d integers)" % (sname, key, length))
    if len(v) != length:
        raise BoardDefError("%s.%s has %d entries, expected %d" % (sname, key, len(v), length))
    for k, x in enumerate(v):
        if not isinstance(x, int) or isinstance(x, bool):
            raise BoardDefError("%s.%s[%d] should be an integer, got %r" % (sname, key, k, x))
    return v


class BoardDef:
    """A checked board definition (attributes below); ``raw`` is the parsed JSON."""

    def __init__(self, d):
        if not isinstance(d, dict):
            raise BoardDefError("a board definition is a JSON object")
        self.raw = d
        self.name = d.get("name") or "unnamed"
        self.description = d.get("description", "")
        self.platform = d.get("platform")
        if self.platform not in PLATFORMS:
            raise BoardDefError("platform %r is not one of %s"
                                % (self.platform, ", ".join(PLATFORMS)))
        used = {}  # pin -> what uses it
        self._parse_matrix(_section(d, "matrix"), used)
        self._parse_leds(_section(d, "leds"), used)
        self._parse_buttons(d.get("buttons") or {}, used)
        self._parse_power(d.get("power") or {})
        self._parse_gestures(d.get("gestures"))

    def _parse_gestures(self, g):
        """Optional ``"gestures": {"ok long": "next", ...}`` (xobo.runtime.gestures)."""
        self.gestures = None
        if g is None:
            return
        if not isinstance(g, dict):
            raise BoardDefError("gestures should be an object {\"BUTTON short|long\": action}")
        for key in g:  # the actions' names are the runtime's (xobo.runtime.gestures)
            words = key.split() if isinstance(key, str) else ()
            if len(words) != 2 or words[1] not in ("short", "long", "both") or \
                    (words[0] != "both" and words[0] not in self.buttons):
                raise BoardDefError("gestures: '%s' should be 'BUTTON short|long' for a button "
                                    "of the board, or 'both both'" % (key,))
            if not isinstance(g[key], str):
                raise BoardDefError("gestures: '%s' should name an action" % key)
        self.gestures = dict(g)

    def _use_pin(self, used, pin, what):
        if not _valid_pin(self.platform, pin):
            raise BoardDefError("%s: pin %r is not a %s pin (%s)"
                                % (what, pin, self.platform, _pin_hint(self.platform)))
        if pin in used:
            raise BoardDefError("%s: pin %s is already used by %s" % (what, pin, used[pin]))
        used[pin] = what

    def _parse_matrix(self, m, used):
        self.scanner = m.get("scanner", "gpio")
        if self.scanner == "shift595":
            return self._parse_shift595(m, used)
        if self.scanner != "gpio":
            raise BoardDefError("matrix.scanner is %r, expected gpio or shift595"
                                % (self.scanner,))
        for key in ("rows", "cols"):
            pins = m.get(key)
            if not isinstance(pins, list) or not 2 <= len(pins) <= 15:
                n = len(pins) if isinstance(pins, list) else 0
                raise BoardDefError("matrix.%s has %d pins, expected 2 to 15" % (key, n))
            for k, p in enumerate(pins):
                self._use_pin(used, p, "matrix.%s[%d]" % (key, k))
        self.rows = list(m["rows"])
        self.cols = list(m["cols"])
        # the board's grid: a cell per key, keys numbered row * width + column
        self.width = len(self.cols)
        self.height = len(self.rows)
        self.n_cells = self.width * self.height
        self.row_active = _int(m, "matrix", "row_active", 0, 0, 1)
        self.col_pull = m.get("col_pull", "up")
        if self.col_pull not in ("up", "down", "none"):
            raise BoardDefError("matrix.col_pull is %r, expected up, down or none"
                                % (self.col_pull,))
        if (self.row_active == 0) != (self.col_pull == "up") and self.col_pull != "none":
            raise BoardDefError("matrix: row_active %d needs col_pull %r, not %r"
                                % (self.row_active, "up" if self.row_active == 0 else "down",
                                   self.col_pull))
        self.settle_us = _int(m, "matrix", "settle_us", 10, 0, 1000)
        n = self.n_cells
        cok = _int_list(m, "matrix", "cell_of_key", n)
        seen = {}
        for key, c in enumerate(cok):
            if not 0 <= c < n:
                raise BoardDefError("matrix.cell_of_key[%d] is %d, not a cell 0..%d"
                                    % (key, c, n - 1))
            if c in seen:
                raise BoardDefError("matrix.cell_of_key: cell %s (%d) is given to keys %d and %d"
                                    % (_cell_name(c, self.width), c, seen[c], key))
            seen[c] = key
        self.cell_of_key = bytes(cok)
        self.key_of_cell = bytes(seen[c] for c in range(n))

    def _parse_shift595(self, m, used):
        """The 15x15 board's matrix (``xobo.drivers.shiftrows``): rows from chained 74HC595s
        on three pins (``matrix.shift``), columns on GPIOs."""
        if self.platform != "micropython-rp2":
            raise BoardDefError("matrix.scanner shift595 needs platform micropython-rp2")
        sh = _section(m, "shift")
        for k in ("data", "clock", "latch"):
            self._use_pin(used, sh.get(k), "matrix.shift.%s" % k)
        outputs = _int(sh, "matrix.shift", "outputs", 16, 8, 64)
        if outputs % 8:
            raise BoardDefError("matrix.shift.outputs is %d, not a whole number of 8-bit "
                                "74HC595s" % outputs)
        nrows = _int(sh, "matrix.shift", "rows", None, 1, outputs)
        cols = m.get("cols")
        if not isinstance(cols, list) or not 1 <= len(cols) <= 15:
            raise BoardDefError("matrix.cols should list 1 to 15 column pins")
        for k, p in enumerate(cols):
            self._use_pin(used, p, "matrix.cols[%d]" % k)
        self.shift = (sh["data"], sh["clock"], sh["latch"], outputs, nrows)
        self.rows = []
        self.cols = list(cols)
        self.width = len(cols)
        self.height = nrows
        self.n_cells = n = nrows * self.width
        self.row_active = _int(m, "matrix", "row_active", 0, 0, 1)
        self.col_pull = "up" if self.row_active == 0 else "down"
        if m.get("col_pull", self.col_pull) != self.col_pull:
            raise BoardDefError("matrix: row_active %d needs col_pull %r"
                                % (self.row_active, self.col_pull))
        self.settle_us = _int(m, "matrix", "settle_us", 10, 0, 1000)
        cok = _int_list(m, "matrix", "cell_of_key", n)
        seen = {}
        for key, c in enumerate(cok):
            if not 0 <= c < n or c in seen:
                raise BoardDefError("matrix.cell_of_key[%d] is %d: not a free cell 0..%d"
                                    % (key, c, n - 1))
            seen[c] = key
        self.cell_of_key = bytes(cok)
        self.key_of_cell = bytes(seen[c] for c in range(n))

    def _parse_leds(self, s, used):
        self.led_pin = s.get("pin")
        self._use_pin(used, self.led_pin, "leds.pin")
        self.led_count = _int(s, "leds", "count", None, self.n_cells, 4096)
        self.led_order = s.get("order", "GRB")
        if not isinstance(self.led_order, str) or sorted(self.led_order) != ["B", "G", "R"]:
            raise BoardDefError("leds.order is %r, expected a permutation of RGB like GRB"
                                % (self.led_order,))
        owner = {}  # chain index -> what
        cells = _int_list(s, "leds", "cells", self.n_cells)
        for c, i in enumerate(cells):
            self._use_led(owner, i, "cell %s" % _cell_name(c, self.width), "leds.cells")
        self.led_cells = tuple(cells)
        edges = s.get("edges") or {}
        if not isinstance(edges, dict):
            raise BoardDefError("leds.edges should be an object with N, S, E, W lists")
        self.led_edges = {}
        for side in edges:
            if side not in SIDES:
                raise BoardDefError("leds.edges: unknown side %r (N, S, E or W)" % (side,))
        for side in SIDES:
            lst = edges.get(side, [])
            if not isinstance(lst, list):
                raise BoardDefError("leds.edges.%s should be a list of chain indices" % side)
            for k, i in enumerate(lst):
                if not isinstance(i, int) or isinstance(i, bool):
                    raise BoardDefError("leds.edges.%s[%d] should be an integer, got %r"
                                        % (side, k, i))
                self._use_led(owner, i, "edge %s[%d]" % (side, k), "leds.edges.%s" % side)
            self.led_edges[side] = tuple(lst)
        self.ma_per_channel = _int(s, "leds", "ma_per_channel", 20, 0, 100)
        self.idle_ma_per_led = _int(s, "leds", "idle_ma_per_led", 1, 0, 10)

    def _use_led(self, owner, i, what, where):
        if not 0 <= i < self.led_count:
            raise BoardDefError("%s: chain index %d for %s is outside 0..%d (leds.count %d)"
                                % (where, i, what, self.led_count - 1, self.led_count))
        if i in owner:
            raise BoardDefError("%s: chain index %d is used twice (%s and %s)"
                                % (where, i, owner[i], what))
        owner[i] = what

    def _parse_buttons(self, b, used):
        if not isinstance(b, dict):
            raise BoardDefError("buttons should be an object {name: {pin, active}}")
        for need in ("ok", "undo"):
            if need not in b:
                raise BoardDefError("buttons.%s is missing (ok and undo are required)" % need)
        self.buttons = {}
        for name in b:
            spec = b[name]
            if not isinstance(spec, dict) or "pin" not in spec:
                raise BoardDefError("buttons.%s should be {\"pin\": ..., \"active\": 0|1}" % name)
            self._use_pin(used, spec["pin"], "buttons.%s" % name)
            active = _int(spec, "buttons." + name, "active", 0, 0, 1)
            self.buttons[name] = (spec["pin"], active)

    def button_names(self):
        return [n for n in BUTTON_ORDER if n in self.buttons] + sorted(
            n for n in self.buttons if n not in BUTTON_ORDER)

    def _parse_power(self, p):
        self.supply = p.get("supply", "usb")
        self.supply_ma = _int(p, "power", "supply_ma", 500, 1)
        self.budget_ma = _int(p, "power", "budget_ma", 500, 1)
        self.base_ma = _int(p, "power", "base_ma", 50, 0)
        if self.budget_ma > self.supply_ma:
            raise BoardDefError("power.budget_ma %d exceeds power.supply_ma %d"
                                % (self.budget_ma, self.supply_ma))
        idle = self.base_ma + self.idle_ma_per_led * self.led_count
        if idle >= self.budget_ma:
            raise BoardDefError("power.budget_ma %d leaves nothing for light: base_ma + idle "
                                "LEDs already draw %d mA" % (self.budget_ma, idle))

    def limiter(self):
        from xobo.drivers.leds import PowerLimiter

        return PowerLimiter(self.led_count, self.budget_ma, self.ma_per_channel,
                            self.idle_ma_per_led, self.base_ma)

    def __repr__(self):
        return "<BoardDef %s (%s)>" % (self.name, self.platform)


def parse(obj):
    """A ``BoardDef`` from a dict or JSON text."""
    if isinstance(obj, (str, bytes)):
        try:
            obj = json.loads(obj)
        except ValueError as exc:
            raise BoardDefError("board definition is not valid JSON: %s" % exc)
    return BoardDef(obj)


def load(path):
    """Read and check the board definition at ``path``."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as exc:
        raise BoardDefError("cannot read board definition %s: %s" % (path, exc))
    try:
        return parse(text)
    except BoardDefError as exc:
        raise BoardDefError("%s: %s" % (path, exc))


def default_boarddef():
    """The reference board (pico_gpio wiring, serpentine chain), for the simulator and tests."""
    cells = []
    for rank in range(9):
        for f in range(9):
            cells.append(rank * 9 + (f if rank % 2 == 0 else 8 - f))
    return BoardDef({
        "name": "virtual", "description": "default virtual board", "platform": "micropython-rp2",
        "matrix": {"rows": ["GP%d" % i for i in range(11, 20)],
                   "cols": ["GP%d" % i for i in range(2, 11)], "row_active": 0,
                   "col_pull": "up", "settle_us": 10, "cell_of_key": list(range(81))},
        "leds": {"pin": "GP22", "count": 117, "order": "GRB", "cells": cells,
                 "edges": {"N": list(range(89, 80, -1)), "W": list(range(98, 89, -1)),
                           "S": list(range(99, 108)), "E": list(range(108, 117))},
                 "ma_per_channel": 20, "idle_ma_per_led": 1},
        "buttons": {"ok": {"pin": "GP26", "active": 0}, "undo": {"pin": "GP27", "active": 0},
                    "hint": {"pin": "GP28", "active": 0}},
        "power": {"supply": "usb", "supply_ma": 500, "budget_ma": 500, "base_ma": 50},
    })


def make_drivers(bd, watchdog_ms=8000, stable_ms=None, flash_root=""):
    """The real drivers for ``bd.platform`` (hardware modules imported here, lazily).

    ``watchdog_ms=0`` leaves the watchdog off (``NullWatchdog``; the device's boot starts it
    with ``xobo.drivers.watchdog.make`` once the board is built)."""
    from xobo.drivers import Drivers
    from xobo.drivers.buttons import Buttons
    from xobo.drivers.clock import Clock
    from xobo.drivers.debounce import Debouncer
    from xobo.drivers.flash import Flash
    from xobo.drivers.watchdog import make as make_watchdog

    m = (bd.rows, bd.cols, bd.cell_of_key, bd.row_active, bd.col_pull, bd.settle_us)
    if bd.scanner == "shift595":  # the 15x15 board (micropython-rp2 only)
        from xobo.drivers.leds import LedChain
        from xobo.drivers.shiftrows import ShiftRowMatrix

        data, clock, latch, outputs, nrows = bd.shift
        matrix = ShiftRowMatrix(data, clock, latch, nrows, bd.cols, bd.cell_of_key,
                                bd.row_active, bd.col_pull, bd.settle_us, outputs)
        leds = LedChain(bd.led_pin, bd.led_count, bd.led_order, bd.led_cells, bd.led_edges,
                        bd.limiter())
    elif bd.platform == "micropython-rp2":
        from xobo.drivers.leds import LedChain
        from xobo.drivers.matrix import SwitchMatrix

        matrix = SwitchMatrix(*m)
        leds = LedChain(bd.led_pin, bd.led_count, bd.led_order, bd.led_cells, bd.led_edges,
                        bd.limiter())
    else:  # circuitpython, blinka
        from xobo.drivers.leds_circuitpython import LedChainCP
        from xobo.drivers.matrix import SwitchMatrixDIO

        matrix = SwitchMatrixDIO(*m)
        leds = LedChainCP(bd.led_pin, bd.led_count, bd.led_order, bd.led_cells, bd.led_edges,
                          bd.limiter())
    return Drivers(
        boarddef=bd,
        matrix=matrix,
        debouncer=(Debouncer(bd.n_cells) if stable_ms is None
                   else Debouncer(bd.n_cells, stable_ms)),
        leds=leds,
        buttons=Buttons(bd.buttons),
        clock=Clock(),
        watchdog=make_watchdog(bd.platform, watchdog_ms),
        flash=Flash(flash_root),
        restart=_soft_reset() if bd.platform == "micropython-rp2" else None,
    )


def _soft_reset():
    """MicroPython's ``machine.soft_reset`` (the interpreter restarts and runs ``main.py``
    again; the USB serial stays connected, the hardware watchdog keeps running: a boot takes
    well under its 8 s), or None where the port has none (the unix port, a test's fake
    ``machine``): the board then switches games in place. (Here, not in a driver module:
    this module is unloaded after the boot, and a stock firmware's heap keeps every loaded
    module's code.)"""
    import machine

    return getattr(machine, "soft_reset", None)
