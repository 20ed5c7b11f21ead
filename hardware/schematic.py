"""The XoBo board schematic as code (skidl), built from :mod:`hardware.design`.

No KiCad install is needed: every symbol is defined here with ``tool=SKIDL``.

    >>> from hardware import schematic
    >>> ckt = schematic.build()
    >>> schematic.erc(ckt)            # list of ERC errors and warnings; [] when clean
    []
    >>> text = schematic.netlist(ckt)  # KiCad netlist (import it in Pcbnew)

Signals: ROW1..ROW9 (rank 1..9, driven low by the Pico), COL_A..COL_I (file a..i, Pico pull-ups),
one reed switch and one 1N4148 per cell (anode at the switch, cathode at the row), LED_DIN_3V3
(Pico) -> U2 SN74AHCT1G125 -> LED_DIN_5V -> R1 330R -> LED_D0 -> LED1 ... LED117.
Power: J1 barrel -> F1 -> VIN_FUSED (D_TVS) -> Q1 P-FET -> VIN_DC -> JP1 pin 3; Pico VBUS -> F2 ->
VBUS_F -> JP1 pin 1; JP1 pin 2 is +5V (LEDs, U2, C1) -> D_VSYS Schottky -> Pico VSYS.
"""

import contextlib
import io
import logging
import os
import re
from pathlib import Path

from . import design

_HERE = Path(__file__).resolve().parent
# skidl looks for KiCad symbol libraries at import; point it at an existing directory so it
# does not warn (we use no KiCad library: every part below is a SKIDL template).
for _v in ("", "5", "6", "7", "8", "9", "10"):
    os.environ.setdefault("KICAD%s_SYMBOL_DIR" % _v, str(_HERE))

with contextlib.redirect_stderr(io.StringIO()):  # the fp-lib-table notice at import
    from skidl import SKIDL, TEMPLATE, Circuit, Net, Part, Pin
    from skidl.logger import erc_logger, rt_logger
    from skidl.pin import pin_drives

P = Pin.types


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append("%s: %s" % (record.levelname, record.getMessage()))


def _quiet():
    """Route skidl's console output into collectors (ERC results are returned, not printed)."""
    for lg in (erc_logger, rt_logger):
        for h in list(lg.handlers):
            if isinstance(h, logging.StreamHandler) and not isinstance(h, _Collect):
                if not isinstance(h, logging.FileHandler):
                    lg.removeHandler(h)
        lg.addHandler(logging.NullHandler())  # else logging's last resort prints to stderr
    collect = _Collect()
    erc_logger.addHandler(collect)
    return collect


_COLLECT = _quiet()

# --- Symbols (pin numbers follow the datasheets) -----------------------------------------------
PICO_PINOUT = design.PICO_PINOUT
_PICO_FUNC = {"GND": P.PWRIN, "AGND": P.PWRIN, "VSYS": P.PWRIN, "VBUS": P.PWROUT,
              "3V3": P.PWROUT, "ADC_VREF": P.PASSIVE, "RUN": P.INPUT, "3V3_EN": P.INPUT}

