"""The 9x9 reed-switch matrix: 9 row outputs, 9 column inputs, one diode per switch.

One row at a time is driven to its active level (``row_active``, 0 with pulled-up columns), the
others to the inactive level; after ``settle_us`` the columns are read. A switch closed at
(row, col) pulls the column to the active level. Key number = row*9 + col; the board
definition's ``cell_of_key`` maps it to the cell index.

On rp2 (``SwitchMatrix``) all nine columns are read with ONE read of SIO GPIO_IN
(``machine.mem32[0xd0000004]``, the same address on RP2040 and RP2350) instead of nine
``Pin.value()`` calls; GPIO0..29 fit a small int, so the read allocates nothing. The rows are
set with single writes to SIO GPIO_OUT_SET/CLR, whose offsets differ between the chips
(RP2040 0x014/0x018; RP2350 0x018/0x020, its registers come in lo/hi pairs): the chip is read
from ``sys.implementation._machine``; an unknown chip drives the rows with ``Pin.value()``.
``SwitchMatrixDIO`` does the same with ``digitalio`` (CircuitPython, Raspberry Pi + Blinka).
``scan_into`` allocates nothing.

Usage::

    >>> from xobo.drivers.boarddef import load
    >>> from xobo.drivers.matrix import SwitchMatrix
    >>> bd = load("boards/pico_gpio.json")
    >>> m = SwitchMatrix(rows=bd.rows, cols=bd.cols, cell_of_key=bd.cell_of_key,
    ...                  row_active=0, col_pull="up", settle_us=10)
    >>> raw = bytearray(81)
    >>> m.scan_into(raw)          # raw[cell] = 1 when the cell's switch is closed
"""

from xobo.compat import const, micropython, ptr8, ptr32

_GPIO_IN = const(0xD0000004)
# SIO GPIO_OUT_SET, GPIO_OUT_CLR per chip
SIO_OUT_SET_CLR = {"RP2040": (0xD0000014, 0xD0000018), "RP2350": (0xD0000018, 0xD0000020)}


def detect_chip():
    """"RP2040", "RP2350" or "" from ``sys.implementation._machine``."""
    import sys

    name = getattr(sys.implementation, "_machine", "")
    for chip in SIO_OUT_SET_CLR:
        if chip in name:
            return chip
    return ""


def _no_sleep(us):
    pass


def sys_platform():
    import sys

    return sys.platform


# the microsecond timer's raw low word (TIMERAWL), read to wait the settle time natively
_TIMERAWL = {"RP2040": 0x40054028, "RP2350": 0x400B0028}


@micropython.viper
def scan_sio(raw: ptr8, cell_of_key: ptr8, masks: ptr32, nrows: int, ncols: int, shift: int,
             invert: int, act_reg: int, off_reg: int, timer_reg: int, settle_us: int):
    """The whole matrix scan in native code, straight on the SIO registers (the device only:
    the addresses are real registers). Per row: drive it active (``act_reg``), wait
    ``settle_us`` on the hardware timer, read GPIO_IN once, release the row, store the
    columns by cell. The interpreted scan took 0.9 ms on the emulated Pico."""
    gpio_in = ptr32(0xD0000004)
    act = ptr32(act_reg)
    off = ptr32(off_reg)
    timer = ptr32(timer_reg)
    colmask = (1 << ncols) - 1
    key = 0
    for r in range(nrows):
        m = masks[r]
        act[0] = m
        t0 = timer[0]
        while int(timer[0] - t0) < settle_us:
            pass
        bits = (int(gpio_in[0]) >> shift) & colmask
        off[0] = m
        if invert:
            bits ^= colmask
        for c in range(ncols):
            raw[cell_of_key[key]] = (bits >> c) & 1
            key += 1


@micropython.viper
def store_row(raw: ptr8, cell_of_key: ptr8, key: int, bits: int, ncols: int):
    """raw[cell_of_key[key + c]] = bit c of ``bits``, for the ``ncols`` columns of one row
    (native code on the Pico: the interpreted loop took most of the 1.7 ms scan there)."""
    for c in range(ncols):
        raw[cell_of_key[key + c]] = (bits >> c) & 1


def gpio_number(name):
    """``"GP5"`` -> 5 (rp2 pin names)."""
    if not (isinstance(name, str) and name.startswith("GP") and name[2:].isdigit()):
        raise ValueError("pin %r is not an rp2 pin name like GP5" % (name,))
    return int(name[2:])


def column_layout(col_gpios):
    """(shift, contiguous): the GPIO_IN shift when the columns are consecutive GPIOs in order."""
    first = col_gpios[0]
    for k in range(len(col_gpios)):
        if col_gpios[k] != first + k:
            return 0, False
    return first, True


