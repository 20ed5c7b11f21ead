"""The WS2812 chain through ``adafruit-circuitpython-neopixel``: CircuitPython on the Pico, and
a Raspberry Pi with Blinka (GPIO18/D18 PWM; needs root for /dev/mem).

Same interface as ``xobo.drivers.leds.LedChain`` (``LedFrame``): the frame, the mapping and the
power limiter are shared; only ``_write`` differs. The library's own ``brightness`` stays 1.0:
our limiter does the scaling.

Usage::

    >>> from xobo.drivers.boarddef import load
    >>> from xobo.drivers.leds_circuitpython import LedChainCP
    >>> bd = load("boards/pico_gpio.json")
    >>> leds = LedChainCP(pin="GP22", count=117, order="GRB", cells=bd.led_cells,
    ...                   edges=bd.led_edges)
    >>> leds.set_cell(40, 255, 0, 0)
    >>> leds.show()
"""

from xobo.drivers.leds import LedFrame, order_offsets


class LedChainCP(LedFrame):
    def __init__(self, pin, count, order="GRB", cells=None, edges=None, limiter=None,
                 brightness=255, pin_lookup=None):
        import neopixel  # lazy: adafruit-circuitpython-neopixel

        if pin_lookup is None:
            import board

            def pin_lookup(name):
                return getattr(board, name)

        LedFrame.__init__(self, count, cells, edges, limiter, brightness)
        order_offsets(order)  # validates
        self._pixels = neopixel.NeoPixel(pin_lookup(pin), count, brightness=1.0,
                                         auto_write=False, pixel_order=order)
        self._buf = bytearray(3 * count)

    def _write(self, scale):
        # RGB order here: the library reorders to pixel_order itself
        s = self.scaled_into(self._buf, scale)
        b = self._buf
        px = self._pixels
        for i in range(self.count):
            j = 3 * i
            px[i] = (b[j], b[j + 1], b[j + 2])
        px.show()
        return s
