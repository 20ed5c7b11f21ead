"""XoBo's moves in words, for a player (the page, serial ``state ... say``): imported by the
board layer (``xobo.games.xobo.board``) when first asked, not at boot."""

from xobo.games.xobo.rules.geometry import cell_name, ray


def move_words(m):
    """Move m in plain words for a player: 'put a cube on b3', 'spread e5 towards d4',
    'regroup a4, b4 onto c4' (the cubes of the other cells go onto the stack cell)."""
    kind = m & 3
    c = (m >> 2) & 127
    if kind == 0:
        return "put a cube on %s" % cell_name(c)
    r = ray(c, (m >> 9) & 7)
    if kind == 2:
        return "spread %s towards %s" % (cell_name(c), cell_name(r[0]))
    n = (m >> 12) - 1
    others = [cell_name(r[k]) for k in range(n - 1, -1, -1)]  # the far end first, as N1
    return "regroup %s onto %s" % (", ".join(others), cell_name(c))


def remaining_words(inf, i):
    """What is left to do of candidate move index i: 'put a cube on d4, c3; take the
    pair off e4' ('' when its cubes are all where they go)."""
    m = inf.moves[i]
    kind = m & 3
    src = (m >> 2) & 127
    base = i * inf.fp
    puts = []
    takes = []
    moves = []
    lift = ""
    for k in range(inf.n_a[i]):
        c = inf.fp_a[base + k]
        if not inf.added[c]:
            puts.append(cell_name(c))
    if kind == 2:  # a stack on the way gets a cube the switches cannot see
        r = ray(src, (m >> 9) & 7)
        for k in range(m >> 12):
            if inf.heights[r[k]] >= 2:
                puts.append("%s (a stack)" % cell_name(r[k]))
    for k in range(inf.n_l[i]):
        c = inf.fp_l[base + k]
        if inf.lifted[c]:
            continue
        if kind == 1:
            moves.append(cell_name(c))
        elif c == src:
            lift = "lift the stack on %s" % cell_name(c)
        else:
            takes.append(cell_name(c))
    out = []
    if lift:
        out.append(lift)
    if moves:
        out.append("move the cube%s on %s onto %s" % ("s" if len(moves) > 1 else "",
                                                      ", ".join(moves), cell_name(src)))
    if puts:
        out.append("put a cube on " + ", ".join(puts))
    if takes:
        out.append("take the pair%s off %s" % ("s" if len(takes) > 1 else "",
                                                ", ".join(takes)))
    return "; ".join(out)
