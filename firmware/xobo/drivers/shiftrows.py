"""A reed-switch matrix whose rows come from a chain of 74HC595 shift registers and whose
columns are GPIO inputs (the 15x15 board: 15 rows, 15 columns, one diode per switch).

A 15x15 matrix needs 30 lines and a Pico has 26 GPIOs, four of them taken by the LED chain and
the buttons. The rows only ever need one line active at a time, so they come from two chained
74HC595s fed by three pins (data, clock, latch): a single active bit walks down the register,
one clock per row. The columns stay on consecutive GPIOs and are read in ONE read of SIO
GPIO_IN per row, as in ``xobo.drivers.matrix``.

Scan: the first clock shifts the active level in (row 0), every further clock shifts the
inactive level in, moving the active bit to the next row; the latch pulse after each clock
puts it on the outputs. After ``settle_us`` the columns are read. At the end, enough inactive
bits are shifted in to push the active bit out of the chain, so every scan rewrites the whole
register (a glitch on the clock line lasts one scan at most). Key number = row * ncols + col;
``cell_of_key`` maps it to the cell. ``scan_into`` allocates nothing.

On rp2 the whole scan runs in one viper function on the SIO registers (GPIO_OUT_SET/CLR,
GPIO_IN) and the microsecond timer. Every edge of the shift register's pins is followed by two
reads of the timer (about 80 ns at 125 MHz): the 74HC595 at 3.3 V needs about 50 ns of clock
pulse width and of data and latch set-up. Elsewhere (tests, unknown chip) the same sequence runs
interpreted through ``machine.mem32``.

Usage::

    >>> from xobo.drivers.shiftrows import ShiftRowMatrix
    >>> cols = ["GP%d" % k for k in range(2, 17)]  # GP2 ... GP16
    >>> cell_of_key = list(range(225))             # key r * 15 + c: the board definition's
    >>> m = ShiftRowMatrix("GP17", "GP18", "GP19", 15, cols, cell_of_key,
    ...                    row_active=0, col_pull="up", settle_us=10, outputs=16)
    >>> raw = bytearray(225)
    >>> m.scan_into(raw)          # raw[cell] = 1 when the cell's switch is closed
"""

from xobo.compat import const, micropython, ptr8, ptr32
from xobo.drivers.matrix import (
    _TIMERAWL,
    SIO_OUT_SET_CLR,
    column_layout,
    detect_chip,
    gpio_number,
    sys_platform,
)

_GPIO_IN = const(0xD0000004)
_OUTPUTS_PER_CHIP = const(8)


@micropython.viper
def scan_595(raw: ptr8, cell_of_key: ptr8, pins: ptr32, nrows: int, ncols: int, shift: int,
             invert: int, timer_reg: int, settle_us: int, tail: int) -> int:
    """The whole scan on the SIO registers (the device only). ``pins``: [set register, clear
    register, data mask, clock mask, latch mask, data mask when the row is active (0 or the
    data mask)]. ``tail``: inactive bits shifted in after the last row. Returns a timer value
    read for the edge holds (the reads must not be optimised away)."""
    gpio_in = ptr32(0xD0000004)
    setr = ptr32(pins[0])
    clr = ptr32(pins[1])
    dat = pins[2]
    clk = pins[3]
    lat = pins[4]
    act_hi = pins[5]
    timer = ptr32(timer_reg)
    colmask = (1 << ncols) - 1
    last = nrows + tail - 1
    key = 0
    h = 0
    for r in range(nrows + tail):
        # the data pin: the active level for row 0, the inactive level after
        on = act_hi if r == 0 else dat ^ act_hi
        if on:
            setr[0] = dat
        else:
            clr[0] = dat
        h = timer[0]
        h = timer[0]
        setr[0] = clk
        h = timer[0]
        h = timer[0]
        clr[0] = clk
        if r < nrows or r == last:
            h = timer[0]
            h = timer[0]
            setr[0] = lat
            h = timer[0]
            h = timer[0]
            clr[0] = lat
        if r < nrows:
            t0 = int(timer[0])
            while int(timer[0]) - t0 < settle_us:
                pass
            bits = (int(gpio_in[0]) >> shift) & colmask
            if invert:
                bits ^= colmask
            for c in range(ncols):
                raw[cell_of_key[key]] = (bits >> c) & 1
                key += 1
    return h


