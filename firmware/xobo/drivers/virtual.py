"""Virtual twins of every driver, for the simulator and the tests.

- ``VirtualClock(start=0, realtime=False)``: ``ticks_ms()``, ``advance(ms)``, ``sleep_ms(ms)``
  (advances virtual time); with ``realtime=True`` it follows the host's clock; ``hold()``
  stops that until ``release()`` (only ``advance`` moves it meanwhile).
- ``VirtualSwitches(clock, cell_of_key=None, auto_bounce_ms=0, ncols=None)``: the twin of
  every matrix scanner (9x9 GPIO, 15x15 shift-register rows); the real cube count per cell
  (``counts``, bytearray ``len(cell_of_key)``: 81, or 225 on the 15x15 board):
  ``put(cell, n=1)``, ``take(cell, n=1)``, ``lift(cell)``,
  ``set_counts(heights)``, ``bounce(cell, now_ms=None, ms=4)`` (the reading alternates every
  millisecond for ``ms`` then settles back), faults ``fault(cell, "open"|"closed"|"chatter"|
  None)``, ``dead_row(row)``, ``dead_col(col)`` (matrix wires); ``scan_into(raw)`` gives the
  occupancy at the clock's current time, chatter included.
- ``VirtualLeds(count=117, cells, edges, limiter)``: the ``LedFrame`` interface; ``shown`` is
  the last frame written (RGB, after the power limiter); ``cell_rgb(c)``, ``edge_rgb(side)``;
  ``dead`` (bytearray count) makes LEDs stay dark, for self-test demos.
- ``VirtualButtons(clock, names=("ok", "undo", "hint"))``: ``press``, ``release``,
  ``hold(name, ms)`` (released when virtual time reaches now + ms), ``click(name)``.
- ``VirtualWatchdog(clock, timeout_ms=8000)``: ``feed()``, ``feeds``, ``expired()``.
- ``VirtualFlash()``: in-memory files; ``cut_after(n)`` arms a power cut: the n-th primitive
  operation from now (0 = the next one) raises ``PowerCut`` (a chunk write is cut half-way);
  every later operation raises too until ``restore_power()``. ``ops`` counts operations;
  ``cut_after_bytes(n)`` cuts once n more bytes of file data are written.
- ``make_virtual_drivers(boarddef=None, realtime=False)`` -> ``xobo.drivers.Drivers`` with
  ``switches`` too.

Usage::

    >>> from xobo.drivers.virtual import make_virtual_drivers
    >>> d = make_virtual_drivers()
    >>> d.switches.put(40)                  # a cube on e5
    >>> d.clock.advance(40)
    40
    >>> raw = bytearray(81); d.matrix.scan_into(raw); d.debouncer.update(raw, d.clock.ticks_ms())
    0
"""

import time
from array import array

from xobo.compat import ticks_add, ticks_diff
from xobo.drivers import Drivers
from xobo.drivers.buttons import ButtonsBase
from xobo.drivers.flash import FlashBase
from xobo.drivers.leds import LedFrame, PowerLimiter


class PowerCut(Exception):
    """The virtual board lost power in the middle of a flash operation."""


class VirtualClock:
    def __init__(self, start=0, realtime=False):
        self.realtime = realtime
        self.held = False  # (``hold``: realtime, stopped until ``release``)
        self._t = ticks_add(start, 0)
        self._origin = time.ticks_ms() if hasattr(time, "ticks_ms") else None
        if not hasattr(time, "ticks_ms"):
            self._origin_s = time.monotonic()

    def _host_ms(self):
        if self._origin is not None:
            return time.ticks_diff(time.ticks_ms(), self._origin)
        return int((time.monotonic() - self._origin_s) * 1000)

    def ticks_ms(self):
        if self.realtime:
            return ticks_add(self._t, self._host_ms())
        return self._t

    def ticks_diff(self, a, b):
        return ticks_diff(a, b)

    def ticks_add(self, t, ms):
        return ticks_add(t, ms)

    def advance(self, ms):
        self._t = ticks_add(self._t, ms)
        return self.ticks_ms()

    def hold(self):
        """(realtime) The host's clock stops moving this one until ``release()``: only
        ``advance`` does. A scripted gesture of several hand actions then takes its own time
        on the board, however long the host's process took between two of them (a starved
        process made a move's actions seconds apart: the board, rightly, judged the pieces
        half-way, as a hesitant player's)."""
        if self.realtime:
            self._t = self.ticks_ms()
            self.realtime = False
            self.held = True

    def release(self):
        """(after ``hold``) The host's clock moves this one again, from where it stands."""
        if self.held:
            self.held = False
            self._t = ticks_add(self._t, -self._host_ms())
            self.realtime = True

    def sleep_ms(self, ms):
        if ms <= 0:
            return
        if self.realtime:
            try:
                time.sleep_ms(ms)
            except AttributeError:
                time.sleep(ms / 1000)
        else:
            self.advance(ms)


