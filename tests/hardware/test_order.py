"""make order (hardware/order.py): one folder per board with every circuit board's Gerbers,
drill, BOM and placement, the parts with quantities the netlist counts, the pieces the games
need and the cuts; run under Debian's python3 for the circuit boards (skipped without pcbnew)."""

import csv
import subprocess
from collections import Counter

import pytest

from .conftest import ROOT, load_hardware
from .pcbkit import DEBIAN_PYTHON, has_pcbnew

BOARDS = {"pico_gpio": ("9x9", 9), "pico_15x15": ("15x15", 15)}


@pytest.fixture(scope="module", params=sorted(BOARDS))
def order(request, tmp_path_factory):
    if not has_pcbnew():
        pytest.skip("KiCad's pcbnew is not installed: the circuit boards cannot be plotted")
    board = request.param
    out = tmp_path_factory.mktemp("order") / board
    out.mkdir()
    code = ("from pathlib import Path; from hardware import order; "
            "order.write_pcbs(%r, Path(%r))" % (board, str(out)))
    run = subprocess.run([DEBIAN_PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    load_hardware("order").write_rest(board, out)
    return board, out


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_the_order_holds_every_circuit_boards_gerbers_drill_bom_and_placement(order):
    board, out = order
    assembly = load_hardware("assembly")
    size = BOARDS[board][1]
    pcbs = {r["design"]: int(r["quantity"]) for r in _rows(out / "pcbs.csv")}
    assert pcbs == assembly.designs(size)
    for name in pcbs:
        files = {p.name for p in (out / "pcb" / name).iterdir()}
        for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "Edge_Cuts"):
            assert "%s-%s.gbr" % (name, layer) in files, (name, layer)
        assert "%s-PTH.drl" % name in files and {"bom.csv", "cpl.csv"} <= files
        bom = _rows(out / "pcb" / name / "bom.csv")
        cpl = _rows(out / "pcb" / name / "cpl.csv")
        assert list(bom[0]) == ["Comment", "Designator", "Footprint", "Manufacturer", "MPN"] \
            if bom else True
        placed = {r["Designator"] for r in cpl}
        assert placed == {d for r in bom for d in r["Designator"].split(",")}
    assert (out.parent / ("%s.zip" % board)).exists()


def test_the_parts_quantities_are_the_netlists(order, netlist, netlist15):
    board, out = order
    nl = netlist if BOARDS[board][1] == 9 else netlist15
    design = load_hardware("design")
    by_footprint = Counter(c["footprint"] for c in nl.comps.values())
    parts = {r["item"]: int(r["quantity"]) for r in _rows(out / "parts.csv")}
    for key, (_, _, footprint, *_rest) in design.PARTS.items():
        keys_with = [k for k, p in design.PARTS.items() if p[2] == footprint]
        counted = sum(parts.get(k, 0) for k in keys_with)
        assert counted == by_footprint.get(footprint, 0), key
    # and the parts the boards carry are the netlist's, board by board
    placed = Counter()
    for bom in (out / "pcb").glob("*/bom.csv"):
        name = bom.parent.name
        n = {r["design"]: int(r["quantity"]) for r in _rows(out / "pcbs.csv")}[name]
        for r in _rows(bom):
            placed[r["Footprint"]] += n * len(r["Designator"].split(","))
    for footprint, count in by_footprint.items():
        if footprint.startswith("Module:"):
            continue  # the Pico sits in its socket's pads (its header pins in parts.csv)
        assert placed[footprint.split(":")[-1]] == count, footprint


def test_the_pieces_are_what_the_games_need(order):
    board, out = order
    pieces = load_hardware("pieces")
    which = BOARDS[board][0]
    rows = _rows(out / "pieces.csv")
    assert [int(r["quantity"]) for r in rows] == [k["count"] for k in pieces.stock(which)]
    assert sum(int(r["quantity"]) for r in rows) == sum(k["count"] for k in pieces.stock(which))


def test_no_wire_is_cut_by_hand_but_the_usb_cable(order):
    board, out = order
    parts = _rows(out / "parts.csv")
    assert not [r for r in parts if r["category"] == "Wire"]
    cables = [r for r in parts if r["category"] == "Cable"]
    assert [r["item"] for r in cables] == ["usb_cable"]
    pins = next(r for r in parts if r["item"] == "header_pins")
    assert int(pins["quantity"]) * 40 >= int(pins["note"].split()[0]) > 0


def test_the_cuts_and_sheets_are_in_the_order(order):
    board, out = order
    size = BOARDS[board][1]
    cut = _rows(out / "cut.csv")
    files = {r["file"] for r in cut if r["file"]}
    assert files == {p.name for p in (out / "cut").iterdir()}
    glass = (size + 1) * 40
    assert any(r["what"] == "glass" and r["size"] == "%d x %d mm" % (glass, glass) for r in cut)
    assert any(r["what"] == "diffuser" for r in cut)


def test_the_readme_says_which_board_is_not_ready_to_order(order):
    import json

    board, out = order
    info = json.loads((out / "pcbs.json").read_text())
    readme = (out / "README.txt").read_text()
    for name, d in info["designs"].items():
        bad = d["drc_errors"] or d["unconnected"]
        assert ("NOT READY TO ORDER: %s " % name in readme) == bool(bad), name
    assert "NOT READY" not in readme  # every board of both sizes passes
