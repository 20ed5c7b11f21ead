"""The boards round the tiles, generated with KiCad's ``pcbnew`` from the skidl netlists and the
assembly (hardware/assembly.py): the links, the East and South rails and the controller of each
board size, design-rule checked like the tile.

Run by Debian's python3 from the repository root::

    python3 -m hardware.boards            # hardware/out/pcb/*.kicad_pcb (committed), DRC
                                          # reports and Gerbers in build/pcb/<design>/

**One controller per size.** The 9x9 board's controller drives nine rows straight from the
Pico and has two ways to power the LEDs (USB through F2, or the 2 A adapter, chosen by JP1); the
15x15's drives fifteen rows through two 74HC595s, takes 4 A from its own jack through an
SOIC-8 P-FET and has no USB path to the LEDs. Its columns are GP2-GP16 where the 9x9's rows sit
on GP11-GP19: one board for both would need jumpers that re-route a dozen Pico pins, and a
jumper set wrong drives a column against a row. Each controller is also its board's West rail,
as long as the board's edge, so the two could not share a panel anyway.
"""

import json
import math
import os
import sys
from pathlib import Path

from . import assembly, design
from . import pcb as tilepcb
from .netlist import Netlist
from .router import Pad, Router

ROOT = Path(__file__).resolve().parent.parent
PCB_DIR = ROOT / "hardware" / "out" / "pcb"  # the committed boards (KiCad 6 has no kicad-cli)
BUILD = ROOT / "build" / "pcb"
NETLISTS = {9: ROOT / "hardware" / "out" / "xobo_board.net",
            15: ROOT / "hardware" / "out" / "xobo_board_15x15.net"}
EDGE_PAD = {"size": 1.7, "drill": 1.0}
POWER_NETS = ("+5V", "GND", "VIN_RAW", "VIN_FUSED", "VIN_DC", "VBUS", "VBUS_F", "VSYS")


def power_width(size):
    """Power tracks: 1.0 mm on the 9x9 board (2 A at most), 1.5 mm on the 15x15's (4 A; its
    rails and controller are ordered with 2 oz copper)."""
    return 1.5 if size == 15 else 1.0


# --- the upper plane's pads in board coordinates -------------------------------------------------
def design_pads(board):
    """[(x, y, net, footprint ref)] of a built design's pads, in its own coordinates."""
    import pcbnew

    out = []
    for fp in board.GetFootprints():
        for pad in fp.Pads():
            pos = pad.GetPosition()
            out.append((round(pcbnew.ToMM(pos.x), 4), round(pcbnew.ToMM(pos.y), 4),
                        pad.GetNetname(), fp.GetReference(), pad.GetNumber()))
    return out


def board_net_of_tile_pad(size, role, net):
    """The netlist net a tile's edge pad carries where the tile sits (``role``)."""
    if net in ("+5V", "GND"):
        return net
    if net.startswith("ROW_R"):
        _, rank = assembly.tile_cell(role, 0, int(net[5:]))
        return "ROW%d" % (rank + 1)
    if net.startswith("COL_F"):
        f, _ = assembly.tile_cell(role, int(net[5:]), 0)
        return "COL_%s" % design.FILES15[f].upper()
    if net.startswith("DATA_R"):
        r, k = net[6:].split("_")
        _, rank = assembly.tile_cell(role, 0, int(r))
        return "LED_D%d" % ((rank + (1 if int(k) else 0)) * size)
    raise ValueError("tile net %s: not an edge pad's" % net)


def board_net_of_strip_pad(size, role, net):
    if net in ("+5V", "GND"):
        return net
    chain = assembly.strip_chain(size, role)
    if net == "SDATA_0":
        return "LED_D%d" % chain[0]
    if net == "SDATA_3":
        last = chain[-1] + 1
        return "LED_D%d" % last if last < size * size + 4 * size else ""
    raise ValueError("strip net %s: not an edge pad's" % net)


