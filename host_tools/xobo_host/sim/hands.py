"""A move as a player's hands play it on the board: which cells are lifted, which get a piece,
which lose one (the simulator's "Play ... for me", the stand-in's ``play`` line).

Usage::

    from xobo_host.sim import hands
    for what, cell in hands.of(app, app.pending):   # ('lift', 40), ('put', 31), ...
        ...                                         # game cells: app.place.to_board[cell]
"""


def of(app, m):
    """The hand actions of move ``m`` in the app's position (XoBo's as a player does them)."""
    return xobo(app, m) if app.settings["game"] == "xobo" else any_game(app, m)


def any_game(app, m):
    """Any game's move as hand actions, from the heights before and after it: the stacks
    it empties are lifted, the cells it fills get their pieces, the rest is taken off; a
    move told apart from others of its footprint by its touch cell gets that cell lifted
    and put back (docs/games.md)."""
    pos = app.pos
    before = bytes(pos.heights)
    after = pos.clone()
    after.apply(m)
    lifts, puts, takes = [], [], []
    for g in range(len(before)):
        h0, h1 = before[g], after.heights[g]
        if h0 and not h1:
            lifts.append(("lift", g))
        elif h1 > h0:
            puts += [("put", g)] * (h1 - h0)
        elif h1 < h0:
            takes += [("take", g)] * (h0 - h1)
    out = lifts + puts + takes
    touch = pos.touch_cell(m)
    if touch >= 0 and after.heights[touch]:
        out += [("lift", touch)] + [("put", touch)] * after.heights[touch]
    return out


def xobo(app, m):
    """XoBo's move as a player's hands do it (a spread: lift the stack, a cube on each
    cell, the pairs off; a regroup: each cube onto the stack cell)."""
    from xobo.games.xobo.rules.geometry import ray as ray_of

    kind = m & 3
    c = (m >> 2) & 127
    n = m >> 12
    ray = ray_of(c, (m >> 9) & 7)
    heights = app.pos.heights
    hand = []
    if kind == 0:
        hand.append(("put", c))
    elif kind == 1:
        for k in range(n - 1):
            hand += [("lift", ray[k]), ("put", c)]
        if app.pos.touch_cell(m) >= 0:
            # a regroup the switches cannot tell from another (the middle two of four
            # aligned cubes lifted, M2): the player lifts the stack and puts it back
            hand += [("lift", c)] + [("put", c)] * n
    else:
        hand.append(("lift", c))
        pairs = []
        for k in range(n):
            hand.append(("put", ray[k]))
            if heights[ray[k]] == 1:
                pairs.append(ray[k])
        hand += [("take", t) for t in pairs]
    return hand



def script_lines(app, m):
    """The move as the script lines of ``xobo.runtime.script`` (``lift e5``, ``put d4``,
    ``take c3 1``), in the board's cell names."""
    topo = app.topo
    to_board = app.place.to_board
    is_xobo = app.settings["game"] == "xobo"
    out = []
    for what, g in of(app, m):
        cell = topo.cell_name(to_board[g])
        if what == "take":  # XoBo takes a captured pair off whole; another game one piece
            out.append(("lift %s" % cell) if is_xobo else ("take %s 1" % cell))
        else:
            out.append("%s %s" % (what, cell))
    return out
