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
    import skidl.circuit
    import skidl.logger
    import skidl.node
    import skidl.scriptinfo
    from skidl import SKIDL, TEMPLATE, Circuit, Net, Part, Pin
    from skidl.logger import erc_logger, rt_logger
    from skidl.pin import pin_drives

_SKIDL_DIR = os.path.dirname(os.path.abspath(skidl.scriptinfo.__file__))


def skidl_trace():
    """skidl's ``get_skidl_trace``, the same list from the frames themselves: ``[(file, line)]``
    of every caller outside skidl, the oldest first (where a part, net or node was made; the
    ERC's messages name it). skidl's own calls ``inspect.stack()``, which reads every caller's
    source line: on each of the ~5,700 parts, nets and nodes of the two boards, 34 of the 60 s
    that building their netlists took (measured on the 2-core build machine)."""
    import sys

    frame = sys._getframe(1)
    trace = []
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_SKIDL_DIR):
            trace.append((os.path.abspath(filename), str(frame.f_lineno)))
        frame = frame.f_back
    trace.reverse()
    return trace


for _module in (skidl.circuit, skidl.node, skidl.logger):
    _module.get_skidl_trace = skidl_trace

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


def _no_log_files():
    """skidl opens ``<script>.log`` and ``<script>.erc`` in the working directory when it is
    imported, and deletes them when a circuit sets ``no_files``. Processes importing it in the
    same directory (the test runner's workers) share those names, so the second deletion failed
    with FileNotFoundError. Close and delete them here, once, whoever deleted them first."""
    for lg in (erc_logger, rt_logger):
        for handler in list(lg.log_file_handlers):
            lg.log_file_handlers.remove(handler)  # so removeHandler deletes nothing itself
            lg.removeHandler(handler)
            handler.close()
            with contextlib.suppress(OSError):
                os.remove(handler.baseFilename)


_no_log_files()

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
    # 74HC595 (SN74HC595 D package pinout; QHS is the datasheet's QH', the serial output)
    "sipo": ("U", [(15, "QA", P.OUTPUT), (1, "QB", P.OUTPUT), (2, "QC", P.OUTPUT),
                   (3, "QD", P.OUTPUT), (4, "QE", P.OUTPUT), (5, "QF", P.OUTPUT),
                   (6, "QG", P.OUTPUT), (7, "QH", P.OUTPUT), (8, "GND", P.PWRIN),
                   (9, "QHS", P.OUTPUT), (10, "~SRCLR", P.INPUT), (11, "SRCLK", P.INPUT),
                   (12, "RCLK", P.INPUT), (13, "~OE", P.INPUT), (14, "SER", P.INPUT),
                   (16, "VCC", P.PWRIN)]),
    "c_logic": ("C", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    "jack_hc": ("J", [(1, "TIP", P.PASSIVE), (2, "SLEEVE", P.PASSIVE)]),
    "fuse_dc4": ("F", [(1, "1", P.PASSIVE), (2, "2", P.PASSIVE)]),
    # AO4407A, SOIC-8: 1-3 source, 4 gate, 5-8 drain
    "pfet_hc": ("Q", [(1, "S", P.PASSIVE), (2, "S", P.PASSIVE), (3, "S", P.PASSIVE),
                      (4, "G", P.INPUT), (5, "D", P.PASSIVE), (6, "D", P.PASSIVE),
                      (7, "D", P.PASSIVE), (8, "D", P.PASSIVE)]),
}


def _template(key):
    category, value, footprint, maker, mpn, note = design.PARTS[key]
    prefix, pins = SYMBOLS[key]
    return Part(
        name=key, tool=SKIDL, dest=TEMPLATE, ref_prefix=prefix, value=value,
        footprint=footprint, description=note,
        pins=[Pin(num=str(n), name=name, func=func) for n, name, func in pins],
    )


