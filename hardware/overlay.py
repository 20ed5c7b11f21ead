"""The printable overlays for the board's glass: each game's area on each board it fits, the
cells it does not use hatched, and the game's marks (its host module's ``overlay_marks``), and
the overlays a game draws apart (its host module's ``own_overlay_svg`` for the boards of its
``OWN_OVERLAY_BOARDS``: X's on the 9 x 9, hardware/out/x_overlay.svg). Sizes and pitch come
from :mod:`hardware.design`; no game is named here (docs/games.md, "The host module").

Usage::

    from hardware import overlay
    for file_name, game, board, settings in overlay.overlays(): ...
    svg = overlay.overlay_svg(game, board, settings)
    for file_name, game, board in overlay.own_overlays(): ...
    svg = overlay.own_overlay_svg(game, board)
"""

from xobo.games import part

from . import design

# --- every game's overlay, on every board it fits ---------------------------------------------
# What the board shows only as light (a game's area on a bigger board, Chain Reaction's goal rows
# and field, Brochs's donjons, cross and quadrants), printed 1:1 for under the glass. The area is
# placed as the runtime places it (xobo.runtime.topology: centred, rounded down), the marks are
# drawn by the games' host modules (``overlay_marks``, xobo.hostkit) from their start positions.
BOARD_SIZES = {"9x9": design.SIZE, "15x15": design.SIZE15}
OFF_PATTERN = ('<defs><pattern id="off" width="6" height="6" patternUnits="userSpaceOnUse" '
               'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#999" '
               'stroke-width="1"/></pattern></defs>')


class Sheet:
    """The board's glass in mm (y grows downwards, as in SVG): cell (file, rank index) -> its
    centre and its square."""

    def __init__(self, size):
        self.size = size
        self.pitch = design.CELL_PITCH_MM
        self.side = (size + 1) * self.pitch

    def centre(self, f, r):
        p = self.pitch
        return p + p * f, self.side - (p + p * r)

    def square(self, f, r):
        x, y = self.centre(f, r)
        h = self.pitch / 2
        return x - h, y - h

    def at(self, place, c):
        """(file, rank index) on the board of the game's cell ``c`` (``place``: where the
        runtime puts the game's area, xobo.runtime.topology)."""
        b = place.at_board[c]
        return b % self.size, b // self.size


def placement(name, which, settings=None):
    """(game, settings, Placement) of game ``name`` on board ``which``, as the runtime does it."""
    from xobo.games import load
    from xobo.runtime.topology import Topology

    game = load(name)
    settings = dict(game.DEFAULTS, **(settings or {}))
    n = BOARD_SIZES[which]
    w, h = game.area(settings)
    pos = game.new_position(settings)
    used = getattr(pos, "used", None)
    return game, settings, pos, Topology(n, n).place(w, h, used)


def _game_cell(c, width):
    from xobo.runtime.topology import cell_name

    return cell_name(c, width)


def mark_variants(kit, game):
    """(setting, the values other than the default's) of the setting that moves the game's
    marks (its host module's ``OVERLAY_VARIANTS``), read from the game's own SETTINGS range;
    (None, ()) when nothing moves them."""
    key = kit.OVERLAY_VARIANTS
    if key is None:
        return None, ()
    lo, hi = game.SETTINGS[key]
    return key, tuple(v for v in range(lo, hi + 1) if v != game.DEFAULTS[key])


def own_overlays():
    """[(file name, game, board)] of the overlays the games draw apart: their host module's
    ``own_overlay_svg`` on each board of its ``OWN_OVERLAY_BOARDS`` (X's x_overlay.svg)."""
    from xobo import hostkit
    from xobo.games import GAMES

    return [(name.replace("-", "_") + "_overlay" + ("" if which == "9x9" else "_" + which)
             + ".svg", name, which) for name in GAMES
            for which in hostkit.of(name).OWN_OVERLAY_BOARDS]


def own_overlay_svg(name, which, settings=None):
    """The overlay game ``name`` draws apart on board ``which`` (its default settings,
    updated by ``settings``)."""
    from xobo import hostkit
    from xobo.games import load

    game = load(name)
    return hostkit.of(name).own_overlay_svg(game, dict(game.DEFAULTS, **(settings or {})),
                                            Sheet(BOARD_SIZES[which]))