_FAULTS = {None: 0, "open": 1, "closed": 2, "chatter": 3}


def _square_side(n):
    side = 1
    while side * side < n:
        side += 1
    if side * side != n:
        raise ValueError("%d keys are not a square matrix: give ncols" % n)
    return side


class VirtualSwitches:
    """The twin of every matrix scanner (``matrix.SwitchMatrix``, ``shiftrows.ShiftRowMatrix``):
    ``len(cell_of_key)`` keys (81 by default, 225 on the 15x15 board), ``ncols`` columns
    (default: the side of a square matrix)."""

    def __init__(self, clock=None, cell_of_key=None, auto_bounce_ms=0, ncols=None):
        self.clock = clock or VirtualClock()
        self.cell_of_key = bytes(cell_of_key) if cell_of_key is not None else bytes(range(81))
        n = self.n = len(self.cell_of_key)
        self.ncols = ncols or _square_side(n)
        self.nrows = n // self.ncols
        self.counts = bytearray(n)
        self.auto_bounce_ms = auto_bounce_ms
        self._faults = bytearray(n)
        self._bounce_start = array("i", [0] * n)
        self._bounce_ms = bytearray(n)

    # --- cubes
    def put(self, cell, n=1):
        self.counts[cell] += n
        self._auto_bounce(cell)

    def take(self, cell, n=1):
        if n > self.counts[cell]:
            raise ValueError("cell %d holds %d cubes, cannot take %d"
                             % (cell, self.counts[cell], n))
        self.counts[cell] -= n
        self._auto_bounce(cell)

    def lift(self, cell):
        """Take every cube off ``cell``; returns how many there were."""
        n = self.counts[cell]
        self.counts[cell] = 0
        self._auto_bounce(cell)
        return n

    def set_counts(self, heights):
        for c in range(self.n):
            self.counts[c] = heights[c]

    def occupancy(self, out):
        for c in range(self.n):
            out[c] = 1 if self.counts[c] else 0

    def _auto_bounce(self, cell):
        if self.auto_bounce_ms:
            self.bounce(cell, None, self.auto_bounce_ms)

    def bounce(self, cell, now_ms=None, ms=4):
        """From ``now_ms`` the reading alternates every ms for ``ms`` ms, then settles."""
        self._bounce_start[cell] = self.clock.ticks_ms() if now_ms is None else now_ms
        self._bounce_ms[cell] = ms

    # --- faults
    def fault(self, cell, kind):
        """``"open"`` never closes, ``"closed"`` stuck closed, ``"chatter"`` flaky, None ok."""
        if kind not in _FAULTS:
            raise ValueError("unknown switch fault %r (open, closed, chatter or None)" % (kind,))
        self._faults[cell] = _FAULTS[kind]

    def dead_row(self, row):
        """The wire of matrix row ``row`` is broken (on the 15x15 board: a 74HC595 output):
        its switches never close."""
        for col in range(self.ncols):
            self._faults[self.cell_of_key[row * self.ncols + col]] = 1

    def dead_col(self, col):
        for row in range(self.nrows):
            self._faults[self.cell_of_key[row * self.ncols + col]] = 1

    # --- the matrix interface
    def scan_into(self, raw):
        now = self.clock.ticks_ms()
        counts = self.counts
        faults = self._faults
        for c in range(self.n):
            v = 1 if counts[c] else 0
            f = faults[c]
            if f:
                if f == 1:
                    v = 0
                elif f == 2:
                    v = 1
                else:
                    x = (((now >> 1) & 0x3FFF) * 109 + c * 37) & 0x3FFF
                    v ^= ((x ^ (x >> 7)) >> 2) & 1
            else:
                b = self._bounce_ms[c]
                if b:
                    dt = ticks_diff(now, self._bounce_start[c])
                    if 0 <= dt < b:
                        v ^= 1 - (dt & 1)
                    elif dt >= b:
                        self._bounce_ms[c] = 0
            raw[c] = v


