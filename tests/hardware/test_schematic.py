"""The skidl schematic: ERC clean, and the committed netlist agrees with every board definition
pin for pin (matrix, LED data, buttons, LED chain order, the key -> cell map)."""

import re

# the schematics built once in a worker (hardware.outputs caches them: 4-8 s each) serve
# both modules: they run on one worker (tests/conftest.py)
WORKER_GROUP = "hardware-schematics"
PICO_BOARDS = ("pico_gpio", "pico_gpio_adapter", "pico_circuitpython")


def pico_pins(netlist, design):
    """{Pico pin name: net} read from the U1 nodes of the netlist."""
    out = {}
    for (ref, pin), net in netlist.pin_net.items():
        if ref == "U1":
            out[design.PICO_PINOUT[int(pin)]] = net
    return out


def test_erc_of_the_schematic_is_clean(outputs, schematic):
    problems = schematic.erc(outputs.board())
    assert problems == [], "ERC found:\n" + "\n".join(problems)


def test_erc_reports_a_pin_left_unconnected(schematic):
    # Guard for the test above: the ERC we run does see a floating pin.
    board = schematic.build()
    led = board.parts["led"][0]
    led["DIN"].disconnect()
    problems = schematic.erc(board)
    assert any("DIN" in p for p in problems), problems


def test_pico_pinout_follows_the_datasheet(design):
    p = design.PICO_PINOUT
    assert (p[1], p[2], p[29], p[31], p[34], p[39], p[40]) == (
        "GP0", "GP1", "GP22", "GP26", "GP28", "VSYS", "VBUS")
    assert [n for n, name in p.items() if name == "GND"] == [3, 8, 13, 18, 23, 28, 38]
    gps = [name for name in p.values() if name.startswith("GP")]
    assert sorted(int(g[2:]) for g in gps) == list(range(23)) + [26, 27, 28]


def test_netlist_pico_pins_match_each_pico_board_definition(netlist, design, boards):
    on = pico_pins(netlist, design)
    for name in PICO_BOARDS:
        b = boards[name]
        for r, pin in enumerate(b["matrix"]["rows"]):
            assert on[pin] == "ROW%d" % (r + 1), (name, "row", r, pin)
        for c, pin in enumerate(b["matrix"]["cols"]):
            assert on[pin] == "COL_%s" % "ABCDEFGHI"[c], (name, "col", c, pin)
        assert on[b["leds"]["pin"]] == "LED_DIN_3V3", name
        for button, spec in b["buttons"].items():
            assert on[spec["pin"]] == "BTN_%s" % button.upper(), (name, button)
        # nothing else of the Pico's GPIOs is wired (free pins are no-connects)
        wired = {p for p, net in on.items() if p.startswith("GP")}
        expected = set(b["matrix"]["rows"] + b["matrix"]["cols"] + [b["leds"]["pin"]])
        expected |= {s["pin"] for s in b["buttons"].values()}
        assert wired == expected, name


def test_netlist_every_reed_switch_closes_the_key_of_its_own_cell(netlist, boards):
    cell_of_key = boards["pico_gpio"]["matrix"]["cell_of_key"]
    seen = set()
    for ref, comp in netlist.comps.items():
        if not ref.startswith("RS"):
            continue
        cell_name = comp["fields"]["Cell"]
        cell = (int(cell_name[1]) - 1) * 9 + "abcdefghi".index(cell_name[0])
        col_net = next(n for n in (netlist.net_of(ref, 1), netlist.net_of(ref, 2))
                       if n.startswith("COL_"))
        other = netlist.net_of(ref, 2) if col_net == netlist.net_of(ref, 1) else \
            netlist.net_of(ref, 1)
        # the other side of the switch goes to exactly one diode's anode (pin 2)
        diodes = [(r, p) for r, p in netlist.nets[other] if r != ref]
        assert len(diodes) == 1 and diodes[0][1] == "2", (ref, diodes)
        row_net = netlist.net_of(diodes[0][0], 1)  # cathode at the row line
        assert row_net.startswith("ROW"), (ref, row_net)
        key = (int(row_net[3:]) - 1) * 9 + "ABCDEFGHI".index(col_net[4:])
        assert cell_of_key[key] == cell, (ref, cell_name, key)
        seen.add(cell)
    assert seen == set(range(81))


