"""The maker's generated files: the BOM has every part in the right quantity (and agrees with the
netlist), the power budget agrees with the board definitions, the wiring tables with the JSON."""

import csv
import re

from .conftest import OUT_DIR

REQUIRED_CATEGORIES = {
    "MCU module", "Reed switch", "Diode", "LED", "Level shifter", "Capacitor", "Resistor",
    "Push button", "Connector", "Polyfuse", "MOSFET", "TVS diode", "Magnet", "Piece",
    "Power supply", "Surface", "Diffuser", "Light baffle",
}


def bom():
    with open(OUT_DIR / "bom.csv", newline="") as f:
        return list(csv.DictReader(f))


def expand_refs(text):
    """"D1-D3, D9" -> ["D1", "D2", "D3", "D9"]."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.match(r"([A-Z]+)(\d+)(?:-([A-Z]+)(\d+))?$", part)
        assert m, part
        a = int(m.group(2))
        b = int(m.group(4)) if m.group(4) else a
        out += ["%s%d" % (m.group(1), n) for n in range(a, b + 1)]
    return out


def row(item):
    return next(r for r in bom() if r["item"] == item)


def test_bom_has_every_required_category():
    missing = REQUIRED_CATEGORIES - {r["category"] for r in bom()}
    assert not missing, missing


def test_bom_counts_one_reed_and_one_diode_per_cell_and_a_magnet_per_piece(design):
    assert int(row("reed")["quantity"]) == 81
    assert int(row("diode")["quantity"]) == 81 and row("diode")["value"] == "1N4148"
    pieces = sum(int(r["quantity"]) for r in bom() if r["category"] == "Piece")
    assert int(row("magnet")["quantity"]) == pieces
    assert int(row("led")["quantity"]) == 81 + 4 * design.EDGE_LEDS == design.LED_COUNT
    # every LED has its own 100 nF (plus the level shifter's)
    assert int(row("c_led")["quantity"]) == design.LED_COUNT + 1


def test_bom_quantity_equals_its_reference_list():
    for r in bom():
        if r["refs"]:
            assert int(r["quantity"]) == len(expand_refs(r["refs"])), r["item"]


def test_bom_lists_every_netlist_part_once_with_its_value_and_footprint(netlist):
    seen = {}
    for r in bom():
        for ref in expand_refs(r["refs"]):
            assert ref not in seen, (ref, r["item"], seen.get(ref))
            seen[ref] = r
    assert set(seen) == set(netlist.comps)
    for ref, comp in netlist.comps.items():
        assert (comp["value"], comp["footprint"]) == (seen[ref]["value"],
                                                      seen[ref]["footprint"]), ref


def test_bom_names_reed_sensitivity_magnet_grade_and_an_mpn_per_part():
    assert re.search(r"\d+-\d+ AT", row("reed")["value"])
    assert re.search(r"\d+x\d+ mm N\d\d", row("magnet")["value"])
    for r in bom():
        assert r["mpn"] and r["manufacturer"], r["item"]
        if r["refs"]:
            assert r["footprint"], r["item"]


def power_table():
    """{board: {column: value}} from hardware/out/power_budget.md."""
    lines = (OUT_DIR / "power_budget.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| board |"))
    head = [c.strip() for c in lines[start].strip("|").split("|")]
    out = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        out[cells[0].strip("`")] = dict(zip(head, cells, strict=True))
    return out


def test_power_budget_table_matches_every_board_definition(boards):
    table = power_table()
    assert set(table) == set(boards)
    for name, b in boards.items():
        t, p = table[name], b["power"]
        assert int(t["budget_ma"]) == p["budget_ma"], name
        assert int(t["supply mA"]) == p["supply_ma"] and int(t["base_ma"]) == p["base_ma"]
        assert int(t["LEDs"]) == b["leds"]["count"]
        assert int(t["idle LEDs mA"]) == b["leds"]["count"] * b["leds"]["idle_ma_per_led"]
        channels = p["budget_ma"] - p["base_ma"] - int(t["idle LEDs mA"])
        assert int(t["colour channels mA"]) == channels, name
        full = b["leds"]["count"] * (3 * b["leds"]["ma_per_channel"] + 1) + p["base_ma"]
        assert int(t["worst: all white mA"]) == full, name


def test_budget_leaves_margin_and_room_for_light_within_the_fuse(boards, design):
    # F2 MF-MSMF050-2, F1 MF-MSMF200-2; the 15x15 board's F1 MF-RHT400
    fuse_hold = {"usb": 500, "adapter-5v2a": 2000, "adapter-5v4a": 4000}
    for name, b in boards.items():
        p = b["power"]
        assert p["supply_ma"] == design.SUPPLIES[p["supply"]]["supply_ma"], name
        assert p["budget_ma"] <= 0.9 * p["supply_ma"], name  # at least 10 % margin
        assert p["budget_ma"] <= fuse_hold[p["supply"]], name
        assert p["budget_ma"] - p["base_ma"] - b["leds"]["count"] > 100, name  # can show light
    assert boards["pico_gpio"]["power"]["supply"] == "usb"
    assert boards["pico_gpio_adapter"]["power"]["supply"] == "adapter-5v2a"
    assert boards["pico_gpio_adapter"]["power"]["budget_ma"] > 3 * boards["pico_gpio"][
        "power"]["budget_ma"]


def test_firmware_limiter_keeps_the_all_white_frame_within_each_budget(boards):
    import sys

    from .conftest import ROOT

    if str(ROOT / "firmware") not in sys.path:
        sys.path.insert(0, str(ROOT / "firmware"))
    from xobo.drivers.boarddef import load

    for name in boards:
        bd = load(str(ROOT / "boards" / (name + ".json")))
        lim = bd.limiter()
        frame = bytearray([255] * (3 * bd.led_count))
        assert lim.estimate_ma(frame) > bd.budget_ma  # uncapped it would overload
        assert lim.estimate_ma(frame, lim.scale_for(frame)) <= bd.budget_ma, name


def wiring_table(name):
    lines = (OUT_DIR / ("wiring_%s.md" % name)).read_text().splitlines()
    pins = {}
    for line in lines:
        m = re.match(r"\| (\w+) \| `(\w+)` \|", line)
        if m:
            pins[m.group(1)] = m.group(2)
    grid = {}
    for line in lines:
        m = re.match(r"\| ([1-9]) \| ([\d |]+)\|$", line)
        if m:
            grid[int(m.group(1))] = [int(x) for x in m.group(2).split("|")]
    return pins, grid


def test_wiring_tables_list_every_pin_and_the_chain_of_each_board(boards):
    for name, b in boards.items():
        if name == "pico_15x15":
            continue  # test_15x15_wiring_table_...
        pins, grid = wiring_table(name)
        m = b["matrix"]
        for r in range(9):
            assert pins["ROW%d" % (r + 1)] == m["rows"][r], name
        for c in range(9):
            assert pins["COL_%s" % "ABCDEFGHI"[c]] == m["cols"][c], name
        assert pins["LED_DIN_3V3"] == b["leds"]["pin"], name
        for button, spec in b["buttons"].items():
            assert pins["BTN_%s" % button.upper()] == spec["pin"], name
        for rank in range(1, 10):
            assert grid[rank] == b["leds"]["cells"][(rank - 1) * 9:rank * 9], (name, rank)


def test_blinka_wiring_maps_each_pi_pin_to_the_pico_socket_pad_of_the_same_signal(boards):
    text = (OUT_DIR / "wiring_rpi_blinka.md").read_text()
    pico = boards["pico_gpio"]
    assert "| COL_A | `D13` | 33 |" in text and "4 (%s) |" % pico["matrix"]["cols"][0] in text
    assert "| LED_DIN_3V3 | `D18` | 12 |" in text  # BCM 18 is header pin 12


def bom15():
    with open(OUT_DIR / "bom_15x15.csv", newline="") as f:
        return {r["item"]: r for r in csv.DictReader(f)}


def test_15x15_bom_counts_225_switches_and_diodes_285_leds_and_two_74hc595(netlist15):
    b = bom15()
    assert int(b["reed"]["quantity"]) == 225 == int(b["diode"]["quantity"])
    assert int(b["led"]["quantity"]) == 285
    assert int(b["c_led"]["quantity"]) == 286  # every LED and the level shifter
    assert (b["sipo"]["value"], int(b["sipo"]["quantity"])) == ("74HC595", 2)
    assert int(b["c_bulk"]["quantity"]) == 2
    assert "jumper" not in b and "fuse_usb" not in b  # the adapter is the only supply
    seen = set()
    for r in b.values():
        refs = expand_refs(r["refs"])
        assert int(r["quantity"]) == len(refs) or not refs, r["item"]
        seen |= set(refs)
    assert seen == set(netlist15.comps)


def test_15x15_wiring_table_lists_every_pin_and_the_chain(boards):
    b = boards["pico_15x15"]
    m = b["matrix"]
    text = (OUT_DIR / "wiring_pico_15x15.md").read_text()
    pins = dict(re.findall(r"^\| (\w+) \| `(\w+)` \|", text, re.M))
    assert (pins["ROW_DATA"], pins["ROW_CLK"], pins["ROW_LATCH"]) == (
        m["shift"]["data"], m["shift"]["clock"], m["shift"]["latch"])
    for c in range(15):
        assert pins["COL_%s" % "ABCDEFGHIJKLMNO"[c]] == m["cols"][c]
    assert pins["LED_DIN_3V3"] == b["leds"]["pin"]
    for rank in range(1, 16):
        line = next(x for x in text.splitlines() if x.startswith("| %d | " % rank)
                    and x.count("|") == 17)
        got = [int(v) for v in line.strip("|").split("|")[1:]]
        assert got == b["leds"]["cells"][(rank - 1) * 15:rank * 15], rank
