"""Chain Reaction on the host (never on the device): two pieces a square at most, and its
towers and goal rows drawn, for the simulator, the test kits and the tools (docs/games.md, "The
host module")."""

CELL_HOLDS = (2, "a square holds two pieces at most: a tower (CB4)")
LADDER = ((), 200, (30, 300), 2)  # make bench: its strength ladder against UCT
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
    return {"pieces": pieces, "kinds": kinds, "marks": marks}


def record_settings(rec):
    """The settings a CN1 record was played with: field, target, variant, first player."""
    from xobo.games.chain_reaction import PLAYER_NAMES

    return {"field": rec.field, "target": rec.target, "first": PLAYER_NAMES[rec.first],
            "variant": "blockade" if rec.blockade else "standard"}