def upper_pads(size, tile_board, strip_board):
    """[(x, y, netlist net, what)] of every tile and strip edge pad on the board."""
    out = []
    tile = [p for p in design_pads(tile_board) if p[3].startswith("J_")]
    strip = [p for p in design_pads(strip_board) if p[3].startswith("J_")]
    for pl in assembly.tile_placements(size):
        for x, y, net, ref, _ in tile:
            bx, by = pl.to_board(x, y)
            out.append((bx, by, board_net_of_tile_pad(size, pl.role, net), "tile " + ref))
    for pl in assembly.strip_placements(size):
        for x, y, net, ref, _ in strip:
            bx, by = pl.to_board(x, y)
            out.append((bx, by, board_net_of_strip_pad(size, pl.role, net), "strip " + ref))
    return out


# --- a board being built in board coordinates ----------------------------------------------------
class Build:
    """A design built in board coordinates (its outline's corner is its own origin)."""

    def __init__(self, nl, bounds, align=None):
        self.tile = tilepcb.Tile(nl)
        self.x0, self.y0, self.x1, self.y1 = bounds
        w, h = self.x1 - self.x0, self.y1 - self.y0
        self.align = self.local(*align) if align else None
        self.router = Router(self, (0.0, 0.0, w, h), align=self.align)
        self.pads_by_net = {}
        self.pin_pads = []
        self.board = self.tile.board
        self.vias = 0

    def snap(self, at):
        """A board point moved onto the routing grid (a part's pins then sit on it)."""
        if not self.align:
            return at
        p = self.router.pitch
        return tuple(round(a + round((v - a) / p) * p, 4) + o for v, a, o in
                     zip(self.local(*at), self.align, (self.x0, self.y0), strict=False))

    def netinfo(self, net):
        """The pcbnew net of a name; a pad on no net gets KiCad's net 0."""
        return self.tile.net(net) if net else self.board.FindNet(0)

    def local(self, x, y):
        return (round(x - self.x0, 4), round(y - self.y0, 4))

    # the router draws through these
    def track(self, points, net, width, layer):
        self.tile.track(points, net, width, layer)

    def net(self, name):
        return self.tile.net(name)

    def pin(self, ref, at, net, value="pin", lib="XoBo:HeaderPin"):
        """A through-hole pad under an upper-plane pad (a header pin joins them)."""
        lx, ly = self.local(*at)
        fp = self.tile.footprint(ref, value, lib, (lx, ly))
        self.tile.pad(fp, "1", (lx, ly), self.netinfo(net), **EDGE_PAD)
        half = EDGE_PAD["size"] / 2  # pad 1 of a through-hole part is square (hardware.pcb)
        pad = Pad(net, (lx, ly), "FB", half=(half, half))
        self.router.add_pad(pad)
        if net:
            self.pads_by_net.setdefault(net, []).append(pad)
        self.pin_pads.append(pad)
        return pad

    def part(self, ref, value, lib, at, pads, netlist_ref=None, angle=0.0):
        """A part at board position ``at``; pads: [(number, dx, dy, net, kind, dims)], kind
        "tht" (dims: pad, drill) or "smd" (dims: w, h), offsets in the part's own frame."""
        lx, ly = self.local(*self.snap(at))
        fp = self.tile.footprint(ref, value, lib, (lx, ly), angle)
        a = math.radians(angle)
        made = []
        for number, dx, dy, net, kind, dims in pads:
            px = lx + dx * math.cos(a) + dy * math.sin(a)
            py = ly - dx * math.sin(a) + dy * math.cos(a)
            px, py = round(px, 4), round(py, 4)
            if netlist_ref and net:
                self.tile.bind(net, netlist_ref, number)
            netinfo = self.netinfo(net)
            if kind == "tht":
                self.tile.pad(fp, number, (px, py), netinfo, drill=dims[1], size=dims[0])
                if number == "1":  # square (hardware.pcb)
                    pad = Pad(net, (px, py), "FB", half=(dims[0] / 2, dims[0] / 2))
                else:
                    pad = Pad(net, (px, py), "FB", radius=dims[0] / 2)
            else:
                self.tile.pad(fp, number, (px, py), netinfo, smd=dims)
                w, h = dims
                if round(angle) % 180 == 90:
                    w, h = h, w
                pad = Pad(net, (px, py), "F", half=(w / 2, h / 2))
            pad.part_at = (lx, ly)
            self.router.add_pad(pad)
            if net:
                self.pads_by_net.setdefault(net, []).append(pad)
            made.append(pad)
        return fp, made

    def route_all(self, size, order=None):
        def spread(n):
            xs = [p.at[0] for p in self.pads_by_net[n]]
            ys = [p.at[1] for p in self.pads_by_net[n]]
            return max(xs) - min(xs) + max(ys) - min(ys)

        pins = {id(p) for p in self.pin_pads}

        def fine(n):
            """East-most first of the nets on a fine-pitch part's small pads (they leave it
            before anything walls them in)."""
            xs = [p.at[0] for p in self.pads_by_net[n] if p.half and min(p.half) < 0.4]
            return -max(xs) if xs and n not in POWER_NETS + ("+3V3",) else 0

        # the nets of the 74HC595s' pins first, then the short nets (the data turns beside the
        # tiles' edge), the supplies last
        nets = sorted(self.pads_by_net, key=lambda n: (n in ("+5V", "GND"), fine(n) == 0,
                                                       fine(n), spread(n), n))
        if order:
            nets = [n for n in order if n in self.pads_by_net] + [n for n in nets
                                                                   if n not in order]
        def route(net, pads):
            pads = sorted(pads, key=lambda p: (p.at[1], p.at[0]))
            width = power_width(size) if net in POWER_NETS else 0.25
            self.router.route(net, pads, width=width, fallback=0.25 if width > 0.25 else width)


        # a chip's supply pins (tied high or low in the middle of a row of pins) each go by
        # a via of their own just out from the pin, before the signals leave the row
        vias = []
        for net in ("GND", "+3V3", "+5V"):
            for k, pad in enumerate(list(self.pads_by_net.get(net, ()))):
                if pad.half is None or min(pad.half) >= 0.4:
                    continue
                dx, dy = pad.at[0] - pad.part_at[0], pad.at[1] - pad.part_at[1]
                if pad.half[0] > pad.half[1]:  # out along the pad's long side, off the row
                    step = (math.copysign(pad.half[0] + 0.75, dx), 0.0)
                else:
                    step = (0.0, math.copysign(pad.half[1] + 0.75, dy))
                at = (round(pad.at[0] + step[0], 4), round(pad.at[1] + step[1], 4))
                self.router.place_via(net, at)
                self.router._track(self.router.net_id(net), net, [pad.at, at], 0.3, "F")
                via = Pad(net, at, "FB", radius=0.3)
                via.net_id = self.router.net_id(net)
                self.pads_by_net[net][k] = via
                vias.append((net, via, pad.part_at))
        # each such via on its capacitor's side of the chip to the capacitor at once (the
        # others go round later: they would cross the chip's other row of pins)
        for net, via, chip in vias:
            others = [p for p in self.pads_by_net[net] if id(p) not in pins and
                      p.radius != 0.3]
            near = min(others, key=lambda p: math.hypot(p.at[0] - via.at[0],
                                                        p.at[1] - via.at[1]), default=None)
            if near is not None and math.dist(via.at, near.at) < math.dist(chip, near.at):
                self.router.route(net, [near, via], width=0.3)
        # the chips' signals first (out from between their pins before anything walls them
        # in), the supplies among the parts, every net, the supplies' pins last
        for net in [n for n in nets if spread(n) < 60 and not fine(n) and
                    n not in POWER_NETS + ("+3V3",)]:
            route(net, self.pads_by_net[net])  # the data turns beside the tiles' edge
        for net in [n for n in nets if fine(n)] + (["+3V3"] if "+3V3" in nets else []):
            route(net, self.pads_by_net[net])
        for net in ("GND", "+3V3", "+5V"):
            own = [p for p in self.pads_by_net.get(net, ()) if id(p) not in pins]
            if len(own) > 1:
                route(net, own)
        for net in nets:
            route(net, self.pads_by_net[net])
        self.drop_loose_copper()

    def drop_loose_copper(self):
        """Take off the copper that joins nothing: a chip's supply via its net reached on the
        front only (the via is then on one layer), a stub with nothing at its far end. KiCad's
        own connectivity says what is loose (what its design-rule check warns of); taking it
        off leaves every join as it was (the check and the proof run on what is left)."""
        while True:
            self.board.BuildConnectivity()
            connectivity = self.board.GetConnectivity()
            loose = [t for t in self.board.GetTracks()
                     if connectivity.TestTrackEndpointDangling(t)]
            if not loose:
                return
            for item in loose:
                self.board.Delete(item)

    def finish(self, label):
        w, h = self.x1 - self.x0, self.y1 - self.y0
        self.tile.outline([(0, 0), (w, 0), (w, h), (0, h), (0, 0)])
        return self.tile


