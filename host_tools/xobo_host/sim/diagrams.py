"""The lessons' diagrams: one SVG picture of a lesson's position, drawn by the project's own code
from the game's own geometry and its lessons (``xobo.games.<name>.lessons``: the positions its
course sets up on the board), so that a picture never disagrees with the rules engine. The
rules pages (``docs/rules/diagrams/*.svg``), the simulator's How to play panel (its guide, by
``lesson_diagrams``) and the lessons all show this same SVG.

Each diagram is one lesson's position: the game's cells (squares, or X's rhombus of pointy-top
hexagons, XB2-XB3: each rank half a cell East of the one under it), its files and ranks in the
game's own notation, Chain Reaction's goal rows, Brochs's donjons, the pieces in the colours
the board and the simulator use (XoBo's cubes, a stack with its height; X's and the test game's
pieces in their players' colours; Chain Reaction's towers; Brochs's men and master), and the
cells the lesson speaks of ringed in white. Every cell and piece says which cell it is
(``data-at``), every piece what it is (``data-piece``): ``tests/test_diagrams.py`` checks that
each piece's centre lies in its cell, on every game's every diagram, and that the files in
``docs/rules/diagrams/`` are the ones this code makes (as the hardware outputs are checked).

Usage::

    python -m xobo_host.sim.diagrams              # (re)writes docs/rules/diagrams/*.svg
    python -m xobo_host.sim.diagrams --check      # exit 1 when a file is missing or stale

    >>> from xobo_host.sim import diagrams
    >>> pictures = diagrams.lesson_diagrams("x")  # every lesson but the game
    >>> lesson, text = pictures[0]
    >>> lesson["title"], text.startswith("<svg"), 'data-at="a1"' in text
    ('the goal', True, True)
"""

import argparse
import math
import os
import sys
import types
from xml.sax.saxutils import escape

from xobo.games import part
from xobo_host.sim.legend import ROOT

OUT_DIR = os.path.join(ROOT, "docs", "rules", "diagrams")
DIAGRAMS_PER_GAME = 3  # the rules pages show the course's first lessons: the goal, first moves
CELL = 24  # px: a square's side, a hexagon's width
MARGIN = 4  # px around the cells
LABELS = 12  # px left of and under the cells: the files and ranks
BOARD = "#3a2a1e"
SQUARE = "#1d1510"
CUBE = "#d9c6a5"
INK = "#b8a48e"
LOOK = "#ffffff"
MARK_FILL = {"goal": "#2c2a14", "goal2": "#3b3714"}


def _rgb(code):
    from xobo.runtime import colours

    return "%06x" % colours.RGB[code]


class Geometry:
    """Where a game's cells are drawn: ``centre(f, r)`` of file f, rank r (rank 1 at the
    bottom), the cell's outline (``outline(f, r)``: an SVG element's tag and attributes) and
    the picture's size. ``shape`` "square", or "hex": X's rhombus (XB2, XB3), whose cell (q, r)
    is a pointy-top hexagon CELL wide, each rank half a cell East of the one under it."""

    def __init__(self, shape, w, h):
        self.shape = shape
        self.w, self.h = w, h
        self.left = MARGIN + LABELS
        if shape == "hex":
            self.radius = CELL / math.sqrt(3)  # a pointy-top hexagon CELL wide
            self.pitch_y = 1.5 * self.radius
            self.width = self.left + CELL * (w + (h - 1) / 2.0) + MARGIN
            self.cells_height = 2 * self.radius + self.pitch_y * (h - 1)
        else:
            self.radius = CELL / 2.0
            self.pitch_y = CELL
            self.width = self.left + CELL * w + MARGIN
            self.cells_height = CELL * h
        self.height = MARGIN + self.cells_height + LABELS + MARGIN

    def centre(self, f, r):
        if self.shape == "hex":
            return (self.left + CELL * (f + r / 2.0) + CELL / 2.0,
                    MARGIN + self.radius + self.pitch_y * (self.h - 1 - r))
        return (self.left + CELL * f + CELL / 2.0, MARGIN + CELL * (self.h - 1 - r) + CELL / 2.0)

    def corners(self, f, r, inset=1.0):
        """The outline's corners (a hexagon's six, a square's four), ``inset`` px inside."""
        x, y = self.centre(f, r)
        if self.shape == "hex":
            rad = self.radius - inset
            return [(x + rad * math.cos(math.radians(a)), y + rad * math.sin(math.radians(a)))
                    for a in range(-90, 270, 60)]
        half = CELL / 2.0 - inset
        return [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                (x - half, y + half)]

    def outline(self, f, r):
        pts = self.corners(f, r)
        if self.shape == "hex":
            return "polygon", 'points="%s"' % " ".join("%.1f,%.1f" % p for p in pts)
        (x0, y0), (x1, y1) = pts[0], pts[2]
        return "rect", 'x="%.1f" y="%.1f" width="%.1f" height="%.1f"' % (x0, y0, x1 - x0,
                                                                           y1 - y0)

    def file_label(self, f):
        """Where file f's letter goes: under its cell of the first rank."""
        x, y = self.centre(f, 0)
        return x, MARGIN + self.cells_height + LABELS - 2

    def rank_label(self, r):
        """Where rank r's number goes: left of its first cell."""
        x, y = self.centre(0, r)
        return x - CELL / 2.0 - 2, y + 3.5


