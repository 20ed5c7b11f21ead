"""Proof that a board, as assembled from the circuit boards one orders, is its schematic.

Reads the copper of every generated board (hardware/out/pcb/*.kicad_pcb) with KiCad's
``pcbnew``, places each where the assembly puts it (hardware/assembly.py: which tile where,
turned or not, which link joins what), joins the pads a header pin goes through, and compares
the nets this makes with the skidl netlist of that board size: every net the same, no short, no
open, every part placed. Run by Debian's python3 from the repository root::

    python3 -m hardware.connectivity 9      # or 15; exit 1 with the differences

**What a board's copper joins** is read from the copper itself, not from the nets KiCad writes
on the pads: two items are joined where a track's end lies on a pad, a via or another track of
the same layer (a via and a through-hole pad are on both layers). Copper of two nets that
touches elsewhere is a short KiCad's design-rule check reports (``make pcb``, the tests).

**The parts** on a tile or a strip are the netlist's parts of the cells or edge LEDs it stands
for where it is placed (a tile's own cell (f, r), turned or not, is a cell of the board); on the
rails and the controller they carry the netlist's references.
"""

import math
import os
import sys
from pathlib import Path

from . import assembly, design
from . import pcb as tilepcb
from .netlist import Netlist

ROOT = Path(__file__).resolve().parent.parent
PCB_DIR = ROOT / "hardware" / "out" / "pcb"
NETLISTS = {9: ROOT / "hardware" / "out" / "xobo_board.net",
            15: ROOT / "hardware" / "out" / "xobo_board_15x15.net"}
UPPER = ("tile", "strip", "link_sw")  # the designs in the upper plane (hardware.assembly)
SAME = 0.01  # mm: two pads this close are the same place (a pin goes through both)


class Union:
    def __init__(self):
        self.parent = {}

    def find(self, a):
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


# --- one design's copper ----------------------------------------------------------------------
class Copper:
    """A design's pads and which of them its copper joins: ``pads`` [(ref, number, x, y,
    radius, through)], ``group[k]`` the group of pad k."""

    def __init__(self, pads, group):
        self.pads = pads
        self.group = group


def read_copper(path):
    """The pads of a .kicad_pcb and the groups its tracks and vias join them into."""
    import pcbnew

    board = pcbnew.LoadBoard(str(path))
    mm = pcbnew.ToMM
    pads = []
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            pos = pad.GetPosition()
            size = pad.GetSize()
            through = pad.GetAttribute() == pcbnew.PAD_ATTRIB_PTH
            layers = ("F", "B") if through else ("F",)
            pads.append((fp.GetReference(), pad.GetNumber(), round(mm(pos.x), 4),
                         round(mm(pos.y), 4), mm(min(size.x, size.y)) / 2,
                         mm(max(size.x, size.y)) / 2, layers,
                         pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE,
                         pad.GetOrientationDegrees() + (90 if size.y > size.x else 0)))
    tracks, vias = [], []
    for t in board.GetTracks():
        if t.GetClass() == "PCB_VIA":
            p = t.GetPosition()
            vias.append((round(mm(p.x), 4), round(mm(p.y), 4), mm(t.GetWidth()) / 2))
        else:
            a, b = t.GetStart(), t.GetEnd()
            layer = "F" if t.GetLayer() == pcbnew.F_Cu else "B"
            tracks.append(((round(mm(a.x), 4), round(mm(a.y), 4)),
                           (round(mm(b.x), 4), round(mm(b.y), 4)), mm(t.GetWidth()) / 2,
                           layer))
    return join_copper(pads, tracks, vias)


def _point_segment(p, a, b):
    vx, vy = b[0] - a[0], b[1] - a[1]
    length2 = vx * vx + vy * vy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy)
                                             / length2))
    return math.hypot(p[0] - (a[0] + t * vx), p[1] - (a[1] + t * vy))


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segment_distance(a, b, c, d):
    """Between the segments ab and cd (0 where they cross)."""
    if a != b and c != d:
        d1, d2 = _cross(c, d, a), _cross(c, d, b)
        d3, d4 = _cross(a, b, c), _cross(a, b, d)
        if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
            return 0.0
    return min(_point_segment(a, c, d), _point_segment(b, c, d), _point_segment(c, a, b),
               _point_segment(d, a, b))


def join_copper(pads, tracks, vias):
    """Union of the pads, tracks and vias whose copper touches on a layer they share. Each
    item is a capsule (a segment and a radius): a track; a round pad or a via (a point); a
    rectangular pad (its long axis, its short half side: inside the rectangle)."""
    u = Union()
    shapes = []
    for k, (_, _, x, y, small, large, layers, circle, angle) in enumerate(pads):
        if circle or large - small < 1e-6:
            a = b = (x, y)
        else:
            ext = large - small
            horizontal = round(angle) % 180 == 0
            a = (x - ext, y) if horizontal else (x, y - ext)
            b = (x + ext, y) if horizontal else (x, y + ext)
        shapes.append((("pad", k), layers, a, b, small))
    for k, (x, y, r) in enumerate(vias):
        shapes.append((("via", k), ("F", "B"), (x, y), (x, y), r))
    for k, (a, b, half, layer) in enumerate(tracks):
        shapes.append((("track", k), (layer,), a, b, half))
    buckets = {}
    for n, (_, _, a, b, r) in enumerate(shapes):
        for i in range(int(math.floor((min(a[0], b[0]) - r) / 5)),
                       int(math.floor((max(a[0], b[0]) + r) / 5)) + 1):
            for j in range(int(math.floor((min(a[1], b[1]) - r) / 5)),
                           int(math.floor((max(a[1], b[1]) + r) / 5)) + 1):
                buckets.setdefault((i, j), []).append(n)
    seen = set()
    for members in buckets.values():
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                m, n = members[x], members[y]
                if (m, n) in seen:
                    continue
                seen.add((m, n))
                ka, la, aa, ab, ra = shapes[m]
                kb, lb, ba, bb, rb = shapes[n]
                if ka[0] == "pad" and kb[0] == "pad":
                    continue  # pads of one part touch only through copper drawn between them
                if not set(la) & set(lb):
                    continue
                if segment_distance(aa, ab, ba, bb) <= ra + rb + 1e-6:
                    u.join(ka, kb)
    group = [u.find(("pad", k)) for k in range(len(pads))]
    return Copper(pads, group)