def overlays():
    """[(file name, game, board, settings)] of every overlay hardware/out/ holds besides
    those the games draw apart (``own_overlays``): each game on each board it fits,
    where the board shows more than a full, unmarked grid, and one more for every other value
    of the setting that moves its marks (its host module's ``OVERLAY_VARIANTS``), so a café
    playing a game with that setting lays the sheet that matches its light."""
    from xobo import hostkit
    from xobo.games import GAMES, load

    out = []
    for which, n in BOARD_SIZES.items():
        for name in GAMES:
            game = load(name)
            kit = hostkit.of(name)  # the game's marks and variants: its host module
            w, h = game.area(game.DEFAULTS)
            if w > n or h > n:
                continue
            if (w, h) == (n, n) and kit.overlay_marks is None:
                continue  # the whole board, no marks: nothing to print
            stem = name.replace("-", "_") + "_overlay"
            tail = "" if which == "9x9" else "_" + which
            if which not in kit.OWN_OVERLAY_BOARDS:  # else drawn apart: own_overlays
                out.append((stem + tail + ".svg", name, which, {}))
            key, values = mark_variants(kit, game)
            for v in values:
                vw, vh = game.area(dict(game.DEFAULTS, **{key: v}))
                if vw <= n and vh <= n:
                    out.append(("%s_%s%s%s.svg" % (stem, key, v, tail), name, which, {key: v}))
    return out


def overlay_svg(name, which, settings=None):
    """The overlay of game ``name`` (its default settings, updated by ``settings``) on board
    ``which`` ("9x9" or "15x15"): the board's grid, cells the game does not use hatched (or,
    where the game lights them, labelled), the game's area outlined with its own coordinates,
    and the game's marks."""
    game, settings, pos, place = placement(name, which, settings)
    sheet = Sheet(BOARD_SIZES[which])
    side, p, n = sheet.side, sheet.pitch, sheet.size
    lights_unused = getattr(part(game, "board").Layers, "LIGHTS_UNUSED", False)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" '
        'viewBox="0 0 %d %d">' % (side, side, side, side),
        "<title>%s on the %d x %d board (%d mm cells), print at 1:1</title>"
        % (game.TITLE, n, n, p),
        OFF_PATTERN,
        '<rect x="0" y="0" width="%d" height="%d" fill="none" stroke="#000" '
        'stroke-width="0.5"/>' % (side, side),
        '<g id="grid" fill="none" stroke="#888" stroke-width="0.4">',
    ]
    for b in range(n * n):
        f, r = b % n, b // n
        x, y = sheet.square(f, r)
        g = place.to_game[b]
        inside = (place.ox <= f < place.ox + place.width
                  and place.oy <= r < place.oy + place.height)
        off = not inside or (g == 255 and not lights_unused)
        out.append('<rect x="%g" y="%g" width="%d" height="%d"%s/>'
                   % (x, y, p, p, ' fill="url(#off)"' if off else ""))
    out.append("</g>")
    x, y = sheet.square(place.ox, place.oy + place.height - 1)
    out.append('<rect id="area" data-cells="%s-%s" x="%g" y="%g" width="%d" height="%d" '
               'fill="none" stroke="#000" stroke-width="2"/>' % (
                   _game_cell(0, place.width), _game_cell(place.n_cells - 1, place.width),
                   x, y, place.width * p, place.height * p))
    out.append('<g id="marks">')
    from xobo import hostkit

    marks = hostkit.of(name).overlay_marks  # the game's own: its host module
    if marks is not None:
        marks(game, pos, place, sheet, out)
    out.append("</g>")
    # the game's own coordinates, beside its area (the board's own where the area is the board)
    out.append('<g id="labels" font-family="sans-serif" font-size="8" fill="#000" '
               'text-anchor="middle">')
    for f in range(place.width):
        cx, cy = sheet.centre(place.ox + f, place.oy)
        out.append('<text x="%g" y="%g">%s</text>' % (cx, cy + p / 2 + 9, "abcdefghijklmno"[f]))
    for r in range(place.height):
        cx, cy = sheet.centre(place.ox, place.oy + r)
        out.append('<text x="%g" y="%g">%d</text>' % (cx - p / 2 - 8, cy + 3, r + 1))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
