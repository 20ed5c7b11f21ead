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

    from xobo.drivers.leds import LedChain
    leds = LedChain(pin="GP22", count=117, order="GRB", cells=bd.led_cells, edges=bd.led_edges,
                    limiter=PowerLimiter(117, budget_ma=500))
    leds.fill(0, 0, 0)
    leds.set_cell(40, 255, 255, 255)   # e5
    leds.set_edge("N", 0, 0, 120)
    leds.show()                         # leds.last_scale, leds.last_ma tell what the limiter did
"""

EDGE_SIDES = ("N", "S", "E", "W")


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
        s = 0
        for v in frame:
            s += v
        return s

    def scale_for(self, frame, brightness=255):
        """The scale (0..256) for ``frame`` at ``brightness`` so the estimate fits the budget."""
        s = self.frame_sum(frame)
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
        return (self.base_ma + self.idle_ma_per_led * self.count
                + (s * self.ma_per_channel + 254) // 255)


class LedFrame:
    """The hardware-independent part of every LED driver (see the module docstring)."""

    def __init__(self, count, cells=None, edges=None, limiter=None, brightness=255):
        self.count = count
        self.frame = bytearray(3 * count)
        if cells is None:
            cells = range(min(count, 81))
        self.cells = bytes(cells) if count <= 256 else tuple(cells)
        self.edges = {}
        for side in EDGE_SIDES:
            self.edges[side] = tuple((edges or {}).get(side, ()))
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
        for i in self.edges[side]:
            self.set(i, r, g, b)

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
        scale = self.limiter.scale_for(self.frame, self.brightness)
        self.last_scale = scale
        self._write(scale)
        self.last_ma = self.limiter.estimate_ma(self.frame, scale)

    def _write(self, scale):  # overridden
        pass

    def scaled_into(self, out, scale, ro=0, go=1, bo=2):
        """Write the frame scaled by ``scale``/256 into ``out`` with the given byte offsets."""
        f = self.frame
        for j in range(0, 3 * self.count, 3):
            out[j + ro] = (f[j] * scale) >> 8
            out[j + go] = (f[j + 1] * scale) >> 8
            out[j + bo] = (f[j + 2] * scale) >> 8


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
        self.scaled_into(self._np.buf, scale, self._ro, self._go, self._bo)
        self._np.write()
