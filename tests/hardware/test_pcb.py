"""The cell tile (hardware/pcb.py): its parts are the skidl netlist's, its turned rows keep the
boards' serpentine LED chain, and KiCad's design-rule check passes with no error and nothing
unconnected (run by Debian's python3, which has pcbnew; skipped where KiCad is missing)."""

import json
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from .conftest import OUT_DIR, ROOT
from .pcbkit import DEBIAN_PYTHON, has_pcbnew


def test_tile_cells_are_a1_c3_of_the_netlist_with_their_own_led_and_capacitor(netlist):
    from .conftest import load_hardware

    pcb = load_hardware("pcb")
    parts = pcb.tile_parts(netlist)
    assert len(parts) == 9
    assert parts[(0, 0)] == {"reed": "RS1", "diode": "D1", "led": "LED1", "cap": "C3"}
    for (f, r), p in parts.items():
        cell = "abc"[f] + str(r + 1)
        assert netlist.comps[p["led"]]["fields"]["Cell"] == cell
        assert netlist.net_of(p["cap"], "1") == "+5V" == netlist.net_of(p["led"], "1")


@pytest.mark.parametrize("size", [9, 15])
def test_turning_every_second_row_of_tiles_gives_the_boards_serpentine_chain(design, size):
    from .conftest import load_hardware

    pcb = load_hardware("pcb")
    assert size % pcb.CELLS == 0
    chain = design._serpentine(size)
    for rank in range(size):
        tile_row, local = divmod(rank, pcb.CELLS)
        turned = tile_row % 2 == 1
        # a turned tile's rank `local` (from the South) is its own rank CELLS-1-local, reversed
        own = pcb.CELLS - 1 - local if turned else local
        east = pcb.west_to_east(own) != turned
        runs_east = chain[rank * size + 1] > chain[rank * size]
        assert east == runs_east, rank


@pytest.mark.skipif(not has_pcbnew(), reason="KiCad's pcbnew is not installed (apt-get install "
                    "kicad; make test installs it when run as root)")