def _chain(netlist):
    """LED refs in data order, following LED_D0 -> DIN, DOUT -> next DIN."""
    order = []
    net = "LED_D0"
    while True:
        dins = [r for r, p in netlist.nets.get(net, []) if r.startswith("LED") and p == "4"]
        if not dins:
            return order
        assert len(dins) == 1, (net, dins)
        order.append(dins[0])
        net = netlist.net_of(dins[0], 2)
        if net is None:
            return order


def test_netlist_led_chain_order_matches_the_board_definitions(netlist, boards, design):
    order = _chain(netlist)
    for name in PICO_BOARDS + ("rpi_blinka",):
        leds = boards[name]["leds"]
        assert len(order) == leds["count"], name
        position = [netlist.comps[ref]["fields"]["Cell"] for ref in order]
        for cell in range(81):
            assert position[leds["cells"][cell]] == design.cell_name(cell), (name, cell)
        for edge, run in leds["edges"].items():
            assert [position[k] for k in run] == [
                "%s-%s" % (edge, x) for x in ("abcdefghi" if edge in "NS" else "123456789")
            ], (name, edge)


def test_led_data_is_level_shifted_to_5v_through_a_series_resistor(netlist, design):
    assert netlist.comps["U2"]["value"] == "SN74AHCT1G125"
    assert netlist.net_of("U2", 2) == "LED_DIN_3V3"  # A input from the Pico
    assert netlist.net_of("U2", 5) == "+5V"  # VCC: 5 V, so the output swings to 5 V
    assert netlist.net_of("U2", 1) == "GND"  # OE active low: always enabled
    y = netlist.net_of("U2", 4)
    r1 = [r for r, _ in netlist.nets[y] if r != "U2"]
    assert r1 == ["R1"]
    ohms = int(re.match(r"(\d+)R", netlist.comps["R1"]["value"]).group(1))
    assert 300 <= ohms <= 500
    other = netlist.net_of("R1", 2) if netlist.net_of("R1", 1) == y else netlist.net_of("R1", 1)
    assert other == "LED_D0" and ("LED1", "4") in netlist.nets[other]


def test_every_led_has_5v_gnd_and_its_own_100nf(netlist, design):
    leds = [r for r in netlist.comps if r.startswith("LED")]
    assert len(leds) == design.LED_COUNT
    for ref in leds:
        assert netlist.net_of(ref, 1) == "+5V" and netlist.net_of(ref, 3) == "GND", ref
    decoupling = [r for r, c in netlist.comps.items() if c["value"] == "100nF"
                  and {netlist.net_of(r, 1), netlist.net_of(r, 2)} == {"+5V", "GND"}]
    assert len(decoupling) >= len(leds) + 1  # + U2
    bulk = [r for r, c in netlist.comps.items() if c["value"].startswith("1000uF")]
    assert [(netlist.net_of(r, 1), netlist.net_of(r, 2)) for r in bulk] == [("+5V", "GND")]


