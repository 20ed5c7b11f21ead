"""Self-test mode: check every LED and every switch of the board, with the user's help.

Entered by holding both buttons at power-up or by the serial command ``selftest`` (the app
wires both). The test:

1. LEDs: every LED (cells and edges) lights red, then green, then blue, ``colour_ms`` each
   (``ok`` moves on at once).
2. Switches: one cell at a time (a1, b1, ... i9) is lit white with its rank and file dimly lit
   around it, so it can be found even when its own LED is dead. The user puts a cube on it (the
   cell turns blue once the switch is seen closed) and takes it off again; then the next cell.
   Buttons during this phase: ``undo`` = "this cell's LED is dead" (press again to unmark),
   ``ok`` = skip this cell now. A cell whose switch does not close within ``cell_timeout_ms``
   (10 s) is reported ``never-closes`` and skipped; once two cells of a matrix row never closed,
   the rest of that row gets ``row_timeout_ms`` (3 s), so a dead row costs little time. A
   switch that stays closed ``cell_timeout_ms`` after closing is ``never-opens``; one whose raw
   reading flips more than ``chatter_limit`` times during one turn is ``chatters``. A closure
   shorter than ``min_hold_ms`` (150 ms: faster than any hand) does not count as the cube put
   and lifted.
3. Result: cells with a problem red, the others green; edges green when all is well, red
   otherwise. ``report_lines()`` gives the lines the app sends over serial.

Report lines (cells by name, rows/cols as indices into the board definition's matrix lists)::

    selftest switch e5 never-closes      | never-opens | chatters
    selftest led e5 dead
    selftest row 3 dead                  (every switch of matrix row 3 never closed)
    selftest col 4 dead
    selftest done ok                     | selftest done 3 problems

``N problems`` counts the switch and led lines (a dead row's nine cells count nine).

Usage (what the app does; ``raw`` = this scan's undebounced bytearray, ``stable`` = debounced)::

    >>> from xobo.runtime.selftest import SelfTest
    >>> from xobo.drivers.virtual import make_virtual_drivers
    >>> d = make_virtual_drivers()
    >>> leds = d.leds
    >>> st = SelfTest(cell_of_key=d.boarddef.cell_of_key)
    >>> raw = stable = bytearray(81)      # (the scan's, the debouncer's: no cube anywhere)
    >>> now = 0
    >>> st.start(now)
    >>> while not st.done:
    ...     now += 10                     # ... scan, debounce ...
    ...     st.step(now, raw, stable)
    ...     st.button("ok")               # each button event: ok skips, undo marks the LED dead
    ...     st.render(leds.set_cell, leds.set_edge); leds.show()
    >>> for line in st.report_lines()[:2]: print(line)
    selftest done ok
"""

from xobo.compat import ticks_diff
from xobo.runtime.topology import cell_name

PHASE_LEDS = 0
PHASE_CELLS = 1
PHASE_DONE = 2

OK = 0
NEVER_CLOSES = 1
NEVER_OPENS = 2
CHATTERS = 3
SKIPPED = 4
PROBLEM_NAMES = ("ok", "never-closes", "never-opens", "chatters", "skipped")

COLOURS = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
SIDES = ("N", "S", "E", "W")


