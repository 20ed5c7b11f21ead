"""docs/stock-a-table.md, the one list a café orders a table from, agrees with the BOMs (every
row, the same quantity), holds the cell tiles for every cell of the board and every overlay of
the games the board hosts."""

import csv
import re

import pytest

from .conftest import OUT_DIR, ROOT

BOARDS = [("9x9", "bom.csv", 9), ("15x15", "bom_15x15.csv", 15)]


def bom(name):
    with open(OUT_DIR / name, newline="") as f:
        return list(csv.DictReader(f))


def section(which):
    text = (ROOT / "docs" / "stock-a-table.md").read_text()
    part = text.split("## The %s table" % which)[1].split("\n## ")[0]
    rows = []
    for line in part.splitlines():
        if line.startswith("| ") and not line.startswith(("| qty", "| ---")):
            rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


@pytest.mark.parametrize("which,bom_name,size", BOARDS)
def test_the_order_list_holds_every_bom_row_with_its_quantity(which, bom_name, size):
    listed = {(row[0], row[1]) for row in section(which)}
    for r in bom(bom_name):
        assert (r["quantity"], r["value"]) in listed, r["item"]


@pytest.mark.parametrize("which,bom_name,size", BOARDS)
def test_the_cell_tiles_cover_every_cell_whose_parts_the_bom_counts(which, bom_name, size):
    from .conftest import load_hardware

    pcb = load_hardware("pcb")
    rows = {r["item"]: int(r["quantity"]) for r in bom(bom_name)}
    tiles = next(int(row[0]) for row in section(which) if row[1].startswith("cell tile"))
    cells = tiles * pcb.CELLS * pcb.CELLS
    assert cells == size * size == rows["reed"] == rows["diode"]
    strips = next(int(row[0]) for row in section(which) if row[1].startswith("edge strip"))
    assert rows["led"] == cells + strips * pcb.CELLS == size * size + 4 * size
    assert strips == pcb.strip_counts(size)["strips"]
    assert tiles * pcb.tile_cost()[2] == pytest.approx(
        rows["reed"] * pcb.design.UNIT_PRICE_EUR["reed"]
        + rows["diode"] * pcb.design.UNIT_PRICE_EUR["diode"]
        + cells * (pcb.design.UNIT_PRICE_EUR["led"] + pcb.design.UNIT_PRICE_EUR["c_led"])
        + tiles * pcb.design.UNIT_PRICE_EUR["tile_pcb"])


@pytest.mark.parametrize("which,bom_name,size", BOARDS)
def test_the_order_list_prints_every_overlay_of_the_board(overlay, which, bom_name, size):
    text = " ".join(row[3] for row in section(which) if row[1].startswith("glass overlay"))
    listed = set(re.findall(r"\[([\w.]+\.svg)\]", text))
    wanted = {name for name, _game, board, _s in overlay.overlays() if board == which}
    if which == "9x9":
        wanted.add("x_overlay.svg")
    assert listed == wanted
    for name in listed:
        assert (OUT_DIR / name).exists(), name


@pytest.mark.parametrize("which,bom_name,size", BOARDS)
def test_the_order_list_holds_every_circuit_board_and_the_pins_and_no_wire(which, bom_name,
                                                                          size):
    from .conftest import load_hardware

    assembly = load_hardware("assembly")
    rows = section(which)
    listed = {}
    for row in rows:
        m = re.search(r"\(`(\w+)`\)", row[1])
        if m and "circuit board" in row[1]:
            listed[m.group(1)] = int(row[0])
    assert listed == assembly.designs(size)
    pins = next(row for row in rows if row[1].startswith("40-pin breakaway"))
    count = assembly.pin_count(size)
    assert int(pins[0]) == -(-count // 40) and "%d in all" % count in pins[3]
    assert not [row for row in rows if "wire" in row[1].lower()]
