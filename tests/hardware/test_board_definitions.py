"""boards/*.json: generated from hardware/design.py, in the format the firmware codes against,
with pins a Pico (or a Pi with Blinka) can actually use."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# the schematics built once in a worker (hardware.outputs caches them: 4-8 s each) serve
# both modules: they run on one worker (tests/conftest.py)
WORKER_GROUP = "hardware-schematics"
PICO_BOARDS = ("pico_gpio", "pico_gpio_adapter", "pico_circuitpython")


def test_generated_files_are_up_to_date_with_design(generate):
    stale = [str(p.relative_to(ROOT)) for p in generate.stale_files()]
    assert stale == [], "stale (run make hardware / python -m hardware.generate): %s" % stale


def test_check_mode_fails_when_an_output_is_missing(generate, tmp_path, monkeypatch):
    monkeypatch.setattr(generate, "BOARDS_DIR", tmp_path)
    assert generate.main(["--check"]) == 1


def test_every_board_of_the_design_is_committed(design, boards):
    assert sorted(boards) == sorted(design.BOARDS)
    for name in ("pico_gpio", "pico_circuitpython", "rpi_blinka", "pico_gpio_adapter"):
        assert boards[name]["name"] == name


def test_board_json_has_exactly_the_agreed_keys(boards):
    for name, b in boards.items():
        assert list(b) == ["name", "description", "platform", "matrix", "leds", "buttons",
                           "power"], name
        if name == "pico_15x15":
            assert set(b["matrix"]) == {"scanner", "shift", "cols", "row_active", "col_pull",
                                        "settle_us", "cell_of_key"}
            assert b["matrix"]["scanner"] == "shift595"
            assert set(b["matrix"]["shift"]) == {"data", "clock", "latch", "outputs", "rows"}
            continue
        assert set(b["matrix"]) == {"rows", "cols", "row_active", "col_pull", "settle_us",
                                    "cell_of_key"}, name
        assert set(b["leds"]) == {"pin", "count", "order", "cells", "edges", "ma_per_channel",
                                  "idle_ma_per_led"}, name
        assert set(b["buttons"]) == {"ok", "undo", "hint"}, name
        assert set(b["power"]) == {"supply", "supply_ma", "budget_ma", "base_ma"}, name
        assert b["platform"] in ("micropython-rp2", "circuitpython", "blinka"), name


def test_board_definitions_load_in_the_firmware(boards):
    firmware = str(ROOT / "firmware")
    if firmware not in sys.path:
        sys.path.insert(0, firmware)
    from xobo.drivers.boarddef import load

    for name in boards:
        bd = load(str(ROOT / "boards" / (name + ".json")))
        assert bd.budget_ma == boards[name]["power"]["budget_ma"], name


def test_chain_order_is_a_permutation_of_all_leds(boards):
    for name, b in boards.items():
        leds = b["leds"]
        used = list(leds["cells"]) + [k for e in "NSEW" for k in leds["edges"][e]]
        assert len(leds["cells"]) == len(b["matrix"]["cell_of_key"]), name
        assert sorted(used) == list(range(leds["count"])), name


def test_chain_is_serpentine_from_a1_each_step_to_a_neighbouring_cell(boards):
    cells = boards["pico_gpio"]["leds"]["cells"]
    cell_at = {k: c for c, k in enumerate(cells)}
    assert cell_at[0] == 0  # a1, the South-West corner, is first
    for k in range(80):
        a, b = cell_at[k], cell_at[k + 1]
        assert abs(a % 9 - b % 9) + abs(a // 9 - b // 9) == 1, (k, a, b)


def test_edge_strips_continue_from_i9_and_are_listed_west_to_east_south_to_north(boards):
    e = boards["pico_gpio"]["leds"]["edges"]
    assert e["N"][-1] == 81  # N strip starts next to i9, where the cell chain ends
    assert e["N"] == list(range(89, 80, -1)) and e["W"] == list(range(98, 89, -1))
    assert e["S"] == list(range(99, 108)) and e["E"] == list(range(108, 117))


def test_cell_of_key_is_a_permutation_and_row_r_is_rank_r_plus_1(boards):
    for name, b in boards.items():
        cok = b["matrix"]["cell_of_key"]
        width = len(b["matrix"]["cols"])
        assert sorted(cok) == list(range(width * width)), name
        for key, cell in enumerate(cok):
            assert (cell // width, cell % width) == divmod(key, width), (name, key)


def test_pico_columns_are_contiguous_for_one_gpio_in_read(boards):
    for name in PICO_BOARDS:
        m = boards[name]["matrix"]
        cols = [int(p[2:]) for p in m["cols"]]
        assert cols == list(range(cols[0], cols[0] + 9)), name
        rows = [int(p[2:]) for p in m["rows"]]
        assert rows == list(range(rows[0], rows[0] + 9)), name


def test_pins_are_distinct_and_avoid_the_pico_internal_gpios(boards):
    for name, b in boards.items():
        shift = b["matrix"].get("shift", {})
        pins = b["matrix"].get("rows", []) + [shift[k] for k in shift if k in (
            "data", "clock", "latch")] + b["matrix"]["cols"] + [b["leds"]["pin"]]
        pins += [s["pin"] for s in b["buttons"].values()]
        assert len(set(pins)) == len(pins) == 22, name
        if b["platform"] == "blinka":
            assert b["leds"]["pin"] in ("D10", "D12", "D18", "D21")
            # D0/D1 HAT EEPROM, D2/D3 I2C with hard pull-ups, D14/D15 serial console
            assert not set(pins) & {"D0", "D1", "D2", "D3", "D14", "D15"}
        else:
            assert not set(pins) & {"GP23", "GP24", "GP25", "GP29"}, name
            assert all(p.startswith("GP") for p in pins), name


def test_matrix_polarity_matches_the_diodes(boards):
    # Diode cathodes at the rows: a row must be driven low and the columns pulled up.
    for name, b in boards.items():
        assert (b["matrix"]["row_active"], b["matrix"]["col_pull"]) == (0, "up"), name


def test_15x15_board_is_225_cells_scanned_through_74hc595_rows(boards, design):
    b = boards["pico_15x15"]
    m = b["matrix"]
    assert m["shift"]["rows"] == 15 and len(m["cols"]) == 15 and len(m["cell_of_key"]) == 225
    assert m["shift"]["outputs"] == 16  # two 8-bit 74HC595s
    cols = [int(p[2:]) for p in m["cols"]]
    assert cols == list(range(cols[0], cols[0] + 15))  # one GPIO_IN read per row
    # 3 shift pins + 15 columns instead of 30 matrix lines; a Pico has 26 GPIOs
    assert len({m["shift"][k] for k in ("data", "clock", "latch")} | set(m["cols"])) == 18


def test_15x15_chain_is_serpentine_from_a1_then_four_edges_of_15(boards):
    leds = boards["pico_15x15"]["leds"]
    assert leds["count"] == 225 + 60
    cell_at = {k: c for c, k in enumerate(leds["cells"])}
    assert cell_at[0] == 0
    for k in range(224):
        a, c = cell_at[k], cell_at[k + 1]
        assert abs(a % 15 - c % 15) + abs(a // 15 - c // 15) == 1, (k, a, c)
    e = leds["edges"]
    assert e["N"] == list(range(239, 224, -1)) and e["E"] == list(range(270, 285))


def test_15x15_board_budget_is_the_5v_adapter_less_the_margin(boards):
    p = boards["pico_15x15"]["power"]
    assert (p["supply"], p["supply_ma"], p["budget_ma"]) == ("adapter-5v4a", 4000, 3600)
