"""The WS2812 chain: a frame buffer addressed by chain index, cell or edge, a power limiter, and
the MicroPython ``neopixel`` driver.

``LedFrame`` holds the frame (RGB, before limiting) and the board's mapping (cell -> chain
index, edge -> chain indices, serpentine or any other order from the board definition); its
``show()`` scales the frame by the ``PowerLimiter`` and the global ``brightness`` and hands the
result to ``_write``. ``LedChain`` writes it into ``neopixel.NeoPixel.buf`` in the chain's
colour order and calls ``write()``, which bit-bangs with interrupts masked for about
30 us per LED (117 LEDs: ~3.5 ms): keep it out of the switch scan timing. Everything in
``show()`` is integer math without allocation.

Usage::

    >>> from xobo.drivers.boarddef import load
    >>> from xobo.drivers.leds import LedChain, PowerLimiter
    >>> bd = load("boards/pico_gpio.json")
    >>> leds = LedChain(pin="GP22", count=117, order="GRB", cells=bd.led_cells, edges=bd.led_edges,
    ...                 limiter=PowerLimiter(117, budget_ma=500))
    >>> leds.fill(0, 0, 0)
    >>> leds.set_cell(40, 255, 255, 255)   # e5
    >>> leds.set_edge("N", 0, 0, 120)
    >>> leds.show()                       # leds.last_scale, leds.last_ma tell what the limiter did
"""

from array import array

from xobo.compat import micropython, ptr8, ptr16

EDGE_SIDES = ("N", "S", "E", "W")


@micropython.viper
def frame_sum(frame: ptr8, n: int) -> int:
    """The sum of the first ``n`` bytes of ``frame`` (native code on the Pico: the limiter
    reads the whole frame at every LED write)."""
    s = 0
    for i in range(n):
        s += frame[i]
    return s


@micropython.viper
def fill_indices(frame: ptr8, index: ptr8, n: int, r: int, g: int, b: int):
    """The LEDs at the ``n`` chain indices of ``index`` (< 256) take the colour r, g, b."""
    for k in range(n):
        j = 3 * int(index[k])
        frame[j] = r
        frame[j + 1] = g
        frame[j + 2] = b


@micropython.viper
def fill_indices16(frame: ptr8, index: ptr16, n: int, r: int, g: int, b: int):
    """``fill_indices`` for a chain of more than 256 LEDs (16-bit chain indices)."""
    for k in range(n):
        j = 3 * int(index[k])
        frame[j] = r
        frame[j + 1] = g
        frame[j + 2] = b


def chain_indices(indices, count):
    """The chain indices as native code reads them: bytes for a chain of at most 256 LEDs,
    16-bit unsigned (``array('H')``) for a longer one (the 15x15 board's 285)."""
    return bytes(indices) if count <= 256 else array("H", indices)


@micropython.viper
def scale_frame(frame: ptr8, out: ptr8, n: int, scale: int, ro: int, go: int, bo: int) -> int:
    """``out`` = ``frame`` (RGB triples, ``n`` bytes) scaled by ``scale``/256, with R, G and B
    at the byte offsets ``ro``, ``go``, ``bo`` of each LED's slot; returns the sum of the
    scaled bytes (what the limiter's current estimate needs). Native code on the Pico."""
    s = 0
    j = 0
    while j < n:
        r = (frame[j] * scale) >> 8
        g = (frame[j + 1] * scale) >> 8
        b = (frame[j + 2] * scale) >> 8
        out[j + ro] = r
        out[j + go] = g
        out[j + bo] = b
        s += r + g + b
        j += 3
    return s


def order_offsets(order):
    """``"GRB"`` -> (1, 0, 2): the byte offset of R, G and B in one LED's slot of the chain."""
    if len(order) != 3 or sorted(order) != ["B", "G", "R"]:
        raise ValueError("LED colour order %r should be a permutation of RGB" % (order,))
    return (order.index("R"), order.index("G"), order.index("B"))


