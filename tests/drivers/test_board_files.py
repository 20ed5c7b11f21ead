"""The repository's board definitions load; make_drivers builds each platform's drivers (with
the hardware modules faked); the real flash store works on a directory."""

import sys
import types
from pathlib import Path

import pytest
from conftest import ROOT

from drivers import fakehw
from xobo.drivers.boarddef import BoardDefError, load, make_drivers
from xobo.drivers.flash import Flash
from xobo.runtime.storage import SavedGame

BOARDS = sorted((ROOT / "boards").glob("*.json"))


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_repository_board_definitions_load(path):
    bd = load(str(path))
    assert bd.name == path.stem
    assert sorted(bd.led_cells) == sorted(set(bd.led_cells))
    assert bd.limiter().available_ma > 0


def test_missing_file_error_names_the_path(tmp_path):
    with pytest.raises(BoardDefError, match="cannot read board definition .*nope.json"):
        load(str(tmp_path / "nope.json"))


def test_error_in_a_file_names_the_file(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"platform": "micropython-rp2"}')
    with pytest.raises(BoardDefError, match="bad.json: section 'matrix' is missing"):
        load(str(p))


def test_make_drivers_for_rp2_uses_sio_matrix_and_neopixel(monkeypatch):
    wdt = []
    with fakehw.installed() as machine:
        machine.WDT = lambda timeout: wdt.append(timeout) or types.SimpleNamespace(feed=lambda: 0)
        d = make_drivers(load(str(ROOT / "boards" / "pico_gpio.json")))
    from xobo.drivers.leds import LedChain
    from xobo.drivers.matrix import SwitchMatrix

    assert isinstance(d.matrix, SwitchMatrix) and isinstance(d.leds, LedChain)
    assert wdt == [8000]
    assert d.buttons.names == ("ok", "undo", "hint")
    raw = bytearray(81)
    machine.mem32.closed[40] = 1
    d.matrix.scan_into(raw)
    assert raw[d.boarddef.cell_of_key[40]] == 1


class _DIO:
    class Pull:
        UP = "up"
        DOWN = "down"

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.value = True

        def switch_to_output(self, value=False):
            self.value = value

        def switch_to_input(self, pull=None):
            self.pull = pull


class _Pixels(list):
    def __init__(self, pin, n, brightness=1.0, auto_write=True, pixel_order="GRB"):
        super().__init__([(0, 0, 0)] * n)
        self.kw = (pin, auto_write, pixel_order)
        self.shows = 0

    def show(self):
        self.shows += 1


def test_make_drivers_for_blinka_uses_digitalio_and_adafruit_neopixel(monkeypatch):
    board = types.SimpleNamespace(**{"D%d" % i: "pin%d" % i for i in range(28)})
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "digitalio", _DIO)
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=_Pixels))
    if "machine" in sys.modules:
        monkeypatch.delitem(sys.modules, "machine")
    d = make_drivers(load(str(ROOT / "boards" / "rpi_blinka.json")))
    from xobo.drivers.leds_circuitpython import LedChainCP
    from xobo.drivers.matrix import SwitchMatrixDIO

    assert isinstance(d.matrix, SwitchMatrixDIO) and isinstance(d.leds, LedChainCP)
    assert d.leds._pixels.kw == ("pin18", False, "GRB")
    d.leds.set_cell(0, 1, 2, 3)
    d.leds.show()
    assert d.leds._pixels[d.boarddef.led_cells[0]] == (1, 2, 3) and d.leds._pixels.shows == 1
    raw = bytearray(81)
    d.matrix.scan_into(raw)  # all columns read inactive (pulled up, True): nothing closed
    assert sum(raw) == 0


def test_real_flash_atomic_write_replaces_and_leaves_no_tmp(tmp_path):
    fl = Flash(str(tmp_path))
    fl.write_atomic("x", b"one")
    fl.write_atomic("x", b"two" * 100)
    assert fl.read("x") == b"two" * 100
    assert fl.listdir() == ["x"]
    assert fl.read("missing") is None
    sg = SavedGame(fl)
    sg.save("xobo", {"variant": "kv"}, 1, "", ["e5"])
    assert SavedGame(Flash(str(tmp_path))).load()["moves"] == ["e5"]
    assert not list(Path(tmp_path).glob("*.tmp"))


def test_a_save_slot_that_is_a_directory_does_not_stop_saving(tmp_path):
    # a directory where a slot file belongs (left by a host tool or a user) once made every
    # later save fail: the slot name is the board's, so the directory goes
    (tmp_path / "game.a" / "junk").mkdir(parents=True)
    (tmp_path / "game.a" / "junk" / "x.txt").write_text("x")
    (tmp_path / "game.b").mkdir()
    sg = SavedGame(Flash(str(tmp_path)))
    sg.save("xobo", {"variant": "xobo"}, 0, "", ["e5"])
    sg.save("xobo", {"variant": "xobo"}, 0, "", ["e5", "d4"])
    assert SavedGame(Flash(str(tmp_path))).load()["moves"] == ["e5", "d4"]
    assert (tmp_path / "game.a").is_file() and (tmp_path / "game.b").is_file()


def test_digitalio_matrix_reads_a_closed_switch_through_the_row_it_drives():
    from xobo.drivers.matrix import SwitchMatrixDIO

    closed = {(2, 7)}  # (row, col)
    rows, cols = {}, {}

    class Pin:
        def __init__(self, name):
            self.name = name
            self._value = True

        def switch_to_output(self, value=False):
            rows[self.name] = self
            self._value = value

        def switch_to_input(self, pull=None):
            cols[self.name] = self

        @property
        def value(self):
            if self.name in cols:
                c = list(cols).index(self.name)
                return not any(rows[r]._value is False and (list(rows).index(r), c) in closed
                               for r in rows)
            return self._value

        @value.setter
        def value(self, v):
            self._value = bool(v)

    dio = types.SimpleNamespace(DigitalInOut=Pin, Pull=_DIO.Pull)
    sys.modules["digitalio"] = dio
    try:
        m = SwitchMatrixDIO(["R%d" % i for i in range(9)], ["C%d" % i for i in range(9)],
                            list(range(81)), 0, "up", 10, pin_lookup=lambda n: n)
    finally:
        del sys.modules["digitalio"]
    raw = bytearray(81)
    m.scan_into(raw)
    assert raw[2 * 9 + 7] == 1 and sum(raw) == 1
    assert all(p._value for p in rows.values())  # rows released
