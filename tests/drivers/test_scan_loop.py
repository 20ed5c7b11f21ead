# dual-runtime
"""The drivers' part of the main loop (scan, debounce, events, buttons, LEDs, watchdog) runs
without allocating: under MicroPython the whole cycle runs with the heap locked.

(The cycle is a method, not a closure: MicroPython allocates on every call of a closure with
more than a few free variables.)"""

from xobo_testing import run_with_heap_locked

from drivers import fakehw
from xobo.drivers.boarddef import default_boarddef
from xobo.drivers.buttons import LONG
from xobo.drivers.clock import Clock
from xobo.drivers.debounce import Debouncer
from xobo.drivers.leds import LedChain
from xobo.drivers.matrix import SwitchMatrix
from xobo.drivers.virtual import VirtualButtons, VirtualClock, VirtualWatchdog


class Loop:
    def __init__(self):
        bd = default_boarddef()
        with fakehw.installed() as machine:
            self.matrix = SwitchMatrix(bd.rows, bd.cols, bd.cell_of_key, 0, "up", 0)
            self.leds = LedChain(bd.led_pin, bd.led_count, bd.led_order, bd.led_cells,
                                 bd.led_edges, bd.limiter())
        self.mem = machine.mem32
        self.clock = VirtualClock()
        self.buttons = VirtualButtons(self.clock, ("ok", "undo"))
        self.wdt = VirtualWatchdog(self.clock)
        self.deb = Debouncer()
        self.real_clock = Clock()
        self.raw = bytearray(81)
        self.ev = self.deb.new_event()
        self.bev = self.buttons.new_event()
        self.switch_events = 0
        self.button_kind = 0

    def cycle(self, now):
        self.matrix.scan_into(self.raw)
        if self.deb.update(self.raw, now):
            while self.deb.get_into(self.ev):
                self.switch_events += 1
        self.buttons.update(now)
        while self.buttons.get_into(self.bev):
            self.button_kind = self.bev[0]
        self.leds.fill(0, 0, 40)
        self.leds.set_cell(self.ev[0], 255, 255, 255)
        self.leds.show()
        self.wdt.feed()
        self.real_clock.ticks_ms()


def _cycle_until_2s(loop):
    for t in range(5, 2000, 5):
        loop.clock.advance(5)
        loop.cycle(t)


def test_one_full_driver_cycle_allocates_nothing():
    loop = Loop()
    loop.mem.closed[40] = 1
    loop.buttons.press("undo")
    loop.cycle(0)
    run_with_heap_locked(_cycle_until_2s, loop)
    assert loop.switch_events == 1 and loop.button_kind == LONG and loop.deb.stable[40] == 1
    assert loop.leds._np.writes == 400 and loop.wdt.feeds == 400