# --- the whole board ---------------------------------------------------------------------------
def netlist_refs(size, nl9, placement):
    """{design's ref: netlist ref} of a placed tile or strip (the rails' and the controller's
    parts carry the netlist's references; the pins carry none)."""
    role = placement.role
    out = {}
    if role["kind"] == "tile":
        chain = design._serpentine(size)
        for (f, r), parts in tilepcb.tile_parts(nl9).items():
            bf, br = assembly.tile_cell(role, f, r)
            cell = br * size + bf
            out[parts["reed"]] = "RS%d" % (cell + 1)
            out[parts["diode"]] = "D%d" % (cell + 1)
            out[parts["led"]] = "LED%d" % (chain[cell] + 1)
            out[parts["cap"]] = "C%d" % (chain[cell] + 3)
    elif role["kind"] == "strip":
        chain = assembly.strip_chain(size, role)
        for k, parts in enumerate(tilepcb.strip_parts(nl9)):
            out[parts["led"]] = "LED%d" % (chain[k] + 1)
            out[parts["cap"]] = "C%d" % (chain[k] + 3)
    return out


def check(size, placements=None, copper=None, pcb_dir=PCB_DIR):
    """Compare the assembled board with the netlist: a report dict (``ok``, ``nets`` matched,
    ``opens``, ``shorts``, ``misfits``, ``missing``)."""
    nl = Netlist.parse(NETLISTS[size].read_text())
    nl9 = nl if size == 9 else Netlist.parse(NETLISTS[9].read_text())
    placements = placements if placements is not None else assembly.placements(size)
    copper = dict(copper or {})
    for p in placements:
        if p.design not in copper:
            path = Path(pcb_dir) / ("%s.kicad_pcb" % p.design)
            if not path.exists():
                raise FileNotFoundError("%s: not generated (python3 -m hardware.boards)" % path)
            copper[p.design] = read_copper(path)
    u = Union()
    upper, lower = [], []
    pin_root = {}  # netlist (ref, pin) -> a node
    placed = {}
    for k, p in enumerate(placements):
        cu = copper[p.design]
        refs = netlist_refs(size, nl9, p)
        plane = upper if p.design.startswith(UPPER) else lower
        for n, pad in enumerate(cu.pads):
            node = (k, cu.group[n])
            u.find(node)
            x, y = p.to_board(pad[2], pad[3])
            if "F" in pad[6] and "B" in pad[6]:
                plane.append((x, y, pad[5], node, p.design, pad[0]))
            ref = refs.get(pad[0], pad[0])
            if ref in nl.comps:
                if (ref, pad[1]) in pin_root and placed.get(ref) != k:
                    raise ValueError("%s is on two boards (%s)" % (ref, p.design))
                placed[ref] = k
                pin_root.setdefault((ref, pad[1]), node)
                u.join(pin_root[(ref, pad[1])], node)  # a part's pads of one number
    # the pins between the planes
    misfits = []
    cells = {}
    for item in lower:
        cells.setdefault((int(item[0] // 3), int(item[1] // 3)), []).append(item)
    for x, y, r, node, name, ref in upper:
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                for lx, ly, lr, lnode, lname, lref in cells.get((int(x // 3) + i,
                                                                int(y // 3) + j), ()):
                    d = math.hypot(x - lx, y - ly)
                    if d <= SAME:
                        u.join(node, lnode)
                    elif d < r + lr:
                        misfits.append("%s %s at (%.2f, %.2f) half over %s %s at (%.2f, %.2f)"
                                       % (name, ref, x, y, lname, lref, lx, ly))
    # compare
    missing = sorted({ref for ref, _ in nl.pin_net} - set(placed))
    by_root = {}
    for (ref, pin), node in pin_root.items():
        by_root.setdefault(u.find(node), set()).add((ref, pin))
    opens, shorts = [], []
    matched = 0
    for net, nodes in sorted(nl.nets.items()):
        roots = {u.find(pin_root[n]) for n in nodes if n in pin_root}
        if len(roots) > 1:
            opens.append("%s is in %d pieces" % (net, len(roots)))
        elif len(roots) == 1:
            matched += 1
    for _root, nodes in by_root.items():
        nets = {nl.pin_net.get(n, "(unconnected %s.%s)" % n) for n in nodes}
        if len(nets) > 1:
            shorts.append(" + ".join(sorted(nets)[:4]) + (" ..." if len(nets) > 4 else ""))
    return {"size": size, "ok": not (opens or shorts or misfits or missing),
            "nets": matched, "netlist_nets": len(nl.nets), "opens": opens,
            "shorts": sorted(shorts), "misfits": misfits, "missing": missing,
            "boards": len(placements)}


def main(argv=None):
    import json

    argv = sys.argv[1:] if argv is None else argv
    sizes = [int(a) for a in argv] or [9, 15]
    bad = False
    for size in sizes:
        report = check(size)
        print(json.dumps({k: (v[:10] if isinstance(v, list) else v) for k, v in report.items()}))
        bad |= not report["ok"]
    return 1 if bad else 0


if __name__ == "__main__":
    os.environ.setdefault("KICAD_NO_GUI", "1")
    sys.exit(main())
