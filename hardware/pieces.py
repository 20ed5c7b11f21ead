"""The pieces a café orders for each game, and the magnet that makes every one of them close its
cell's reed switch (and no other).

Everything is read from the games themselves (``xobo.games``): which games fit on which board
(their ``area`` against the board's grid), how many players, whose pieces light in which colour
(each game's board layer: ``PLAYER_CODES`` and ``xobo.runtime.colours.RGB``), how many pieces a
side has and how high they stack (each game's host module, ``piece_set`` through
``xobo.hostkit``: its rules engine's own constants and start position; the default is one piece
a cell, the largest area filled). A
piece is an 18 mm wooden cube with a disc magnet in its bottom face; a piece of one colour serves
every game that uses that colour, so a table's stock is, per colour, the most any of its games
needs (``stock``).

The magnetic model (``check_magnet``) is documented in hardware/out/pieces.md, which this module
writes (``pieces_md``) together with the BOM's piece rows (``bom_rows``).

    >>> from hardware import pieces
    >>> [s["count"] for s in pieces.game_sets("9x9")["chain-reaction"]["pieces"]]
    [11, 11]
"""

import functools
import math

from . import design

# --- the boards' grids and surfaces (mm) -----------------------------------------------------
BOARD_SIZES = {"9x9": design.SIZE, "15x15": design.SIZE15}
GLASS_MM = {"9x9": design.GLASS_MM, "15x15": design.GLASS15_MM}

# --- the pieces -----------------------------------------------------------------------------
PIECE_MM = design.CUBE_MM  # every piece is an 18 mm cube: one size fits every game and tower
MASTER_HEIGHT_MM = 30  # Brochs's master: 18 x 18 x 30 mm, a head taller than every man
NATURAL = "natural wood"  # XoBo's neutral cubes: unpainted, nobody owns them (B5)
# Okabe-Ito names of the colours the board lights (xobo.runtime.colours)
PALETTE_NAMES = {
    0x000000: "black", 0xE69F00: "orange", 0x56B4E9: "sky blue", 0x009E73: "bluish green",
    0xF0E442: "yellow",
    0x0072B2: "blue", 0xD55E00: "vermillion", 0xCC79A7: "reddish purple",
}

# --- the reed switch (Standex-Meder KSK-1A66 datasheet figures, as assumed here) -------------
# Pull-in of the two grades the BOM names, in ampere-turns; drop-out is not given per grade in
# the figures at hand: assumed at least 40 % of the lowest pull-in (a typical reed's hysteresis
# keeps drop-out between 40 % and 80 % of pull-in).
REED_GRADES = {"KSK-1A66-1015": (10, 15), "KSK-1A66-1520": (15, 20)}
REED_GRADE = "KSK-1A66-1015"
DROP_OUT_FRACTION = 0.40
REED_GLASS_MM = 14  # glass length: the contact gap (blade overlap) is at its middle
# AT -> mT: the long-solenoid formula B = mu0 * NI / l (Littelfuse application note AN102A,
# "Ampere*turn versus mT and Gauss", calls it an order-of-magnitude rule) with l the test coil's
# length, assumed 12.7 mm for a 14 mm glass; so 10 AT = 0.99 mT.
TEST_COIL_MM = 12.7
# The same note: a magnet acting on one end of the reed with one pole (our upright reed under an
# axial magnet) needs about twice the field of the uniform test coil.
ONE_POLE_FACTOR = 2.0
# What the model asks: the field at the gap at least this times the grade's highest pull-in
# (one-pole) with one piece; the field of every neighbour together at most this fraction of the
# lowest drop-out, so a closed switch opens when its own piece is lifted, whatever stands next.
CLOSE_MARGIN = 1.5
NEIGHBOUR_FRACTION = 0.5
MU0 = 4e-7 * math.pi

