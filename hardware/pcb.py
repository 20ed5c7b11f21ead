"""The cell tile: a circuit board of 3 x 3 cells (reed switch, diode, WS2812B and its 100 nF under
each), and the edge strip (3 of the side-to-move LEDs), generated from the skidl netlist with
KiCad's own ``pcbnew`` module, design-rule checked, plotted to Gerber, drill and layer pictures.

Run by Debian's python3, which has ``pcbnew`` (``apt-get install kicad``), from the repository
root::

    python3 -m hardware.pcb                 # build/pcb/: tile.kicad_pcb, DRC report, gerbers and
                                            # drill (tile-gerbers.zip for the board house)
    python3 -m hardware.pcb --pictures      # and the committed copies in hardware/out/: the
                                            # layer pictures (pcb_tile_*.svg) and pcb_gerbers/
    python3 -m hardware.pcb --check         # build in a temp dir; exit 1 on a DRC error or a
                                            # committed copy that is stale

**Why tiles.** A 9 x 9 board is 360 mm square, the 15 x 15 600 mm: one panel that size costs
many times a small board, few makers take it, and one bad joint spoils the whole thing. A 120 mm
tile of 3 x 3 cells is the same part for both boards (9 tiles for the 9 x 9, 25 for the 15 x 15),
is made in any quantity by any board house, is tested on the bench before it goes in, and a
broken one is swapped. Tiles butt together edge to edge; neighbours are joined by link boards
under the seams (hardware/boards.py), a header pin through each edge pad and the link's pad
under it: rows, the LED data of each rank, +5V and GND across the West and East edges, the
columns across the North and South edges.

**The LED chain stays the boards' serpentine.** Ranks 1 and 3 of a tile run West to East, rank 2
East to West; the tiles of every second row of tiles are turned by 180 degrees, which makes their
ranks run East, West, East from the top down: the whole board's chain runs rank 1 East, rank 2
West, and so on, as ``design.CHAIN_OF_CELL`` says. At the ends of the ranks (the board's West and
East edges) the controller and the East rail join one rank's data-out pad to the next rank's
data-in pad, 20 to 60 mm away along the edge, in copper that passes the row and supply pads in
between. The columns leave a tile at the middle of each cell, so a turned tile meets its
neighbours' columns.

The tile's parts and nets are those of cells a1-c3 in ``hardware/out/xobo_board.net`` (the skidl
netlist): each pad gets the tile net that stands for its netlist net, and the build fails if one
tile net would join two netlist nets.
"""

import json
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path

from . import design
from .netlist import Netlist

ROOT = Path(__file__).resolve().parent.parent
NETLIST = ROOT / "hardware" / "out" / "xobo_board.net"
BUILD = ROOT / "build" / "pcb"
PICTURES = ROOT / "hardware" / "out"
GERBERS = PICTURES / "pcb_gerbers"  # the committed copy: a café orders without KiCad

CELLS = 3  # a tile is CELLS x CELLS cells
PITCH = design.CELL_PITCH_MM
SIDE = CELLS * PITCH
SIGNAL_MM = 0.3
POWER_MM = 1.0
EDGE_PAD_MM = 1.5  # edge pads' centres, this far in from the tile's edge

# --- one cell, in mm from the cell's centre, y downwards (North up): see the module docstring ---
LED_AT = (0.0, -10.0)
REED_PADS = ((0.0, 0.0), (5.08, 0.0))  # pin 1 (column), pin 2 (to the diode's anode)
DIODE_PADS = ((5.08, 12.0), (5.08, 4.38))  # pin 1 cathode on the row line, pin 2 anode
ROW_Y = 12.0
COL_X = -12.0
TOP_BUS_Y = -16.0  # GND in a West-to-East rank, +5V in an East-to-West one
LOW_BUS_Y = -4.0  # the other supply
DATA_Y = -10.0  # where the data line crosses between cells
CAP_AT = (7.0, -6.0)  # the LED's 100 nF, upright: pin on the low bus, pin to a via
CAP_VIA = (9.5, -6.775)
STRAP_X = {"+5V": 15.0, "GND": -16.0}  # B.Cu straps joining the ranks' buses

# WS2812B (KiCad LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm): pad -> offset at rotation 0
LED_PADS = {"1": (-2.45, -1.6), "2": (-2.45, 1.6), "3": (2.45, 1.6), "4": (2.45, -1.6)}


def mm(v):
    import pcbnew

    return pcbnew.FromMM(v)


def point(x, y):
    import pcbnew

    return pcbnew.wxPoint(mm(x), mm(y))


def west_to_east(rank):
    """Ranks 0 and 2 of a tile run West to East, rank 1 East to West (module docstring)."""
    return rank % 2 == 0


def cell_centre(f, r):
    """Tile coordinates (mm, y down) of cell (file f, rank r) of the tile, rank 0 at the South."""
    return PITCH / 2 + f * PITCH, SIDE - (PITCH / 2 + r * PITCH)


# --- the netlist's parts of the tile's cells ----------------------------------------------------
def tile_parts(nl):
    """{(f, r): {"reed", "diode", "led", "cap": ref}} of cells a1-c3 of the 9x9 netlist."""
    out = {}
    for r in range(CELLS):
        for f in range(CELLS):
            cell = r * design.SIZE + f
            chain = design.CHAIN_OF_CELL[cell]
            parts = {"reed": "RS%d" % (cell + 1), "diode": "D%d" % (cell + 1),
                     "led": "LED%d" % (chain + 1), "cap": "C%d" % (chain + 3)}
            name = design.cell_name(cell)
            if nl.comps[parts["reed"]]["fields"].get("Cell") != name or \
                    nl.comps[parts["led"]]["fields"].get("Cell") != name:
                raise ValueError("netlist: the parts of cell %s are not where design.py puts "
                                 "them" % name)
            out[(f, r)] = parts
    return out


