"""Chain Reaction on the host (never on the device): two pieces a square at most, and its
towers and goal rows drawn, for the simulator, the test kits and the tools (docs/games.md, "The
host module")."""

CELL_HOLDS = (2, "a square holds two pieces at most: a tower (CB4)")
LADDER = ((), 200, (30, 300), 2)  # make bench: its strength ladder against UCT
LESSON_SHOT = (3, "pico_gpio")  # docs/learn-chain-reaction.png
# how a game ends in the simulator page's words, with the rules they cite
RESULT_WORDS = {
    "points": "points: reached the target with 2 points more than the other (CE2)",
    "blockade": "blockade: held the 7 squares before the goal line for a whole turn (CE3)",
}
# its light codes' prefix (xobo.runtime.colours), and their words'
LIGHT_PREFIX = ("CR_", "Chain Reaction: ")


def _rgb(code):
    from xobo.runtime import colours

    return "%06x" % colours.RGB[code]


def draw(app, name):
    """Two-colour towers and the goal rows (CB2, CB4)."""
    pos = app.pos
    light = _rgb(app.layers.PLAYER_CODES[0])
    dark = _rgb(app.layers.PLAYER_CODES[1])
    kinds = {"light": {"rgb": light, "label": app.names[0]},
             "dark": {"rgb": dark, "label": app.names[1]}}
    colour = (None, "light", "dark")  # pos.top/pos.bot: 0 none, 1 Light, 2 Dark
    pieces = {}
    marks = {}
    for g in range(pos.n_cells):
        if not pos.used[g]:
            continue
        if pos.top[g]:
            stack = [colour[pos.bot[g]]] if pos.bot[g] else []
            stack.append(colour[pos.top[g]])
            pieces[name(g)] = stack
        v = pos.goal_value(g)
        if v:
            marks[name(g)] = "goal2" if v == 2 else "goal"
    # a piece from the box is the side to move's colour
    return {"pieces": pieces, "kinds": kinds, "marks": marks, "box": colour[pos.side + 1]}


def record_settings(rec):
    """The settings a CN1 record was played with: field, target, variant, first player."""
    from xobo.games.chain_reaction import PLAYER_NAMES

    return {"field": rec.field, "target": rec.target, "first": PLAYER_NAMES[rec.first],
            "variant": "blockade" if rec.blockade else "standard"}


def piece_set(game):
    """Its pieces for hardware/pieces.py: each side's CB4 pieces in its light's colour,
    stacked two high as towers. ``(highest stack, pieces, why)``."""
    from xobo.games import part
    from xobo.games.chain_reaction.rules import PIECES
    from xobo.runtime import colours

    codes = part(game, "board").Layers.PLAYER_CODES
    pos = game.new_position(game.DEFAULTS)
    counts = [sum(1 for c in range(len(pos.top)) if pos.top[c] == p + 1)
              + sum(1 for c in range(len(pos.bot)) if pos.bot[c] == p + 1) for p in (0, 1)]
    assert counts == [PIECES, PIECES], counts
    return max(pos.heights) + 1, [
        {"owner": p, "rgb": colours.RGB[codes[i]], "count": PIECES, "shape": "cube"}
        for i, p in enumerate(game.PLAYER_NAMES)
    ], "%d pieces a side (CB4), stacked two high as towers (a tower is one cube on another: " \
       "the switch sees one occupied cell, the board knows the colours from the moves)" % PIECES


# hardware/overlay.py: an overlay for each field setting besides the default's (CB1: 6 or 7 ranks)
OVERLAY_VARIANTS = "field"


def overlay_marks(game, pos, place, sheet, out):
    """The overlay's marks (hardware/overlay.py): CB2 goal rows (value 1 or 2), CB3 home
    squares (the start position), the field."""
    from xobo.games import part
    from xobo.runtime import colours
    from xobo.runtime.topology import cell_name

    colours_of = [colours.RGB[c] for c in part(game, "board").Layers.PLAYER_CODES[:2]]
    w = place.width
    for player in (0, 1):
        for c in pos.goal_cells(player):
            f, r = sheet.at(place, c)
            x, y = sheet.square(f, r)
            cx, cy = sheet.centre(f, r)
            out.append('<rect data-mark="goal" data-cell="%s" x="%g" y="%g" width="%d" '
                       'height="%d" fill="#EEE" stroke="#000" stroke-width="0.8"/>'
                       % (cell_name(c, w), x, y, sheet.pitch, sheet.pitch))
            out.append('<text x="%g" y="%g" font-size="14" text-anchor="middle" '
                       'font-family="sans-serif">%d</text>' % (cx, cy + 5, pos.goal_value(c)))
    field = [sheet.at(place, c) for c in range(place.n_cells)
             if pos.used[c] and not pos.goal_value(c)]
    fs = [f for f, _ in field]
    rs = [r for _, r in field]
    x, y = sheet.square(min(fs), max(rs))
    out.append('<rect id="field" x="%g" y="%g" width="%d" height="%d" fill="none" '
               'stroke="#000" stroke-width="1.5"/>' % (
                   x, y, (max(fs) - min(fs) + 1) * sheet.pitch,
                   (max(rs) - min(rs) + 1) * sheet.pitch))
    for c in range(place.n_cells):
        owner = pos.owner(c) if pos.used[c] else -1
        if owner >= 0:
            cx, cy = sheet.centre(*sheet.at(place, c))
            out.append('<circle data-mark="home-%s" data-cell="%s" cx="%g" cy="%g" r="12" '
                       'fill="none" stroke="%s" stroke-width="2"/>' % (
                           game.PLAYER_NAMES[owner], cell_name(c, w), cx, cy,
                           "#%06X" % colours_of[owner]))
        elif not pos.used[c]:
            cx, cy = sheet.centre(*sheet.at(place, c))
            out.append('<text data-mark="score" data-cell="%s" x="%g" y="%g" font-size="6" '
                       'text-anchor="middle" font-family="sans-serif" fill="#555">score</text>'
                       % (cell_name(c, w), cx, cy + 2))