# --- links ---------------------------------------------------------------------------------------
def build_link(nl, name):
    """A link: its pad pairs, each joined by a straight track on the front."""
    w, h, pairs = assembly.link_designs()[name]
    b = Build(nl, (0.0, 0.0, w, h))
    for k, (a, c) in enumerate(pairs):
        net = "L%d" % (k + 1)
        b.pin("P%da" % (k + 1), a, net)
        b.pin("P%db" % (k + 1), c, net)
        if name.startswith("link_sw") and k % 2 == 1:
            # the outer pins' track passes between the inner pins of the next row
            y = a[1] + 1.27
            b.tile.track([a, (a[0], y), (c[0], y), c], net, 0.3)
        else:
            b.tile.track([a, c], net, 0.3 if name.startswith("link_sw") else 0.4)
    if name != "link_strip":
        b.tile.text(name.replace("_", " "), (w / 2, h - 1.2) if name != "link_ns" else
                    (w / 2, 2.0), 1.0)
    return b.finish(name)


# --- the controller (the West rail) and the East and South rails ---------------------------------
def _pico_pads(size):
    """The Pico in its socket (pin 1 at its USB end): [(number, dx, dy, net)]: the pins in two
    columns 17.78 mm apart, pin 1 top left, 21 bottom right (Pico datasheet)."""
    out = []
    for n, name in design.PICO_PINOUT.items():
        if n <= 20:
            dx, dy = -8.89, -24.13 + 2.54 * (n - 1)
        else:
            dx, dy = 8.89, 24.13 - 2.54 * (n - 21)
        out.append((str(n), dx, dy, name))
    return out