class Tile:
    """The board being built: nets by name, and the record of which netlist net each tile net
    stands for."""

    def __init__(self, nl):
        import pcbnew

        self.nl = nl
        self.board = pcbnew.BOARD()
        self.nets = {}
        self.stands_for = {}  # tile net -> {netlist nets}
        self.pads = 0
        self.tracks = 0
        self.vias = 0
        ds = self.board.GetDesignSettings()
        ds.SetCopperLayerCount(2)

    def net(self, name):
        import pcbnew

        if name not in self.nets:
            n = pcbnew.NETINFO_ITEM(self.board, name)
            self.board.Add(n)
            self.nets[name] = n
        return self.nets[name]

    def bind(self, tile_net, ref, pin):
        """The pad (ref, pin) is on ``tile_net``: remember the netlist net it carries."""
        nl_net = self.nl.net_of(ref, pin)
        if nl_net is None:
            raise ValueError("netlist: %s pin %s is on no net" % (ref, pin))
        self.stands_for.setdefault(tile_net, set()).add(nl_net)
        return self.net(tile_net)

    # ---------------------------------------------------------------- footprints
    def footprint(self, ref, value, lib, at, angle=0.0):
        import pcbnew

        fp = pcbnew.FOOTPRINT(self.board)
        if lib.startswith(("LED_SMD", "Capacitor_SMD")):
            fp.SetAttributes(pcbnew.FP_SMD)  # in the assembly service's position file
        elif lib.startswith("XoBo:EdgePad"):
            fp.SetAttributes(pcbnew.FP_EXCLUDE_FROM_POS_FILES | pcbnew.FP_EXCLUDE_FROM_BOM)
        else:
            fp.SetAttributes(pcbnew.FP_THROUGH_HOLE)
        fp.SetReference(ref)
        fp.SetValue(value)
        fp.SetFPID(pcbnew.LIB_ID(*lib.split(":", 1)))
        fp.Reference().SetVisible(False)
        fp.Value().SetVisible(False)
        self.board.Add(fp)
        fp.SetPosition(point(*at))
        if angle:
            fp.SetOrientationDegrees(angle)
        return fp

    def pad(self, fp, number, at, net, smd=None, drill=None, size=None):
        """A pad at absolute tile position ``at`` (mm): through-hole (``drill``) or SMD."""
        import pcbnew

        p = pcbnew.PAD(fp)
        p.SetNumber(number)
        if drill:
            p.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
            p.SetShape(pcbnew.PAD_SHAPE_CIRCLE if number != "1" else pcbnew.PAD_SHAPE_RECT)
            p.SetLayerSet(p.PTHMask())
            p.SetDrillSize(pcbnew.wxSize(mm(drill), mm(drill)))
            p.SetSize(pcbnew.wxSize(mm(size), mm(size)))
        else:
            p.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            p.SetShape(pcbnew.PAD_SHAPE_RECT)
            p.SetLayerSet(p.SMDMask())
            p.SetSize(pcbnew.wxSize(mm(smd[0]), mm(smd[1])))
        fp.Add(p)
        # the pad's place in the footprint (pos0: unrotated, from its origin), so that the file
        # KiCad writes puts it where ``at`` says whatever the footprint's rotation
        import math

        fx, fy = pcbnew.ToMM(fp.GetPosition().x), pcbnew.ToMM(fp.GetPosition().y)
        a = math.radians(fp.GetOrientationDegrees())
        dx, dy = at[0] - fx, at[1] - fy
        # KiCad rotates clockwise on screen (y down) for a positive angle: undo it
        rx = dx * math.cos(a) - dy * math.sin(a)
        ry = dx * math.sin(a) + dy * math.cos(a)
        p.SetPos0(point(rx, ry))
        p.SetOrientation(fp.GetOrientation())
        p.SetPosition(point(*at))
        p.SetNet(net)
        self.pads += 1
        return p

    # ---------------------------------------------------------------- copper
    def track(self, points, net, width=SIGNAL_MM, layer="F"):
        import pcbnew

        lay = pcbnew.F_Cu if layer == "F" else pcbnew.B_Cu
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
            t = pcbnew.PCB_TRACK(self.board)
            t.SetStart(point(x1, y1))
            t.SetEnd(point(x2, y2))
            t.SetWidth(mm(width))
            t.SetLayer(lay)
            t.SetNet(self.net(net))
            self.board.Add(t)
            self.tracks += 1

    def via(self, at, net):
        import pcbnew

        v = pcbnew.PCB_VIA(self.board)
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetPosition(point(*at))
        v.SetWidth(mm(0.8))
        v.SetDrill(mm(0.4))
        v.SetNet(self.net(net))
        self.board.Add(v)
        self.vias += 1

    def outline(self, corners=None):
        import pcbnew

        corners = corners or [(0, 0), (SIDE, 0), (SIDE, SIDE), (0, SIDE), (0, 0)]
        for (x1, y1), (x2, y2) in zip(corners, corners[1:], strict=False):
            s = pcbnew.PCB_SHAPE(self.board)
            s.SetShape(pcbnew.SHAPE_T_SEGMENT)
            s.SetLayer(pcbnew.Edge_Cuts)
            s.SetStart(point(x1, y1))
            s.SetEnd(point(x2, y2))
            s.SetWidth(mm(0.1))
            self.board.Add(s)

    def silk_dot(self, fp, at, radius=0.4):
        """A filled dot on the front silkscreen (pin 1 of a LED, the cathode of a diode)."""
        import pcbnew

        c = pcbnew.FP_SHAPE(fp)
        c.SetShape(pcbnew.SHAPE_T_CIRCLE)
        c.SetLayer(pcbnew.F_SilkS)
        c.SetFilled(True)
        c.SetWidth(mm(0.1))
        c.SetStart(point(*at))
        c.SetEnd(point(at[0] + radius, at[1]))
        c.SetLocalCoord()
        fp.Add(c)

    def silk_line(self, a, b):
        """A front silkscreen line (a part's outline) in tile coordinates."""
        import pcbnew

        line = pcbnew.PCB_SHAPE(self.board)
        line.SetShape(pcbnew.SHAPE_T_SEGMENT)
        line.SetLayer(pcbnew.F_SilkS)
        line.SetStart(point(*a))
        line.SetEnd(point(*b))
        line.SetWidth(mm(0.12))
        self.board.Add(line)

    def silk_circle(self, centre, radius):
        import pcbnew

        c = pcbnew.PCB_SHAPE(self.board)
        c.SetShape(pcbnew.SHAPE_T_CIRCLE)
        c.SetLayer(pcbnew.F_SilkS)
        c.SetStart(point(*centre))
        c.SetEnd(point(centre[0] + radius, centre[1]))
        c.SetWidth(mm(0.12))
        self.board.Add(c)

    def text(self, words, at, size=2.0):
        import pcbnew

        t = pcbnew.PCB_TEXT(self.board)
        t.SetText(words)
        t.SetPosition(point(*at))
        t.SetTextSize(pcbnew.wxSize(mm(size), mm(size)))
        t.SetTextThickness(mm(size / 8))
        t.SetLayer(pcbnew.F_SilkS)
        self.board.Add(t)


