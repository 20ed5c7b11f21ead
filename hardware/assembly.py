"""Where every circuit board of a whole board goes (no pcbnew needed): the tiles, the edge
strips, the links between them, the rails and the controller, each as a placement of one of the
generated designs.

    >>> from hardware import assembly
    >>> placed = assembly.placements(9)
    >>> sorted({p.design for p in placed})[:3]
    ['controller_9x9', 'link_ns', 'link_sw_9x9']

Board coordinates, mm: x East, y South, the playing area (the tiles) from (0, 0) at its North-West
corner to (S, S), S = size x 40 mm. A placement maps a design's own coordinates to the board's:
turned by ``rot`` degrees (90: x becomes y, KiCad's y-down sense), then moved by ``(dx, dy)``.

**Two planes.** The tiles and the edge strips lie in the upper plane, side by side; the links,
the rails and the controller lie 1.6 mm below them, under the seams. A header pin through a pad
of the upper plane and the pad right under it joins the two (one pin a pad pair: a 40-pin
breakaway header broken into single pins). A pad of one plane with no pad under it is joined to
nothing; two pads that overlap but do not coincide are a misfit (``hardware.connectivity``).

**Why these boards.** Every join between two boards is a straight row of pins through two pads,
so no wire is cut by hand. The links are small and cheap and every one of a kind is the same;
the rails (East, South) and the controller (West) run the length of the board's edge, so the
data turns at the ends of the ranks, the corners of the edge strips and the rows and columns'
way to the Pico are copper, not wire. The controller is the West rail: the rows leave the tiles
at their West edge, straight into it.
"""

from . import design

PITCH = design.CELL_PITCH_MM
TILE = 3 * PITCH  # a tile's side (hardware.pcb)
STRIP_OUT = 3.0  # an edge strip's inner edge, this far out from the tiles
STRIP_H = 14.0
EDGE_PAD = 1.5  # a tile's or strip's edge pads, this far in from its edge
RAIL_IN = 2.9  # a rail's or the controller's inner edge, this far in over the tiles
RAIL_OUT = 56.0  # the East and South rails reach this far out from the tiles
CONTROLLER_OUT = 75.0  # the controller (the West rail), this far out West
BORDER = 20.0  # the glass's border round the playing area (design: (size+1) x pitch square)
SW_SEAM = RAIL_IN + 0.05  # the seam between the controller and the South rail (x)
SW_FIRST = 20.0  # the first pin of the link across it, this far South of the tiles
SW_PITCH = 3.81  # its rows of pins: two tracks pass between two rows


def side(size):
    return size * PITCH


class Placement:
    def __init__(self, design_name, rot, dx, dy, role):
        self.design = design_name
        self.rot = rot
        self.dx, self.dy = dx, dy
        self.role = role  # what the connectivity check needs: {"kind": "tile", ...}

    def to_board(self, x, y):
        r = self.rot % 360
        if r == 0:
            bx, by = x, y
        elif r == 90:
            bx, by = -y, x
        elif r == 180:
            bx, by = -x, -y
        elif r == 270:
            bx, by = y, -x
        else:
            raise ValueError("rotation %r: 0, 90, 180 or 270" % self.rot)
        return round(bx + self.dx, 4), round(by + self.dy, 4)

    def __repr__(self):
        return "Placement(%s, rot %d, at %.1f, %.1f, %r)" % (self.design, self.rot, self.dx,
                                                            self.dy, self.role)


def tile_placements(size):
    """Tile row ``tr`` (0 at the South) holds ranks 3tr+1..3tr+3; every second row is turned
    by 180 degrees (hardware.pcb: the serpentine)."""
    s = side(size)
    out = []
    n = size // 3
    for tr in range(n):
        for tc in range(n):
            turned = tr % 2 == 1
            ox, oy = tc * TILE, s - (tr + 1) * TILE
            if turned:
                out.append(Placement("tile", 180, ox + TILE, oy + TILE,
                                     {"kind": "tile", "tc": tc, "tr": tr, "turned": True}))
            else:
                out.append(Placement("tile", 0, ox, oy,
                                     {"kind": "tile", "tc": tc, "tr": tr, "turned": False}))
    return out