class PowerLimiter:
    """Estimates a frame's current and the scale (0..256, 256 = unchanged) that keeps it within
    ``budget_ma``: ``base_ma`` (Pico and the rest) + ``idle_ma_per_led`` per LED + up to
    ``ma_per_channel`` per colour channel at 255. ``budget_ma`` is the whole board's budget."""

    def __init__(self, count, budget_ma=500, ma_per_channel=20, idle_ma_per_led=1, base_ma=50):
        self.count = count
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma_per_led = idle_ma_per_led
        self.base_ma = base_ma
        # what the colour channels may draw, in mA (never negative)
        avail = budget_ma - base_ma - idle_ma_per_led * count
        self.available_ma = avail if avail > 0 else 0

    def frame_sum(self, frame):
        return frame_sum(frame, len(frame))

    def scale_for(self, frame, brightness=255):
        """The scale (0..256) for ``frame`` at ``brightness`` so the estimate fits the budget."""
        return self.scale_for_sum(frame_sum(frame, len(frame)), brightness)

    def scale_for_sum(self, s, brightness=255):
        """The scale for a frame whose bytes add up to ``s``."""
        base = 256 if brightness >= 255 else (brightness * 256) // 255
        if s == 0 or self.ma_per_channel <= 0:
            return base
        # channel current = s * scale/256 * ma_per_channel/255 <= available_ma
        cap = (self.available_ma * 255 * 256) // (s * self.ma_per_channel)
        return base if base <= cap else cap

    def estimate_ma(self, frame, scale=256):
        """Estimated board current for ``frame`` shown at ``scale`` (rounded up)."""
        s = 0
        for v in frame:
            s += (v * scale) >> 8
        return self.estimate_from_sum(s)

    def estimate_from_sum(self, shown_sum):
        """Estimated board current for a frame whose shown (scaled) bytes add up to
        ``shown_sum``."""
        return (self.base_ma + self.idle_ma_per_led * self.count
                + (shown_sum * self.ma_per_channel + 254) // 255)


class LedFrame:
    """The hardware-independent part of every LED driver (see the module docstring)."""

    def __init__(self, count, cells=None, edges=None, limiter=None, brightness=255):
        self.count = count
        self.frame = bytearray(3 * count)
        if cells is None:
            cells = range(min(count, 81))
        self.cells = chain_indices(cells, count)
        self.edges = {}
        for side in EDGE_SIDES:  # native fills: bytes, or 16-bit indices on a longer chain
            self.edges[side] = chain_indices((edges or {}).get(side, ()), count)
        self.limiter = limiter or PowerLimiter(count)
        self.brightness = brightness
        self.last_scale = 256
        self.last_ma = 0

    def set(self, index, r, g, b):
        j = 3 * index
        f = self.frame
        f[j] = r
        f[j + 1] = g
        f[j + 2] = b

    def get(self, index):
        j = 3 * index
        return (self.frame[j], self.frame[j + 1], self.frame[j + 2])

    def set_cell(self, cell, r, g, b):
        self.set(self.cells[cell], r, g, b)

    def set_edge(self, side, r, g, b):
        idx = self.edges[side]
        if isinstance(idx, bytes):
            fill_indices(self.frame, idx, len(idx), r, g, b)
        else:
            fill_indices16(self.frame, idx, len(idx), r, g, b)

    def set_edge_led(self, side, k, r, g, b):
        self.set(self.edges[side][k], r, g, b)

    def fill(self, r, g, b):
        f = self.frame
        for j in range(0, 3 * self.count, 3):
            f[j] = r
            f[j + 1] = g
            f[j + 2] = b

    def clear(self):
        self.fill(0, 0, 0)

    def show(self):
        lim = self.limiter
        scale = lim.scale_for_sum(frame_sum(self.frame, 3 * self.count), self.brightness)
        self.last_scale = scale
        self.last_ma = lim.estimate_from_sum(self._write(scale))

    def _write(self, scale):  # overridden: returns the sum of the bytes written
        f = self.frame
        s = 0
        for j in range(3 * self.count):
            s += (f[j] * scale) >> 8
        return s

    def scaled_into(self, out, scale, ro=0, go=1, bo=2):
        """Write the frame scaled by ``scale``/256 into ``out`` with the given byte offsets;
        returns the sum of the bytes written."""
        return scale_frame(self.frame, out, 3 * self.count, scale, ro, go, bo)


class LedChain(LedFrame):
    """WS2812 chain through MicroPython's ``neopixel.NeoPixel`` (rp2: PIO, 800 kHz)."""

    def __init__(self, pin, count, order="GRB", cells=None, edges=None, limiter=None,
                 brightness=255):
        import machine  # lazy: only on the device
        import neopixel

        LedFrame.__init__(self, count, cells, edges, limiter, brightness)
        if isinstance(pin, str) and pin.startswith("GP"):
            pin = int(pin[2:])
        self._np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count, bpp=3)
        self._ro, self._go, self._bo = order_offsets(order)

    def _write(self, scale):
        s = self.scaled_into(self._np.buf, scale, self._ro, self._go, self._bo)
        self._np.write()
        return s