def _rank_nets(r):
    """(top bus, low bus) supply nets of tile rank r."""
    return ("GND", "+5V") if west_to_east(r) else ("+5V", "GND")


def build(nl):
    """The tile, built on a fresh pcbnew BOARD: parts, copper, edge pads, outline."""
    tile = Tile(nl)
    parts = tile_parts(nl)
    edge_pad = {"size": 1.7, "drill": 1.0}
    lo, hi = EDGE_PAD_MM, SIDE - EDGE_PAD_MM
    for r in range(CELLS):
        wte = west_to_east(r)
        top_net, low_net = _rank_nets(r)
        _, cy = cell_centre(0, r)
        # the rank's lines across the whole tile: row, both buses, with their edge pads
        row = "ROW_R%d" % r
        for name, y, width in ((row, cy + ROW_Y, SIGNAL_MM), (top_net, cy + TOP_BUS_Y, POWER_MM),
                               (low_net, cy + LOW_BUS_Y, POWER_MM)):
            tile.track([(lo, y), (hi, y)], name, width)
            for side, x in (("W", lo), ("E", hi)):
                ref = "J_%s_%s_R%d" % (side, name.strip("+"), r)
                fp = tile.footprint(ref, name, "XoBo:EdgePad", (x, y))
                tile.pad(fp, "1", (x, y), tile.net(name), **edge_pad)
        # the data line: in at the West edge (or East), through the 3 LEDs, out at the other
        order = list(range(CELLS)) if wte else list(range(CELLS - 1, -1, -1))
        sign = 1 if wte else -1  # the data runs towards +x (West to East) or -x
        data = ["DATA_R%d_%d" % (r, k) for k in range(CELLS + 1)]
        x_in = lo if wte else hi
        x_out = hi if wte else lo
        for k, name in ((0, data[0]), (CELLS, data[CELLS])):
            x = x_in if k == 0 else x_out
            ref = "J_%s_DATA%s_R%d" % ("W" if x == lo else "E", "IN" if k == 0 else "OUT", r)
            fp = tile.footprint(ref, name, "XoBo:EdgePad", (x, cy + DATA_Y))
            tile.pad(fp, "1", (x, cy + DATA_Y), tile.net(name), **edge_pad)
        for k, f in enumerate(order):
            cx, _ = cell_centre(f, r)
            p = parts[(f, r)]
            # LED: turned 180 degrees in a West-to-East rank (DIN bottom-left, DOUT top-right)
            angle = 180.0 if wte else 0.0
            lx, ly = cx + LED_AT[0], cy + LED_AT[1]
            led = tile.footprint(p["led"], "WS2812B",
                                 "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", (lx, ly), angle)
            pad_net = {"1": tile.bind("+5V", p["led"], "1"),
                       "2": tile.bind(data[k + 1], p["led"], "2"),
                       "3": tile.bind("GND", p["led"], "3"),
                       "4": tile.bind(data[k], p["led"], "4")}
            at = {}
            for num, (dx, dy) in LED_PADS.items():
                if wte:
                    dx, dy = -dx, -dy
                at[num] = (lx + dx, ly + dy)
                tile.pad(led, num, at[num], pad_net[num], smd=(1.5, 1.0))
            # outlines: the LED's top and bottom edges (clear of its pads), the reed's glass
            # standing on pin 1, the diode's body between its pads
            for dy in (-2.75, 2.75):
                tile.silk_line((lx - 3.65, ly + dy), (lx + 3.65, ly + dy))
            tile.silk_circle((cx + REED_PADS[0][0], cy + REED_PADS[0][1]), 2.4)
            body = (cx + DIODE_PADS[0][0], cy + DIODE_PADS[1][1] + 1.9,
                    cy + DIODE_PADS[0][1] - 1.9)
            for x in (body[0] - 1.0, body[0] + 1.0):
                tile.silk_line((x, body[1]), (x, body[2]))
            tile.silk_line((body[0] - 1.0, body[2] - 0.6), (body[0] + 1.0, body[2] - 0.6))
            # pin 1 (VDD) marked outside the package, as on the LED's own corner
            tile.silk_dot(led, (lx + (at["1"][0] - lx) * 1.75, at["1"][1]))
            # VDD goes to +5V, VSS to GND: whichever bus is next to it
            vdd, vss = at["1"], at["3"]
            tile.track([vdd, (vdd[0], cy + (LOW_BUS_Y if low_net == "+5V" else TOP_BUS_Y))],
                       "+5V", SIGNAL_MM * 2)
            tile.track([vss, (vss[0], cy + (LOW_BUS_Y if low_net == "GND" else TOP_BUS_Y))],
                       "GND", SIGNAL_MM * 2)
            # data: from the cell's entry edge at DATA_Y to DIN, from DOUT to the exit edge
            din, dout = at["4"], at["2"]
            entry = cx - sign * PITCH / 2
            exit_ = cx + sign * PITCH / 2
            if k == 0:
                entry = x_in
            if k == CELLS - 1:
                exit_ = x_out
            y = cy + DATA_Y
            tile.track([(entry, y), (din[0] - sign * 2.55, y), (din[0] - sign * 0.95, din[1]),
                        din], data[k])
            tile.track([dout, (dout[0] + sign * 2.55, dout[1]), (dout[0] + sign * 4.15, y),
                        (exit_, y)], data[k + 1])
            # the 100 nF: upright, one pin on the low bus, the other by a via and a B.Cu strap to
            # the top bus
            capx = cx + CAP_AT[0]
            c1 = (capx, cy + CAP_AT[1] + 0.775)  # next to the low bus
            c2 = (capx, cy + CAP_AT[1] - 0.775)
            cap = tile.footprint(p["cap"], "100nF", "Capacitor_SMD:C_0603_1608Metric",
                                 (capx, cy + CAP_AT[1]), 90.0)
            cap_low = "1" if low_net == "+5V" else "2"
            cap_top = "2" if cap_low == "1" else "1"
            tile.pad(cap, cap_low, c1, tile.bind(low_net, p["cap"], cap_low), smd=(0.95, 0.9))
            tile.pad(cap, cap_top, c2, tile.bind(top_net, p["cap"], cap_top), smd=(0.95, 0.9))
            tile.track([c1, (capx, cy + LOW_BUS_Y)], low_net, SIGNAL_MM * 2)
            via_a = (cx + CAP_VIA[0], cy + CAP_VIA[1])
            via_b = (cx + CAP_VIA[0], cy + TOP_BUS_Y)
            tile.track([c2, via_a], top_net, SIGNAL_MM * 2)
            tile.via(via_a, top_net)
            tile.track([via_a, via_b], top_net, SIGNAL_MM * 2, layer="B")
            tile.via(via_b, top_net)
            # the reed upright at the cell centre, the diode from its pin 2 down to the row
            reed = tile.footprint(p["reed"], "reed",
                                  "Resistor_THT:R_Axial_DIN0414_L11.9mm_D4.5mm_P5.08mm_Vertical",
                                  (cx, cy))
            col = "COL_F%d" % f
            r1 = (cx + REED_PADS[0][0], cy + REED_PADS[0][1])
            r2 = (cx + REED_PADS[1][0], cy + REED_PADS[1][1])
            k_net = "K_%s" % design.cell_name(r * design.SIZE + f).upper()
            tile.pad(reed, "1", r1, tile.bind(col, p["reed"], "1"), drill=1.0, size=2.0)
            tile.pad(reed, "2", r2, tile.bind(k_net, p["reed"], "2"), drill=1.0, size=2.0)
            diode = tile.footprint(p["diode"], "1N4148",
                                   "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
                                   (cx + DIODE_PADS[0][0], cy + DIODE_PADS[0][1]), 90.0)
            dk = (cx + DIODE_PADS[0][0], cy + DIODE_PADS[0][1])
            da = (cx + DIODE_PADS[1][0], cy + DIODE_PADS[1][1])
            tile.pad(diode, "1", dk, tile.bind(row, p["diode"], "1"), drill=0.8, size=1.6)
            tile.pad(diode, "2", da, tile.bind(k_net, p["diode"], "2"), drill=0.8, size=1.6)
            tile.silk_dot(diode, (dk[0] + 2.0, dk[1] - 1.6))  # the band's end (cathode)
            tile.track([r2, da], k_net)
            tile.track([r1, (cx + COL_X, cy)], col, layer="B")
    # the columns: B.Cu, the whole height, leaving at each cell's middle (a turned tile meets
    # them), with their edge pads
    for f in range(CELLS):
        cx, _ = cell_centre(f, 0)
        col = "COL_F%d" % f
        x = cx + COL_X
        tile.track([(cx, lo), (x, lo + 2.0), (x, hi - 2.0), (cx, hi)], col, layer="B")
        for side, y in (("N", lo), ("S", hi)):
            fp = tile.footprint("J_%s_COL_F%d" % (side, f), col, "XoBo:EdgePad", (cx, y))
            tile.pad(fp, "1", (cx, y), tile.net(col), **edge_pad)
        # the supply straps joining the three ranks' buses (B.Cu, a via on each bus)
        for net_name, dx in STRAP_X.items():
            x = cx + dx
            ys = []
            for r in range(CELLS):
                _, cy = cell_centre(0, r)
                top_net, low_net = _rank_nets(r)
                ys.append(cy + (TOP_BUS_Y if top_net == net_name else LOW_BUS_Y))
            for y in ys:
                tile.via((x, y), net_name)
            tile.track([(x, min(ys)), (x, max(ys))], net_name, POWER_MM, layer="B")
    tile.outline()
    tile.text("XoBo cell tile %dx%d  N^  (turn 180 on every 2nd row of tiles)" % (CELLS, CELLS),
              (SIDE / 2, SIDE - 3.7), 1.2)
    for name, nets in tile.stands_for.items():
        if len(nets) != 1 and not name.startswith(("+5V", "GND")):
            raise ValueError("tile net %s would join the netlist nets %s"
                             % (name, ", ".join(sorted(nets))))
    return tile


