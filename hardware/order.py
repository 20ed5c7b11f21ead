"""One order per board: ``make order BOARD=pico_gpio`` (or ``pico_15x15``) writes
build/order/<board>/ and build/order/<board>.zip, what a café hands to a board house and a
laser-cutting shop, and what it buys besides.

    python3 -m hardware.order pcbs pico_gpio          # Debian's python3 (pcbnew): the circuit
                                                      # boards' Gerbers, drill, BOM, placement
    .venv/bin/python -m hardware.order pico_gpio      # the parts list, pieces, DXF, the zip

The folder holds:

- ``pcb/<design>/``: each circuit board's Gerbers and drill file, its ``bom.csv`` (Comment,
  Designator, Footprint, Manufacturer, MPN: the columns board houses' assembly services ask
  for) and ``cpl.csv`` (Designator, Mid X, Mid Y, Layer, Rotation), for the parts placed on the
  board; ``pcbs.csv``: how many of each board, its size, layers and copper.
- ``parts.csv``: everything to buy, with quantities and, where ``design.UNIT_PRICE_EUR`` has
  one, the cost; ``pieces.csv``: every game's pieces.
- ``cut/``: the frame, baffle and tray as DXF; ``cut.csv``: what to cut from which material,
  with the glass and the diffuser.
"""

import csv
import io
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

from . import assembly, design

ROOT = Path(__file__).resolve().parent.parent
ORDER = ROOT / "build" / "order"
PCB_DIR = ROOT / "hardware" / "out" / "pcb"
SIZE_OF = {"pico": 9, "pico15": 15}


def board_size(board):
    if board not in design.BOARDS or design.BOARDS[board]["mcu"] not in SIZE_OF:
        raise SystemExit("make order: BOARD must be one of %s (a board with the Pico), not %r"
                         % (", ".join(b for b, s in design.BOARDS.items()
                                      if s["mcu"] in SIZE_OF), board))
    return SIZE_OF[design.BOARDS[board]["mcu"]]


def _csv(rows, columns):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    w.writerows(rows)
    return buf.getvalue()


# --- the circuit boards (pcbnew) -----------------------------------------------------------------
def write_pcbs(board, out):
    """Gerbers, drill, BOM and placement of every design the board uses; pcbs.json."""
    import pcbnew

    from . import pcb as tilepcb
    from .connectivity import UPPER, read_copper

    size = board_size(board)
    out = Path(out)
    counts = assembly.designs(size)
    info = {"size": size, "designs": {}}
    for name, qty in counts.items():
        path = PCB_DIR / ("%s.kicad_pcb" % name)
        d = out / "pcb" / name
        d.mkdir(parents=True, exist_ok=True)
        tilepcb.plot(path, d)
        tilepcb._strip_dates(d)
        loaded = pcbnew.LoadBoard(str(path))
        box = loaded.GetBoardEdgesBoundingBox()
        bom, cpl = {}, []
        for fp in loaded.GetFootprints():
            ref = fp.GetReference()
            lib = str(fp.GetFPID().GetUniStringLibId())
            if lib.startswith("XoBo:"):
                continue  # the pins' pads: no part is placed on them by the board house
            bom.setdefault((fp.GetValue(), lib), []).append(ref)
            pos = fp.GetPosition()
            cpl.append((ref, "%.3fmm" % pcbnew.ToMM(pos.x - box.GetX()),
                        "%.3fmm" % pcbnew.ToMM(box.GetBottom() - pos.y), "Top",
                        "%.0f" % (fp.GetOrientationDegrees() % 360)))
        rows = [(value, ",".join(sorted(refs, key=_ref_key)), lib.split(":")[-1]) + _maker(lib)
                for (value, lib), refs in sorted(bom.items())]
        (d / "bom.csv").write_text(_csv(rows, ["Comment", "Designator", "Footprint",
                                               "Manufacturer", "MPN"]))
        (d / "cpl.csv").write_text(_csv(sorted(cpl, key=lambda r: _ref_key(r[0])),
                                        ["Designator", "Mid X", "Mid Y", "Layer",
                                         "Rotation"]))
        pins = sum(1 for fp in loaded.GetFootprints()
                   if str(fp.GetFPID().GetUniStringLibId()).startswith("XoBo:"))
        errors, _, unconnected, _ = tilepcb.drc(path, d / "drc.rpt")
        info["designs"][name] = {
            "drc_errors": errors, "unconnected": unconnected,
            "quantity": qty, "mm": [round(pcbnew.ToMM(box.GetWidth()), 1),
                                    round(pcbnew.ToMM(box.GetHeight()), 1)],
            "copper_oz": 2 if size == 15 and name.startswith(("controller", "rail")) else 1,
            "upper": name.startswith(UPPER), "pin_pads": pins,
        }
    # the header pins: one per pad pair the planes share
    pairs = 0
    copper = {name: read_copper(PCB_DIR / ("%s.kicad_pcb" % name)) for name in counts}
    upper, lower = set(), set()
    for p in assembly.placements(size):
        cu = copper[p.design]
        plane = upper if p.design.startswith(UPPER) else lower
        for pad in cu.pads:
            if "B" in pad[6]:
                x, y = p.to_board(pad[2], pad[3])
                plane.add((round(x, 2), round(y, 2)))
    pairs = len(upper & lower)
    info["pins"] = pairs
    (out / "pcbs.json").write_text(json.dumps(info, indent=1) + "\n")
    return info


def _ref_key(ref):
    import re

    m = re.match(r"([A-Za-z_]+)(\d*)", ref)
    return (m.group(1), int(m.group(2) or 0)) if m else (ref, 0)