def test_power_input_is_fused_clamped_and_reverse_protected(netlist, design):
    n = netlist.net_of
    assert n("J1", 1) == "VIN_RAW" and n("J1", 2) == "GND"
    assert {n("F1", 1), n("F1", 2)} == {"VIN_RAW", "VIN_FUSED"}
    tvs = "D%d" % (design.N_CELLS + 1)
    assert (n(tvs, 1), n(tvs, 2)) == ("VIN_FUSED", "GND")  # cathode to the rail
    # P-MOSFET: drain at the input, source to the load, gate to ground
    assert (n("Q1", 3), n("Q1", 2), n("Q1", 1)) == ("VIN_FUSED", "VIN_DC", "GND")
    # JP1 chooses the 5 V rail: 1 = USB (fused), 2 = rail, 3 = DC
    assert (n("JP1", 1), n("JP1", 2), n("JP1", 3)) == ("VBUS_F", "+5V", "VIN_DC")
    assert {n("F2", 1), n("F2", 2)} == {"VBUS", "VBUS_F"}
    assert n("U1", 40) == "VBUS"
    # the rail feeds the Pico through a Schottky (anode rail, cathode VSYS)
    sch = "D%d" % (design.N_CELLS + 2)
    assert (n(sch, 2), n(sch, 1)) == ("+5V", "VSYS") and n("U1", 39) == "VSYS"


def test_buttons_pull_to_ground(netlist, boards):
    for i, button in enumerate(("ok", "undo", "hint")):
        sw = "SW%d" % (i + 1)
        assert {netlist.net_of(sw, 1), netlist.net_of(sw, 2)} == {"BTN_%s" % button.upper(),
                                                                   "GND"}
        assert boards["pico_gpio"]["buttons"][button]["active"] == 0


# --- the 15x15 board -----------------------------------------------------------------------------
FILES15 = "ABCDEFGHIJKLMNO"
# SN74HC595 outputs in shift order: QA (pin 15), QB-QH (pins 1-7)
SHIFT_ORDER = ["15", "1", "2", "3", "4", "5", "6", "7"]


def test_erc_of_the_15x15_schematic_is_clean(outputs, schematic):
    problems = schematic.erc(outputs.board("15x15"))
    assert problems == [], "ERC found:\n" + "\n".join(problems)


def test_netlist15_pico_pins_match_the_board_definition(netlist15, design, boards):
    on = pico_pins(netlist15, design)
    m = boards["pico_15x15"]["matrix"]
    assert on[m["shift"]["data"]] == "ROW_DATA"
    assert on[m["shift"]["clock"]] == "ROW_CLK"
    assert on[m["shift"]["latch"]] == "ROW_LATCH"
    for c, pin in enumerate(m["cols"]):
        assert on[pin] == "COL_%s" % FILES15[c], (c, pin)
    b = boards["pico_15x15"]
    assert on[b["leds"]["pin"]] == "LED_DIN_3V3"
    for button, spec in b["buttons"].items():
        assert on[spec["pin"]] == "BTN_%s" % button.upper()
    wired = {p for p, net in on.items() if p.startswith("GP")}
    expected = {m["shift"][k] for k in ("data", "clock", "latch")} | set(m["cols"])
    expected |= {b["leds"]["pin"]} | {s["pin"] for s in b["buttons"].values()}
    assert wired == expected


def test_netlist15_row_r_is_output_r_of_the_74hc595_chain(netlist15, boards):
    n = netlist15.net_of
    sh = boards["pico_15x15"]["matrix"]["shift"]
    assert n("U3", 14) == "ROW_DATA" and n("U4", 14) == n("U3", 9)  # U3 QH' -> U4 SER
    for u in ("U3", "U4"):
        assert (n(u, 11), n(u, 12)) == ("ROW_CLK", "ROW_LATCH")
        assert (n(u, 16), n(u, 10), n(u, 8), n(u, 13)) == ("+3V3", "+3V3", "GND", "GND")
    outputs = [("U3", p) for p in SHIFT_ORDER] + [("U4", p) for p in SHIFT_ORDER]
    assert len(outputs) == sh["outputs"]
    for r in range(sh["rows"]):
        assert n(*outputs[r]) == "ROW%d" % (r + 1), r
    assert all(n(*o) is None for o in outputs[sh["rows"]:])  # unused outputs stay open