# --- the edge strip: the side-to-move LEDs along the board's edges -------------------------------
# A strip of 3 LEDs at the cell pitch, in the 20 mm border between the playing area and the glass's
# edge: 12 strips for the 9x9 board, 20 for the 15x15, one design for every edge (turned so that
# its data runs the way the chain does). Tile coordinates: x East along the strip, y South.
STRIP_W = SIDE
STRIP_H = 14.0
STRIP_GND_Y = 2.0
STRIP_5V_Y = 12.0
STRIP_DATA_Y = 7.0
STRIP_CAP_DX = 8.0  # the LED's 100 nF, East of it
STRIP_VIA_DX = 4.5  # the data line goes to the back layer this far from the LED's centre


def strip_parts(nl):
    """[{"led", "cap": ref}] of the first edge strip of the 9x9 netlist: the North edge's LEDs
    next to files i, h, g (the chain runs on from cell i9, East to West along the North)."""
    positions = design.led_positions()
    out = []
    for k in range(CELLS):
        chain = design.SIZE * design.SIZE + k
        ref = "LED%d" % (chain + 1)
        if nl.comps[ref]["fields"].get("Cell") != positions[chain]:
            raise ValueError("netlist: %s is not where design.py puts it" % ref)
        out.append({"led": ref, "cap": "C%d" % (chain + 3)})
    return out


