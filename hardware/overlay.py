"""The printable overlay for the board's glass when it plays X (docs/rules/x.md): the 9 x 9
cell grid with X's rhombus on it and the hex links between its cells.

X's cells are hexagons (XB3): on the square grid each cell touches its four orthogonal
neighbours and its NW and SE diagonal ones, never the NE and SW ones. The overlay draws a
line from each cell's centre to each of its neighbours', so players see which diagonals
touch; the cells outside the rhombus (file i and rank 9 for the default size 8) are hatched:
they stay dark and never count. Sizes and pitch come from :mod:`hardware.design`.

Usage::

    from hardware import overlay
    svg = overlay.x_overlay_svg(8)       # the text of hardware/out/x_overlay.svg
"""

from . import design

LINK_DIRS = ((1, 0), (0, 1), (-1, 1))  # E, N, NW: each link drawn once (its other end: W, S, SE)


def _centre(f, r):
    """(x, y) in mm of cell (file f, rank index r) on the glass; y grows downwards."""
    p = design.CELL_PITCH_MM
    side = (design.SIZE + 1) * p
    return p + p * f, side - (p + p * r)


def hex_links(n):
    """The neighbour pairs of an n x n X rhombus anchored at a1: ((q, r), (q2, r2)) once each."""
    out = []
    for r in range(n):
        for q in range(n):
            for dq, dr in LINK_DIRS:
                q2, r2 = q + dq, r + dr
                if 0 <= q2 < n and 0 <= r2 < n:
                    out.append(((q, r), (q2, r2)))
    return out


def x_overlay_svg(n=8):
    """The overlay's SVG text for X of size ``n`` (4-9) on the 9 x 9 board."""
    if not 4 <= n <= design.SIZE:
        raise ValueError("X's size must be 4-%d, not %d" % (design.SIZE, n))
    p = design.CELL_PITCH_MM
    size = design.SIZE
    side = (size + 1) * p
    half = p / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" '
        'viewBox="0 0 %d %d">' % (side, side, side, side),
        "<title>X (Mark Steere) overlay, size %d, on the %d x %d board (%d mm cells): "
        "the lines join the cells that touch</title>" % (n, size, size, p),
        "<defs><pattern id=\"off\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
        "stroke=\"#999\" stroke-width=\"1\"/></pattern></defs>",
        '<rect x="0" y="0" width="%d" height="%d" fill="none" stroke="#000" '
        'stroke-width="0.5"/>' % (side, side),
        '<g id="grid" fill="none" stroke="#888" stroke-width="0.4">',
    ]
    for r in range(size):
        for f in range(size):
            x, y = _centre(f, r)
            used = f < n and r < n
            out.append('<rect x="%g" y="%g" width="%d" height="%d"%s/>'
                       % (x - half, y - half, p, p, "" if used else ' fill="url(#off)"'))
    out.append("</g>")
    out.append('<g id="links" stroke="#000" stroke-width="1.2" stroke-linecap="round">')
    for (q, r), (q2, r2) in hex_links(n):
        x1, y1 = _centre(q, r)
        x2, y2 = _centre(q2, r2)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g"/>' % (x1, y1, x2, y2))
    out.append("</g>")
    out.append('<g id="labels" font-family="sans-serif" font-size="8" fill="#000" '
               'text-anchor="middle">')
    for f in range(size):
        x, _ = _centre(f, 0)
        out.append('<text x="%g" y="%g">%s</text>' % (x, side - 6, design.FILES[f]))
    for r in range(size):
        _, y = _centre(0, r)
        out.append('<text x="%g" y="%g">%d</text>' % (8, y + 3, r + 1))
    corners = (("SW", 0, 0, -1, -1), ("SE", n - 1, 0, 1, -1), ("NW", 0, n - 1, -1, 1),
               ("NE", n - 1, n - 1, 1, 1))
    for name, q, r, dx, dy in corners:
        x, y = _centre(q, r)
        out.append('<text x="%g" y="%g" font-weight="bold">%s</text>'
                   % (x + dx * 0.3 * p, y - dy * 0.3 * p + 3, name))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- every game's overlay, on every board it fits ---------------------------------------------
# What the board shows only as light (a game's area on a bigger board, Chain Reaction's goal rows
# and field, Brochs's donjons, cross and quadrants), printed 1:1 for under the glass. The area is
# placed as the runtime places it (xobo.runtime.topology: centred, rounded down), the marks come
# from the games' start positions (their own rules engines).
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


def _hex(rgb):
    return "#%06X" % rgb