class ShiftRowMatrix:
    """rp2 (MicroPython): rows through chained 74HC595s, columns on GPIOs (GPIO_IN)."""

    def __init__(self, data, clock, latch, nrows, cols, cell_of_key, row_active=0,
                 col_pull="up", settle_us=10, outputs=16, chip=None):
        import time

        import machine  # lazy: only on the device

        if not 1 <= nrows <= outputs:
            raise ValueError("%d rows do not fit %d shift register outputs" % (nrows, outputs))
        if outputs % _OUTPUTS_PER_CHIP:
            raise ValueError("outputs is %d, not a whole number of 8-bit 74HC595s" % outputs)
        self._mem32 = machine.mem32
        self._sleep_us = getattr(time, "sleep_us", None)  # CPython tests: no sleep_us
        Pin = machine.Pin
        self.nrows = nrows
        self.ncols = len(cols)
        self.n_keys = nrows * self.ncols
        if len(cell_of_key) != self.n_keys:
            raise ValueError("cell_of_key has %d entries, expected %d (%d rows x %d columns)"
                             % (len(cell_of_key), self.n_keys, nrows, self.ncols))
        self.cell_of_key = bytes(cell_of_key)
        self.row_active = 1 if row_active else 0
        self.settle_us = settle_us
        self.outputs = outputs
        # inactive bits after the last row: the active bit leaves the chain's last output
        self.tail = outputs - nrows + 1
        self._gpios = (gpio_number(data), gpio_number(clock), gpio_number(latch))
        inactive = 1 - self.row_active
        self._pins = [Pin(g, Pin.OUT, value=0) for g in self._gpios]
        self._pins[0].value(inactive)
        self._masks = tuple(1 << g for g in self._gpios)
        pull = Pin.PULL_UP if col_pull == "up" else (Pin.PULL_DOWN if col_pull == "down" else None)
        self._col_gpios = tuple(gpio_number(n) for n in cols)
        self._cols = [Pin(g, Pin.IN, pull) for g in self._col_gpios]
        self._col_shift, self._contiguous = column_layout(self._col_gpios)
        self._col_mask = (1 << self.ncols) - 1
        self._invert = 1 if self.row_active == 0 else 0
        self.chip = detect_chip() if chip is None else chip
        regs = SIO_OUT_SET_CLR.get(self.chip)
        self._set_reg, self._clr_reg = regs if regs else (0, 0)
        self._native = (regs is not None and self._contiguous and chip is None
                        and sys_platform() == "rp2")
        if self._native:
            from array import array

            dat = self._masks[0]
            self._words = array("I", [self._set_reg, self._clr_reg, dat, self._masks[1],
                                      self._masks[2], dat if self.row_active else 0])
            self._timer_reg = _TIMERAWL[self.chip]
        self.clear()

    def _write(self, k, level):
        """Pin k (0 data, 1 clock, 2 latch) to ``level``: one SIO write, or Pin.value."""
        if self._set_reg:
            self._mem32[self._set_reg if level else self._clr_reg] = self._masks[k]
        else:
            self._pins[k].value(level)

    def _clock_in(self, level, latch):
        self._write(0, level)
        self._write(1, 1)
        self._write(1, 0)
        if latch:
            self._write(2, 1)
            self._write(2, 0)

    def clear(self):
        """Shift the inactive level into every output and latch: no row selected (power-up,
        where a 74HC595 holds whatever it woke up with)."""
        for _ in range(self.outputs):
            self._clock_in(1 - self.row_active, False)
        self._write(2, 1)
        self._write(2, 0)

    def scan_into(self, raw):
        if self._native:
            scan_595(raw, self.cell_of_key, self._words, self.nrows, self.ncols,
                     self._col_shift, self._invert, self._timer_reg, self.settle_us, self.tail)
            return
        mem32 = self._mem32
        cok = self.cell_of_key
        ncols = self.ncols
        active = self.row_active
        settle = self.settle_us
        sleep_us = self._sleep_us
        key = 0
        for r in range(self.nrows):
            self._clock_in(active if r == 0 else 1 - active, True)
            if settle and sleep_us:
                sleep_us(settle)
            v = mem32[_GPIO_IN]
            if self._contiguous:
                bits = (v >> self._col_shift) & self._col_mask
            else:
                bits = 0
                gp = self._col_gpios
                for c in range(ncols):
                    bits |= ((v >> gp[c]) & 1) << c
            if self._invert:
                bits ^= self._col_mask
            for c in range(ncols):
                raw[cok[key]] = (bits >> c) & 1
                key += 1
        for k in range(self.tail):
            self._clock_in(1 - active, k == self.tail - 1)