def tile_cell(role, f, r):
    """(file, rank) on the board, from 0, of a tile's own cell (f, r)."""
    if role["turned"]:
        f, r = 2 - f, 2 - r
    return 3 * role["tc"] + f, 3 * role["tr"] + r


def strip_placements(size):
    """The edge strips, each with its data running the way the chain does: the North edge
    East to West, the West edge North to South, the South edge West to East, the East edge
    South to North (design.EDGE_ORDER). ``k``: the strip's place along its edge in chain
    order."""
    s = side(size)
    out = []
    n = size // 3
    for k in range(n):
        out.append(Placement("strip", 180, s - k * TILE, -STRIP_OUT,
                             {"kind": "strip", "edge": "N", "k": k}))
    for k in range(n):
        out.append(Placement("strip", 90, -STRIP_OUT, k * TILE,
                             {"kind": "strip", "edge": "W", "k": k}))
    for k in range(n):
        out.append(Placement("strip", 0, k * TILE, s + STRIP_OUT,
                             {"kind": "strip", "edge": "S", "k": k}))
    for k in range(n):
        out.append(Placement("strip", 270, s + STRIP_OUT, s - k * TILE,
                             {"kind": "strip", "edge": "E", "k": k}))
    return out


def strip_chain(size, role):
    """The chain index of a strip's own LED k (0 at its data-in end)."""
    start = size * size + design.EDGE_ORDER.index(role["edge"]) * size + role["k"] * 3
    return [start + k for k in range(3)]


# --- links: the designs' own pads (x, y), in pairs across their seam ---------------------------
LINK_W = 10.0  # a link's width across its seam


def tile_we_pad_ys():
    """The y (tile coordinates) of a tile's West and East edge pads, rank by rank: row, the two
    supplies, the data (hardware.pcb)."""
    from . import pcb as g

    ys = []
    for r in range(3):
        cy = TILE - (PITCH / 2 + r * PITCH)
        ys += [cy + g.ROW_Y, cy + g.TOP_BUS_Y, cy + g.LOW_BUS_Y, cy + g.DATA_Y]
    return sorted(ys)


