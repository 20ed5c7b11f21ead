"""The mechanical parts as DXF for a laser cutter (ezdxf), 1:1 in mm, from the design's pitch
and the assembly (hardware/assembly.py): the frame, the light baffle grid and the piece tray.

    >>> from hardware import mechanical
    >>> sorted(mechanical.parts(9))[:2]
    ['baffle', 'frame_base']
    >>> mechanical.write(9, Path("build/order/pico_gpio"))   # frame_base.dxf, ...

**The frame** (``MATERIAL`` plywood) is a base plate the circuit boards lie on, four walls, and
two rings on top: the ledge the glass rests on (its window a ``LEDGE`` smaller than the glass on
every side) and the top ring round the glass's edge. Its inside holds every board of the
assembly with ``PLAY`` to spare; the buttons rise through holes in both rings over the
controller, the USB port and the power jack reach out through the West wall.

**The baffle** is an egg-crate: strips as long as the playing area, one between every two files
and ranks and one at each edge, slotted half their height where they cross, so each cell's LED
lights only its cell.

**The tray** has one compartment per colour of piece (hardware/pieces.py ``tray``): a base with
the compartments' walls drawn as the cut lines of the grid of strips.
"""

from pathlib import Path

from . import assembly, design, pieces

MATERIAL = "3 mm birch plywood (laser grade)"
THICK = 3.0  # the plywood
PLAY = 2.0
LEDGE = 5.0  # the glass rests this far on the ledge ring
BAFFLE_H = 15.0  # design.MECHANICAL: 15 mm high
WALL_H = 40.0  # base to the glass's underside: the boards (two planes, parts) and the baffle
BUTTON_HOLE = 13.0  # a 12 mm button's cap passes


def glass_mm(size):
    return (size + 1) * design.CELL_PITCH_MM


def inside(size):
    """(x0, y0, x1, y1) board coordinates the frame's walls enclose."""
    s = assembly.side(size)
    boxes = list(assembly.rail_bounds(size).values())
    g = (glass_mm(size) - s) / 2
    boxes.append((-g, -g, s + g, s + g))
    return (min(b[0] for b in boxes) - PLAY, min(b[1] for b in boxes) - PLAY,
            max(b[2] for b in boxes) + PLAY, max(b[3] for b in boxes) + PLAY)


def _rect(msp, x0, y0, x1, y1, layer="CUT"):
    # DXF's y runs up: the board's y (South) is drawn downwards
    msp.add_lwpolyline([(x0, -y0), (x1, -y0), (x1, -y1), (x0, -y1)], close=True,
                       dxfattribs={"layer": layer})


def _doc():
    import ezdxf

    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.layers.add("CUT", color=1)
    doc.layers.add("TEXT", color=5)
    return doc


def _note(msp, text, x, y, h=4.0):
    msp.add_text(text, height=h, dxfattribs={"layer": "TEXT"}).set_placement((x, -y))


def buttons_at(size):
    """The buttons' centres in board coordinates (hardware.boards places them)."""
    s = assembly.side(size)
    return [(-70.0 + 16.0 * k + 6.25, s + 28.0 + 2.5) for k in range(3)]


