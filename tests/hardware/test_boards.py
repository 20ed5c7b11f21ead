"""The boards round the tiles (hardware/boards.py, hardware/assembly.py) and the proof that a
board assembled from what is ordered is its schematic (hardware/connectivity.py): the whole
board's copper against the skidl netlist, and the mistakes it must catch (a swapped column
link, a tile not turned, a strip the wrong way round, a link turned round). The checks that
read the boards run under Debian's python3, which has pcbnew; skipped where KiCad is missing."""

import json
import os
import subprocess
import tempfile

import pytest

from .conftest import ROOT, load_hardware
from .pcbkit import DEBIAN_PYTHON, has_pcbnew

needs_pcbnew = pytest.mark.skipif(not has_pcbnew(), reason="KiCad's pcbnew is not installed "
                                  "(apt-get install kicad; make test installs it when run as "
                                  "root): the boards' copper cannot be read")
PCB_DIR = ROOT / "hardware" / "out" / "pcb"
NETS = {9: 229, 15: 555}  # the netlists' nets (hardware/out/xobo_board*.net)


def run_python3(code):
    run = subprocess.run([DEBIAN_PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_every_design_the_boards_use_is_committed():
    assembly = load_hardware("assembly")
    for size in (9, 15):
        for name in assembly.designs(size):
            assert (PCB_DIR / ("%s.kicad_pcb" % name)).exists(), name


@pytest.mark.parametrize("size", [9, 15])
def test_the_netlist_has_the_nets_the_check_counts(size, netlist, netlist15):
    assert len((netlist if size == 9 else netlist15).nets) == NETS[size]


@needs_pcbnew
@pytest.mark.parametrize("size", [9, 15])
def test_the_assembled_board_is_its_schematic_every_net_no_short_no_open(size):
    report = run_python3("import json; from hardware import connectivity; "
                         "print(json.dumps(connectivity.check(%d)))" % size)
    assert report["opens"] == [] and report["shorts"] == [], report
    assert report["misfits"] == [] and report["missing"] == [], report
    assert report["nets"] == report["netlist_nets"] == NETS[size]
    assert report["ok"]


MUTATE = """
import json
from hardware import assembly, connectivity
size = %(size)d
placements = assembly.placements(size)
copper = {}
kind = %(kind)r
if kind == "swapped column link":
    # a link across a North-South seam whose tracks cross: file a of one tile to file b of
    # the next
    cu = connectivity.read_copper(connectivity.PCB_DIR / "link_ns.kicad_pcb")
    b1 = next(k for k, p in enumerate(cu.pads) if p[0] == "P1b")
    b2 = next(k for k, p in enumerate(cu.pads) if p[0] == "P2b")
    cu.group[b1], cu.group[b2] = cu.group[b2], cu.group[b1]
    copper["link_ns"] = cu
elif kind == "tile not turned":
    k = next(k for k, p in enumerate(placements) if p.design == "tile" and p.role["turned"])
    p = placements[k]
    placements[k] = assembly.Placement("tile", 0, p.dx - assembly.TILE, p.dy - assembly.TILE,
                                       dict(p.role, turned=False))
elif kind == "strip the wrong way round":
    k = next(k for k, p in enumerate(placements) if p.design == "strip" and
             p.role["edge"] == "S" and p.role["k"] == 1)
    p = placements[k]
    placements[k] = assembly.Placement("strip", 180, p.dx + assembly.TILE,
                                       p.dy + assembly.STRIP_H, p.role)
elif kind == "link turned round":
    k = next(k for k, p in enumerate(placements) if p.design == "link_we" and p.rot == 0)
    p = placements[k]
    w, h, _ = assembly.link_designs()["link_we"]
    placements[k] = assembly.Placement("link_we", 180, p.dx + w, p.dy + h, p.role)
print(json.dumps(connectivity.check(size, placements, copper)))
"""


@needs_pcbnew
@pytest.mark.parametrize("kind", ["swapped column link", "tile not turned",
                                  "strip the wrong way round", "link turned round"])
def test_the_check_fails_on_a_board_assembled_wrong(kind):
    report = run_python3(MUTATE % {"size": 9, "kind": kind})
    assert not report["ok"]
    if kind == "swapped column link":
        assert any("COL_" in s for s in report["shorts"]), report
    if kind == "tile not turned":  # its pads are not over the links' pins: rows cut
        assert any(o.startswith("ROW") for o in report["opens"]), report
    if kind == "strip the wrong way round":
        assert any("+5V" in s and "GND" in s for s in report["shorts"]), report
    if kind == "link turned round":  # half its pins miss the tiles' pads: the data is cut
        assert any(o.startswith("LED_D") for o in report["opens"]), report


def _orientations(w, h):
    return {"as designed": lambda x, y: (x, y), "turned round": lambda x, y: (w - x, h - y),
            "face down": lambda x, y: (w - x, y), "face down, turned": lambda x, y: (x, h - y)}


@pytest.mark.parametrize("name", ["link_we", "link_ns", "link_strip", "link_sw_9x9",
                                  "link_sw_15x15"])
def test_a_link_fits_only_where_its_pins_join_what_they_should(name):
    """The fit test: a link turned round or face down either cannot go in (a pin with no hole
    under it) or joins the same pads."""
    assembly = load_hardware("assembly")
    w, h, pairs = assembly.link_designs()[name]
    holes = {p for pair in pairs for p in pair}
    joins = {frozenset(pair) for pair in pairs}
    fits = 0
    for how, move in _orientations(w, h).items():
        moved = {frozenset((tuple(round(v, 4) for v in move(*a)),
                            tuple(round(v, 4) for v in move(*b)))) for a, b in pairs}
        pins = {p for pair in moved for p in pair}
        if pins == {tuple(round(v, 4) for v in p) for p in holes}:
            fits += 1
            assert moved == {frozenset(tuple(round(v, 4) for v in p) for p in j)
                             for j in joins}, how
    assert fits >= 1
    if name == "link_we":
        assert fits == 2  # as designed, and face down: its rows of pins are not symmetric


# the 15x15 controller takes minutes to route on the 2-core machine: XOBO_BOARDS=full (make
# boards regenerates and checks every board, that one too)
REGENERATED = None if os.environ.get("XOBO_BOARDS") == "full" else "controller_15x15"


@needs_pcbnew
@pytest.mark.slow
def test_regenerating_the_boards_gives_the_committed_connectivity_and_a_clean_drc():
    with tempfile.TemporaryDirectory() as tmp:
        code = """
import json
from pathlib import Path
from hardware import boards, connectivity
tmp = Path(%r)
names = [n for n in boards.all_designs() if n != %r]
summary = boards.make(names, tmp, tmp / "reports")
out = {}
for name in names:
    fresh = connectivity.read_copper(tmp / (name + ".kicad_pcb"))
    kept = connectivity.read_copper(boards.PCB_DIR / (name + ".kicad_pcb"))
    def groups(cu):
        by = {}
        for pad, g in zip(cu.pads, cu.group):
            by.setdefault(g, set()).add((pad[0], pad[1], pad[2], pad[3]))
        return sorted(sorted(v) for v in by.values())
    out[name] = [groups(fresh) == groups(kept), summary[name]]
print(json.dumps(out))
""" % (tmp, REGENERATED)
        out = run_python3(code)
    for name, (same, drc) in out.items():
        assert same, name
        assert drc["drc_errors"] == 0 and drc["unconnected"] == 0, (name, drc)