def _nets_of(nl, ref):
    return {pin: net for (r, pin), net in nl.pin_net.items() if r == ref}


def place_netlist_part(b, nl, ref, at, pads, lib=None, angle=0.0):
    """A netlist part with its pads on the netlist's nets: pads [(number, dx, dy, kind,
    dims)]."""
    nets = _nets_of(nl, ref)
    comp = nl.comps[ref]
    full = [(num, dx, dy, nets.get(num, ""), kind, dims) for num, dx, dy, kind, dims in pads]
    return b.part(ref, comp["value"], lib or comp["footprint"], at, full, netlist_ref=ref,
                  angle=angle)


THT_PIN = ("tht", (1.7, 1.0))
LANDS = {  # the parts' lands, [(number, dx, dy, kind, dims)] in the footprint's own frame
    "Package_TO_SOT_SMD:SOT-23": [("1", -1.1375, -0.95, "smd", (1.325, 0.6)),
                                  ("2", -1.1375, 0.95, "smd", (1.325, 0.6)),
                                  ("3", 1.1375, 0.0, "smd", (1.325, 0.6))],
    "Package_TO_SOT_SMD:SOT-23-5": [("1", -1.1375, -0.95, "smd", (1.325, 0.6)),
                                    ("2", -1.1375, 0.0, "smd", (1.325, 0.6)),
                                    ("3", -1.1375, 0.95, "smd", (1.325, 0.6)),
                                    ("4", 1.1375, 0.95, "smd", (1.325, 0.6)),
                                    ("5", 1.1375, -0.95, "smd", (1.325, 0.6))],
    "Capacitor_SMD:C_0603_1608Metric": [("1", -0.775, 0, "smd", (0.9, 0.95)),
                                        ("2", 0.775, 0, "smd", (0.9, 0.95))],
    "Resistor_SMD:R_0603_1608Metric": [("1", -0.775, 0, "smd", (0.9, 0.95)),
                                       ("2", 0.775, 0, "smd", (0.9, 0.95))],
    "Fuse:Fuse_1812_4532Metric": [("1", -2.1, 0, "smd", (1.4, 3.4)),
                                  ("2", 2.1, 0, "smd", (1.4, 3.4))],
    "Fuse:Fuse_Bourns_MF-RHT400": [("1", 0, 0, "tht", (2.2, 1.2)),
                                   ("2", 5.1, 0, "tht", (2.2, 1.2))],
    "Diode_SMD:D_SMA": [("1", -2.0, 0, "smd", (2.5, 1.7)), ("2", 2.0, 0, "smd", (2.5, 1.7))],
    "Diode_SMD:D_SOD-123": [("1", -1.635, 0, "smd", (0.91, 1.22)),
                            ("2", 1.635, 0, "smd", (0.91, 1.22))],
    "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical": [
        ("1", 0, 0) + THT_PIN, ("2", 0, 2.54) + THT_PIN, ("3", 0, 5.08) + THT_PIN],
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm": [("1", 0, 0, "tht", (2.0, 1.0)),
                                                ("2", 5.0, 0, "tht", (2.0, 1.0))],
    "Button_Switch_THT:SW_PUSH_12mm": [("1", 0, 0, "tht", (2.2, 1.3)),
                                       ("2", 12.5, 0, "tht", (2.2, 1.3)),
                                       ("1", 0, 5.0, "tht", (2.2, 1.3)),
                                       ("2", 12.5, 5.0, "tht", (2.2, 1.3))],
    # the barrel jacks: tip, sleeve, and the switch pin (on no net)
    "Connector_BarrelJack:BarrelJack_CUI_PJ-002A_Horizontal": [
        ("1", 0, 0, "tht", (3.0, 1.6)), ("2", -6.0, 0, "tht", (3.0, 1.6)),
        ("3", -3.0, 4.7, "tht", (3.0, 1.6))],
    "Connector_BarrelJack:BarrelJack_CUI_PJ-063AH_Horizontal": [
        ("1", 0, 0, "tht", (3.2, 2.0)), ("2", -6.0, 0, "tht", (3.2, 2.0)),
        ("3", -3.0, 4.7, "tht", (3.2, 2.0))],
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm": (
        [(str(k + 1), -2.475, -4.445 + 1.27 * k, "smd", (1.95, 0.6)) for k in range(8)]
        + [(str(16 - k), 2.475, -4.445 + 1.27 * k, "smd", (1.95, 0.6)) for k in range(8)]),
    "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm": (
        [(str(k + 1), -2.475, -1.905 + 1.27 * k, "smd", (1.95, 0.6)) for k in range(4)]
        + [(str(8 - k), 2.475, -1.905 + 1.27 * k, "smd", (1.95, 0.6)) for k in range(4)]),
}