def parts(size):
    """{name: (ezdxf document, [(what, quantity, size text)])}."""
    out = {}
    x0, y0, x1, y1 = inside(size)
    ox0, oy0, ox1, oy1 = x0 - THICK, y0 - THICK, x1 + THICK, y1 + THICK
    s = assembly.side(size)
    g = (glass_mm(size) - s) / 2
    # base
    doc = _doc()
    msp = doc.modelspace()
    _rect(msp, ox0, oy0, ox1, oy1)
    _note(msp, "frame base %dx%d" % (size, size), ox0 + 10, oy0 + 10)
    out["frame_base"] = (doc, [("frame base plate", 1, "%.0f x %.0f mm" % (ox1 - ox0,
                                                                         oy1 - oy0))])
    # the ledge ring and the top ring
    for name, window, what in (("frame_ledge", -LEDGE, "ledge ring (the glass rests on it)"),
                               ("frame_top", 0.5, "top ring (round the glass)")):
        doc = _doc()
        msp = doc.modelspace()
        _rect(msp, ox0, oy0, ox1, oy1)
        _rect(msp, -g - window, -g - window, s + g + window, s + g + window)
        for bx, by in buttons_at(size):
            msp.add_circle((bx, -by), BUTTON_HOLE / 2, dxfattribs={"layer": "CUT"})
        _note(msp, "%s %dx%d" % (name, size, size), ox0 + 10, oy0 + 10)
        out[name] = (doc, [(what, 1, "%.0f x %.0f mm, window %.0f mm square" % (
            ox1 - ox0, oy1 - oy0, glass_mm(size) + 2 * window))])
    # walls: North and South as long as the base, West and East between them
    doc = _doc()
    msp = doc.modelspace()
    walls = [("N", ox1 - ox0), ("S", ox1 - ox0), ("W", y1 - y0), ("E", y1 - y0)]
    y = 0.0
    for side, length in walls:
        _rect(msp, 0, y, length, y + WALL_H)
        _note(msp, "wall %s" % side, 5, y + 8)
        if side == "W":  # the USB port and the power jack reach out here
            for cy, w, h in ((s - 40.0, 14.0, 10.0), (s - 80.0, 12.0, 14.0)):  # USB, jack
                cy = cy - y0
                _rect(msp, cy - w / 2, y + WALL_H - 6 - h, cy + w / 2, y + WALL_H - 6)
        y += WALL_H + 5
    out["frame_walls"] = (doc, [("frame wall, %s" % w[0], 1, "%.0f x %.0f mm" % (w[1], WALL_H))
                                for w in walls])
    # the baffle: size + 1 strips each way, slotted half their height at every crossing
    doc = _doc()
    msp = doc.modelspace()
    pitch = design.CELL_PITCH_MM
    length = s + THICK
    for way in range(2):
        for k in range(size + 1):
            y = (way * (size + 1) + k) * (BAFFLE_H + 3)
            top = way == 0  # one way slotted from the top, the other from the bottom
            pts = [(0, y)]
            for c in range(size + 1):
                cx = THICK / 2 + c * pitch
                a, b = cx - THICK / 2, cx + THICK / 2
                if top:
                    pts += [(a, y), (a, y + BAFFLE_H / 2), (b, y + BAFFLE_H / 2), (b, y)]
                else:
                    pass
            pts.append((length, y))
            if top:
                pts += [(length, y + BAFFLE_H), (0, y + BAFFLE_H)]
            else:
                pts += [(length, y + BAFFLE_H)]
                for c in range(size, -1, -1):
                    cx = THICK / 2 + c * pitch
                    a, b = cx - THICK / 2, cx + THICK / 2
                    pts += [(b, y + BAFFLE_H), (b, y + BAFFLE_H / 2), (a, y + BAFFLE_H / 2),
                            (a, y + BAFFLE_H)]
                pts += [(0, y + BAFFLE_H)]
            msp.add_lwpolyline([(px, -py) for px, py in pts], close=True,
                               dxfattribs={"layer": "CUT"})
    out["baffle"] = (doc, [("baffle strip, slotted from the top", size + 1,
                            "%.0f x %.0f mm" % (length, BAFFLE_H)),
                           ("baffle strip, slotted from the bottom", size + 1,
                            "%.0f x %.0f mm" % (length, BAFFLE_H))])
    # the tray: the base and its compartments' walls as cut outlines
    which = "15x15" if size == 15 else "9x9"
    comps, (w, d, h) = pieces.tray(which)
    doc = _doc()
    msp = doc.modelspace()
    _rect(msp, 0, 0, w, d)
    for kind, cx, cy, cw, cd in comps:
        _rect(msp, cx, cy, cx + cw, cy + cd, layer="TEXT")
        _note(msp, str(kind.get("colour", kind.get("shape", ""))), cx + 1, cy + 5, 2.5)
    _rect(msp, 0, d + 5, w, d + 5 + h)  # the long sides
    _rect(msp, 0, d + 10 + h, w, d + 10 + 2 * h)
    _rect(msp, 0, d + 15 + 2 * h, d, d + 15 + 3 * h)  # the short sides
    _rect(msp, d + 5, d + 15 + 2 * h, 2 * d + 5, d + 15 + 3 * h)
    out["tray"] = (doc, [("piece tray base (compartments engraved)", 1, "%.0f x %.0f mm" % (
        w, d)), ("piece tray side", 4, "%.0f or %.0f x %.0f mm" % (w, d, h))])
    return out


def write(size, directory):
    """The DXF files into ``directory``; [(file, what, quantity, size text)] for the order."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, (doc, items) in parts(size).items():
        path = directory / ("%s_%dx%d.dxf" % (name, size, size))
        doc.saveas(path)
        rows += [(path.name, what, qty, dims) for what, qty, dims in items]
    return rows


def sheets(size):
    """The cut sheets' materials for the order: [(what, material, size text)], glass and
    diffuser included."""
    g = glass_mm(size)
    glass = design.GLASS15_MM if size == 15 else design.GLASS_MM
    return [("glass", "%d mm float glass, arrissed edges" % glass, "%d x %d mm" % (g, g)),
            ("diffuser", "%d mm opal acrylic (PMMA)" % design.DIFFUSER_MM,
             "%d x %d mm" % (g, g)),
            ("frame, baffle, tray", MATERIAL, "the DXF files (1:1, mm, layer CUT)")]