class SelfTest:
    def __init__(self, cell_of_key=None, colour_ms=3000, cell_timeout_ms=10000,
                 row_timeout_ms=3000, chatter_limit=6, min_hold_ms=150, cells=None,
                 topology=None):
        # the board's cells (keys numbered row * width + column, as the matrix reports them)
        w = topology.width if topology is not None else 9
        n = topology.n_cells if topology is not None else 81
        self.n = n
        self.width = w
        self.cell_of_key = bytes(cell_of_key) if cell_of_key is not None else bytes(range(n))
        self.row_of_cell = bytearray(n)
        self.col_of_cell = bytearray(n)
        for key in range(n):
            c = self.cell_of_key[key]
            self.row_of_cell[c] = key // w
            self.col_of_cell[c] = key % w
        self.colour_ms = colour_ms
        self.cell_timeout_ms = cell_timeout_ms
        self.row_timeout_ms = row_timeout_ms
        self.chatter_limit = chatter_limit
        self.min_hold_ms = min_hold_ms
        self.order = tuple(cells) if cells is not None else tuple(range(n))
        self.result = bytearray(n)  # per cell: OK, NEVER_CLOSES, ...
        self.tested = bytearray(n)
        self.led_dead = bytearray(n)
        self.phase = PHASE_LEDS
        self.colour = 0
        self.target = -1
        self.done = False
        self._started = False
        self._t0 = 0
        self._pos = 0
        self._closed = False
        self._t_closed = 0
        self._last_raw = 0
        self._flips = 0
        self._skip = False
        self._ok_pressed = False

    # --- driving
    def start(self, now_ms):
        self._started = True
        self.phase = PHASE_LEDS
        self.colour = 0
        self._t0 = now_ms

    def button(self, name):
        """``ok``: next colour / skip this cell; ``undo``: toggle "this cell's LED is dead"."""
        if self.phase == PHASE_LEDS and name == "ok":
            self._ok_pressed = True
        elif self.phase == PHASE_CELLS and self.target >= 0:
            if name == "ok":
                self._skip = True
            elif name == "undo":
                self.led_dead[self.target] ^= 1

    def step(self, now_ms, raw, stable):
        if not self._started:
            self.start(now_ms)
        if self.phase == PHASE_LEDS:
            if self._ok_pressed or ticks_diff(now_ms, self._t0) >= self.colour_ms:
                self._ok_pressed = False
                self.colour += 1
                self._t0 = now_ms
                if self.colour >= len(COLOURS):
                    self.phase = PHASE_CELLS
                    self._begin_cell(0, now_ms, raw)
            return
        if self.phase != PHASE_CELLS:
            return
        c = self.target
        r = raw[c]
        if r != self._last_raw:
            self._last_raw = r
            self._flips += 1
        if self._skip:
            self._skip = False
            self._finish(c, OK if self._closed and not stable[c] else SKIPPED, now_ms, raw)
            return
        if self._flips > self.chatter_limit:
            self._finish(c, CHATTERS, now_ms, raw)
            return
        if not self._closed:
            if stable[c]:
                self._closed = True
                self._t_closed = now_ms
            elif ticks_diff(now_ms, self._t0) >= self._close_timeout(c):
                self._finish(c, NEVER_CLOSES, now_ms, raw)
        else:
            if not stable[c]:
                if ticks_diff(now_ms, self._t_closed) < self.min_hold_ms:
                    self._closed = False  # too short for a cube put and lifted: a glitch
                else:
                    self._finish(c, OK, now_ms, raw)
            elif ticks_diff(now_ms, self._t_closed) >= self.cell_timeout_ms:
                self._finish(c, NEVER_OPENS, now_ms, raw)

    def _close_timeout(self, c):
        row = self.row_of_cell[c]
        dead = 0
        w = self.width
        for key in range(row * w, row * w + w):
            d = self.cell_of_key[key]
            if self.tested[d] and self.result[d] == NEVER_CLOSES:
                dead += 1
        return self.row_timeout_ms if dead >= 2 else self.cell_timeout_ms

    def _begin_cell(self, pos, now_ms, raw):
        self._pos = pos
        if pos >= len(self.order):
            self.target = -1
            self.phase = PHASE_DONE
            self.done = True
            return
        c = self.order[pos]
        self.target = c
        self._t0 = now_ms
        self._closed = False
        self._flips = 0
        self._last_raw = raw[c]
        self._skip = False

    def _finish(self, c, result, now_ms, raw):
        self.result[c] = result
        self.tested[c] = 1
        self._begin_cell(self._pos + 1, now_ms, raw)

    # --- output
    def cell_problem(self, c):
        r = self.result[c]
        return (self.tested[c] and r != OK and r != SKIPPED) or self.led_dead[c]

    def problems(self):
        n = 0
        for c in range(self.n):
            r = self.result[c]
            if self.tested[c] and r != OK and r != SKIPPED:
                n += 1
            if self.led_dead[c]:
                n += 1
        return n

    def render(self, set_cell_rgb, set_edge_rgb):
        """Draw the current state with ``set_cell_rgb(cell, r, g, b)`` and
        ``set_edge_rgb(side, r, g, b)`` (the caller shows the frame)."""
        if self.phase == PHASE_LEDS:
            r, g, b = COLOURS[self.colour if self.colour < len(COLOURS) else 0]
            for c in range(self.n):
                set_cell_rgb(c, r, g, b)
            for s in SIDES:
                set_edge_rgb(s, r, g, b)
            return
        t = self.target
        w = self.width
        tf = t % w if t >= 0 else -1
        tr = t // w if t >= 0 else -1
        for c in range(self.n):
            if c == t:
                if self._closed:
                    set_cell_rgb(c, 0, 0, 255)
                else:
                    set_cell_rgb(c, 255, 255, 255)
            elif self.tested[c]:
                if self.cell_problem(c):
                    set_cell_rgb(c, 80, 0, 0)
                else:
                    set_cell_rgb(c, 0, 40, 0)
            elif c % w == tf or c // w == tr:
                set_cell_rgb(c, 16, 16, 16)
            else:
                set_cell_rgb(c, 0, 0, 0)
        if self.phase == PHASE_DONE:
            col = (0, 80, 0) if self.problems() == 0 else (80, 0, 0)
        else:
            col = (40, 30, 0)
        for s in SIDES:
            set_edge_rgb(s, col[0], col[1], col[2])

    def status(self):
        """One short line on where the test is, for a display or the serial log."""
        if self.phase == PHASE_LEDS:
            return "selftest leds %s" % ("red", "green", "blue")[min(self.colour, 2)]
        if self.phase == PHASE_CELLS:
            return "selftest cell %s (%d/%d)%s" % (
                cell_name(self.target, self.width), self._pos + 1, len(self.order),
                " lift it" if self._closed else " put a cube")
        return "selftest done"

    def report_lines(self):
        lines = []
        for c in range(self.n):
            if self.tested[c] and self.result[c] not in (OK, SKIPPED):
                lines.append("selftest switch %s %s" % (cell_name(c, self.width),
                                                        PROBLEM_NAMES[self.result[c]]))
            if self.led_dead[c]:
                lines.append("selftest led %s dead" % cell_name(c, self.width))
        w = self.width
        h = self.n // w
        for what in ("row", "col"):
            lines_of = h if what == "row" else w
            along = w if what == "row" else h
            for k in range(lines_of):
                dead = 0
                for j in range(along):
                    key = k * w + j if what == "row" else j * w + k
                    c = self.cell_of_key[key]
                    if self.tested[c] and self.result[c] == NEVER_CLOSES:
                        dead += 1
                if dead == along:
                    lines.append("selftest %s %d dead" % (what, k))
        n = self.problems()
        lines.append("selftest done ok" if n == 0 else "selftest done %d problems" % n)
        return lines