def link_designs(size=None):
    """{design: (width, height, [((x1, y1), (x2, y2)), ...])}: every link's pad pairs, each
    pair joined by a straight track."""
    from . import pcb as g

    c = LINK_W / 2
    we_ys = tile_we_pad_ys()
    top = min(we_ys) - 3.0
    we = [((c - EDGE_PAD, y - top), (c + EDGE_PAD, y - top)) for y in we_ys]
    ns_x0 = PITCH / 2 - 6.0
    ns = [((PITCH / 2 + f * PITCH - ns_x0, c - EDGE_PAD),
           (PITCH / 2 + f * PITCH - ns_x0, c + EDGE_PAD)) for f in range(3)]
    strip = [((c - EDGE_PAD, y), (c + EDGE_PAD, y))
             for y in (g.STRIP_GND_Y, g.STRIP_DATA_Y, g.STRIP_5V_Y)]
    out = {
        "link_we": (LINK_W, max(we_ys) - top + 3.0, we),
        "link_ns": (2 * PITCH + 12.0, LINK_W, ns),
        "link_strip": (LINK_W, STRIP_H, strip),
    }
    for n in (design.SIZE, design.SIZE15):
        if size is not None and n != size:
            continue
        out["link_sw_%dx%d" % (n, n)] = (12.0, 4.0 + SW_PITCH * ((n - 1) // 2),
                                         sw_link_pairs(n))
    return out


def sw_link_pairs(size):
    """The link between the controller and the South rail: the columns, two rows of pins a
    side, 3.81 mm apart along the seam and 2.54 mm across it (a column's track passes between
    the pins of the next), seam at x = 6."""
    pairs = []
    for k in range(size):
        inner = k % 2 == 0
        y = 2.0 + SW_PITCH * (k // 2)
        off = EDGE_PAD if inner else EDGE_PAD + 2.54
        pairs.append(((6.0 - off, y), (6.0 + off, y)))
    return pairs


def link_placements(size):
    s = side(size)
    n = size // 3
    out = []
    we_ys = tile_we_pad_ys()
    top = min(we_ys) - 3.0
    for tr in range(n):
        oy = s - (tr + 1) * TILE
        turned = tr % 2 == 1
        for tc in range(1, n):
            seam = tc * TILE
            if turned:  # its pads are at TILE - y: the link turned round
                h = link_designs()["link_we"][1]
                out.append(Placement("link_we", 180, seam + LINK_W / 2, oy + TILE - top + 0.0,
                                     {"kind": "link", "seam": ("we", tc, tr)}))
                _ = h
            else:
                out.append(Placement("link_we", 0, seam - LINK_W / 2, oy + top,
                                     {"kind": "link", "seam": ("we", tc, tr)}))
    ns_x0 = PITCH / 2 - 6.0
    for tr in range(1, n):
        seam = s - tr * TILE
        for tc in range(n):
            out.append(Placement("link_ns", 0, tc * TILE + ns_x0, seam - LINK_W / 2,
                                 {"kind": "link", "seam": ("ns", tc, tr)}))
    for k in range(1, n):  # the North strips' seams (the other edges' are on the rails)
        x = s - k * TILE
        out.append(Placement("link_strip", 180, x + LINK_W / 2, -STRIP_OUT,
                             {"kind": "link", "seam": ("strip", "N", k)}))
    out.append(Placement("link_sw_%dx%d" % (size, size), 0, SW_SEAM - 6.0, s + SW_FIRST,
                         {"kind": "link", "seam": ("sw",)}))
    return out


def rail_placements(size):
    s = side(size)
    return [
        Placement("controller_%dx%d" % (size, size), 0, -CONTROLLER_OUT, -BORDER - 2.0,
                  {"kind": "controller"}),
        Placement("rail_e_%dx%d" % (size, size), 0, s - RAIL_IN, -BORDER - 2.0,
                  {"kind": "rail", "edge": "E"}),
        Placement("rail_s_%dx%d" % (size, size), 0, RAIL_IN + 0.1, s - RAIL_IN,
                  {"kind": "rail", "edge": "S"}),
    ]


def rail_bounds(size):
    """{design: (x0, y0, x1, y1)} of the rails and the controller, in board coordinates."""
    s = side(size)
    return {
        "controller_%dx%d" % (size, size): (-CONTROLLER_OUT, -BORDER - 2.0, RAIL_IN,
                                            s + RAIL_OUT),
        "rail_e_%dx%d" % (size, size): (s - RAIL_IN, -BORDER - 2.0, s + RAIL_OUT,
                                        s + BORDER + 2.0),
        "rail_s_%dx%d" % (size, size): (RAIL_IN + 0.1, s - RAIL_IN, s - RAIL_IN - 0.1,
                                        s + RAIL_OUT),
    }


def placements(size):
    return tile_placements(size) + strip_placements(size) + link_placements(size) + \
        rail_placements(size)


def designs(size):
    """The designs a board of this size uses, with how many of each."""
    count = {}
    for p in placements(size):
        count[p.design] = count.get(p.design, 0) + 1
    return count


UPPER = ("tile", "strip", "link_sw")  # the designs in the upper plane


def pin_count(size, pcb_dir=None):
    """The header pins a board takes: one under every pin pad of the lower plane's boards
    (each lies under a pad of the upper plane), read from the committed boards' text."""
    from pathlib import Path

    pcb_dir = Path(pcb_dir or Path(__file__).resolve().parent / "out" / "pcb")
    total = 0
    for name, qty in designs(size).items():
        if name.startswith(UPPER):
            continue
        text = (pcb_dir / ("%s.kicad_pcb" % name)).read_text()
        total += qty * text.count('(footprint "XoBo:HeaderPin"')
    return total