def lands(nl, ref):
    return LANDS[nl.comps[ref]["footprint"]]


def build_rail(nl, size, name, upper):
    """A rail or the controller: a pin under every upper-plane pad over it, then (the
    controller, and the 15x15's East rail with the far bulk capacitor) its parts, routed."""
    bounds = assembly.rail_bounds(size)[name]
    (ax, ay), (cx, cy) = assembly.sw_link_pairs(size)[0]
    align = None
    if name.startswith("controller"):
        align = (assembly.SW_SEAM - 6.0 + ax, assembly.side(size) + assembly.SW_FIRST + ay)
    elif name.startswith("rail_s"):
        align = (assembly.SW_SEAM - 6.0 + cx, assembly.side(size) + assembly.SW_FIRST + cy)
    b = Build(nl, bounds, align)
    x0, y0, x1, y1 = bounds
    k = 0
    for x, y, net, _what in upper:
        if x0 < x < x1 and y0 < y < y1:
            k += 1
            b.pin("P%d" % k, (x, y), net)
    if name.startswith(("rail_s", "controller")):
        k = sw_link_pins(b, size, k, west=name.startswith("controller"))
    if name.startswith("controller"):
        controller_parts(b, nl, size)
    if name.startswith("rail_e") and size == 15:
        ref = "C%d" % (design.LED_COUNT15 + 5)
        s = assembly.side(size)
        place_netlist_part(b, nl, ref, (s + 25.0, -10.0), lands(nl, ref))
    b.route_all(size)
    b.tile.text(name.replace("_", " "), b.local(x0 + 12, y1 - 3) if not name.startswith(
        "rail_s") else b.local(x1 - 30, y1 - 3), 1.5)
    return b.finish(name)