SYMBOLS = {
    "pico": ("U", [(n, name, _PICO_FUNC.get(name, P.BIDIR)) for n, name in PICO_PINOUT.items()]),
    "reed": ("RS", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "diode": ("D", [(1, "K", P.PASSIVE), (2, "A", P.PASSIVE)]),
    "led": ("LED", [(1, "VDD", P.PWRIN), (2, "DOUT", P.OUTPUT), (3, "VSS", P.PWRIN),
                    (4, "DIN", P.INPUT)]),
    "c_led": ("C", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "c_bulk": ("C", [(1, "+", P.PASSIVE), (2, "-", P.PASSIVE)]),
    "shifter": ("U", [(1, "OE", P.INPUT), (2, "A", P.INPUT), (3, "GND", P.PWRIN),
                      (4, "Y", P.TRISTATE), (5, "VCC", P.PWRIN)]),
    "r_data": ("R", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "button": ("SW", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "jack": ("J", [(1, "TIP", P.PASSIVE), (2, "SLEEVE", P.PASSIVE)]),
    "jumper": ("JP", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE), (3, "3", P.PASSIVE)]),
    "fuse_dc": ("F", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "fuse_usb": ("F", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "pfet": ("Q", [(1, "G", P.INPUT), (2, "S", P.PASSIVE), (3, "D", P.PASSIVE)]),
    "tvs": ("D", [(1, "K", P.PASSIVE), (2, "A", P.PASSIVE)]),
    "schottky": ("D", [(1, "K", P.PASSIVE), (2, "A", P.PASSIVE)]),
}


def _template(key):
    category, value, footprint, maker, mpn, note = design.PARTS[key]
    prefix, pins = SYMBOLS[key]
    return Part(
        name=key, tool=SKIDL, dest=TEMPLATE, ref_prefix=prefix, value=value,
        footprint=footprint, description=note,
        pins=[Pin(num=str(n), name=name, func=func) for n, name, func in pins],
    )


class Board:
    """The built circuit and handles to its parts (for tests and the BOM)."""

    def __init__(self, circuit, parts, pico):
        self.circuit = circuit
        self.parts = parts  # key -> [Part, ...]
        self.pico = pico


def build():
    """Build the whole board as a fresh skidl Circuit (pins come from design.PICO_*)."""
    ckt = Circuit()
    ckt.no_files = True
    tmpl = {k: _template(k) for k in design.PARTS}
    parts = {k: [] for k in design.PARTS}

    def part(key, ref):
        p = tmpl[key](circuit=ckt, ref=ref, tag=ref)  # tag: stable netlist timestamps
        p.bom_key = key
        parts[key].append(p)
        return p

    def net(name, power=False):
        n = Net(name, circuit=ckt)
        if power:
            n.drive = pin_drives.POWER  # a supply net, like KiCad's PWR_FLAG
        return n

    gnd = net("GND", power=True)
    v5 = net("+5V", power=True)

    pico = part("pico", "U1")
    gnd += pico["GND"], pico["AGND"]

    # Matrix: ROWr (rank r) driven low by the Pico, COL_x (file x) pulled up in the Pico.
    rows = [net("ROW%d" % (r + 1)) for r in range(design.SIZE)]
    cols = [net("COL_%s" % design.FILES[c].upper()) for c in range(design.SIZE)]
    for r in range(design.SIZE):
        rows[r] += pico[design.PICO_ROWS[r]]
    for c in range(design.SIZE):
        cols[c] += pico[design.PICO_COLS[c]]
    for cell in range(design.N_CELLS):
        r, c = divmod(cell, design.SIZE)
        name = design.cell_name(cell).upper()
        reed = part("reed", "RS%d" % (cell + 1))
        reed.fields["Cell"] = design.cell_name(cell)
        diode = part("diode", "D%d" % (cell + 1))
        mid = net("K_%s" % name)
        cols[c] += reed["1"]
        mid += reed["2"], diode["A"]
        rows[r] += diode["K"]

    # Buttons to GND, Pico pull-ups, active low.
    for i, b in enumerate(("ok", "undo", "hint")):
        sw = part("button", "SW%d" % (i + 1))
        btn = net("BTN_%s" % b.upper())
        btn += pico[design.PICO_BUTTONS[b]], sw["1"]
        gnd += sw["2"]

    # Power input: barrel jack -> polyfuse -> TVS -> reverse-polarity P-FET -> JP1.3.
    j1 = part("jack", "J1")
    f1 = part("fuse_dc", "F1")
    tvs = part("tvs", "D%d" % (design.N_CELLS + 1))
    q1 = part("pfet", "Q1")
    vin_raw = net("VIN_RAW", power=True)
    vin_fused = net("VIN_FUSED")
    vin_dc = net("VIN_DC")
    vin_raw += j1["TIP"], f1["1"]
    gnd += j1["SLEEVE"]
    vin_fused += f1["2"], tvs["K"], q1["D"]
    gnd += tvs["A"], q1["G"]
    vin_dc += q1["S"]
    # USB: the Pico's VBUS -> F2 -> JP1.1.
    f2 = part("fuse_usb", "F2")
    vbus = net("VBUS")
    vbus += pico["VBUS"], f2["1"]
    vbus_f = net("VBUS_F")
    vbus_f += f2["2"]
    jp1 = part("jumper", "JP1")
    vbus_f += jp1["1"]
    v5 += jp1["2"]
    vin_dc += jp1["3"]
    # +5V rail -> Schottky -> VSYS (never back-feeds USB: the Pico has its own VBUS diode).
    d_vsys = part("schottky", "D%d" % (design.N_CELLS + 2))
    vsys = net("VSYS", power=True)
    v5 += d_vsys["A"]
    vsys += d_vsys["K"], pico["VSYS"]
    c1 = part("c_bulk", "C1")
    v5 += c1["+"]
    gnd += c1["-"]

    # LED data: GPx (3.3 V) -> U2 -> R1 -> LED1 DIN.
    u2 = part("shifter", "U2")
    c2 = part("c_led", "C2")
    r1 = part("r_data", "R1")
    din_3v3 = net("LED_DIN_3V3")
    din_3v3 += pico[design.PICO_LED_PIN], u2["A"]
    gnd += u2["OE"], u2["GND"], c2["2"]
    v5 += u2["VCC"], c2["1"]
    din_5v = net("LED_DIN_5V")
    din_5v += u2["Y"], r1["1"]
    data = net("LED_D0")
    data += r1["2"]
    position = design.led_positions()
    for k in range(design.LED_COUNT):
        led = part("led", "LED%d" % (k + 1))
        led.fields["Cell"] = position[k]
        cap = part("c_led", "C%d" % (k + 3))
        v5 += led["VDD"], cap["1"]
        gnd += led["VSS"], cap["2"]
        data += led["DIN"]
        if k + 1 < design.LED_COUNT:
            data = net("LED_D%d" % (k + 1))
            data += led["DOUT"]
        else:
            led["DOUT"] += ckt.NC  # end of the chain (a pad for an extension)

    # Pico pins this board leaves free.
    used = set(design.PICO_ROWS + design.PICO_COLS + list(design.PICO_BUTTONS.values()))
    used.add(design.PICO_LED_PIN)
    for name in PICO_PINOUT.values():
        if name.startswith("GP") and name not in used:
            pico[name] += ckt.NC
    for name in ("RUN", "ADC_VREF", "3V3", "3V3_EN"):
        pico[name] += ckt.NC
    return Board(ckt, parts, pico)


def erc(board):
    """Run skidl's ERC; returns the list of error and warning messages (empty when clean)."""
    _COLLECT.records = []
    erc_logger.error.reset()
    erc_logger.warning.reset()
    board.circuit.ERC()
    return list(_COLLECT.records)


def netlist(board):
    """The KiCad netlist (s-expression text), with run-dependent fields made stable."""
    text = str(
        board.circuit.generate_netlist(do_backup=False, track_src=False, track_abs_path=False)
    )
    # The date and the calling script's path would make every run differ.
    text = re.sub(r'\(date "[^"]*"\)', '(date "")', text, count=1)
    text = re.sub(r'\(source "[^"]*"\)', '(source "hardware/schematic.py")', text)
    return text + "\n"