class VirtualLeds(LedFrame):
    def __init__(self, count=117, cells=None, edges=None, limiter=None, brightness=255):
        if edges is None and cells is None and count == 117:
            cells = range(81)
            edges = {"N": range(81, 90), "S": range(90, 99), "E": range(99, 108),
                     "W": range(108, 117)}
        LedFrame.__init__(self, count, cells, edges, limiter or PowerLimiter(count), brightness)
        self.shown = bytearray(3 * count)
        self.dead = bytearray(count)
        self.frames = 0

    def _write(self, scale):
        s = self.scaled_into(self.shown, scale)
        for i in range(self.count):
            if self.dead[i]:
                j = 3 * i
                self.shown[j] = self.shown[j + 1] = self.shown[j + 2] = 0
        self.frames += 1
        return s  # the estimate counts what was sent, dead LEDs or not

    def chain_rgb(self, index):
        j = 3 * index
        return (self.shown[j], self.shown[j + 1], self.shown[j + 2])

    def cell_rgb(self, cell):
        """(r, g, b) shown under ``cell`` by the last ``show()``, after the power limiter."""
        return self.chain_rgb(self.cells[cell])

    def edge_rgb(self, side):
        return [self.chain_rgb(i) for i in self.edges[side]]

    def shown_ma(self):
        return self.limiter.estimate_ma(self.shown)


class VirtualButtons(ButtonsBase):
    def __init__(self, clock=None, names=("ok", "undo", "hint"), long_ms=1500, both_ms=1000,
                 stable_ms=20):
        ButtonsBase.__init__(self, names, long_ms, both_ms, stable_ms)
        self.clock = clock or VirtualClock()
        self._levels = bytearray(len(self.names))
        self._release_at = array("i", [0] * len(self.names))
        self._timed = bytearray(len(self.names))

    def _index(self, name):
        if name not in self.names:
            raise ValueError("no button %r (have %s)" % (name, ", ".join(self.names)))
        return self.names.index(name)

    def press(self, name):
        i = self._index(name)
        self._levels[i] = 1
        self._timed[i] = 0

    def release(self, name):
        i = self._index(name)
        self._levels[i] = 0
        self._timed[i] = 0

    def hold(self, name, ms):
        """Press now; released when virtual time reaches now + ``ms``."""
        i = self._index(name)
        self._levels[i] = 1
        self._timed[i] = 1
        self._release_at[i] = ticks_add(self.clock.ticks_ms(), ms)

    def click(self, name):
        self.hold(name, 3 * self.stable_ms)

    def _read(self, i):
        if self._timed[i] and ticks_diff(self.clock.ticks_ms(), self._release_at[i]) >= 0:
            self._levels[i] = 0
            self._timed[i] = 0
        return self._levels[i]


class VirtualWatchdog:
    def __init__(self, clock=None, timeout_ms=8000):
        self.clock = clock or VirtualClock()
        self.timeout_ms = timeout_ms
        self.feeds = 0
        self._last = self.clock.ticks_ms()

    def feed(self):
        self.feeds += 1
        self._last = self.clock.ticks_ms()

    def expired(self):
        """Would the real watchdog have reset the board by now?"""
        return ticks_diff(self.clock.ticks_ms(), self._last) > self.timeout_ms