# --- the magnets on offer: axially magnetised NdFeB discs (diameter, height mm), and each grade's
# lowest remanence Br (T) from the grade tables (IEC 60404-8-1 / the makers' tables) ------------
MAGNET_SIZES = ((5, 2), (6, 2), (6, 3), (8, 2), (8, 3), (10, 3))
GRADES = {"N35": 1.17, "N42": 1.28, "N52": 1.42}


def at_to_mt(at):
    """A reed's AT rating as the field (mT) of its test coil (the long-solenoid formula)."""
    return MU0 * at / (TEST_COIL_MM / 1000.0) * 1000.0


def axial_field_mt(z_mm, diameter, height, br):
    """The field (mT) on the axis of an axially magnetised disc, z_mm below its face: the exact
    on-axis formula of a uniformly magnetised cylinder, B = Br/2 ((z+L)/sqrt((z+L)^2+R^2) -
    z/sqrt(z^2+R^2))."""
    r = diameter / 2.0
    a = (z_mm + height) / math.sqrt((z_mm + height) ** 2 + r * r)
    b = z_mm / math.sqrt(z_mm * z_mm + r * r)
    return br / 2.0 * (a - b) * 1000.0


def dipole_bz_mt(rho_mm, z_mm, diameter, height, br):
    """The vertical field (mT) of the disc seen as a point dipole at its centre, rho_mm aside and
    z_mm below the centre: Bz = mu0 m / (4 pi r^3) (3 cos^2 theta - 1), m = Br V / mu0. At the
    neighbouring cells (40 mm and more away, the magnet 6-10 mm wide) the dipole is exact to a
    few per cent; on the axis, close by, the exact formula above is used instead."""
    volume = math.pi * (diameter / 2.0) ** 2 * height  # mm^3
    r2 = rho_mm * rho_mm + z_mm * z_mm
    r = math.sqrt(r2)
    cos2 = z_mm * z_mm / r2
    return br * volume / (4 * math.pi * r ** 3) * (3 * cos2 - 1) * 1000.0


def gap_depth_mm(which):
    """From a piece's bottom face to the reed's contact gap: glass, diffuser, the air under it,
    the magnet's recess, then half the upright reed's glass."""
    return (GLASS_MM[which] + design.DIFFUSER_MM + design.AIR_GAP_MM + design.MAGNET_RECESS_MM
            + REED_GLASS_MM / 2.0)


def stack_field(z_mm, rho_mm, height, magnet, flipped_top=False):
    """Vertical field at the gap of a stack of ``height`` pieces, rho_mm aside (0: above the
    reed). ``flipped_top``: the top piece's magnet the wrong way up (a mis-glued piece)."""
    d, h, br = magnet
    total = 0.0
    for k in range(height):
        z = z_mm + k * PIECE_MM
        if rho_mm == 0:
            b = axial_field_mt(z, d, h, br)
        else:
            b = dipole_bz_mt(rho_mm, z + h / 2.0, d, h, br)
        total += -b if (flipped_top and k == height - 1 and k > 0) else b
    return total


def neighbour_fields(z_mm, magnet, max_height, rho_mm):
    """The vertical field (mT) at a reed's gap from one neighbour rho_mm away holding a stack of
    1 to ``max_height`` pieces: (the most along the cell's own piece's field, the most against
    it), each 0 when no height gives that sign. The lower pieces of a neighbour, seen at a
    shallow angle, oppose the cell's own piece; the higher ones, seen more from above, aid it:
    a single piece is the strongest neighbour, not the highest stack."""
    fields = [stack_field(z_mm, rho_mm, h, magnet) for h in range(1, max_height + 1)]
    return max(0.0, max(fields)), min(0.0, min(fields))