class SwitchMatrix:
    """rp2 (MicroPython): rows and columns as GPIOs, columns read from SIO GPIO_IN."""

    def __init__(self, rows, cols, cell_of_key, row_active=0, col_pull="up", settle_us=10,
                 chip=None):
        import time

        import machine  # lazy: only on the device

        self._mem32 = machine.mem32
        self._sleep_us = getattr(time, "sleep_us", _no_sleep)  # CPython tests: fake machine
        Pin = machine.Pin
        self.nrows = len(rows)
        self.ncols = len(cols)
        self.row_active = 1 if row_active else 0
        self.settle_us = settle_us
        self.cell_of_key = bytes(cell_of_key)
        self._row_masks = []
        self._rows = []
        inactive = 0 if self.row_active else 1
        for name in rows:
            g = gpio_number(name)
            self._rows.append(Pin(g, Pin.OUT, value=inactive))
            self._row_masks.append(1 << g)
        self._row_masks = tuple(self._row_masks)
        self._all_rows = 0
        for m in self._row_masks:
            self._all_rows |= m
        pull = Pin.PULL_UP if col_pull == "up" else (Pin.PULL_DOWN if col_pull == "down" else None)
        self._col_gpios = tuple(gpio_number(n) for n in cols)
        self._cols = [Pin(g, Pin.IN, pull) for g in self._col_gpios]
        self._col_shift, self._contiguous = column_layout(self._col_gpios)
        self._col_mask = (1 << self.ncols) - 1
        # the column reads the row's active level when the switch is closed
        self._invert = 1 if self.row_active == 0 else 0
        self.chip = detect_chip() if chip is None else chip
        regs = SIO_OUT_SET_CLR.get(self.chip)
        if regs:
            set_reg, clr_reg = regs
            self._act_reg = set_reg if self.row_active else clr_reg
            self._off_reg = clr_reg if self.row_active else set_reg
        else:
            self._act_reg = self._off_reg = 0  # unknown chip: rows through Pin.value()
        # the native scan: on the chip itself only (the tests' machine.mem32 is a fake)
        self._native = (regs is not None and self._contiguous and chip is None
                        and sys_platform() == "rp2")
        if self._native:
            from array import array

            self._mask_words = array("I", self._row_masks)
            self._timer_reg = _TIMERAWL[self.chip]

    def scan_into(self, raw):
        if self._native:
            scan_sio(raw, self.cell_of_key, self._mask_words, self.nrows, self.ncols,
                     self._col_shift, self._invert, self._act_reg, self._off_reg,
                     self._timer_reg, self.settle_us)
            return
        mem32 = self._mem32
        sleep_us = self._sleep_us
        settle = self.settle_us
        cok = self.cell_of_key
        ncols = self.ncols
        masks = self._row_masks
        act_reg = self._act_reg
        off_reg = self._off_reg
        active = self.row_active
        rows = self._rows
        key = 0
        for r in range(self.nrows):
            m = masks[r]
            if act_reg:
                mem32[act_reg] = m
            else:
                rows[r].value(active)
            if settle:
                sleep_us(settle)
            v = mem32[_GPIO_IN]
            if off_reg:
                mem32[off_reg] = m
            else:
                rows[r].value(1 - active)
            if self._contiguous:
                bits = (v >> self._col_shift) & self._col_mask
            else:
                bits = 0
                gp = self._col_gpios
                for c in range(ncols):
                    bits |= ((v >> gp[c]) & 1) << c
            if self._invert:
                bits ^= self._col_mask
            store_row(raw, cok, key, bits, ncols)
            key += ncols


class SwitchMatrixDIO:
    """CircuitPython / Blinka: the same matrix through ``digitalio`` (nine reads per row)."""

    def __init__(self, rows, cols, cell_of_key, row_active=0, col_pull="up", settle_us=10,
                 pin_lookup=None):
        import digitalio  # lazy

        if pin_lookup is None:
            import board

            def pin_lookup(name):
                return getattr(board, name)

        self.nrows = len(rows)
        self.ncols = len(cols)
        self.row_active = bool(row_active)
        self.settle_us = settle_us
        self.cell_of_key = bytes(cell_of_key)
        self._rows = []
        for name in rows:
            p = digitalio.DigitalInOut(pin_lookup(name))
            p.switch_to_output(value=not self.row_active)
            self._rows.append(p)
        self._cols = []
        for name in cols:
            p = digitalio.DigitalInOut(pin_lookup(name))
            if col_pull == "up":
                p.switch_to_input(pull=digitalio.Pull.UP)
            elif col_pull == "down":
                p.switch_to_input(pull=digitalio.Pull.DOWN)
            else:
                p.switch_to_input()
            self._cols.append(p)
        try:
            from time import sleep_us
        except ImportError:  # CircuitPython, CPython: a digitalio access outlasts settle_us
            sleep_us = None
        self._sleep_us = sleep_us

    def scan_into(self, raw):
        cok = self.cell_of_key
        active = self.row_active
        key = 0
        for r in range(self.nrows):
            row = self._rows[r]
            row.value = active
            if self.settle_us and self._sleep_us:
                self._sleep_us(self.settle_us)
            for c in range(self.ncols):
                raw[cok[key]] = 1 if self._cols[c].value == active else 0
                key += 1
            row.value = not active
