"""Brochs on the host (never on the device): one piece a square, and its men, master, donjons
and quadrants drawn, for the simulator, the test kits and the tools (docs/games.md, "The host
module")."""

CELL_HOLDS = (1, "a square holds one piece (BM1, BM2)")
LADDER = ((), 400, (3,), 2)  # make bench: long games, one rung (UCT is slow here)
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
    return {"pieces": pieces, "kinds": kinds, "marks": marks, "quadrant": quadrant,
            "players": [kinds["man"]["rgb"], kinds["white"]["rgb"]]}


NATURAL_WOOD = "efe2cd"  # an unpainted cube, as the page draws XoBo's


def _piece_rgb(rgb):
    """A piece's colour as the page draws it: natural wood for None (unpainted)."""
    return NATURAL_WOOD if rgb is None else "%06x" % rgb


def record_settings(rec):
    """The settings a BN1 record was played with (its tags Donjons, Imprecation,
    MasterDiagonal, First)."""
    return {"donjon": rec.donjon, "imprecation_choice": rec.imprecation,
            "master_diagonal": rec.master_diagonal, "first": ("black", "white")[rec.first]}