def check_magnet(magnet, which, max_height, grade=REED_GRADE):
    """The model's figures for one magnet (diameter, height, Br) on one board with stacks up to
    ``max_height``: a dict of fields (mT) and thresholds, and ``ok``.

    Fields along the own piece's (positive) are "aiding", against it "opposing". The eight
    neighbours may each hold any height, so the worst case of each sign is the most of that
    sign any height gives, times four at the next cells and four at the diagonal ones."""
    lo, hi = REED_GRADES[grade]
    z = gap_depth_mm(which)
    pitch = design.CELL_PITCH_MM
    one = stack_field(z, 0, 1, magnet)
    two = stack_field(z, 0, 2, magnet)
    # two stacked, the upper one glued the wrong way up: the weakest a tower can be
    tower_worst = stack_field(z, 0, 2, magnet, flipped_top=True)
    tower = stack_field(z, 0, max(2, max_height), magnet)
    orth_aid, orth_opp = neighbour_fields(z, magnet, max_height, pitch)
    diag_aid, diag_opp = neighbour_fields(z, magnet, max_height, pitch * math.sqrt(2))
    aiding = 4 * orth_aid + 4 * diag_aid
    opposing = -(4 * orth_opp + 4 * diag_opp)  # as a magnitude
    pull_in_hi = at_to_mt(hi) * ONE_POLE_FACTOR
    pull_in_lo = at_to_mt(lo)  # no one-pole factor: the most sensitive a switch can be
    drop_out = at_to_mt(lo) * DROP_OUT_FRACTION
    checks = {  # in the order pieces.md numbers them, (1) to (5)
        # every switch of the batch closes under one piece, with room to spare
        "closes": one >= CLOSE_MARGIN * pull_in_hi,
        # a tower whose top piece was glued the wrong way up still closes it
        "tower_flipped": tower_worst >= pull_in_hi,
        # one piece ringed by eight neighbours whose fields all oppose it still closes it
        "crowded": one - opposing >= pull_in_hi,
        # an empty cell among eight neighbours, whatever they hold, never closes
        "no_false_closure": max(aiding, opposing) <= NEIGHBOUR_FRACTION * pull_in_lo,
        # lifting its piece opens the switch: what the neighbours leave along the old field
        # is under the drop-out (an opposing field is crossed through zero on the way, and
        # the switch opens there)
        "opens": aiding <= NEIGHBOUR_FRACTION * drop_out,
    }
    return {
        "depth_mm": z, "one": one, "two": two, "tower": tower, "tower_flipped": tower_worst,
        "next_cell": max(orth_aid, -orth_opp), "diagonal": max(diag_aid, -diag_opp),
        "next_cell_aiding": orth_aid, "next_cell_opposing": -orth_opp,
        "diagonal_aiding": diag_aid, "diagonal_opposing": -diag_opp,
        "aiding": aiding, "opposing": opposing, "crowded": one - opposing,
        "pull_in_hi": pull_in_hi, "pull_in_lo": pull_in_lo, "drop_out": drop_out,
        "margin": one / pull_in_hi, "checks": checks, "ok": all(checks.values()),
    }


def choose_magnet(max_height):
    """The smallest stock magnet (least NdFeB, then the lowest grade) that passes the model on
    every board: one magnet for every piece of every game."""
    options = []
    for d, h in MAGNET_SIZES:
        for grade, br in GRADES.items():
            volume = math.pi * (d / 2.0) ** 2 * h
            options.append((volume, br, d, h, grade))
    for _volume, br, d, h, grade in sorted(options):
        if all(check_magnet((d, h, br), w, max_height)["ok"] for w in BOARD_SIZES):
            return {"diameter": d, "height": h, "grade": grade, "br": br}
    raise ValueError("no stock magnet closes the reed through the glass without closing the "
                     "neighbours: change the reed grade or the glass")


# --- the games' piece sets --------------------------------------------------------------------
def _games():
    from xobo.games import GAMES, load

    return [(name, load(name)) for name in GAMES]


def hosts(name, game, which):
    """True when the game fits on the board (its default area, as the runtime places it)."""
    w, h = game.area(game.DEFAULTS)
    n = BOARD_SIZES[which]
    return w <= n and h <= n