class VirtualFlash(FlashBase):
    def __init__(self, chunk=64):
        self.files = {}  # name -> bytearray
        self.unreadable = {}  # name -> why reading it fails (make_unreadable)
        self.chunk = chunk
        self.ops = 0
        self._cut_at = -1  # op number at which power fails
        self._bytes_left = -1  # bytes that may still be written before power fails
        self.powered = True

    # --- power
    def cut_after(self, n):
        """The n-th primitive operation from now (0 = the next) fails with ``PowerCut``."""
        self._cut_at = self.ops + n

    def cut_after_bytes(self, n):
        """Power fails once ``n`` more bytes of file data have been written (mid-chunk)."""
        self._bytes_left = n

    def restore_power(self):
        self._cut_at = -1
        self._bytes_left = -1
        self.powered = True

    def _op(self):
        if not self.powered:
            raise PowerCut("no power")
        if self._cut_at >= 0 and self.ops >= self._cut_at:
            self.powered = False
            raise PowerCut("power cut at flash operation %d" % self.ops)
        self.ops += 1

    # --- primitives
    def _create(self, path):
        self._op()
        self.files[path] = bytearray()
        return path

    def _write(self, h, chunk):
        if self.powered and self._cut_at >= 0 and self.ops >= self._cut_at:
            self.files[h].extend(bytes(chunk[:len(chunk) // 2]))  # half the chunk made it
        if self.powered and self._bytes_left >= 0 and len(chunk) > self._bytes_left:
            self.files[h].extend(bytes(chunk[:self._bytes_left]))
            self.powered = False
            raise PowerCut("power cut after writing %d bytes of %s" % (self._bytes_left, h))
        self._op()
        self.files[h].extend(bytes(chunk))
        if self._bytes_left >= 0:
            self._bytes_left -= len(chunk)

    def _close(self, h):
        if self.powered:
            self._op()

    def _rename(self, src, dst):
        self._op()
        self.files[dst] = self.files.pop(src)
        self.unreadable.pop(dst, None)  # (written whole again)

    def read(self, name):
        self._readable(name)
        f = self.files.get(name)
        return None if f is None else bytes(f)

    def size(self, name):
        self._readable(name)
        f = self.files.get(name)
        return -1 if f is None else len(f)

    def make_unreadable(self, name, why="I/O error"):
        """Reading ``name`` fails from now on (OSError: a flash sector gone bad, a directory
        in a slot's place), until it is written again."""
        self.unreadable[name] = why

    def _readable(self, name):
        why = self.unreadable.get(name)
        if why is not None:
            raise OSError(5, why)

    def remove(self, name):
        self.unreadable.pop(name, None)
        if name in self.files:
            self._op()
            del self.files[name]

    def listdir(self):
        return sorted(self.files)

    def corrupt(self, name, pos=-1, value=None):
        """Flip (or set) one byte of ``name``: a damaged file for the loader to reject."""
        f = self.files[name]
        f[pos] = (f[pos] ^ 0x55) if value is None else value


def make_virtual_drivers(boarddef=None, realtime=False, stable_ms=None, auto_bounce_ms=0):
    """All virtual drivers wired to one ``VirtualClock``, for ``boarddef`` (default board if
    None): returns ``Drivers`` with ``switches`` (= ``matrix``) too."""
    if boarddef is None:
        from xobo.drivers.boarddef import default_boarddef

        boarddef = default_boarddef()
    bd = boarddef
    clock = VirtualClock(realtime=realtime)
    n = len(bd.cell_of_key)
    sw = VirtualSwitches(clock, bd.cell_of_key, auto_bounce_ms, len(bd.cols))
    from xobo.drivers.debounce import Debouncer

    leds = VirtualLeds(bd.led_count, bd.led_cells, bd.led_edges, bd.limiter())
    d = Drivers(
        boarddef=bd,
        matrix=sw,
        debouncer=Debouncer(n) if stable_ms is None else Debouncer(n, stable_ms),
        leds=leds,
        buttons=VirtualButtons(clock, tuple(bd.button_names())),
        clock=clock,
        watchdog=VirtualWatchdog(clock),
        flash=VirtualFlash(),
    )
    d.switches = sw
    return d
