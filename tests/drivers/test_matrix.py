# dual-runtime
"""SwitchMatrix on (fake) rp2 registers: one GPIO_IN read per row, keys mapped to cells."""

from xobo_testing import run_with_heap_locked

from drivers import fakehw
from xobo.drivers.matrix import SIO_OUT_SET_CLR, SwitchMatrix, column_layout

ROWS = ["GP%d" % i for i in range(11, 20)]
COLS = ["GP%d" % i for i in range(2, 11)]


def _matrix(cell_of_key=None, cols=COLS, chip="RP2040"):
    with fakehw.installed(*SIO_OUT_SET_CLR.get(chip, (0, 0))) as machine:
        m = SwitchMatrix(ROWS, cols, cell_of_key or list(range(81)), 0, "up", 0, chip)
    return m, machine.mem32


def test_scan_reads_gpio_in_once_per_row():
    m, mem = _matrix()
    raw = bytearray(81)
    m.scan_into(raw)
    assert mem.reads == 9


def test_closed_switch_reads_occupied_at_its_cell_through_cell_of_key():
    cok = [80 - k for k in range(81)]  # key 0 is cell i9
    m, mem = _matrix(cok)
    mem.closed[0] = 1  # row 0, col 0
    mem.closed[9 * 4 + 5] = 1  # row 4, col 5 -> key 41 -> cell 39
    raw = bytearray(81)
    m.scan_into(raw)
    assert raw[80] == 1 and raw[39] == 1
    assert sum(raw) == 2
    assert mem.out & (0x1FF << 11) == 0x1FF << 11  # every row left inactive (high)


def test_non_contiguous_columns_are_read_bit_by_bit():
    cols = ["GP2", "GP4", "GP3", "GP5", "GP6", "GP7", "GP8", "GP9", "GP10"]
    assert column_layout([2, 4, 3, 5, 6, 7, 8, 9, 10]) == (0, False)
    assert column_layout(list(range(2, 11))) == (2, True)
    m, mem = _matrix(None, cols)
    mem.col_gpio = [2, 4, 3, 5, 6, 7, 8, 9, 10]
    mem.closed[1] = 1  # col 1 is GP4
    raw = bytearray(81)
    m.scan_into(raw)
    assert raw[1] == 1 and sum(raw) == 1


def _scan_three_times(m, raw):
    for _ in range(3):
        m.scan_into(raw)


def test_scan_into_allocates_nothing():
    m, mem = _matrix()
    mem.closed[10] = 1
    raw = bytearray(81)
    m.scan_into(raw)
    run_with_heap_locked(_scan_three_times, m, raw)
    assert raw[10] == 1 and sum(raw) == 1


def test_active_high_rows_with_pulled_down_columns():
    with fakehw.installed() as machine:
        m = SwitchMatrix(ROWS, COLS, list(range(81)), 1, "down", 0, "RP2040")
    mem = machine.mem32
    mem.row_active = 1
    mem.out = 0  # rows start low (inactive)
    mem.closed[80] = 1
    raw = bytearray(81)
    m.scan_into(raw)
    assert raw[80] == 1 and sum(raw) == 1
    assert mem.out & (0x1FF << 11) == 0  # rows left inactive (low)


def test_rp2350_uses_its_own_set_and_clear_offsets():
    m, mem = _matrix(chip="RP2350")
    assert (mem.set_addr, mem.clr_addr) == (0xD0000018, 0xD0000020)
    mem.closed[5] = 1
    raw = bytearray(81)
    m.scan_into(raw)
    assert raw[5] == 1 and sum(raw) == 1 and mem.writes == 18


def test_unknown_chip_drives_rows_with_pin_value_and_still_reads_one_register():
    m, mem = _matrix(chip="")
    mem.closed[77] = 1
    raw = bytearray(81)
    m.scan_into(raw)
    assert raw[77] == 1 and sum(raw) == 1
    assert mem.writes == 0 and mem.reads == 9
    assert mem.out & (0x1FF << 11) == 0x1FF << 11