@functools.lru_cache(maxsize=4)
def game_sets(which):
    """{game: {"title", "players", "max_height", "pieces": [...], "why"}} for the games that
    fit on board ``which`` ("9x9" or "15x15")."""
    from xobo import hostkit

    out = {}
    for name, game in _games():
        if not hosts(name, game, which):
            continue
        top, sets, why = hostkit.of(name).piece_set(game)  # from the game's host module
        out[name] = {"title": game.TITLE, "players": game.PLAYERS, "max_height": top,
                     "pieces": sets, "why": why}
    return out


def colour_name(rgb):
    if rgb is None:
        return NATURAL
    return PALETTE_NAMES.get(rgb, "#%06X" % rgb)


def _kind(piece):
    return (piece["shape"], piece["rgb"])


def stock(which):
    """One table's pieces: per (shape, colour) the most any hosted game needs, with the games
    that use it, in order of first use."""
    kinds = {}
    for name, g in game_sets(which).items():
        for p in g["pieces"]:
            k = kinds.setdefault(_kind(p), {"shape": p["shape"], "rgb": p["rgb"], "count": 0,
                                            "games": []})
            k["count"] = max(k["count"], p["count"])
            k["games"].append("%s %d" % (name, p["count"]))
    return list(kinds.values())


def max_height(which=None):
    boards = [which] if which else list(BOARD_SIZES)
    return max(g["max_height"] for w in boards for g in game_sets(w).values())


def magnet():
    return choose_magnet(max_height())


def _magnet_text(m):
    return "%dx%d mm %s disc, axially magnetised" % (m["diameter"], m["height"], m["grade"])


def _piece_text(kind):
    rgb = "" if kind["rgb"] is None else " (#%06X)" % kind["rgb"]
    if kind["shape"] == "master":
        return "%d x %d x %d mm wooden block, %s%s, a crown ring cut 5 mm below the top" % (
            PIECE_MM, PIECE_MM, MASTER_HEIGHT_MM, colour_name(kind["rgb"]), rgb)
    return "%d mm wooden cube, %s%s" % (PIECE_MM, colour_name(kind["rgb"]), rgb)


def bom_rows(which):
    """The BOM's piece rows (after the circuit parts): one per colour, then the magnets."""
    m = magnet()
    rows = []
    total = 0
    for kind in stock(which):
        total += kind["count"]
        item = "piece_%s" % colour_name(kind["rgb"]).replace(" ", "_")
        if kind["shape"] == "master":
            item = "piece_master"
        rows.append({
            "item": item, "category": "Piece", "quantity": kind["count"], "refs": "",
            "value": _piece_text(kind), "footprint": "", "manufacturer": "generic",
            "mpn": "wood cube %d mm" % PIECE_MM if kind["shape"] == "cube"
            else "wood block %dx%dx%d mm" % (PIECE_MM, PIECE_MM, MASTER_HEIGHT_MM),
            "note": "for " + ", ".join(kind["games"]) + "; %d mm x %.1f mm blind hole in the "
            "bottom face for the magnet" % (m["diameter"], m["height"] + 0.2),
        })
    rows.append({
        "item": "magnet", "category": "Magnet", "quantity": total, "refs": "",
        "value": _magnet_text(m), "footprint": "", "manufacturer": "generic",
        "mpn": "%s D%dx%d" % (m["grade"], m["diameter"], m["height"]),
        "note": "one in the bottom face of every piece, North pole down on every piece; "
        "this grade and size, not a stronger one (hardware/out/pieces.md)",
    })
    rows.append({
        "item": "tray", "category": "Storage", "quantity": 1, "refs": "",
        "value": "piece tray, %d compartments (hardware/out/pieces.md)" % len(stock(which)),
        "footprint": "", "manufacturer": "generic", "mpn": "3 mm MDF or 3D print",
        "note": "one compartment per colour, labelled with the games that use it",
    })
    return rows


FALLBACK_GRADE = "KSK-1A66-1520"  # the less sensitive grade the BOM offers


