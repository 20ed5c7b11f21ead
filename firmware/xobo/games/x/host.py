"""X on the host (never on the device): its cells drawn as hexagons and the one piece a cell
holds, for the simulator, the test kits and the tools (docs/games.md, "The host module")."""

CELL_HOLDS = (1, "a cell holds one piece (XM1)")
LADDER = ((), 100, (30, 300), 3)  # make bench: its strength ladder against UCT
LESSON_SHOT = (5, "pico_gpio")  # docs/learn-x.png: its fifth lesson
LIGHT_PREFIX = ("X_", "X: ")  # its light codes' prefix (xobo.runtime.colours), their words'
# hardware/out/x_overlay.svg is its overlay on the 9 x 9 board (hardware.overlay.x_overlay_svg:
# any size, the corners named): hardware/overlay.py makes the others
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
