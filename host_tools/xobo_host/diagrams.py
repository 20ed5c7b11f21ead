"""The rules pages' diagrams: SVG pictures of positions, drawn by the project's own code from
each game's lessons (``xobo.games.<name>.lessons``: the positions its course sets up on the
board), so that a picture never disagrees with the rules engine.

Each diagram is one lesson's position: the game's grid (X's rhombus of hexagons, Chain Reaction's
goal rows, Brochs's donjons and central cross), the pieces in the colours the board and the
simulator use, and the cells the lesson speaks of ringed in white. ``tests/test_diagrams.py``
checks that the files in ``docs/rules/diagrams/`` are the ones this code makes (as the hardware
outputs are checked).

Usage::

    python -m xobo_host.diagrams              # (re)writes docs/rules/diagrams/*.svg
    python -m xobo_host.diagrams --check      # exit 1 when a file is missing or stale
"""

import argparse
import math
import os
import sys
import types

from xobo_host.sim.legend import ROOT

OUT_DIR = os.path.join(ROOT, "docs", "rules", "diagrams")
DIAGRAMS_PER_GAME = 3  # the course's first lessons: the goal and the first moves
CELL = 24  # px
BOARD = "#3a2a1e"
SQUARE = "#1d1510"
CUBE = "#d9c6a5"
INK = "#efe6da"


def _rgb(code):
    from xobo.runtime import colours

    return "#%06x" % colours.RGB[code]


def _drawing(game, name, pos):
    """pieces, kinds and marks of ``pos`` (the simulator's drawing hooks), by game cell name."""
    from xobo import hostkit
    from xobo.runtime.topology import cell_name

    layers = game.board_layer().Layers
    hook = hostkit.of(name).draw
    names = game.PLAYER_NAMES

    def gname(g):
        return cell_name(g, pos.width)

    drawn = hook(types.SimpleNamespace(pos=pos, layers=layers, names=names, settings={}),
                 gname) if hook else {}
    kinds = dict(drawn.get("kinds") or {})
    pieces = dict(drawn.get("pieces") or {})
    owner = getattr(pos, "owner", None)
    if owner is not None and "pieces" not in drawn:
        for k in range(len(names)):
            kinds[names[k]] = {"rgb": _rgb(layers.PLAYER_CODES[k])[1:], "label": names[k]}
        for g in range(pos.n_cells):
            if owner[g]:
                pieces[gname(g)] = [names[owner[g] - 1]]
    return pieces, kinds, drawn.get("marks") or {}, drawn.get("shape", "square"), gname


def svg(name, lesson):
    """The SVG text of one lesson's position of game ``name``."""
    from xobo import games

    game = games.load(name)
    settings = dict(game.DEFAULTS)
    pos = game.parse_position(lesson[1], settings) if lesson[1] else game.new_position(settings)
    pieces, kinds, marks, shape, gname = _drawing(game, name, pos)
    look = set(lesson[2].split())
    w, h = pos.width, pos.height
    out = []
    if shape == "hex":  # XB2-XB3: (q, r) a pointy-top hexagon, each rank half a cell East
        r_hex = CELL * 0.56
        dx = r_hex * math.sqrt(3)
        dy = r_hex * 1.5

        def centre(f, r):
            return (r_hex + 4 + dx * (f + r / 2.0), r_hex + 4 + dy * (h - 1 - r))

        width = int(dx * (w + h / 2.0) + 2 * r_hex)
        height = int(dy * (h - 1) + 2 * r_hex + 8)
    else:
        def centre(f, r):
            return (4 + CELL * f + CELL / 2.0, 4 + CELL * (h - 1 - r) + CELL / 2.0)

        width = CELL * w + 8
        height = CELL * h + 8
    out.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
               'viewBox="0 0 %d %d" font-family="sans-serif">' % (width, height, width, height))
    out.append('<title>%s: %s</title>' % (game.TITLE, lesson[0]))
    out.append('<rect width="%d" height="%d" rx="6" fill="%s"/>' % (width, height, BOARD))
    for r in range(h):
        for f in range(w):
            g = r * w + f
            if not pos.used[g]:
                continue
            x, y = centre(f, r)
            cname = gname(g)
            mark = marks.get(cname, "")
            fill = {"goal": "#2c2a14", "goal2": "#3b3714"}.get(mark, SQUARE)
            stroke = ' stroke="#c9a84f" stroke-width="1.5"' if mark == "donjon" else ""
            if shape == "hex":
                pts = " ".join("%.1f,%.1f" % (x + r_hex * 0.96 * math.cos(math.radians(a)),
                                              y + r_hex * 0.96 * math.sin(math.radians(a)))
                               for a in range(30, 390, 60))
                out.append('<polygon points="%s" fill="%s"%s/>' % (pts, fill, stroke))
            else:
                out.append('<rect x="%.1f" y="%.1f" width="%d" height="%d" fill="%s"%s/>' % (
                    x - CELL / 2.0 + 1, y - CELL / 2.0 + 1, CELL - 2, CELL - 2, fill, stroke))
            n = pos.heights[g]
            if n:
                stack = pieces.get(cname) or []
                top = kinds.get(stack[-1]) if stack else None
                if top is None:  # XoBo's cubes, all alike: a cube, its height when a stack
                    out.append('<rect x="%.1f" y="%.1f" width="14" height="14" rx="2" '
                               'fill="%s"/>' % (x - 7, y - 7, CUBE))
                    if n > 1:
                        out.append('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" '
                                   'fill="#000">%d</text>' % (x, y + 4, n))
                else:
                    if len(stack) > 1 and kinds.get(stack[0]):  # a tower: its bottom's ring
                        out.append('<circle cx="%.1f" cy="%.1f" r="9" fill="#%s"/>' % (
                            x, y, kinds[stack[0]]["rgb"]))
                    out.append('<circle cx="%.1f" cy="%.1f" r="%d" fill="#%s" stroke="#9a8a7a" '
                               'stroke-width="1"/>' % (x, y, 6 if len(stack) > 1 else 8,
                                                      top["rgb"]))
                    if stack[-1] == "master":  # the master: a dot of its own light
                        from xobo.runtime.colours import BR_MASTER

                        out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (
                            x, y, _rgb(BR_MASTER)))
            if cname in look:
                out.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="none" stroke="#fff" '
                           'stroke-width="2"/>' % (x, y, CELL * 0.45))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def diagrams():
    """{file name: SVG text} of every game's diagrams."""
    from xobo import games

    out = {}
    for name in games.available():
        game = games.load(name)
        try:
            lessons = __import__(game.__name__ + ".lessons", None, None,
                                 ("LESSONS",)).LESSONS
        except ImportError:
            continue
        shown = [lesson for lesson in lessons if lesson[4] != "play"][:DIAGRAMS_PER_GAME]
        for k, lesson in enumerate(shown, 1):
            out["%s-%d.svg" % (name, k)] = svg(name, lesson)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m xobo_host.diagrams",
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
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % path)
    if stale:
        print("stale or missing: %s (python -m xobo_host.diagrams)" % " ".join(stale),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