def fallback_text(mag):
    """What the fallback reed grade does with the chosen magnet: its checks and margins."""
    cs = {w: check_magnet(mag, w, max_height(), FALLBACK_GRADE) for w in BOARD_SIZES}
    failed = sorted({list(c["checks"]).index(k) + 1 for c in cs.values()
                     for k, v in c["checks"].items() if not v})
    return ("**The fallback grade** (%s, %d-%d AT, for a board where a hovering hand closes "
            "switches) with the same magnet: margin (1) %s%s; %s. It is the less sensitive "
            "switch: order it only after the bench test below, and never with a weaker magnet."
            % (FALLBACK_GRADE, REED_GRADES[FALLBACK_GRADE][0], REED_GRADES[FALLBACK_GRADE][1],
               ", ".join("%.2f on the %s" % (c["margin"], w) for w, c in cs.items()),
               " (under the %g the model asks)" % CLOSE_MARGIN if 1 in failed else "",
               "passes (2) to (5)" if not failed or failed == [1] else "fails " + ", ".join(
                   "(%d)" % n for n in failed if n != 1)))


# --- the storage tray ------------------------------------------------------------------------
TRAY_COLUMNS = 5  # pieces across a compartment
TRAY_SLOT_MM = PIECE_MM + 1  # 1 mm play around each piece
TRAY_WALL_MM = 3
TRAY_MAX_MM = 330  # fits beside a 9x9 board's 400 mm glass