def _led_chain(ckt, part, net, v5, gnd, data, position):
    """LED1.. in chain order from the net ``data``, each with its 100 nF (C3 on)."""
    count = len(position)
    for k in range(count):
        led = part("led", "LED%d" % (k + 1))
        led.fields["Cell"] = position[k]
        cap = part("c_led", "C%d" % (k + 3))
        v5 += led["VDD"], cap["1"]
        gnd += led["VSS"], cap["2"]
        data += led["DIN"]
        if k + 1 < count:
            data = net("LED_D%d" % (k + 1))
            data += led["DOUT"]
        else:
            led["DOUT"] += ckt.NC  # end of the chain (a pad for an extension)


class Board:
    """The built circuit and handles to its parts (for tests and the BOM)."""

    def __init__(self, circuit, parts, pico):
        self.circuit = circuit
        self.parts = parts  # key -> [Part, ...]
        self.pico = pico


def _new_circuit():
    """A fresh circuit and its ``part(key, ref)`` and ``net(name, power)`` makers."""
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

    return ckt, parts, part, net


def _reed_switches(part, net, rows, cols, n_cells, width):
    """A reed switch and a diode per cell (RSk, Dk): the column through the switch, the
    diode to the row (both boards)."""
    for cell in range(n_cells):
        r, c = divmod(cell, width)
        name = design.cell_name(cell, width).upper()
        reed = part("reed", "RS%d" % (cell + 1))
        reed.fields["Cell"] = design.cell_name(cell, width)
        diode = part("diode", "D%d" % (cell + 1))
        mid = net("K_%s" % name)
        cols[c] += reed["1"]
        mid += reed["2"], diode["A"]
        rows[r] += diode["K"]


def _buttons(part, net, pico, gnd, pins):
    """ok, undo, hint (SW1-SW3) from their Pico pins to GND (pulled up in the Pico)."""
    for i, b in enumerate(("ok", "undo", "hint")):
        sw = part("button", "SW%d" % (i + 1))
        btn = net("BTN_%s" % b.upper())
        btn += pico[pins[b]], sw["1"]
        gnd += sw["2"]


def build(board="9x9"):
    """Build the whole board as a fresh skidl Circuit (pins come from design.PICO_*);
    ``board="15x15"``: the 15x15 board (:func:`build15`)."""
    if board == "15x15":
        return build15()
    if board != "9x9":
        raise ValueError("unknown board %r, expected 9x9 or 15x15" % (board,))
    ckt, parts, part, net = _new_circuit()
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
    _reed_switches(part, net, rows, cols, design.N_CELLS, design.SIZE)

    # Buttons to GND, Pico pull-ups, active low.
    _buttons(part, net, pico, gnd, design.PICO_BUTTONS)

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
    _led_chain(ckt, part, net, v5, gnd, data, design.led_positions())

    # Pico pins this board leaves free.
    used = set(design.PICO_ROWS + design.PICO_COLS + list(design.PICO_BUTTONS.values()))
    used.add(design.PICO_LED_PIN)
    for name in PICO_PINOUT.values():
        if name.startswith("GP") and name not in used:
            pico[name] += ckt.NC
    for name in ("RUN", "ADC_VREF", "3V3", "3V3_EN"):
        pico[name] += ckt.NC
    return Board(ckt, parts, pico)