def _marks_chain_reaction(game, pos, place, sheet, out):
    """CB2 goal rows (value 1 or 2), CB3 home squares (the start position), the field."""
    from xobo.runtime import colours

    colours_of = [colours.RGB[c] for c in game.board_layer().Layers.PLAYER_CODES[:2]]
    w = place.width
    for player in (0, 1):
        for c in pos.goal_cells(player):
            f, r = place.at_board[c] % sheet.size, place.at_board[c] // sheet.size
            x, y = sheet.square(f, r)
            cx, cy = sheet.centre(f, r)
            out.append('<rect data-mark="goal" data-cell="%s" x="%g" y="%g" width="%d" '
                       'height="%d" fill="#EEE" stroke="#000" stroke-width="0.8"/>'
                       % (_game_cell(c, w), x, y, sheet.pitch, sheet.pitch))
            out.append('<text x="%g" y="%g" font-size="14" text-anchor="middle" '
                       'font-family="sans-serif">%d</text>' % (cx, cy + 5, pos.goal_value(c)))
    field = [c for c in range(place.n_cells) if pos.used[c] and not pos.goal_value(c)]
    fs = [place.at_board[c] % sheet.size for c in field]
    rs = [place.at_board[c] // sheet.size for c in field]
    x, y = sheet.square(min(fs), max(rs))
    out.append('<rect id="field" x="%g" y="%g" width="%d" height="%d" fill="none" '
               'stroke="#000" stroke-width="1.5"/>' % (
                   x, y, (max(fs) - min(fs) + 1) * sheet.pitch,
                   (max(rs) - min(rs) + 1) * sheet.pitch))
    for c in range(place.n_cells):
        owner = pos.owner(c) if pos.used[c] else -1
        if owner >= 0:
            cx, cy = sheet.centre(place.at_board[c] % sheet.size, place.at_board[c] // sheet.size)
            out.append('<circle data-mark="home-%s" data-cell="%s" cx="%g" cy="%g" r="12" '
                       'fill="none" stroke="%s" stroke-width="2"/>' % (
                           game.PLAYER_NAMES[owner], _game_cell(c, w), cx, cy,
                           _hex(colours_of[owner])))
        elif not pos.used[c]:
            cx, cy = sheet.centre(place.at_board[c] % sheet.size, place.at_board[c] // sheet.size)
            out.append('<text data-mark="score" data-cell="%s" x="%g" y="%g" font-size="6" '
                       'text-anchor="middle" font-family="sans-serif" fill="#555">score</text>'
                       % (_game_cell(c, w), cx, cy + 2))


def _marks_brochs(game, pos, place, sheet, out):
    """BB2 the cross (file h, rank 8) and h8's dot, the quadrants' names, BB3 the donjons,
    BB4 White's start squares."""
    from xobo.games.brochs import rules

    w = place.width
    cells = {}
    for c in range(place.n_cells):
        b = place.at_board[c]
        cells[c] = (b % sheet.size, b // sheet.size)
    for c, (f, r) in cells.items():
        if rules.QUADRANT[c] == rules.NO_QUADRANT:
            x, y = sheet.square(f, r)
            out.append('<rect data-mark="cross" data-cell="%s" x="%g" y="%g" width="%d" '
                       'height="%d" fill="#DDD"/>' % (_game_cell(c, w), x, y, sheet.pitch,
                                                      sheet.pitch))
    for c, (f, r) in cells.items():
        if c in pos.donjons:
            x, y = sheet.square(f, r)
            out.append('<rect data-mark="donjon" data-cell="%s" x="%g" y="%g" width="%d" '
                       'height="%d" fill="none" stroke="#000" stroke-width="2.5"/>'
                       % (_game_cell(c, w), x + 3, y + 3, sheet.pitch - 6, sheet.pitch - 6))
            cx, cy = sheet.centre(f, r)
            # a tower's battlements: the donjon at a glance
            out.append('<path d="M%g %g h4 v-4 h4 v4 h4 v-4 h4 v4 h4 v12 h-20 z" fill="none" '
                       'stroke="#000" stroke-width="1"/>' % (cx - 10, cy - 2))
        if pos.cells[c] == rules.WHITE and c not in pos.donjons:
            cx, cy = sheet.centre(f, r)
            out.append('<circle data-mark="white-start" data-cell="%s" cx="%g" cy="%g" r="12" '
                       'fill="none" stroke="#000" stroke-width="1" stroke-dasharray="3 2"/>'
                       % (_game_cell(c, w), cx, cy))
    centre = (w // 2) + (place.height // 2) * w
    cx, cy = sheet.centre(*cells[centre])
    out.append('<circle data-mark="centre-dot" data-cell="%s" cx="%g" cy="%g" r="4" '
               'fill="#000"/>' % (_game_cell(centre, w), cx, cy))
    for name in rules.QUADRANT_NAMES:  # in each quadrant's outer corner, clear of the pieces
        fq = 1 if name.endswith("W") else w - 2
        rq = place.height - 2 if name.startswith("N") else 1
        if rq * w + fq in pos.donjons:  # a donjon setting of 2 puts it there: the corner
            fq = 0 if name.endswith("W") else w - 1
            rq = place.height - 1 if name.startswith("N") else 0
        cx, cy = sheet.centre(*cells[rq * w + fq])
        out.append('<text data-mark="quadrant" data-quadrant="%s" x="%g" y="%g" font-size="16" '
                   'text-anchor="middle" font-family="sans-serif" fill="#999">%s</text>'
                   % (name, cx, cy + 6, name))


def _marks_x(game, pos, place, sheet, out):
    """XB3: a line between every two cells that touch."""
    out.append('<g data-mark="links" stroke="#000" stroke-width="1.2" stroke-linecap="round">')
    for (q, r), (q2, r2) in hex_links(place.width):
        x1, y1 = sheet.centre(q + place.ox, r + place.oy)
        x2, y2 = sheet.centre(q2 + place.ox, r2 + place.oy)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g"/>' % (x1, y1, x2, y2))
    out.append("</g>")
    # XS1: the four corners the players win, named in their cells' outer corners
    n = place.width
    for name, q, r, dx, dy in (("SW", 0, 0, -1, -1), ("SE", n - 1, 0, 1, -1),
                               ("NW", 0, n - 1, -1, 1), ("NE", n - 1, n - 1, 1, 1)):
        x, y = sheet.centre(q + place.ox, r + place.oy)
        out.append('<text data-mark="corner" data-corner="%s" x="%g" y="%g" font-size="8" '
                   'font-weight="bold" text-anchor="middle" font-family="sans-serif">%s</text>'
                   % (name, x + dx * 0.3 * sheet.pitch, y - dy * 0.3 * sheet.pitch + 3, name))


MARKS = {"chain-reaction": _marks_chain_reaction, "brochs": _marks_brochs, "x": _marks_x}


def _game_cell(c, width):
    from xobo.runtime.topology import cell_name

    return cell_name(c, width)


# the settings that move a game's marks: every other value of each has its own overlay beside the
# default's, so a café playing a game with that setting lays the sheet that matches its light
MARK_SETTINGS = {
    "chain-reaction": "field",  # CB1: a field of 6 or 7 ranks
    "x": "size",  # XB1: a rhombus of 4 to 9 cells a side
    "brochs": "donjon",  # BB3: the donjons on (k, k) and its mirror images, k from 2 to 7
}


def mark_variants(name, game):
    """(setting, the values other than the default's) of the setting that moves the game's
    marks, read from the game's own SETTINGS range; (None, ()) when nothing moves them."""
    key = MARK_SETTINGS.get(name)
    if key is None:
        return None, ()
    lo, hi = game.SETTINGS[key]
    return key, tuple(v for v in range(lo, hi + 1) if v != game.DEFAULTS[key])


def overlays():
    """[(file name, game, board, settings)] of every overlay hardware/out/ holds besides
    x_overlay.svg (X's default on the 9x9): each game on each board it fits, where the board
    shows more than a full, unmarked grid, and one more for every other value of the setting
    that moves its marks (``MARK_SETTINGS``)."""
    from xobo.games import GAMES, load

    out = []
    for which, n in BOARD_SIZES.items():
        for name in GAMES:
            game = load(name)
            w, h = game.area(game.DEFAULTS)
            if w > n or h > n:
                continue
            if (w, h) == (n, n) and name not in MARKS:
                continue  # the whole board, no marks: nothing to print
            stem = name.replace("-", "_") + "_overlay"
            tail = "" if which == "9x9" else "_" + which
            if not (which == "9x9" and name == "x"):  # that one is x_overlay.svg
                out.append((stem + tail + ".svg", name, which, {}))
            key, values = mark_variants(name, game)
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
    lights_unused = getattr(game.board_layer().Layers, "LIGHTS_UNUSED", False)
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
    if name in MARKS:
        MARKS[name](game, pos, place, sheet, out)
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
