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