def build_strip(nl):
    """The edge strip on a fresh pcbnew BOARD: 3 LEDs and their capacitors, the +5V and GND
    buses on the front, the data line on the back between the LEDs, pads at both ends."""
    tile = Tile(nl)
    parts = strip_parts(nl)
    edge_pad = {"size": 1.7, "drill": 1.0}
    lo, hi = EDGE_PAD_MM, STRIP_W - EDGE_PAD_MM
    for name, y in (("GND", STRIP_GND_Y), ("+5V", STRIP_5V_Y)):
        tile.track([(lo, y), (hi, y)], name, POWER_MM)
        for side, x in (("W", lo), ("E", hi)):
            fp = tile.footprint("J_%s_%s" % (side, name.strip("+")), name, "XoBo:EdgePad", (x, y))
            tile.pad(fp, "1", (x, y), tile.net(name), **edge_pad)
    data = ["SDATA_%d" % k for k in range(CELLS + 1)]
    for k, x in ((0, lo), (CELLS, hi)):
        ref = "J_%s_DATA%s" % ("W" if k == 0 else "E", "IN" if k == 0 else "OUT")
        fp = tile.footprint(ref, data[k], "XoBo:EdgePad", (x, STRIP_DATA_Y))
        tile.pad(fp, "1", (x, STRIP_DATA_Y), tile.net(data[k]), **edge_pad)
    y = STRIP_DATA_Y
    for k, p in enumerate(parts):
        lx = PITCH / 2 + k * PITCH
        # turned 180 degrees: VSS top-left, DIN bottom-left, VDD bottom-right, DOUT top-right
        led = tile.footprint(p["led"], "WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                             (lx, y), 180.0)
        nets = {"1": tile.bind("+5V", p["led"], "1"), "2": tile.bind(data[k + 1], p["led"], "2"),
                "3": tile.bind("GND", p["led"], "3"), "4": tile.bind(data[k], p["led"], "4")}
        at = {}
        for num, (dx, dy) in LED_PADS.items():
            at[num] = (lx - dx, y - dy)
            tile.pad(led, num, at[num], nets[num], smd=(1.5, 1.0))
        for dy in (-2.75, 2.75):
            tile.silk_line((lx - 3.65, y + dy), (lx + 3.65, y + dy))
        tile.silk_dot(led, (lx + (at["1"][0] - lx) * 1.75, at["1"][1]))
        tile.track([at["1"], (at["1"][0], STRIP_5V_Y)], "+5V", SIGNAL_MM * 2)
        tile.track([at["3"], (at["3"][0], STRIP_GND_Y)], "GND", SIGNAL_MM * 2)
        # data in: from the West pad on the front (the first LED), else from the back layer
        din, dout = at["4"], at["2"]
        if k == 0:
            tile.track([(lo, y), (din[0] - 3.55, y), (din[0] - 1.95, din[1]), din], data[0])
        else:
            via = (lx - STRIP_VIA_DX, din[1])
            tile.track([via, din], data[k])
            tile.via(via, data[k])
        # data out: to the back layer at once (the capacitor's tracks cross the front)
        via = (lx + STRIP_VIA_DX, dout[1])
        tile.track([dout, via], data[k + 1])
        tile.via(via, data[k + 1])
        if k == CELLS - 1:
            tile.track([via, (via[0] + 1.6, y), (hi, y)], data[k + 1], layer="B")
        else:
            nx = lx + PITCH - STRIP_VIA_DX
            tile.track([via, (via[0] + 1.6, y), (nx - 1.6, y),
                        (nx, y + (din[1] - y))], data[k + 1], layer="B")
        # the 100 nF, upright East of the LED, between the buses
        cx = lx + STRIP_CAP_DX
        cap = tile.footprint(p["cap"], "100nF", "Capacitor_SMD:C_0603_1608Metric", (cx, y), 90.0)
        c_5v, c_gnd = (cx, y + 0.775), (cx, y - 0.775)
        tile.pad(cap, "1", c_5v, tile.bind("+5V", p["cap"], "1"), smd=(0.95, 0.9))
        tile.pad(cap, "2", c_gnd, tile.bind("GND", p["cap"], "2"), smd=(0.95, 0.9))
        tile.track([c_5v, (cx, STRIP_5V_Y)], "+5V", SIGNAL_MM * 2)
        tile.track([c_gnd, (cx, STRIP_GND_Y)], "GND", SIGNAL_MM * 2)
    corners = [(0, 0), (STRIP_W, 0), (STRIP_W, STRIP_H), (0, STRIP_H), (0, 0)]
    tile.outline(corners)
    tile.text("XoBo edge strip  data >", (STRIP_W / 2, STRIP_H - 2.2), 1.2)
    for name, nets in tile.stands_for.items():
        if len(nets) != 1 and not name.startswith(("+5V", "GND")):
            raise ValueError("strip net %s would join the netlist nets %s"
                             % (name, ", ".join(sorted(nets))))
    return tile


def strip_counts(size):
    """Edge strips of a size x size board: strips, the wire links joining them end to end along
    an edge (data, +5V, GND), the insulated wires: the data round the three corners (one edge's
    last strip to the next edge's first) and +5V and GND into each edge's first strip."""
    per_edge = size // CELLS
    return {"strips": 4 * per_edge, "links": 4 * (per_edge - 1) * 3, "wires": 3 + 4 * 2}


def strip_cost():
    """EUR for one edge strip's parts and board."""
    p = design.UNIT_PRICE_EUR
    parts = CELLS * (p["led"] + p["c_led"])
    return parts, p["strip_pcb"], parts + p["strip_pcb"]


# --- the tile's document (hardware/out/pcb_tile.md; no pcbnew needed) ---------------------------
def edge_pads():
    """[(edge, what, tile net)] of the tile's edge pads, West and East then North and South."""
    out = []
    for r in range(CELLS):
        top, low = _rank_nets(r)
        wte = west_to_east(r)
        out += [("W and E", "rank %d (from the South) row" % (r + 1), "ROW_R%d" % r),
                ("W and E", "rank %d supply above the LEDs" % (r + 1), top),
                ("W and E", "rank %d supply below the LEDs" % (r + 1), low),
                ("W" if wte else "E", "rank %d LED data in" % (r + 1), "DATA_R%d_0" % r),
                ("E" if wte else "W", "rank %d LED data out" % (r + 1),
                 "DATA_R%d_%d" % (r, CELLS))]
    for f in range(CELLS):
        out.append(("N and S", "file %d (from the West) column" % (f + 1), "COL_F%d" % f))
    return out


def board_counts(size):
    """Tiles and links of a size x size board: tiles, West-East joins' links, North-South
    joins' links, the data turns at the ranks' ends."""
    n = size // CELLS
    per_we = 4 * CELLS  # row, two supplies, data: per rank
    return {"tiles": n * n, "we_links": n * (n - 1) * per_we,
            "ns_links": n * (n - 1) * CELLS, "turns": size - 1}


def data_turns(size):
    """[(rank, edge, from mm, to mm, pads between)] of a size x size board's data turns: where
    rank ``rank``'s data-out pad and the next rank's data-in pad sit along the board's West or
    East edge (mm from the board's South edge, tiles laid as the module docstring says), and
    how many other edge pads lie between them."""
    tile_rows = size // CELLS

    def pads_of(board_rank):
        """{net kind: y} of the edge pads of board rank ``board_rank`` (mm from the South)."""
        tile_row, local = divmod(board_rank, CELLS)
        turned = tile_row % 2 == 1
        own = CELLS - 1 - local if turned else local
        centre = board_rank * PITCH + PITCH / 2
        flip = 1 if turned else -1  # tile y grows South; a turned tile's grows North
        top, low = _rank_nets(own)
        return own, turned, {"row": centre + flip * ROW_Y, top: centre + flip * TOP_BUS_Y,
                             low: centre + flip * LOW_BUS_Y, "data": centre + flip * DATA_Y}

    all_pads = [y for r in range(tile_rows * CELLS) for kind, y in pads_of(r)[2].items()
                if kind != "data"]  # the rows and supplies: on both edges
    out = []
    for r in range(size - 1):
        own, turned, pads = pads_of(r)
        runs_east = west_to_east(own) != turned
        a, b = pads["data"], pads_of(r + 1)[2]["data"]
        between = sum(1 for y in all_pads if min(a, b) < y < max(a, b))
        out.append((r + 1, "E" if runs_east else "W", a, b, between))
    return out




def tile_cost():
    """EUR for one tile's parts and board, from the netlist's counts per cell."""
    p = design.UNIT_PRICE_EUR
    cells = CELLS * CELLS
    parts = cells * (p["reed"] + p["diode"] + p["led"] + p["c_led"])
    return parts, p["tile_pcb"], parts + p["tile_pcb"]


def tile_md(header):
    parts, board, total = tile_cost()
    p = design.UNIT_PRICE_EUR
    lines = [
        header,
        "# The cell tile: a circuit board of %d x %d cells" % (CELLS, CELLS),
        "",
        "Generated from the skidl netlist (cells a1-c3 of `xobo_board.net`) by "
        "[`hardware/pcb.py`](../pcb.py) with KiCad's `pcbnew` (Debian's `kicad`): "
        "`python3 -m hardware.pcb` writes `build/pcb/` (the board `tile.kicad_pcb`, the KiCad "
        "design-rule report `drc.rpt`, the Gerbers and the drill file for the board house, "
        "committed in [`pcb_gerbers/`](pcb_gerbers)), "
        "`make test` runs the design-rule check (no error, nothing unconnected). "
        "%d x %d mm, two layers, %d mm cell pitch: under each cell a reed switch (upright, at "
        "the centre), a 1N4148 from it to the row line, a WS2812B 10 mm North of the centre "
        "and its 100 nF." % (SIDE, SIDE, PITCH),
        "",
        "**Why tiles and not one panel.** %s" % " ".join(
            __doc__.replace("``", "`").split("**Why tiles.**")[1]
            .split("**The LED chain")[0].split()),
        "",
        "**The LED chain.** %s" % " ".join(
            __doc__.replace("``", "`").split("**The LED chain stays the boards' serpentine.**")[1]
            .split("The tile's parts")[0].split()),
        "",
        "## Edge pads",
        "",
        "Each pad sits %.1f mm in from its edge; a neighbour's matching pad is %.0f mm away. "
        "A link board under the seam joins them, a header pin through each pad and the "
        "link's pad under it (hardware/boards.py). Ranks and "
        "files count from the tile's own South-West corner (turned tiles: from their own, now "
        "North-East, corner)." % (EDGE_PAD_MM, 2 * EDGE_PAD_MM),
        "",
        "| edge | carries | tile net |",
        "| --- | --- | --- |",
    ]
    for edge, what, net in edge_pads():
        lines.append("| %s | %s | `%s` |" % (edge, what, net))
    lines += [
        "",
        "At the board's West edge the tiles' row pads go to the row drivers (the Pico's GPIOs "
        "on the 9x9, the 74HC595s' outputs on the 15x15), and every row of "
        "tiles takes +5V and GND from the supply there (on the 15x15: ranks 1, 4, 7, 10 and 13, "
        "as the build guide's bus wants); at the South edge the column pads go to the Pico's "
        "columns; rank 1's data-in pad takes the level shifter's output (through R1), the last "
        "rank's data-out feeds the edge strips.",
        "",
        "## Per board, and what it costs",
        "",
        "Prices are assumptions (`design.UNIT_PRICE_EUR`, EUR, distributors at 100+ pieces, a "
        "low-cost board house in tens): reed %.2f, diode %.2f, LED %.2f, capacitor %.2f, tile "
        "board %.2f. One tile: parts %.2f + board %.2f = **%.2f EUR**."
        % (p["reed"], p["diode"], p["led"], p["c_led"], p["tile_pcb"], parts, board, total),
        "",
        "| board | tiles | West-East links | North-South links | data turns | tiles' cost EUR |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for size in (design.SIZE, design.SIZE15):
        c = board_counts(size)
        lines.append("| %dx%d | %d | %d | %d | %d | %.0f |" % (
            size, size, c["tiles"], c["we_links"], c["ns_links"], c["turns"],
            c["tiles"] * total))
    s_parts, s_board, s_total = strip_cost()
    lines += [
        "",
        "## The edge strip",
        "",
        "The LEDs that show the side to move, one beside each file and rank, go on a second "
        "board of the same process: %d x %g mm, %d WS2812B on the %d mm pitch, each with its "
        "100 nF, the +5V and GND buses on the front, the data line on the back between the "
        "LEDs; its parts are the netlist's first edge LEDs (the North edge beside files i, h, g) "
        "and the build fails where the netlist disagrees. KiCad's design-rule check runs on it "
        "too (`strip-drc.rpt`; no error, nothing unconnected), its Gerbers sit beside the "
        "tile's (`strip-*`)."
        % (STRIP_W, STRIP_H, CELLS, PITCH),
        "",
        "Lay the strips in the 20 mm border round the playing area, their ends in line with "
        "the tiles' edges (so each LED stands beside the middle of its file or rank), each "
        "with its arrow (`data >`) the way the chain runs: the North "
        "edge from file %s to a (the chain comes from the last rank's data-out in the "
        "North-East corner), the West edge from the top rank down, the South edge from a "
        "eastwards, the East edge from rank 1 up (`design.EDGE_CHAIN`). Along an edge the "
        "strips butt end to end; the controller (West), the South and East rails and, along "
        "the North edge, strip links join their ends (data, +5V, GND) and take the data round "
        "the corners. One strip: parts %.2f + board %.2f = **%.2f EUR**."
        % ("i", s_parts, s_board, s_total),
        "",
        "| board | strips | strips' cost EUR |",
        "| --- | --- | --- |",
    ]
    for size in (design.SIZE, design.SIZE15):
        c = strip_counts(size)
        lines.append("| %dx%d | %d | %.0f |" % (size, size, c["strips"], c["strips"] * s_total))
    lines += [
        "",
        "**Assembly.** The LEDs and capacitors are SMD: a board house that assembles can "
        "place them from the paste layer and `tile-top-pos.csv` (their positions, top side; "
        "the strip's: `strip-top-pos.csv`), "
        "leaving the through-hole reeds and diodes (36 joints a tile) for the café's "
        "iron; or hand-solder all of them (the 5 x 5 mm LED and the 0603 capacitor are big "
        "enough for a fine tip).",
        "",
        "The controller (the Pico's socket, the power input and its protection, the level "
        "shifter, the buttons; the 74HC595s on the 15x15) is a circuit board of its own, the "
        "board's West rail, with the links and the East and South rails: "
        "[`BUILD.md`](../BUILD.md).",
        "",
    ]
    return "\n".join(lines)


# --- checking and plotting ----------------------------------------------------------------------
def drc(board_path, report_path):
    """KiCad's design-rule check of the saved board: (errors, warnings, unconnected, text)."""
    import pcbnew

    board = pcbnew.LoadBoard(str(board_path))
    pcbnew.WriteDRCReport(board, str(report_path), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = Path(report_path).read_text()
    errors = text.count("Severity: error")
    warnings = text.count("Severity: warning")
    unconnected = 0
    for line in text.splitlines():
        if line.startswith("** Found") and "unconnected" in line:
            unconnected = int(line.split()[2])
    return errors, warnings, unconnected, text


def plot(board_path, out_dir):
    """Gerbers (copper, mask, silk, outline) and the Excellon drill file into out_dir."""
    import pcbnew

    board = pcbnew.LoadBoard(str(board_path))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(out_dir))
    po.SetUseGerberProtelExtensions(False)
    po.SetCreateGerberJobFile(False)
    po.SetUseGerberX2format(False)  # no creation date in the files
    po.SetIncludeGerberNetlistInfo(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetPlotFrameRef(False)
    files = []
    for layer, suffix in ((pcbnew.F_Cu, "F_Cu"), (pcbnew.B_Cu, "B_Cu"),
                          (pcbnew.F_Mask, "F_Mask"), (pcbnew.B_Mask, "B_Mask"),
                          (pcbnew.F_Paste, "F_Paste"),
                          (pcbnew.F_SilkS, "F_Silkscreen"), (pcbnew.Edge_Cuts, "Edge_Cuts")):
        pc.SetLayer(layer)
        pc.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        pc.PlotLayer()
        files.append(pc.GetPlotFileName())
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, True, pcbnew.wxPoint(0, 0), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(str(out_dir), True, False)
    # where an assembly service puts the SMD parts (the LEDs and their capacitors), sorted by
    # reference so that the file is the same every time
    place = pcbnew.PLACE_FILE_EXPORTER(board, True, True, False, True, False, True, False)
    rows = place.GenPositionData().splitlines()
    head = [r for r in rows if r.startswith(("Ref", '"Ref'))]
    body = sorted((r for r in rows if r and r not in head), key=_ref_order)
    (Path(out_dir) / ("%s-top-pos.csv" % Path(board_path).stem)).write_text(
        "\n".join(head + body) + "\n")
    return files


def _ref_order(row):
    ref = row.split(",")[0].strip('"')
    m = re.match(r"([A-Z_]+)(\d*)", ref)
    return (m.group(1), int(m.group(2) or 0)) if m else (ref, 0)


def pictures(board_path, out_dir, stem="pcb_tile", layers=None):
    """One SVG per layer (with the outline), for the build guide: hardware/out/pcb_tile_*.svg
    (the edge strip's: pcb_strip_*.svg)."""
    import pcbnew

    board = pcbnew.LoadBoard(str(board_path))
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(str(out_dir))
    po.SetPlotFrameRef(False)
    po.SetMirror(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.SMALL_DRILL_SHAPE)
    po.SetSvgPrecision(SVG_PRECISION, False)  # 1 um units: browsers lose circles at 1 nm
    out = []
    for layer, name in layers or PICTURE_LAYERS:
        layer = getattr(pcbnew, layer)
        pc.SetLayer(layer)
        pc.OpenPlotfile("%s_%s" % (stem, name), pcbnew.PLOT_FORMAT_SVG, name)
        pc.PlotLayer()
        pc.SetLayer(pcbnew.Edge_Cuts)
        pc.PlotLayer()
        out.append((pc.GetPlotFileName(), Path(out_dir) / ("%s_%s.svg" % (stem, name))))
    pc.ClosePlot()
    for plotted, wanted in out:
        os.replace(plotted, wanted)
    return [wanted for _, wanted in out]


STRIP_PICTURE_LAYERS = (("F_Cu", "front_copper"), ("B_Cu", "back_copper"),
                        ("F_SilkS", "silkscreen"))


def make(out_dir, with_pictures=False):
    """Build, check and plot the tile and the edge strip into out_dir; a summary dict (also
    out_dir/summary.json)."""
    import pcbnew

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nl = Netlist.parse(NETLIST.read_text())
    tile = build(nl)
    board_path = out_dir / "tile.kicad_pcb"
    pcbnew.SaveBoard(str(board_path), tile.board)
    errors, warnings, unconnected, _ = drc(board_path, out_dir / "drc.rpt")
    strip = build_strip(nl)
    strip_path = out_dir / "strip.kicad_pcb"
    pcbnew.SaveBoard(str(strip_path), strip.board)
    s_errors, s_warnings, s_unconnected, _ = drc(strip_path, out_dir / "strip-drc.rpt")
    gerbers = plot(board_path, out_dir / "gerbers") + plot(strip_path, out_dir / "gerbers")
    _strip_dates(out_dir / "gerbers")
    # one file per board to upload to the board house
    for stem in ("tile", "strip"):
        with zipfile.ZipFile(out_dir / ("%s-gerbers.zip" % stem), "w",
                             zipfile.ZIP_DEFLATED) as z:
            for path in sorted((out_dir / "gerbers").glob(stem + "-*")):
                z.write(path, path.name)
    summary = {
        "kicad": pcbnew.Version(), "tile_mm": SIDE, "cells": CELLS * CELLS,
        "footprints": len(tile.board.GetFootprints()), "pads": tile.pads,
        "tracks": tile.tracks, "vias": tile.vias, "nets": len(tile.nets),
        "drc_errors": errors, "drc_warnings": warnings, "unconnected": unconnected,
        "strip_mm": [STRIP_W, STRIP_H], "strip_leds": len(strip_parts(nl)),
        "strip_drc_errors": s_errors, "strip_drc_warnings": s_warnings,
        "strip_unconnected": s_unconnected,
        "gerbers": [Path(g).name for g in gerbers],
    }
    if with_pictures:
        for svg in pictures(board_path, PICTURES):
            _strip_svg(Path(svg))
        for svg in pictures(strip_path, PICTURES, "pcb_strip", STRIP_PICTURE_LAYERS):
            _strip_svg(Path(svg), (STRIP_W, STRIP_H))
        GERBERS.mkdir(exist_ok=True)
        for path in sorted((out_dir / "gerbers").iterdir()):
            (GERBERS / path.name).write_text(path.read_text())
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


SVG_PRECISION = 3  # 10^3 units to the mm
# every layer the Gerbers hold, each with the outline (Edge.Cuts) drawn in: (pcbnew layer, name)
PICTURE_LAYERS = (("F_Cu", "front_copper"), ("B_Cu", "back_copper"), ("F_SilkS", "silkscreen"),
                  ("F_Mask", "front_mask"), ("B_Mask", "back_mask"), ("F_Paste", "front_paste"))
LAYER_COLOURS = {"front_copper": "#C83434", "back_copper": "#4D7FC4", "silkscreen": "#000000",
                 "front_mask": "#1E7F3C", "back_mask": "#1E5F7F", "front_paste": "#7F7F7F"}


def _strip_svg(path, size=(SIDE, SIDE)):
    """The plotted page cropped to the tile (KiCad plots an A4 page, 10^SVG_PRECISION units to
    the mm), in the
    layer's colour, without the plot's date and title lines (a re-plot changes nothing)."""
    name = path.stem.split("_", 2)[2]  # pcb_tile_front_copper: front_copper
    unit = 10 ** SVG_PRECISION
    w, h = size
    text = path.read_text()
    text = re.sub(r'width="[^"]*cm" height="[^"]*cm" viewBox="[^"]*"',
                  'width="%dmm" height="%dmm" viewBox="%d %d %d %d"' % (
                      w + 4, h + 4, -2 * unit, -2 * unit, (w + 4) * unit,
                      (h + 4) * unit), text, count=1)
    text = text.replace("#000000", LAYER_COLOURS[name])
    text = re.sub(r'textLength="[^"]*" ', "", text)  # KiCad's measure of the text varies
    lines = [ln for ln in text.splitlines()  # the plot's own title (with the date) and note
             if not ln.startswith("<title>SVG Picture") and "<desc>Picture generated" not in ln]
    path.write_text("\n".join(lines) + "\n")


def _strip_dates(directory):
    """Gerber and drill files without their creation dates (comments), so they are the same
    every time and the committed copies can be checked."""
    for path in Path(directory).iterdir():
        lines = path.read_text().splitlines()
        keep = [ln for ln in lines if "CreationDate" not in ln and " date " not in ln.lower()
                and not ln.startswith("; DRILL file") and "TF.GenerationSoftware" not in ln]
        path.write_text("\n".join(keep) + "\n")


def stale_pictures(directory):
    """The committed layer pictures that differ from those plotted into ``directory``."""
    stale = []
    for fresh in sorted(Path(directory).glob("pcb_*.svg")):
        committed = PICTURES / fresh.name
        if not committed.exists() or _drawing(committed) != _drawing(fresh):
            stale.append(fresh.name)
    return stale


def stale_gerbers(directory):
    """The committed Gerber and drill files that draw or drill otherwise than those just
    written into ``directory`` (KiCad numbers apertures and orders items differently from one
    run to the next: compared as what they draw)."""
    stale = []
    fresh_names = sorted(p.name for p in Path(directory).iterdir())
    committed_names = sorted(p.name for p in GERBERS.iterdir()) if GERBERS.exists() else []
    if fresh_names != committed_names:
        return sorted(set(fresh_names) ^ set(committed_names)) or fresh_names
    for name in fresh_names:
        fresh = (Path(directory) / name).read_text()
        committed = (GERBERS / name).read_text()
        if _artwork(fresh, name) != _artwork(committed, name):
            stale.append(name)
    return stale


_COORD = re.compile(r"(?:X(-?[\d.]+))?(?:Y(-?[\d.]+))?(?:D0([123]))?\*?$")


def _artwork(text, name):
    """What a Gerber file draws (aperture, operation, points) or a drill file drills (tool,
    point), as a sorted list, with every other line kept as it is."""
    items = []
    tools = {}
    current = None
    x = y = "0"
    drill = name.endswith(".drl")
    for line in text.splitlines():
        m = re.match(r"%ADD(\d+)(.*)\*%$", line) if not drill else \
            re.match(r"(T\d+)(C[\d.]+)$", line)
        if m:
            tools[("D" + m.group(1)) if not drill else m.group(1)] = m.group(2)
            continue
        m = re.match(r"(D\d+)\*$", line) if not drill else re.match(r"(T\d+)$", line)
        if m and (drill or int(m.group(1)[1:]) >= 10):
            current = tools.get(m.group(1), m.group(1))
            continue
        m = _COORD.match(line)
        if m and (m.group(1) or m.group(2)):
            nx, ny = m.group(1) or x, m.group(2) or y
            op = m.group(3) or ("3" if drill else "1")
            if op == "1" and not drill:
                items.append("%s draw %s,%s %s,%s" % (current, x, y, nx, ny))
            elif op == "3":
                items.append("%s at %s,%s" % (current, nx, ny))
            x, y = nx, ny
            continue
        if not line.startswith("G04"):
            items.append(line)
    return sorted(items)


def _drawing(path):
    """What a picture draws: its elements' lines, sorted, without the group lines (KiCad
    groups the same drawing differently from one run to the next)."""
    return sorted(ln for ln in path.read_text().splitlines()
                  if not ln.startswith(("<g", "</g", "stroke")))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        # build, check and plot into a temp dir; compare the pictures with the committed ones
        with tempfile.TemporaryDirectory() as tmp:
            s = make(tmp)
            board = Path(tmp) / "tile.kicad_pcb"
            for svg in pictures(board, tmp):
                _strip_svg(Path(svg))
            for svg in pictures(Path(tmp) / "strip.kicad_pcb", tmp, "pcb_strip",
                                STRIP_PICTURE_LAYERS):
                _strip_svg(Path(svg), (STRIP_W, STRIP_H))
            s["stale_pictures"] = stale_pictures(tmp)
            s["stale_gerbers"] = stale_gerbers(Path(tmp) / "gerbers")
    else:
        s = make(BUILD, with_pictures="--pictures" in argv)
    print(json.dumps(s))
    stale = s.get("stale_pictures", []) + s.get("stale_gerbers", [])
    bad = (s["drc_errors"] or s["unconnected"] or s["strip_drc_errors"]
           or s["strip_unconnected"] or stale)
    if bad:
        print("DRC: tile %d errors, %d unconnected (see drc.rpt), edge strip %d errors, %d "
              "unconnected (strip-drc.rpt); stale: %s (run python3 -m hardware.pcb --pictures)"
              % (s["drc_errors"], s["unconnected"], s["strip_drc_errors"],
                 s["strip_unconnected"], ", ".join(stale) or "none"), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    os.environ.setdefault("KICAD_NO_GUI", "1")
    sys.exit(main())
