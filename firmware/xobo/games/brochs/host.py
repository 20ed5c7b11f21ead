"""Brochs on the host (never on the device): one piece a square, and its men, master, donjons
and quadrants drawn, for the simulator, the test kits and the tools (docs/games.md, "The host
module")."""

CELL_HOLDS = (1, "a square holds one piece (BM1, BM2)")
LADDER = ((), 400, (3,), 2)  # make bench: long games, one rung (UCT is slow here)
# the long strength match behind docs/ai.md (xobo_host.bench.strength): long games
STRENGTH = (("search", "greedy", 40, 200, 400,
             "Brochs's default level against greedy, seats rotated"),)
LESSON_SHOT = (4, "pico_15x15")  # docs/learn-brochs.png: on the 15 x 15 board
# how a game ends in the simulator page's words, with the rules they cite
RESULT_WORDS = {
    "resigned": "the other side resigned or accepted submission (BE1, BE3)",
    "master captured": "Black's master was captured (BE1, BE3)",
    "last white piece captured": "White's last piece was captured (BE1, BE3)",
    "submission countdown": "the submission countdown ran out: the side with more donjons "
                            "wins (BE1, BE3)",
    "four donjons": "all four donjons are Black's (BE1, BE3)",
}
LIGHT_PREFIX = ("BR_", "Brochs: ")  # its light codes' prefix (xobo.runtime.colours), words'


def draw(app, name):
    """The pieces (men, the master, White's), the donjons and the quadrants (BB1-BB3)."""
    from xobo.games.brochs import rules
    from xobo.runtime import colours

    pos = app.pos
    # the pieces as they are (the game's PIECE_RGB, the piece sets of hardware/pieces.py):
    # Black's men black, White's natural wood, the master in its light's reddish purple; the
    # LEDs light the players' colours around them
    black, white = getattr(app.layers, "PIECE_RGB", (0x000000, None))
    kinds = {"man": {"rgb": _piece_rgb(black), "label": "Black man"},
             "master": {"rgb": "%06x" % colours.RGB[colours.BR_MASTER],
                        "label": "Black's master"},
             "white": {"rgb": _piece_rgb(white), "label": "White man"}}
    kind = {rules.MAN: "man", rules.MASTER: "master", rules.WHITE: "white"}
    pieces = {}
    quadrant = {}
    for g in range(pos.n_cells):
        k = kind.get(pos.piece(g))
        if k:
            pieces[name(g)] = [k]
        q = rules.QUADRANT[g]
        if q != rules.NO_QUADRANT:
            quadrant[name(g)] = q
    marks = {name(c): "donjon" for c in pos.donjons}
    # the LED lights around a piece, under it (a dark man stays dark, not blue): glow "under"
    # a piece from the box is the side to move's: Black's man (its drops, BM1), White's man
    return {"pieces": pieces, "kinds": kinds, "marks": marks, "quadrant": quadrant,
            "players": [kinds["man"]["rgb"], kinds["white"]["rgb"]], "glow": "under",
            "box": ("man", "white")[pos.side]}


NATURAL_WOOD = "efe2cd"  # an unpainted cube, as the page draws XoBo's


def _piece_rgb(rgb):
    """A piece's colour as the page draws it: natural wood for None (unpainted)."""
    return NATURAL_WOOD if rgb is None else "%06x" % rgb


def record_settings(rec):
    """The settings a BN1 record was played with (its tags Donjons, Imprecation,
    MasterDiagonal, First)."""
    return {"donjon": rec.donjon, "imprecation_choice": rec.imprecation,
            "master_diagonal": rec.master_diagonal, "first": ("black", "white")[rec.first]}


def piece_set(game):
    """Its pieces for hardware/pieces.py: White's men on the edges and donjons (BB4), Black's
    men and the master in hand (BB5). ``(highest stack, pieces, why)``."""
    from xobo.games.brochs import rules
    from xobo.runtime import colours

    pos = game.new_position(game.DEFAULTS)
    white = sum(1 for k in pos.cells if k == rules.WHITE)
    assert white == rules.WHITE_MEN
    # the men are the colours the rules name them by: Black's black, White's natural wood
    # (the board lights blue and orange around them); the game's board layer says so
    from xobo.games import part

    black, white_rgb = part(game, "board").Layers.PIECE_RGB
    return 1, [
        {"owner": "white (men)", "rgb": white_rgb, "count": white, "shape": "cube"},
        {"owner": "black (men)", "rgb": black, "count": pos.res_men, "shape": "cube"},
        {"owner": "black (the master)", "rgb": colours.RGB[colours.BR_MASTER],
         "count": pos.res_master, "shape": "master"},
    ], "White's %d men on the edges and donjons (BB4); Black's %d men and the master in " \
       "hand (BB5), the master taller and in the master's light colour; the men white " \
       "(natural wood) and black as the rules name them, lit orange and blue around them" % (
           white, pos.res_men)


# hardware/overlay.py: an overlay for each donjon setting besides the default's (BB3: 2 to 7)
OVERLAY_VARIANTS = "donjon"


def overlay_marks(game, pos, place, sheet, out):
    """The overlay's marks (hardware/overlay.py): BB2 the cross (file h, rank 8) and h8's
    dot, the quadrants' names, BB3 the donjons, BB4 White's start squares."""
    from xobo.games.brochs import rules
    from xobo.runtime.topology import cell_name

    w = place.width
    cells = {c: sheet.at(place, c) for c in range(place.n_cells)}
    for c, (f, r) in cells.items():
        if rules.QUADRANT[c] == rules.NO_QUADRANT:
            x, y = sheet.square(f, r)
            out.append('<rect data-mark="cross" data-cell="%s" x="%g" y="%g" width="%d" '
                       'height="%d" fill="#DDD"/>' % (cell_name(c, w), x, y, sheet.pitch,
                                                      sheet.pitch))
    for c, (f, r) in cells.items():
        if c in pos.donjons:
            x, y = sheet.square(f, r)
            out.append('<rect data-mark="donjon" data-cell="%s" x="%g" y="%g" width="%d" '
                       'height="%d" fill="none" stroke="#000" stroke-width="2.5"/>'
                       % (cell_name(c, w), x + 3, y + 3, sheet.pitch - 6, sheet.pitch - 6))
            cx, cy = sheet.centre(f, r)
            # a tower's battlements: the donjon at a glance
            out.append('<path d="M%g %g h4 v-4 h4 v4 h4 v-4 h4 v4 h4 v12 h-20 z" fill="none" '
                       'stroke="#000" stroke-width="1"/>' % (cx - 10, cy - 2))
        if pos.cells[c] == rules.WHITE and c not in pos.donjons:
            cx, cy = sheet.centre(f, r)
            out.append('<circle data-mark="white-start" data-cell="%s" cx="%g" cy="%g" r="12" '
                       'fill="none" stroke="#000" stroke-width="1" stroke-dasharray="3 2"/>'
                       % (cell_name(c, w), cx, cy))
    centre = (w // 2) + (place.height // 2) * w
    cx, cy = sheet.centre(*cells[centre])
    out.append('<circle data-mark="centre-dot" data-cell="%s" cx="%g" cy="%g" r="4" '
               'fill="#000"/>' % (cell_name(centre, w), cx, cy))
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