def build15():
    """The 15x15 board (design.*15): the rows ROW1..ROW15 come from U3/U4, two chained
    74HC595s at 3.3 V (QA of U3 = ROW1 ... QG of U4 = ROW15, U4's QH unused), their SER, SRCLK
    and RCLK from the Pico (ROW_DATA, ROW_CLK, ROW_LATCH; U3's QH' feeds U4's SER); the
    columns COL_A..COL_O on the Pico, pulled up inside it. One reed switch and one 1N4148 per
    cell, as on the 9x9 board. Power: J1 (high current) -> F1 4 A -> VIN_FUSED (TVS) -> Q1
    AO4407A -> +5V, the only supply (no USB path to the LEDs); +5V -> Schottky -> VSYS."""
    ckt, parts, part, net = _new_circuit()
    n = design.SIZE15
    gnd = net("GND", power=True)
    v5 = net("+5V", power=True)
    v33 = net("+3V3", power=True)
    pico = part("pico", "U1")
    gnd += pico["GND"], pico["AGND"]
    v33 += pico["3V3"]

    # Rows: two 74HC595s, SRCLR high (never cleared), OE low (always driving).
    u3 = part("sipo", "U3")
    u4 = part("sipo", "U4")
    outputs = [u[q] for u in (u3, u4) for q in ("QA", "QB", "QC", "QD", "QE", "QF", "QG", "QH")]
    assert len(outputs) == design.SHIFT_OUTPUTS15
    ser = net("ROW_DATA")
    ser += pico[design.PICO15_SHIFT["data"]], u3["SER"]
    srclk = net("ROW_CLK")
    srclk += pico[design.PICO15_SHIFT["clock"]], u3["SRCLK"], u4["SRCLK"]
    rclk = net("ROW_LATCH")
    rclk += pico[design.PICO15_SHIFT["latch"]], u3["RCLK"], u4["RCLK"]
    chain = net("ROW_CHAIN")
    chain += u3["QHS"], u4["SER"]  # QHS: the datasheet's QH', the serial output
    u4["QHS"] += ckt.NC
    for k, u in enumerate((u3, u4)):
        v33 += u["VCC"], u["~SRCLR"]
        gnd += u["GND"], u["~OE"]
        cap = part("c_logic", "C%d" % (design.LED_COUNT15 + 3 + k))
        v33 += cap["1"]
        gnd += cap["2"]
    rows = [net("ROW%d" % (r + 1)) for r in range(n)]
    for r in range(n):
        rows[r] += outputs[r]
    for pin in outputs[n:]:
        pin += ckt.NC
    cols = [net("COL_%s" % design.FILES15[c].upper()) for c in range(n)]
    for c in range(n):
        cols[c] += pico[design.PICO15_COLS[c]]
    _reed_switches(part, net, rows, cols, design.N_CELLS15, n)

    _buttons(part, net, pico, gnd, design.PICO15_BUTTONS)

    # Power: barrel jack -> 4 A polyfuse -> TVS -> reverse-polarity P-FET -> +5V.
    j1 = part("jack_hc", "J1")
    f1 = part("fuse_dc4", "F1")
    tvs = part("tvs", "D%d" % (design.N_CELLS15 + 1))
    q1 = part("pfet_hc", "Q1")
    vin_raw = net("VIN_RAW", power=True)
    vin_fused = net("VIN_FUSED")
    vin_raw += j1["TIP"], f1["1"]
    gnd += j1["SLEEVE"]
    vin_fused += f1["2"], tvs["K"], q1["D"]
    gnd += tvs["A"], q1["G"]
    v5 += q1["S"]
    pico["VBUS"] += ckt.NC  # USB is the serial link only; the Pico's VBUS diode isolates it
    d_vsys = part("schottky", "D%d" % (design.N_CELLS15 + 2))
    vsys = net("VSYS", power=True)
    v5 += d_vsys["A"]
    vsys += d_vsys["K"], pico["VSYS"]
    # bulk capacitors where the power enters (C1) and at the far end of the chain (C2 + count)
    c1 = part("c_bulk", "C1")
    c_far = part("c_bulk", "C%d" % (design.LED_COUNT15 + 5))
    for c in (c1, c_far):
        v5 += c["+"]
        gnd += c["-"]

    u2 = part("shifter", "U2")
    c2 = part("c_led", "C2")
    r1 = part("r_data", "R1")
    din_3v3 = net("LED_DIN_3V3")
    din_3v3 += pico[design.PICO15_LED_PIN], u2["A"]
    gnd += u2["OE"], u2["GND"], c2["2"]
    v5 += u2["VCC"], c2["1"]
    din_5v = net("LED_DIN_5V")
    din_5v += u2["Y"], r1["1"]
    data = net("LED_D0")
    data += r1["2"]
    _led_chain(ckt, part, net, v5, gnd, data, design.led_positions(n))

    used = set(design.PICO15_COLS + list(design.PICO15_SHIFT.values()))
    used |= set(design.PICO15_BUTTONS.values()) | {design.PICO15_LED_PIN}
    for name in PICO_PINOUT.values():
        if name.startswith("GP") and name not in used:
            pico[name] += ckt.NC
    for name in ("RUN", "ADC_VREF", "3V3_EN"):
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