def tray(which):
    """Compartments (one per colour) packed in rows no wider than TRAY_MAX_MM:
    [(kind, x, y, inner w, inner d)] (inner corner, mm) and the tray's outer (w, d, h)."""
    comps = []
    x = y = TRAY_WALL_MM
    row_depth = 0
    width = 0
    for kind in stock(which):
        rows = -(-kind["count"] // TRAY_COLUMNS)
        cw = min(TRAY_COLUMNS, kind["count"]) * TRAY_SLOT_MM
        cd = rows * TRAY_SLOT_MM
        if kind["shape"] == "master":  # lying on its side: 30 mm would stand out of the tray
            cw = kind["count"] * (MASTER_HEIGHT_MM + TRAY_SLOT_MM - PIECE_MM)
        if x + cw + TRAY_WALL_MM > TRAY_MAX_MM and x > TRAY_WALL_MM:
            x = TRAY_WALL_MM
            y += row_depth + TRAY_WALL_MM
            row_depth = 0
        comps.append((kind, x, y, cw, cd))
        x += cw + TRAY_WALL_MM
        width = max(width, x)
        row_depth = max(row_depth, cd)
    return comps, (width, y + row_depth + TRAY_WALL_MM, PIECE_MM + TRAY_WALL_MM)


# --- the document -----------------------------------------------------------------------------
def _fmt(x):
    return "%.2f" % x


def pieces_md(header):
    m = magnet()
    mag = (m["diameter"], m["height"], m["br"])
    lines = [
        header,
        "# Pieces: what each game needs, the magnet, the tray",
        "",
        "Every piece is an %d mm wooden cube (Brochs's master an %d x %d x %d mm block) with "
        "one %s, glued in the centre of its bottom face, **North pole down on every piece**. The "
        "colours are the board's own (Okabe-Ito, `xobo.runtime.colours`): a piece has the "
        "colour its cell lights under it, but for Brochs's men, white (natural wood) and "
        "black as its rules name them (its board layer's `PIECE_RGB`). A colour serves "
        "every game that uses it, so a table "
        "stocks, per colour, the most any of its games needs. Generated by "
        "`python -m hardware.generate` from the games' packages (`hardware/pieces.py`)."
        % (PIECE_MM, PIECE_MM, PIECE_MM, MASTER_HEIGHT_MM, _magnet_text(m)),
        "",
    ]
    for which in BOARD_SIZES:
        n = BOARD_SIZES[which]
        lines += ["## The %s board" % which, "",
                  "| game | players | pieces | highest stack | why |",
                  "| --- | --- | --- | --- | --- |"]
        for g in game_sets(which).values():
            pieces = "; ".join("%d %s (%s)" % (p["count"], colour_name(p["rgb"]) + (
                " master" if p["shape"] == "master" else ""), p["owner"]) for p in g["pieces"])
            lines.append("| %s | %d | %s | %d | %s |" % (g["title"], g["players"], pieces,
                                                         g["max_height"], g["why"]))
        lines += ["", "**Stock a %dx%d table for every game it hosts:**" % (n, n), "",
                  "| pieces | colour | count | used by |", "| --- | --- | --- | --- |"]
        total = 0
        for kind in stock(which):
            total += kind["count"]
            lines.append("| %s | %s | %d | %s |" % (
                "master block" if kind["shape"] == "master" else "cube",
                colour_name(kind["rgb"]) + ("" if kind["rgb"] is None
                                            else " `%06X`" % kind["rgb"]),
                kind["count"], ", ".join(kind["games"])))
        lines += ["| **all** | | **%d** (and %d magnets) | |" % (total, total), ""]
    lines += [
        "Chain Reaction's Light pieces are blue and Dark's orange because the board lights "
        "them so (`chain_reaction/board.py`: the first player's colour is blue). Brochs's "
        "sides are named by their colours: Black's men are black and White's natural wood "
        "(the unpainted cubes XoBo's set already has), the master reddish purple; the board "
        "lights Black blue and White orange around them, as a black piece cannot be lit "
        "(`brochs/board.py`: `PIECE_RGB`). XoBo's cubes are unpainted: nobody owns them, and "
        "the light around a cube tells the moves. Paint or dye to the hex values (a paint "
        "shop mixes to an sRGB swatch; a matt "
        "water-based lacquer over it survives handling).",
        "",
        "**The Brochs master** is told apart at a glance three ways: it is a head taller "
        "(%d mm against %d), its colour is the master's light (reddish purple, not Black's "
        "black), and a crown ring is cut round it 5 mm below its top. It carries the same "
        "magnet, at the same depth, as every cube: the switch sees it like any piece."
        % (MASTER_HEIGHT_MM, PIECE_MM),
        "",
        "## The magnet, checked against the reed switch",
        "",
        "The reed (%s, upright under the cell centre, %d mm glass, the contact gap at its "
        "middle) closes when the field along its axis reaches its pull-in. The model:"
        % (REED_GRADE, REED_GLASS_MM),
        "",
        "- **Reed figures assumed** (datasheet class of the KSK-1A66): pull-in %d-%d AT "
        "(grade -1015; -1520 is 15-20 AT); drop-out at least %d %% of the lowest pull-in. "
        "AT to mT by the long-solenoid formula B = mu0 NI / l over a %.1f mm test coil "
        "(Littelfuse AN102A calls it an order-of-magnitude rule): %d AT = %s mT, %d AT = %s mT. "
        "A magnet acting on one end of the reed with one pole needs about %g times the coil's "
        "field (the same note): the one-pole pull-in is %s mT."
        % (REED_GRADES[REED_GRADE][0], REED_GRADES[REED_GRADE][1],
           int(DROP_OUT_FRACTION * 100), TEST_COIL_MM, REED_GRADES[REED_GRADE][0],
           _fmt(at_to_mt(REED_GRADES[REED_GRADE][0])), REED_GRADES[REED_GRADE][1],
           _fmt(at_to_mt(REED_GRADES[REED_GRADE][1])), ONE_POLE_FACTOR,
           _fmt(at_to_mt(REED_GRADES[REED_GRADE][1]) * ONE_POLE_FACTOR)),
        "- **The piece's own field** at the gap: the exact on-axis field of a uniformly "
        "magnetised disc, B = Br/2 ((z+L)/sqrt((z+L)^2+R^2) - z/sqrt(z^2+R^2)), Br the grade's "
        "lowest remanence (N35 %.2f T, N42 %.2f T, N52 %.2f T). z = glass + %g mm diffuser + "
        "%g mm air + %g mm recess + half the reed's glass. A stack adds each piece %d mm higher."
        % (GRADES["N35"], GRADES["N42"], GRADES["N52"], design.DIFFUSER_MM, design.AIR_GAP_MM,
           design.MAGNET_RECESS_MM, PIECE_MM),
        "- **The neighbours' field**: each magnet as a point dipole, Bz = mu0 m / (4 pi r^3) "
        "(3 cos^2 theta - 1) with m = Br V / mu0, at %d mm (the next cell) and %.1f mm (the "
        "diagonal one). Seen from the side at that distance a neighbour's field at the gap "
        "points *against* the cell's own piece (cos^2 theta < 1/3); the upper pieces of a "
        "neighbour's stack are seen more from above and point *with* it, so they partly cancel "
        "the lower ones: a single piece is the strongest neighbour, not the highest stack. Each "
        "neighbour may hold any height from 1 to %d: for each sign, the most any height gives, "
        "four times at the next cells and four times at the diagonal ones."
        % (design.CELL_PITCH_MM, design.CELL_PITCH_MM * math.sqrt(2), max_height()),
        "- **Passes** when (1) one piece gives at least %g x the one-pole pull-in at the "
        "grade's highest AT (every switch of the batch closes; a stack adds to it); (2) two "
        "stacked, the top one glued the wrong way up, still at least 1 x; (3) one piece ringed "
        "by eight neighbours that all oppose it still at least 1 x; (4) an empty cell among "
        "eight neighbours, whatever they hold, sees at most %g x the pull-in of the most "
        "sensitive switch (the grade's lowest AT, in the uniform field a distant magnet makes): "
        "no false closure; (5) what the neighbours leave *along* the old field when a piece is "
        "lifted is at most %g x the drop-out, so the switch opens (a field against it is "
        "crossed through zero on the way, and the switch opens there)."
        % (CLOSE_MARGIN, NEIGHBOUR_FRACTION, NEIGHBOUR_FRACTION),
        "- **Chosen**: the smallest stock disc (least NdFeB, then the lowest grade) that passes "
        "on both boards: **%s**." % _magnet_text(m),
        "",
        "Closing, on the cell's own switch (mT):",
        "",
        "| board | glass mm | gap depth mm | one piece | two stacked | stack of %d | two, top "
        "flipped | one, 8 neighbours against it | one-pole pull-in | margin (1) |" % max_height(),
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    checks = {which: check_magnet(mag, which, max_height()) for which in BOARD_SIZES}
    for which, c in checks.items():
        lines.append("| %s | %g | %g | %s | %s | %s | %s | %s | %s | %.2f |" % (
            which, GLASS_MM[which], c["depth_mm"], _fmt(c["one"]), _fmt(c["two"]),
            _fmt(c["tower"]), _fmt(c["tower_flipped"]), _fmt(c["crowded"]),
            _fmt(c["pull_in_hi"]), c["margin"]))
    lines += [
        "",
        "The neighbours, on an empty cell's switch (mT; 'with' is along the field of a piece "
        "on the cell, 'against' opposite to it):",
        "",
        "| board | next cell with / against | diagonal with / against | 8 neighbours with | "
        "8 neighbours against | pull-in, most sensitive | drop-out |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for which, c in checks.items():
        lines.append("| %s | %.3f / %.3f | %.3f / %.3f | %.3f | %.3f | %s | %s |" % (
            which, c["next_cell_aiding"], c["next_cell_opposing"], c["diagonal_aiding"],
            c["diagonal_opposing"], c["aiding"], c["opposing"], _fmt(c["pull_in_lo"]),
            _fmt(c["drop_out"])))
    rejected = []
    stronger = []
    for d, h in MAGNET_SIZES:
        for grade, br in GRADES.items():
            cs = [check_magnet((d, h, br), w, max_height()) for w in BOARD_SIZES]
            if all(c["ok"] for c in cs):
                continue
            names = list(cs[0]["checks"])
            failed = sorted({names.index(k) + 1 for c in cs for k, v in c["checks"].items()
                             if not v})
            text = "%dx%d %s (margin %.2f; fails %s)" % (
                d, h, grade, min(c["margin"] for c in cs),
                ", ".join("(%d)" % n for n in failed))
            if d * d * h < m["diameter"] ** 2 * m["height"]:
                rejected.append(text)
            else:
                stronger.append(text)
    lines += [
        "",
        "Smaller discs, all failing the model: %s." % (", ".join(rejected) or "none"),
        "",
        "Larger or stronger discs failing it: %s. **Do not substitute a stronger magnet**: "
        "the chosen one already closes its own cell with margin, and a stronger one brings "
        "the field of eight neighbouring pieces towards the most sensitive switch's pull-in."
        % (", ".join(stronger) or "none"),
        "",
        fallback_text(mag),
        "",
        "A model is no measurement: the AT-to-mT step alone may be off by a factor of two. "
        "Before ordering a set, put one reed, the glass, the diffuser and a finished piece "
        "together and check that the piece closes the switch (and a tower of two); then ring "
        "the empty cell with eight pieces (the switch stays open), put a piece on it and lift "
        "it again (the switch opens); the 15-20 AT grade is the fallback if a hovering hand "
        "closes switches. The same pole down on every piece makes stacked pieces attract (a tower "
        "holds together) and their fields add.",
        "",
        "## The storage tray",
        "",
    ]
    for which in BOARD_SIZES:
        comps, (w, d, h) = tray(which)
        lines += ["%s table ([`tray_%s.svg`](tray_%s.svg), 1:1): outer %d x %d x %d mm, %d mm "
                  "walls, pieces standing in one layer (%d across, %d mm a slot)%s:"
                  % (which, which, which, w, d, h, TRAY_WALL_MM, TRAY_COLUMNS, TRAY_SLOT_MM,
                     "; the master lies on its side, as it is taller than the tray is deep"
                     if any(k["shape"] == "master" for k, *_ in comps) else ""),
                  ""]
        for kind, _x, _y, cw, cd in comps:
            lines.append("- %s: %d, compartment %d x %d mm, label: %s" % (
                colour_name(kind["rgb"]) + (" master" if kind["shape"] == "master" else ""),
                kind["count"], cw, cd, ", ".join(kind["games"])))
        lines.append("")
    return "\n".join(lines)


def tray_svg(which):
    """The tray seen from above, 1:1 (mm): its outline and each compartment in its pieces'
    colour, labelled with the games that take pieces from it; for a laser-cut base and the
    walls' positions, or to print and glue into a bought compartment box."""
    comps, (w, d, h) = tray(which)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" '
        'viewBox="0 0 %d %d">' % (w, d, w, d),
        "<title>Piece tray of the %s table, %d x %d mm, %d mm deep inside</title>"
        % (which, w, d, h - TRAY_WALL_MM),
        '<rect x="0" y="0" width="%d" height="%d" fill="none" stroke="#000" '
        'stroke-width="0.5"/>' % (w, d),
    ]
    for kind, x, y, cw, cd in comps:
        fill = "#D9B98C" if kind["rgb"] is None else "#%06X" % kind["rgb"]
        out.append('<rect data-count="%d" x="%d" y="%d" width="%d" height="%d" fill="%s" '
                   'fill-opacity="0.35" stroke="#000" stroke-width="0.5"/>'
                   % (kind["count"], x, y, cw, cd, fill))
        label = "master" if kind["shape"] == "master" else "%d %s" % (
            kind["count"], colour_name(kind["rgb"]))
        size = 4 if cw > 40 else 3
        out.append('<text x="%g" y="%g" font-family="sans-serif" font-size="%d" '
                   'text-anchor="middle">%s</text>' % (x + cw / 2, y + cd / 2, size, label))
        if cw > 40:
            out.append('<text x="%g" y="%g" font-family="sans-serif" font-size="3" '
                       'text-anchor="middle">%s</text>' % (x + cw / 2, y + cd / 2 + 5,
                                                           ", ".join(kind["games"])))
    out.append("</svg>")
    return "\n".join(out) + "\n"