class SelfTestMode:
    """The board's self-test mode (the app's other mode is the game: ``App`` itself): the
    switches go to the self-test, not to the inference; the buttons mark cells; the light is
    the self-test's own; at the end the app goes back to the game (``App.end_selftest``)."""

    observes = False  # the switches are not the game's

    def __init__(self, app, st):
        self.app = app
        self.st = st

    def button(self, kind, name, now):
        if kind != 3:  # the two-button hold is no cell mark
            self.st.button(name)

    def step_mode(self, now):
        app = self.app
        self.st.step(now, app.raw, app.d.debouncer.stable)
        if self.st.done:
            app.end_selftest(now)

    def paint(self, now):
        leds = self.app.d.leds
        self.st.render(leds.set_cell, leds.set_edge)
        return True


def simulate(drivers, scan_ms=10, put_after_ms=300, hold_ms=400, max_ms=3600000, cells=None,
             **options):
    """Run a whole self-test on virtual drivers (``make_virtual_drivers``) with a simulated,
    patient user: for each requested cell the user puts a cube after ``put_after_ms``, lifts it
    ``hold_ms`` later, and presses ``undo`` when the cell's LED stays dark. Faults are injected
    beforehand on ``drivers.switches`` and ``drivers.leds.dead``; ``cells`` and ``options`` go to
    ``SelfTest``. Returns the finished ``SelfTest``."""
    from xobo.drivers.buttons import SHORT

    d = drivers
    clock = d.clock
    sw = d.switches
    leds = d.leds
    bd = d.boarddef
    topo = None
    if bd is not None:
        from xobo.runtime.topology import from_boarddef

        topo = from_boarddef(bd)
    st = SelfTest(cell_of_key=bd.cell_of_key if bd is not None else None, cells=cells,
                  topology=topo, **options)
    raw = bytearray(st.n)
    ev = d.buttons.new_event()
    start = clock.ticks_ms()
    st.start(start)
    seen = -1
    t_seen = 0
    placed = -1
    lifted = False
    marked = False
    while not st.done:
        now = clock.ticks_ms()
        if ticks_diff(now, start) > max_ms:
            raise RuntimeError("self-test did not finish in %d ms" % max_ms)
        sw.scan_into(raw)
        d.debouncer.update(raw, now)
        d.buttons.update(now)
        while d.buttons.get_into(ev):
            if ev[0] == SHORT:
                st.button(ev[1])
        st.step(now, raw, d.debouncer.stable)
        st.render(leds.set_cell, leds.set_edge)
        leds.show()
        # the user
        t = st.target
        if t != seen:
            if placed >= 0 and sw.counts[placed]:
                sw.lift(placed)
            seen, t_seen, placed, lifted, marked = t, now, -1, False, False
        elif t >= 0:
            age = ticks_diff(now, t_seen)
            if not marked and leds.cell_rgb(t) == (0, 0, 0):
                marked = True
                d.buttons.click("undo")
            if placed < 0 and age >= put_after_ms:
                sw.put(t)
                placed = t
            elif placed >= 0 and not lifted and age >= put_after_ms + hold_ms:
                sw.lift(t)
                lifted = True
        clock.advance(scan_ms)
    return st
