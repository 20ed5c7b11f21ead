"""The 15x15 board definition (boards/pico_15x15.json) builds its drivers: the 74HC595 row
scanner on (fake) rp2 registers, and the virtual twin with 225 cells."""

import json
import types

import pytest
from conftest import ROOT

from drivers import fakehw
from xobo.drivers.boarddef import BoardDefError, load, make_drivers, parse
from xobo.drivers.shiftrows import ShiftRowMatrix
from xobo.drivers.virtual import VirtualSwitches, make_virtual_drivers

PATH = str(ROOT / "boards" / "pico_15x15.json")


def test_make_drivers_builds_the_shift_register_scanner_from_the_board_definition():
    bd = load(PATH)
    assert (bd.scanner, bd.n_cells, bd.width, bd.shift) == (
        "shift595", 225, 15, ("GP17", "GP18", "GP19", 16, 15))
    mem = fakehw.Fake595Mem32()
    with fakehw.installed(mem=mem) as machine:
        machine.WDT = lambda timeout: types.SimpleNamespace(feed=lambda: 0)
        d = make_drivers(bd)
    assert isinstance(d.matrix, ShiftRowMatrix)
    assert d.leds.count == 285 and d.debouncer.n == 225
    mem.closed[15 * 14 + 14] = 1  # o15
    raw = bytearray(225)
    d.matrix.scan_into(raw)
    assert raw[224] == 1 and sum(raw) == 1


def test_virtual_twin_has_225_cells_and_15_rows_of_15():
    d = make_virtual_drivers(load(PATH))
    sw = d.switches
    assert isinstance(sw, VirtualSwitches) and (sw.n, sw.nrows, sw.ncols) == (225, 15, 15)
    sw.put(224)
    sw.put(112, 3)
    d.clock.advance(40)
    raw = bytearray(225)
    d.matrix.scan_into(raw)
    assert [c for c in range(225) if raw[c]] == [112, 224]
    assert d.debouncer.n == 225
    sw.dead_row(14)  # a broken 74HC595 output: rank 15 never closes
    d.matrix.scan_into(raw)
    assert [c for c in range(225) if raw[c]] == [112]
    sw.dead_col(7)
    d.matrix.scan_into(raw)
    assert sum(raw) == 0


def _with(**matrix):
    d = json.loads(open(PATH).read())
    d["matrix"].update(matrix)
    return d


def test_shift595_definition_errors_say_what_is_wrong():
    shift = dict(_with()["matrix"]["shift"])
    with pytest.raises(BoardDefError, match="not a whole number of 8-bit"):
        parse(_with(shift=dict(shift, outputs=12)))
    with pytest.raises(BoardDefError, match="rows is 17, should be at most 16"):
        parse(_with(shift=dict(shift, rows=17)))
    with pytest.raises(BoardDefError, match="cols.0.: pin GP2 is already used by matrix.shift"):
        parse(_with(shift=dict(shift, clock="GP2")))
    with pytest.raises(BoardDefError, match="cell_of_key has 81 entries, expected 225"):
        parse(_with(cell_of_key=list(range(81))))
    with pytest.raises(BoardDefError, match="scanner is 'i2c', expected gpio or shift595"):
        parse(_with(scanner="i2c"))
    d = _with()
    d["platform"] = "circuitpython"
    with pytest.raises(BoardDefError, match="shift595 needs platform micropython-rp2"):
        parse(d)


def test_the_self_test_covers_the_225_cells_of_the_15x15_board_and_names_a_dead_switch():
    from xobo.drivers.virtual import make_virtual_drivers
    from xobo.runtime.selftest import simulate

    d = make_virtual_drivers(load(str(ROOT / "boards" / "pico_15x15.json")))
    d.switches.fault(100, "open")  # k7: never closes
    st = simulate(d, max_ms=7200000)
    assert st.done and st.n == 225
    assert st.report_lines() == ["selftest switch k7 never-closes", "selftest done 1 problems"]
