"""What a lesson's diagram (``xobo_host.sim.diagrams``) must show, read back from its SVG the way a
reader's eye takes it: each cell's outline, each piece's centre and colour, the rings.

Usage::

    from diagramkit import problems
    assert not problems("x", lesson, svg_text)   # [] when every piece sits in its cell...
"""

import math
import xml.etree.ElementTree as ET

from xobo.games import part

NS = "{http://www.w3.org/2000/svg}"


def _points(el):
    """The outline of a cell's shape: a polygon's points, a rect's four corners."""
    if el.tag == NS + "polygon":
        return [tuple(float(v) for v in p.split(",")) for p in el.get("points").split()]
    x, y = float(el.get("x")), float(el.get("y"))
    w, h = float(el.get("width")), float(el.get("height"))
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def inside(point, polygon):
    """True when ``point`` lies strictly inside the convex ``polygon``."""
    x, y = point
    sign = 0
    for k in range(len(polygon)):
        (x0, y0), (x1, y1) = polygon[k], polygon[(k + 1) % len(polygon)]
        cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        if abs(cross) < 1e-9:
            return False
        s = 1 if cross > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return True


def _centre(group):
    """A piece's centre: its first shape's (a circle's, a cube's square)."""
    for el in group:
        if el.tag == NS + "circle":
            return float(el.get("cx")), float(el.get("cy"))
        if el.tag == NS + "rect":
            return (float(el.get("x")) + float(el.get("width")) / 2,
                    float(el.get("y")) + float(el.get("height")) / 2)
    raise AssertionError("a piece with no shape: %s" % ET.tostring(group))


def _fill(group):
    for el in group:
        if el.tag in (NS + "circle", NS + "rect"):
            return el.get("fill").lstrip("#").lower()
    return ""


def read(text):
    """``(root, cells {name: outline}, pieces [(cell, kind, centre, fill)], looks [cell])``."""
    root = ET.fromstring(text)
    cells = {}
    pieces = []
    for el in root.iter():
        cell = el.get("data-at")
        if cell is None:
            continue
        if el.get("data-piece") is not None:
            pieces.append((cell, el.get("data-piece"), _centre(el), _fill(el)))
        elif el.tag in (NS + "rect", NS + "polygon"):
            cells[cell] = _points(el)
    looks = [el.get("data-look") for el in root.iter() if el.get("data-look")]
    return root, cells, pieces, looks


def problems(name, lesson, text):
    """What is wrong with ``text``, the diagram of game ``name``'s ``lesson`` (one of
    ``xobo_host.sim.diagrams.lessons``): a piece whose
    centre is not in its cell or outside the picture, a cell or a piece the position has not
    (or lacks), a ring on no cell; X's cells not regular hexagons or its pieces not in their
    players' colours."""
    from xobo import games
    from xobo.runtime.topology import cell_name

    game = games.load(name)
    settings = dict(game.DEFAULTS)
    pos_text = lesson["position"]
    pos = game.parse_position(pos_text, settings) if pos_text else game.new_position(settings)
    root, cells, pieces, looks = read(text)
    out = []
    width, height = float(root.get("width")), float(root.get("height"))
    used = set(cell_name(g, pos.width) for g in range(pos.n_cells) if pos.used[g])
    if set(cells) != used:
        out.append("cells drawn %s, the game's %s" % (sorted(set(cells) ^ used), len(used)))
    occupied = set(cell_name(g, pos.width) for g in range(pos.n_cells) if pos.heights[g])
    drawn = [p[0] for p in pieces]
    if sorted(drawn) != sorted(occupied):
        out.append("pieces on %s, the position's on %s" % (sorted(drawn), sorted(occupied)))
    for cell, kind, centre, _fill in pieces:
        outline = cells.get(cell)
        if outline is None or not inside(centre, outline):
            out.append("%s's piece (%s) at %.1f,%.1f is not in its cell" % (cell, kind,
                                                                           *centre))
        if not (0 < centre[0] < width and 0 < centre[1] < height):
            out.append("%s's piece is outside the picture" % cell)
    for cell in looks:
        if cell not in cells:
            out.append("a ring on %s, no cell of the game" % cell)
    if sorted(looks) != sorted(lesson["look"]):
        out.append("rings on %s, the lesson's words name %s" % (sorted(looks),
                                                                 sorted(lesson["look"])))
    if root.get("data-shape") == "hex":
        out += _hexagon_problems(cells)
    owner = getattr(pos, "owner", None)
    if owner is not None and name in ("x", "tiny"):
        out += _colour_problems(game, pos, pieces)
    return out


def _hexagon_problems(cells):
    out = []
    for cell, pts in cells.items():
        if len(pts) != 6:
            out.append("%s has %d corners, not a hexagon's 6" % (cell, len(pts)))
            continue
        sides = [math.dist(pts[k], pts[(k + 1) % 6]) for k in range(6)]
        if max(sides) - min(sides) > 0.2:
            out.append("%s is no regular hexagon: sides %s" % (cell, sides))
    return out


def _colour_problems(game, pos, pieces):
    """Each piece in its owner's colour (the board layer's player colour)."""
    from xobo.runtime import colours
    from xobo.runtime.topology import cell_name

    codes = part(game, "board").Layers.PLAYER_CODES
    want = {}
    for g in range(pos.n_cells):
        if pos.owner[g]:
            want[cell_name(g, pos.width)] = "%06x" % colours.RGB[codes[pos.owner[g] - 1]]
    return ["%s is drawn %s, its player's colour is %s" % (cell, fill, want.get(cell))
            for cell, kind, centre, fill in pieces if want.get(cell) != fill]
