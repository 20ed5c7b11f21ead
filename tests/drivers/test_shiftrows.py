# dual-runtime
"""ShiftRowMatrix on (fake) rp2 registers and a fake 74HC595 chain: the 15x15 board's scan."""

from xobo_testing import message_of, run_with_heap_locked

from drivers import fakehw
from xobo.drivers.matrix import SIO_OUT_SET_CLR
from xobo.drivers.shiftrows import ShiftRowMatrix

COLS = ["GP%d" % i for i in range(2, 17)]


def _matrix(cell_of_key=None, chip="RP2040", row_active=0):
    set_addr, clr_addr = SIO_OUT_SET_CLR.get(chip, (0, 0))
    mem = fakehw.Fake595Mem32(set_addr or fakehw.SIO_SET, clr_addr or fakehw.SIO_CLR)
    mem.row_active = row_active
    with fakehw.installed(set_addr, clr_addr, mem):
        m = ShiftRowMatrix("GP17", "GP18", "GP19", 15, COLS, cell_of_key or list(range(225)),
                           row_active, "up" if row_active == 0 else "down", 0, 16, chip)
    return m, mem


def test_power_up_clears_the_register_so_no_row_is_selected():
    m, mem = _matrix()
    assert mem.clocks == 16 and mem.latches == 1
    assert list(mem.outs) == [1] * 16


def test_scan_selects_one_row_at_a_time_and_reads_gpio_in_once_per_row():
    m, mem = _matrix()
    raw = bytearray(225)
    mem.clocks = mem.latches = 0
    m.scan_into(raw)
    assert mem.reads == 15 and mem.max_active == 1
    # 15 rows plus the tail that pushes the active bit out of the 16-output chain
    assert mem.clocks == 17 and mem.latches == 16
    assert list(mem.outs) == [1] * 16 and list(mem.shift) == [1] * 16


def test_every_key_reads_at_its_own_cell_through_cell_of_key():
    cok = [224 - k for k in range(225)]  # key 0 is cell o15
    m, mem = _matrix(cok)
    raw = bytearray(225)
    for key in (0, 14, 15, 112, 210, 224):
        mem.closed[key] = 1
        m.scan_into(raw)
        assert raw[224 - key] == 1 and sum(raw) == 1, key
        mem.closed[key] = 0


def test_any_number_of_closed_switches_reads_without_ghosts():
    m, mem = _matrix()
    # three corners of a rectangle: the diodes keep the fourth open
    for key in (0, 14, 15 * 14):
        mem.closed[key] = 1
    raw = bytearray(225)
    m.scan_into(raw)
    assert [k for k in range(225) if raw[k]] == [0, 14, 210]
    for key in range(225):
        mem.closed[key] = 1
    m.scan_into(raw)
    assert sum(raw) == 225


def test_a_corrupted_register_is_rewritten_by_the_next_scan():
    m, mem = _matrix()
    raw = bytearray(225)
    for k in range(16):
        mem.shift[k] = 0  # noise on the clock line filled the chain with active bits
    m.scan_into(raw)
    mem.closed[7] = 1
    m.scan_into(raw)
    assert mem.max_active >= 2  # the first scan saw the damage ...
    mem.max_active = 0
    m.scan_into(raw)
    assert mem.max_active == 1 and sum(raw) == 1 and raw[7] == 1  # ... the next did not


def test_active_high_rows_walk_a_one_through_zeros():
    m, mem = _matrix(row_active=1)
    mem.closed[15 * 3 + 4] = 1
    raw = bytearray(225)
    m.scan_into(raw)
    assert raw[49] == 1 and sum(raw) == 1 and mem.max_active == 1
    assert list(mem.outs) == [0] * 16


def test_unknown_chip_drives_the_register_with_pin_value():
    m, mem = _matrix(chip="")
    mem.closed[100] = 1
    raw = bytearray(225)
    m.scan_into(raw)
    assert raw[100] == 1 and sum(raw) == 1


def _scan_three_times(m, raw):
    for _ in range(3):
        m.scan_into(raw)


def test_scan_into_allocates_nothing():
    m, mem = _matrix()
    mem.closed[200] = 1
    raw = bytearray(225)
    m.scan_into(raw)
    run_with_heap_locked(_scan_three_times, m, raw)
    assert raw[200] == 1 and sum(raw) == 1


def _build(nrows, outputs, cok):
    mem = fakehw.Fake595Mem32()
    with fakehw.installed(mem=mem):
        ShiftRowMatrix("GP17", "GP18", "GP19", nrows, COLS, cok, 0, "up", 0, outputs,
                       "RP2040")


def test_bad_geometry_is_refused_with_a_message():
    assert "17 rows do not fit 16" in message_of(ValueError, _build, 17, 16, [0] * 255)
    assert "not a whole number" in message_of(ValueError, _build, 4, 12, [0] * 60)
    assert "expected 225" in message_of(ValueError, _build, 15, 16, [0] * 81)