def sw_link_pins(b, size, k, west):
    """The pins under the link across the controller's and the South rail's seam, each with
    its track out from between the two rows of pins (``west``: the controller's side), so the
    routes start clear of them."""
    out = 9 * b.router.pitch  # the fan-out's end, this far from the inner pins
    for j, pair in enumerate(assembly.sw_link_pairs(size)):
        px, py = pair[0] if west else pair[1]
        at = (assembly.SW_SEAM - 6.0 + px, assembly.side(size) + assembly.SW_FIRST + py)
        net = "COL_%s" % design.FILES15[j].upper()
        k += 1
        pin = b.pin("P%d" % k, at, net)
        inner = j % 2 == 0
        sign = -1 if west else 1
        ix = at[0] + (0 if inner else sign * 2.54)  # the inner pin of this row
        if inner:
            path = [at, (at[0] + sign * 1.27, at[1] + 1.27), (ix + sign * out, at[1] + 1.27)]
        else:
            path = [at, (ix + sign * out, at[1])]
        local = [b.local(*p) for p in path]
        b.track(local, net, 0.25, "F")
        for a, c in zip(local, local[1:], strict=False):
            b.router.add_track("F", a, c, 0.125, net)
        b.pads_by_net[net].remove(pin)
        end = Pad(net, local[-1], "F", radius=0.125)
        b.router.add_pad(end)
        b.pads_by_net[net].append(end)
    return k


def controller_parts(b, nl, size):
    """The Pico (pin 1 West, its USB at the board's West edge), the power path, the level
    shifter, the buttons and on the 15x15 the 74HC595s, all West of the glass's border."""
    s = assembly.side(size)
    base = s - 40.0  # the Pico's centre (y)
    pico = [(num, dx, dy, "tht", (1.7, 1.0)) for num, dx, dy, _ in _pico_pads(size)]
    place_netlist_part(b, nl, "U1", (-48.0, base), pico, angle=90.0)
    n = design.N_CELLS if size == 9 else design.N_CELLS15
    tvs, vsys = "D%d" % (n + 1), "D%d" % (n + 2)
    y = base - 40.0  # the power path, in a row from the jack at the West edge
    place_netlist_part(b, nl, "J1", (-66.0, y), lands(nl, "J1"))
    place_netlist_part(b, nl, "F1", (-58.0, y - 8.0), lands(nl, "F1"))
    place_netlist_part(b, nl, tvs, (-46.0, y - 8.0), lands(nl, tvs))
    place_netlist_part(b, nl, "Q1", (-38.0, y - 8.0), lands(nl, "Q1"))
    place_netlist_part(b, nl, "C1", (-40.0, y + 6.0), lands(nl, "C1"))
    place_netlist_part(b, nl, vsys, (-29.0, y - 8.0), lands(nl, vsys))
    if size == 9:
        place_netlist_part(b, nl, "F2", (-57.0, y + 12.0), lands(nl, "F2"))
        place_netlist_part(b, nl, "JP1", (-30.0, y + 2.0), lands(nl, "JP1"))
    # the level shifter and its parts, by GP22
    place_netlist_part(b, nl, "U2", (-36.0, base + 18.0), lands(nl, "U2"))
    place_netlist_part(b, nl, "C2", (-36.0, base + 22.0), lands(nl, "C2"))
    place_netlist_part(b, nl, "R1", (-30.0, base + 18.0), lands(nl, "R1"))
    if size == 15:
        for k, ref in enumerate(("U3", "U4")):
            # turned so that the outputs QB-QH face North, towards the rows' pins
            place_netlist_part(b, nl, ref, (-62.0 + 26.0 * k, base - 200.0), lands(nl, ref),
                               angle=270.0)
            cap = "C%d" % (design.LED_COUNT15 + 3 + k)
            place_netlist_part(b, nl, cap, (-62.0 + 26.0 * k, base - 209.0), lands(nl, cap))
    # the buttons, South of the Pico, where the frame's top has their holes
    for k in range(3):
        ref = "SW%d" % (k + 1)
        place_netlist_part(b, nl, ref, (-70.0 + 16.0 * k, s + 28.0), lands(nl, ref))