def _drawing(game, name, pos):
    """The pieces, kinds and marks of ``pos`` (the simulator's drawing hooks, the players'
    colours where the game draws none), by game cell name: ``(pieces, kinds, marks, shape)``."""
    from xobo import hostkit
    from xobo.runtime.topology import cell_name

    layers = part(game, "board").Layers
    hook = hostkit.of(name).draw
    names = game.PLAYER_NAMES
    drawn = hook(types.SimpleNamespace(pos=pos, layers=layers, names=names, settings={}),
                 lambda g: cell_name(g, pos.width)) if hook else {}
    kinds = dict(drawn.get("kinds") or {})
    pieces = dict(drawn.get("pieces") or {})
    owner = getattr(pos, "owner", None)
    if owner is not None and "pieces" not in drawn:  # X's, the test game's: their colours
        labels = hostkit.of(name).PLAYER_LABELS or [p.capitalize() for p in names]
        for k in range(len(names)):
            kinds[names[k]] = {"rgb": _rgb(layers.PLAYER_CODES[k]), "label": labels[k]}
        for g in range(pos.n_cells):
            if owner[g]:
                pieces[cell_name(g, pos.width)] = [names[owner[g] - 1]]
    return pieces, kinds, drawn.get("marks") or {}, drawn.get("shape", "square")


def lessons(name):
    """Game ``name``'s course as a reader sees it: ``[{"title", "position" (its text, "" for
    the start), "words" (what the lesson asks), "look" (the cells its words name), "game"
    (True for the last lesson, the game against the computer)}]``; [] for a game without a
    course. The words and their cells are the learn mode's own: the engine's answers
    (``xobo.runtime.course``) filled into the lessons' words."""
    from xobo import games

    game = games.load(name)
    try:
        module = games.part(game, "lessons")
    except ImportError:
        return []
    from xobo.runtime import course, learn
    from xobo.runtime.topology import cell_name

    settings = dict(game.DEFAULTS)
    out = []
    for les in module.LESSONS:
        text = les[learn.POSITION]
        pos = game.parse_position(text, settings) if text else game.new_position(settings)
        play = les[learn.EXPECT] == "play"

        def gname(g, w=pos.width):
            return cell_name(g, w)

        cond = course.Condition(module, "" if play else les[learn.EXPECT], gname,
                                [n.capitalize() for n in game.PLAYER_NAMES])
        out.append({"title": les[learn.TITLE], "position": text,
                    "words": cond.fill(les[learn.ASK_WORDS], pos),
                    "look": cond.fill(les[learn.LOOK], pos, look=True).split(),
                    "game": play})
    return out


def _piece(out, cname, x, y, stack, n, kinds):
    """One cell's pieces, centred on (x, y): a group that names its cell and its top piece."""
    top = kinds.get(stack[-1]) if stack else None
    if top is None:  # XoBo's cubes, all alike: a cube, its height when a stack (B6)
        out.append('<g data-at="%s" data-piece="cube" data-height="%d">'
                   '<rect x="%.1f" y="%.1f" width="14" height="14" rx="2" fill="%s"/>'
                   % (cname, n, x - 7, y - 7, CUBE))
        if n > 1:
            out.append('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" '
                       'fill="#000">%d</text>' % (x, y + 4, n))
        out.append("</g>")
        return
    words = " on ".join(kinds[k]["label"] for k in reversed(stack) if k in kinds)
    out.append('<g data-at="%s" data-piece="%s" data-height="%d"><title>%s: %s</title>'
               % (cname, escape(stack[-1]), len(stack), cname, escape(words)))
    if len(stack) > 1 and kinds.get(stack[0]):  # a tower: its bottom piece's ring
        out.append('<circle cx="%.1f" cy="%.1f" r="9" fill="#%s"/>'
                   % (x, y, kinds[stack[0]]["rgb"]))
    out.append('<circle cx="%.1f" cy="%.1f" r="%d" fill="#%s" stroke="#9a8a7a" '
               'stroke-width="1"/>' % (x, y, 6 if len(stack) > 1 else 8, top["rgb"]))
    if stack[-1] == "master":  # Brochs's master: a dot of its own light
        from xobo.runtime.colours import BR_MASTER

        out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#%s"/>' % (x, y, _rgb(BR_MASTER)))
    out.append("</g>")