def test_tile_passes_kicads_drc_with_nothing_unconnected_and_its_committed_files_are_current():
    run = subprocess.run([DEBIAN_PYTHON, "-m", "hardware.pcb", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["drc_errors"] == 0, run.stderr
    assert summary["unconnected"] == 0, run.stderr
    assert summary["strip_drc_errors"] == 0 and summary["strip_unconnected"] == 0, run.stderr
    assert summary["strip_leds"] == 3 and summary["strip_mm"] == [120, 14]
    assert summary["stale_pictures"] == [], run.stderr
    assert summary["stale_gerbers"] == [], run.stderr
    assert summary["cells"] == 9 and summary["tile_mm"] == 120
    assert {"tile-F_Cu.gbr", "tile-B_Cu.gbr", "tile-Edge_Cuts.gbr", "strip-F_Cu.gbr",
            "strip-B_Cu.gbr", "strip-Edge_Cuts.gbr"} <= set(summary["gerbers"])
    assert run.returncode == 0


BROKEN_TILE = """
import json, sys, tempfile
from pathlib import Path
from hardware import pcb
from hardware.netlist import Netlist
import pcbnew
tile = pcb.build(Netlist.parse(pcb.NETLIST.read_text()))
# cut the first row line and move one via onto a column: an open and a short
tracks = [t for t in tile.board.GetTracks() if t.GetNetname() == "ROW_R0"]
tile.board.Remove(tracks[0])
via = next(t for t in tile.board.GetTracks() if t.GetClass() == "PCB_VIA")
col = next(t for t in tile.board.GetTracks() if t.GetNetname() == "COL_F0" and
           t.GetLayer() == pcbnew.B_Cu and t.GetLength() > pcbnew.FromMM(50))
via.SetPosition(col.GetStart() + pcbnew.wxPoint(0, pcbnew.FromMM(20)))
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "broken.kicad_pcb"
    pcbnew.SaveBoard(str(path), tile.board)
    errors, warnings, unconnected, _ = pcb.drc(path, Path(tmp) / "drc.rpt")
print(json.dumps([errors, unconnected]))
"""


@pytest.mark.skipif(not has_pcbnew(), reason="KiCad's pcbnew is not installed")
def test_the_drc_catches_a_cut_row_line_and_a_shorted_via():
    run = subprocess.run([DEBIAN_PYTHON, "-c", BROKEN_TILE], cwd=ROOT, capture_output=True,
                         text=True)
    errors, unconnected = json.loads(run.stdout.strip().splitlines()[-1])
    assert unconnected > 0 and errors > 0, run.stderr


def test_the_committed_gerbers_hold_every_layer_a_board_house_needs():
    names = {p.name for p in (OUT_DIR / "pcb_gerbers").iterdir()}
    assert {"tile-F_Cu.gbr", "tile-B_Cu.gbr", "tile-F_Mask.gbr", "tile-B_Mask.gbr",
            "tile-F_Silkscreen.gbr", "tile-Edge_Cuts.gbr", "tile-PTH.drl", "tile-F_Paste.gbr",
            "tile-top-pos.csv"} <= names
    placed = (OUT_DIR / "pcb_gerbers" / "tile-top-pos.csv").read_text().splitlines()[1:]
    assert len(placed) == 18  # the 9 LEDs and their 9 capacitors
    for layer in ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Silkscreen", "Edge_Cuts", "F_Paste"):
        assert "strip-%s.gbr" % layer in names
    assert "strip-PTH.drl" in names
    placed = (OUT_DIR / "pcb_gerbers" / "strip-top-pos.csv").read_text().splitlines()[1:]
    assert len(placed) == 6  # the edge strip's 3 LEDs and 3 capacitors
    total = sum((OUT_DIR / "pcb_gerbers" / n).stat().st_size for n in names)
    assert total < 200_000  # small enough to commit


def test_build_guide_shows_a_picture_of_each_layer():
    guide = (ROOT / "hardware" / "BUILD.md").read_text()
    gerbers = {p.name for p in (OUT_DIR / "pcb_gerbers").glob("tile-*.gbr")}
    layers = {"F_Cu": "front_copper", "B_Cu": "back_copper", "F_Silkscreen": "silkscreen",
              "F_Mask": "front_mask", "B_Mask": "back_mask", "F_Paste": "front_paste"}
    # every Gerber but the outline, which every picture draws, has its picture
    assert {"tile-%s.gbr" % g for g in layers} | {"tile-Edge_Cuts.gbr"} == gerbers
    for layer in layers.values():
        picture = OUT_DIR / ("pcb_tile_%s.svg" % layer)
        root = ET.parse(picture).getroot()  # well-formed: a browser shows it
        assert root.get("width") == "124mm"  # cropped to the tile (and 2 mm round it)
        assert "out/pcb_tile_%s.svg" % layer in guide


@pytest.mark.parametrize("size", [9, 15])
def test_data_turns_alternate_edges_and_pass_other_pads(size):
    """The data turns at the ranks' ends (copper on the controller and the East rail, proved
    by tests/hardware/test_boards.py) run past other pads: no straight link could take them."""
    from .conftest import load_hardware

    pcb = load_hardware("pcb")
    turns = pcb.data_turns(size)
    assert len(turns) == size - 1 == pcb.board_counts(size)["turns"]
    # the serpentine: rank 1 turns at the East edge, rank 2 at the West, and so on
    assert [edge for _, edge, *_ in turns] == ["E" if r % 2 else "W" for r in range(1, size)]
    spans = [abs(b - a) for _, _, a, b, _ in turns]
    assert all(between > 0 for *_, between in turns)
    words = re.search(r"(\d+) to\s+(\d+)\s+mm away", pcb.__doc__)
    assert (int(words.group(1)), int(words.group(2))) == (min(spans), max(spans))


def test_edge_strip_parts_are_the_netlists_first_edge_leds_and_it_is_in_the_guide(netlist):
    from .conftest import load_hardware

    pcb = load_hardware("pcb")
    parts = pcb.strip_parts(netlist)
    assert [netlist.comps[p["led"]]["fields"]["Cell"] for p in parts] == ["N-i", "N-h", "N-g"]
    for p in parts:
        assert netlist.net_of(p["cap"], "1") == "+5V" == netlist.net_of(p["led"], "1")
    guide = (ROOT / "hardware" / "BUILD.md").read_text()
    for layer in ("front_copper", "back_copper", "silkscreen"):
        root = ET.parse(OUT_DIR / ("pcb_strip_%s.svg" % layer)).getroot()
        assert root.get("width") == "124mm" and root.get("height") == "18mm"
        assert "out/pcb_strip_%s.svg" % layer in guide


@pytest.mark.parametrize("size", [9, 15])
def test_edge_strips_hold_one_led_beside_every_file_and_rank(design, size):
    from .conftest import load_hardware

    pcb = load_hardware("pcb")
    c = pcb.strip_counts(size)
    assert c["strips"] * pcb.CELLS == 4 * size  # design: one edge LED per file / rank
    assert c["links"] == 3 * (c["strips"] - 4)  # data, +5V, GND at each join along an edge