# --- building, checking, writing -----------------------------------------------------------------
def all_designs():
    names = ["tile", "strip", "link_we", "link_ns", "link_strip"]
    for size in (9, 15):
        names += ["link_sw_%dx%d" % (size, size), "controller_%dx%d" % (size, size),
                  "rail_e_%dx%d" % (size, size), "rail_s_%dx%d" % (size, size)]
    return names


def build(name, cache=None):
    """The built design (a hardware.pcb.Tile)."""
    if cache is None:
        cache = {}
    if "nl" not in cache:
        cache["nl"] = {n: Netlist.parse(p.read_text()) for n, p in NETLISTS.items()}
        cache["tile"] = tilepcb.build(cache["nl"][9])
        cache["strip"] = tilepcb.build_strip(cache["nl"][9])
    if name == "tile":
        return tilepcb.build(cache["nl"][9])
    if name == "strip":
        return tilepcb.build_strip(cache["nl"][9])
    if name.startswith("link_"):
        return build_link(cache["nl"][9], name)
    size = 15 if name.endswith("15x15") else 9
    upper = upper_pads(size, cache["tile"].board, cache["strip"].board)
    return build_rail(cache["nl"][size], size, name, upper)


def make(names, out_dir=PCB_DIR, report_dir=BUILD):
    import pcbnew

    out_dir, report_dir = Path(out_dir), Path(report_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = {}
    for name in names:
        built = build(name)
        path = out_dir / ("%s.kicad_pcb" % name)
        pcbnew.SaveBoard(str(path), built.board)
        (report_dir / name).mkdir(parents=True, exist_ok=True)
        errors, warnings, unconnected, _ = tilepcb.drc(path, report_dir / name / "drc.rpt")
        summary[name] = {"drc_errors": errors, "drc_warnings": warnings,
                         "unconnected": unconnected,
                         "footprints": len(built.board.GetFootprints()),
                         "tracks": sum(1 for t in built.board.GetTracks()
                                       if t.GetClass() == "PCB_TRACK"),
                         "vias": sum(1 for t in built.board.GetTracks()
                                     if t.GetClass() == "PCB_VIA")}
        print(name, json.dumps(summary[name]), flush=True)
    return summary


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    names = [a for a in argv if not a.startswith("-")] or all_designs()
    summary = make(names)
    bad = [n for n, s in summary.items() if s["drc_errors"] or s["unconnected"]]
    if bad:
        print("DRC: errors or unconnected items in %s (build/pcb/<design>/drc.rpt)"
              % ", ".join(bad), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    os.environ.setdefault("KICAD_NO_GUI", "1")
    sys.exit(main())