def _maker(lib):
    for _key, (_, _, footprint, maker, mpn, _) in design.PARTS.items():
        if footprint == lib:
            return (maker, mpn)
    return ("", "")


# --- the rest (ezdxf, the netlist's counts) ------------------------------------------------------
PIN_PART = ("Sullins", "PREC040SAAN-RC", "40-pin breakaway male header, 2.54 mm: broken into "
            "single pins, one through each pad pair of the two planes")


def parts_rows(board, info):
    """[(item, category, quantity, value, manufacturer, MPN, unit EUR, cost EUR, note)]: the
    circuit's parts counted from the netlist, the circuit boards, the header pins, the
    pieces, the mechanical parts."""
    from . import outputs

    size = board_size(board)
    which = "15x15" if size == 15 else "9x9"
    price = design.UNIT_PRICE_EUR
    rows = []
    for row in outputs.bom_rows(which):
        if row["category"] in ("Controller board", "Wire") or row["item"] in (
                "smd_adapter", "smd_adapter_soic", "smd_adapter_soic8"):
            continue  # the controller is a circuit board now and no wire is cut by hand
        unit = price.get(row["item"])
        rows.append((row["item"], row["category"], int(row["quantity"]), row["value"],
                     row["manufacturer"], row["mpn"], unit,
                     round(unit * int(row["quantity"]), 2) if unit is not None else None,
                     row["note"]))
    for name, d in sorted(info["designs"].items()):
        unit = price.get({"tile": "tile_pcb", "strip": "strip_pcb"}.get(name, ""))
        rows.append(("pcb_" + name, "Circuit board", d["quantity"],
                     "%s, %g x %g mm, 2 layers, %d oz" % (name, d["mm"][0], d["mm"][1],
                                                          d["copper_oz"]),
                     "board house", "pcb/%s/" % name, unit,
                     round(unit * d["quantity"], 2) if unit is not None else None,
                     "Gerbers, drill, bom.csv, cpl.csv in pcb/%s/" % name))
    headers = -(-info["pins"] // 40)
    unit = round(40 * price["header_pin"], 2)
    rows.append(("header_pins", "Connector", headers, "40-pin breakaway male header 2.54 mm",
                 PIN_PART[0], PIN_PART[1], unit, round(unit * headers, 2),
                 "%d pins: %s" % (info["pins"], PIN_PART[2])))
    return rows


def write_rest(board, out):
    from . import mechanical, pieces

    size = board_size(board)
    out = Path(out)
    info = json.loads((out / "pcbs.json").read_text())
    rows = parts_rows(board, info)
    (out / "parts.csv").write_text(_csv(
        [tuple("" if v is None else v for v in r) for r in rows],
        ["item", "category", "quantity", "value", "manufacturer", "mpn", "unit_eur",
         "cost_eur", "note"]))
    priced = sum(r[7] for r in rows if r[7] is not None)
    (out / "pcbs.csv").write_text(_csv(
        [(n, d["quantity"], "%g x %g" % tuple(d["mm"]), 2, d["copper_oz"],
          "upper" if d["upper"] else "lower") for n, d in sorted(info["designs"].items())],
        ["design", "quantity", "mm", "layers", "copper_oz", "plane"]))
    which = "15x15" if size == 15 else "9x9"
    stock = pieces.stock(which)
    (out / "pieces.csv").write_text(_csv(
        [(k["count"], k["shape"], pieces.colour_name(k["rgb"]) if k["rgb"] else "natural wood",
          "; ".join(k["games"])) for k in stock],
        ["quantity", "shape", "colour", "for"]))
    cut = mechanical.write(size, out / "cut")
    (out / "cut.csv").write_text(_csv(
        [(f, what, q, dims, mechanical.MATERIAL) for f, what, q, dims in cut]
        + [("", what, 1, dims, material) for what, material, dims in mechanical.sheets(size)
           if what != "frame, baffle, tray"],
        ["file", "what", "quantity", "size", "material"]))
    (out / "README.txt").write_text(
        "XoBo board %s (%dx%d): the order.\n\n"
        "pcb/: one folder per circuit board (Gerbers, drill, bom.csv, cpl.csv); pcbs.csv: how "
        "many of each.\nparts.csv: every part with its quantity; cost where priced (%.2f EUR "
        "for the priced rows).\npieces.csv: the pieces of every game the board hosts.\n"
        "cut/ and cut.csv: the frame, baffle and tray for the laser cutter, the glass and the "
        "diffuser.\nAssembly: hardware/BUILD.md.\n" % (board, size, size, priced)
        + "".join("\nNOT READY TO ORDER: %s fails KiCad's design-rule check (%d errors, %d "
                  "unconnected items: pcb/%s/drc.rpt).\n" % (n, d["drc_errors"],
                                                             d["unconnected"], n)
                  for n, d in sorted(info["designs"].items())
                  if d["drc_errors"] or d["unconnected"]))
    zpath = out.parent / ("%s.zip" % board)
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(out.rglob("*")):
            if path.is_file():
                z.write(path, Path(board) / path.relative_to(out))
    return zpath


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "pcbs":
        board = argv[1]
        out = ORDER / board
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        info = write_pcbs(board, out)
        print("%s: %d circuit boards of %d designs, %d header pins" % (
            board, sum(d["quantity"] for d in info["designs"].values()),
            len(info["designs"]), info["pins"]))
        return 0
    board = argv[0]
    zpath = write_rest(board, ORDER / board)
    print("wrote %s and %s" % (ORDER / board, zpath))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("KICAD_NO_GUI", "1")
    sys.exit(main())