def test_netlist15_every_reed_switch_closes_the_key_of_its_own_cell(netlist15, boards):
    cell_of_key = boards["pico_15x15"]["matrix"]["cell_of_key"]
    seen = set()
    for ref, comp in netlist15.comps.items():
        if not ref.startswith("RS"):
            continue
        name = comp["fields"]["Cell"]
        cell = (int(name[1:]) - 1) * 15 + FILES15.lower().index(name[0])
        nets = (netlist15.net_of(ref, 1), netlist15.net_of(ref, 2))
        col_net = next(x for x in nets if x.startswith("COL_"))
        other = nets[1] if col_net == nets[0] else nets[0]
        diodes = [(r, p) for r, p in netlist15.nets[other] if r != ref]
        assert len(diodes) == 1 and diodes[0][1] == "2", (ref, diodes)
        row_net = netlist15.net_of(diodes[0][0], 1)
        key = (int(row_net[3:]) - 1) * 15 + FILES15.index(col_net[4:])
        assert cell_of_key[key] == cell, (ref, name, key)
        seen.add(cell)
    assert seen == set(range(225))


def test_netlist15_led_chain_order_matches_the_board_definition(netlist15, boards):
    order = _chain(netlist15)
    leds = boards["pico_15x15"]["leds"]
    assert len(order) == leds["count"] == 285
    position = [netlist15.comps[ref]["fields"]["Cell"] for ref in order]
    for cell in range(225):
        name = "%s%d" % (FILES15[cell % 15].lower(), cell // 15 + 1)
        assert position[leds["cells"][cell]] == name, cell
    for edge, run in leds["edges"].items():
        labels = FILES15.lower() if edge in "NS" else [str(i) for i in range(1, 16)]
        assert [position[k] for k in run] == ["%s-%s" % (edge, x) for x in labels], edge


def test_netlist15_power_enters_fused_clamped_reverse_protected_and_decoupled(netlist15):
    n = netlist15.net_of
    assert n("J1", 1) == "VIN_RAW" and {n("F1", 1), n("F1", 2)} == {"VIN_RAW", "VIN_FUSED"}
    assert (n("D226", 1), n("D226", 2)) == ("VIN_FUSED", "GND")
    assert n("Q1", 4) == "GND"
    assert {n("Q1", p) for p in (5, 6, 7, 8)} == {"VIN_FUSED"}  # drain at the input
    assert {n("Q1", p) for p in (1, 2, 3)} == {"+5V"}
    assert (n("D227", 2), n("D227", 1)) == ("+5V", "VSYS")
    bulk = [r for r, c in netlist15.comps.items() if c["value"].startswith("1000uF")]
    assert len(bulk) == 2


SHARED_LOG_FILES = """
import os, sys
sys.path.insert(0, sys.argv[1])
import skidl.logger
# another process in this directory (a test worker) deleted the log files skidl just opened
for lg in (skidl.logger.erc_logger, skidl.logger.rt_logger):
    for h in lg.log_file_handlers:
        os.remove(h.baseFilename)
from hardware import outputs, schematic
assert schematic.erc(outputs.board()) == []
print(sorted(os.listdir(".")))
"""


def test_the_schematic_builds_when_another_process_deleted_skidls_log_files(tmp_path):
    import subprocess
    import sys

    from .conftest import ROOT

    run = subprocess.run([sys.executable, "-c", SHARED_LOG_FILES, str(ROOT)], cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"  # and it leaves no log file behind


def test_the_faster_skidl_trace_is_skidls_own_list(schematic):
    # schematic.py puts its own get_skidl_trace into skidl (the same list without reading every
    # caller's source line): a skidl release whose trace differs shows here, not as ERC
    # messages that name the wrong place
    import skidl.scriptinfo

    ours, skidls = schematic.skidl_trace(), skidl.scriptinfo.get_skidl_trace()
    assert ours == skidls and ours[-1][0] == __file__
    import skidl.circuit

    assert skidl.circuit.get_skidl_trace is schematic.skidl_trace