def svg(name, lesson):
    """The SVG text of one lesson's position of game ``name`` (``lesson``: one of
    ``lessons(name)``; its default settings: the lessons are for them)."""
    from xobo import games
    from xobo.runtime.topology import cell_name

    game = games.load(name)
    settings = dict(game.DEFAULTS)
    title, text, look = lesson["title"], lesson["position"], lesson["look"]
    pos = game.parse_position(text, settings) if text else game.new_position(settings)
    pieces, kinds, marks, shape = _drawing(game, name, pos)
    w, h = pos.width, pos.height
    geo = Geometry(shape, w, h)
    look = set(look)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" data-game="%s" data-shape="%s">'
           % (math.ceil(geo.width), math.ceil(geo.height), math.ceil(geo.width),
              math.ceil(geo.height), name, shape),
           "<title>%s: %s</title>" % (escape(game.TITLE), escape(title)),
           '<rect width="%d" height="%d" rx="6" fill="%s"/>' % (math.ceil(geo.width),
                                                               math.ceil(geo.height), BOARD)]
    used = [(g % w, g // w) for g in range(pos.n_cells) if pos.used[g]]
    for f, r in used:
        cname = cell_name(r * w + f, w)
        mark = marks.get(cname, "")
        stroke = ' stroke="#c9a84f" stroke-width="1.5"' if mark == "donjon" else ""
        tag, attrs = geo.outline(f, r)
        out.append('<%s data-at="%s" %s fill="%s"%s/>' % (tag, cname, attrs,
                                                              MARK_FILL.get(mark, SQUARE), stroke))
    files = sorted(set(f for f, r in used if r == min(rr for ff, rr in used if ff == f)))
    out.append('<g font-size="9" fill="%s" text-anchor="middle">' % INK)
    for f in files:
        x, y = geo.file_label(f)
        out.append('<text x="%.1f" y="%.1f">%s</text>' % (x, y, cell_name(f, w)[0]))
    for r in sorted(set(r for f, r in used)):
        x, y = geo.rank_label(r)
        out.append('<text x="%.1f" y="%.1f" text-anchor="end">%d</text>' % (x, y, r + 1))
    out.append("</g>")
    for f, r in used:
        g = r * w + f
        if pos.heights[g]:
            cname = cell_name(g, w)
            x, y = geo.centre(f, r)
            _piece(out, cname, x, y, pieces.get(cname) or [], pos.heights[g], kinds)
    for f, r in used:
        cname = cell_name(r * w + f, w)
        if cname in look:
            x, y = geo.centre(f, r)
            out.append('<circle data-look="%s" cx="%.1f" cy="%.1f" r="%.1f" fill="none" '
                       'stroke="%s" stroke-width="2"/>' % (cname, x, y, CELL * 0.45, LOOK))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def lesson_diagrams(name):
    """``[(lesson, SVG text)]`` of every lesson of game ``name``'s course (``lessons``) but its
    game against the computer: the How to play panel's pictures (the rules pages show the
    first ones)."""
    return [(lesson, svg(name, lesson)) for lesson in lessons(name) if not lesson["game"]]


def diagrams():
    """{file name: SVG text} of every game's rules-page diagrams."""
    from xobo import games

    out = {}
    for name in games.available():
        shown = lesson_diagrams(name)[:DIAGRAMS_PER_GAME]
        for k, (_lesson, text) in enumerate(shown, 1):
            out["%s-%d.svg" % (name, k)] = text
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m xobo_host.sim.diagrams",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="only check that the files are current")
    args = ap.parse_args(argv)
    stale = []
    for fname, text in sorted(diagrams().items()):
        path = os.path.join(OUT_DIR, fname)
        try:
            with open(path) as f:
                same = f.read() == text
        except OSError:
            same = False
        if same:
            continue
        if args.check:
            stale.append(fname)
            continue
        os.makedirs(OUT_DIR, exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
        print("wrote %s" % path)
    if stale:
        print("stale or missing: %s (python -m xobo_host.sim.diagrams)" % " ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
