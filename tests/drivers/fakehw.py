# dual-runtime
"""Fake rp2 hardware for driver tests: a ``machine`` module whose ``mem32`` models the SIO GPIO
registers of a wired 9x9 diode matrix (RP2040 offsets unless told), and a ``neopixel``
module. Install with ``install()``; works under CPython and MicroPython (``sys.modules``).

Usage (the drivers import ``machine`` while they are built)::

    with fakehw.installed() as machine:
        m = SwitchMatrix(rows, cols, cell_of_key, 0, "up", 0)
    machine.mem32.closed[10] = 1
"""

import sys

SIO_IN = 0xD0000004
SIO_SET = 0xD0000014
SIO_CLR = 0xD0000018


class FakeMem32:
    def __init__(self, set_addr=SIO_SET, clr_addr=SIO_CLR):
        self.set_addr = set_addr
        self.clr_addr = clr_addr
        self.writes = 0
        self.out = 0xFFFFFFF  # GPIO output levels
        self.reads = 0
        self.closed = bytearray(81)  # by key number
        self.row_gpio = list(range(11, 20))
        self.col_gpio = list(range(2, 11))
        self.row_active = 0

    def __getitem__(self, addr):
        if addr != SIO_IN:
            raise ValueError("unexpected read at %x" % addr)
        self.reads += 1
        v = 0x3FFFFFFF if self.row_active == 0 else 0  # pulled columns
        for r in range(9):
            if ((self.out >> self.row_gpio[r]) & 1) == self.row_active:
                for c in range(9):
                    if self.closed[r * 9 + c]:
                        if self.row_active == 0:
                            v &= ~(1 << self.col_gpio[c])
                        else:
                            v |= 1 << self.col_gpio[c]
        return v

    def __setitem__(self, addr, value):
        self.writes += 1
        if addr == self.set_addr:
            self.out |= value
        elif addr == self.clr_addr:
            self.out &= ~value
        else:
            raise ValueError("unexpected write at %x" % addr)


class Fake595Mem32(FakeMem32):
    """The 15x15 board's SIO: rows from a chain of 74HC595s (data, clock, latch on GPIOs),
    columns on consecutive GPIOs. A rising clock shifts the data pin's level into output 0
    (the others move one place on); a rising latch copies the register to the outputs; a
    read of GPIO_IN sees every column pulled up except where a closed switch sits on a row
    whose output is at the active level. ``clocks`` and ``latches`` count the pulses."""

    def __init__(self, set_addr=SIO_SET, clr_addr=SIO_CLR, nrows=15, ncols=15, outputs=16,
                 data=17, clock=18, latch=19, col0=2):
        FakeMem32.__init__(self, set_addr, clr_addr)
        self.nrows, self.ncols, self.outputs = nrows, ncols, outputs
        self.data, self.clock, self.latch = data, clock, latch
        self.col_gpio = list(range(col0, col0 + ncols))
        self.closed = bytearray(nrows * ncols)
        self.shift = bytearray(outputs)  # the shift register, output 0 first
        self.outs = bytearray(outputs)  # the latched outputs (power-up: all low)
        self.out = 0
        self.clocks = 0
        self.latches = 0
        self.max_active = 0  # most rows ever active at once while a column was read

    def __getitem__(self, addr):
        if addr != SIO_IN:
            raise ValueError("unexpected read at %x" % addr)
        self.reads += 1
        v = 0x3FFFFFFF if self.row_active == 0 else 0
        n = 0
        for r in range(self.nrows):
            if self.outs[r] == self.row_active:
                n += 1
                for c in range(self.ncols):
                    if self.closed[r * self.ncols + c]:
                        if self.row_active == 0:
                            v &= ~(1 << self.col_gpio[c])
                        else:
                            v |= 1 << self.col_gpio[c]
        if n > self.max_active:
            self.max_active = n
        return v

    def __setitem__(self, addr, value):
        before = self.out
        FakeMem32.__setitem__(self, addr, value)
        self._edges(before)

    def pin_level(self, num, v):
        """A ``Pin.value`` write (the unknown-chip path): the same edges, no SIO write."""
        before = self.out
        if v:
            self.out |= 1 << num
        else:
            self.out &= ~(1 << num)
        self._edges(before)

    def _edges(self, before):
        rose = self.out & ~before
        if rose >> self.clock & 1:
            self.clocks += 1
            for k in range(self.outputs - 1, 0, -1):
                self.shift[k] = self.shift[k - 1]
            self.shift[0] = (self.out >> self.data) & 1
        if rose >> self.latch & 1:
            self.latches += 1
            self.outs[:] = self.shift


class FakePin:
    """A GPIO whose output level lives in the fake SIO GPIO_OUT (``FakePin.mem``)."""

    OUT = 1
    IN = 0
    PULL_UP = 1
    PULL_DOWN = 2
    mem = None

    def __init__(self, num, mode=0, pull=None, value=None):
        self.num = num
        if value is not None:
            self.value(value)

    def value(self, v=None):
        mem = FakePin.mem
        if v is None:
            return (mem.out >> self.num) & 1
        if isinstance(mem, Fake595Mem32):
            mem.pin_level(self.num, v)
            return
        if v:
            mem.out |= 1 << self.num
        else:
            mem.out &= ~(1 << self.num)


class FakeNeoPixel:
    """MicroPython's ``neopixel.NeoPixel`` (``buf``, ``write``), and the few calls of
    CircuitPython's (keyword options, ``px[i] = (r, g, b)``, ``show``)."""

    def __init__(self, pin, n, bpp=3, timing=1, **options):
        self.n = n
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def write(self):
        self.writes += 1

    def __setitem__(self, i, rgb):
        self.buf[3 * i:3 * i + 3] = bytes(rgb)

    def show(self):
        self.writes += 1


class _Module:
    pass


class FakeWDT:
    """``machine.WDT``: records its timeout in ``machine.wdt_started``."""

    started = None

    def __init__(self, id=0, timeout=5000):
        FakeWDT.started.append(timeout)
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def install(set_addr=SIO_SET, clr_addr=SIO_CLR, mem=None):
    machine = _Module()
    machine.mem32 = FakeMem32(set_addr, clr_addr) if mem is None else mem
    FakePin.mem = machine.mem32
    machine.Pin = FakePin
    machine.wdt_started = []
    FakeWDT.started = machine.wdt_started
    machine.WDT = FakeWDT
    neopixel = _Module()
    neopixel.NeoPixel = FakeNeoPixel
    saved = (sys.modules.get("machine"), sys.modules.get("neopixel"))
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel
    return machine, saved


def uninstall(saved):
    for name, mod in (("machine", saved[0]), ("neopixel", saved[1])):
        if mod is None:
            if name in sys.modules:
                del sys.modules[name]
        else:
            sys.modules[name] = mod


class installed:
    """``with installed(set_addr, clr_addr, mem=None) as machine:``: ``install`` on entry,
    ``uninstall`` on the way out, whatever happens (``mem``: a ``FakeMem32`` to use)."""

    def __init__(self, set_addr=SIO_SET, clr_addr=SIO_CLR, mem=None):
        self.addrs = (set_addr, clr_addr)
        self.mem = mem
        self.saved = None

    def __enter__(self):
        machine, self.saved = install(self.addrs[0], self.addrs[1], self.mem)
        return machine

    def __exit__(self, exc_type, exc, tb):
        uninstall(self.saved)
        return False
