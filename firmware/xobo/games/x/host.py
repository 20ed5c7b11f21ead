"""X on the host (never on the device): its cells drawn as hexagons and the one piece a cell
holds, for the simulator, the test kits and the tools (docs/games.md, "The host module")."""

CELL_HOLDS = (1, "a cell holds one piece (XM1)")
LADDER = ((), 100, (30, 300), 3)  # make bench: its strength ladder against UCT
# the long strength match behind docs/ai.md (xobo_host.bench.strength)
STRENGTH = (("search", "uct:1000", 60, 1000, 200,
             "X's default level against two UCT-1,000 players"),)
LESSON_SHOT = (5, "pico_gpio")  # docs/learn-x.png: its fifth lesson
FLOOR_SHOT = ("e5", "d5")  # docs/cafe-floor.png: two players' pieces in their colours
LIGHT_PREFIX = ("X_", "X: ")  # its light codes' prefix (xobo.runtime.colours), their words'
# hardware/out/x_overlay.svg is its overlay on the 9 x 9 board, drawn apart (own_overlay_svg,
# below: the whole grid, the cells outside the rhombus hatched): hardware/overlay.py makes the
# others
OWN_OVERLAY_BOARDS = ("9x9",)
# hardware/overlay.py: an overlay for each size besides the default's (XB1: 4 to 9 cells a side)
OVERLAY_VARIANTS = "size"
LINK_DIRS = ((1, 0), (0, 1), (-1, 1))  # E, N, NW: each link once (its other end: W, S, SE)


def draw(app, name):
    """A rhombus of hexagons: XB3's six neighbours are the cells that touch (the players'
    colours are the page's default for a game with ``pos.owner``)."""
    return {"shape": "hex"}


def record_settings(rec):
    """The settings an XN1 record was played with: its size and first player."""
    from xobo.games.x import PLAYER_NAMES

    return {"size": rec.size, "first": PLAYER_NAMES[rec.first]}


def links(n):
    """XB3: the pairs of cells that touch on an n x n rhombus anchored at a1,
    ``((q, r), (q2, r2))`` once each (a cell's six neighbours: the orthogonal ones, NW, SE)."""
    out = []
    for r in range(n):
        for q in range(n):
            for dq, dr in LINK_DIRS:
                q2, r2 = q + dq, r + dr
                if 0 <= q2 < n and 0 <= r2 < n:
                    out.append(((q, r), (q2, r2)))
    return out


def overlay_marks(game, pos, place, sheet, out):
    """The overlay's marks (hardware/overlay.py), XB3: a line between every two cells that
    touch."""
    out.append('<g data-mark="links" stroke="#000" stroke-width="1.2" stroke-linecap="round">')
    for (q, r), (q2, r2) in links(place.width):
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


def own_overlay_svg(game, settings, sheet):
    """The SVG text of X's own overlay (``OWN_OVERLAY_BOARDS``; hardware/overlay.py writes it)
    of size ``settings["size"]`` on the glass ``sheet`` (``hardware.overlay.Sheet``: its
    ``size`` cells a side, its ``pitch`` and ``side`` in mm, a cell's ``centre``): the grid, the
    cells outside the rhombus hatched (they stay dark and never count), a line from each cell's
    centre to each of its neighbours' (XB3: the orthogonal ones, NW and SE, never NE or SW),
    the files and ranks, and the four corners the players win (XS1)."""
    n = settings["size"]
    size, p, side = sheet.size, sheet.pitch, sheet.side
    if not 4 <= n <= size:
        raise ValueError("X's size must be 4-%d, not %d" % (size, n))
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
            x, y = sheet.centre(f, r)
            used = f < n and r < n
            out.append('<rect x="%g" y="%g" width="%d" height="%d"%s/>'
                       % (x - half, y - half, p, p, "" if used else ' fill="url(#off)"'))
    out.append("</g>")
    out.append('<g id="links" stroke="#000" stroke-width="1.2" stroke-linecap="round">')
    for (q, r), (q2, r2) in links(n):
        x1, y1 = sheet.centre(q, r)
        x2, y2 = sheet.centre(q2, r2)
        out.append('<line x1="%g" y1="%g" x2="%g" y2="%g"/>' % (x1, y1, x2, y2))
    out.append("</g>")
    out.append('<g id="labels" font-family="sans-serif" font-size="8" fill="#000" '
               'text-anchor="middle">')
    for f in range(size):
        x, _ = sheet.centre(f, 0)
        out.append('<text x="%g" y="%g">%s</text>' % (x, side - 6, chr(ord("a") + f)))
    for r in range(size):
        _, y = sheet.centre(0, r)
        out.append('<text x="%g" y="%g">%d</text>' % (8, y + 3, r + 1))
    corners = (("SW", 0, 0, -1, -1), ("SE", n - 1, 0, 1, -1), ("NW", 0, n - 1, -1, 1),
               ("NE", n - 1, n - 1, 1, 1))
    for name, q, r, dx, dy in corners:
        x, y = sheet.centre(q, r)
        out.append('<text x="%g" y="%g" font-weight="bold">%s</text>'
                   % (x + dx * 0.3 * p, y - dy * 0.3 * p + 3, name))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
