"""Connection distances and the static evaluation used by every AI level.

The distance of a player is the least number of cubes still to place to link their edges
(E1): a 0-1 shortest path on 8-adjacency (B3) where a single costs 0, an empty cell costs 1
and a stack (h >= 3) cannot be crossed. Cubes are neutral, so a single on the board shortens
*both* players' paths: the evaluation always measures both distances on the same heights,
and a move that helps the opponent as much as the mover gains nothing.

``flood(h, player, from_start, dist)`` fills ``dist`` (bytearray 81) with the cost of the
cheapest path from one of the player's edges to each cell (the cell's own cost included);
``through = a[c] + b[c] - cost(c)`` is then the cheapest path through ``c``.

Usage::

    from xobo.ai.evaluate import distance, evaluate
    distance(pos.heights, 0)       # NS: cubes still to place to link North and South
    evaluate(pos)                  # score for the side to move, centipawn-like
"""

from xobo.compat import const
from xobo.rules.geometry import NEIGHBOUR_CELLS, NEIGHBOUR_COUNT

INF = const(99)
WIN = const(30000)  # a won game (minus the plies to get there)
SURE = const(20000)  # above this: a forced result

# Edge cells: NS links North (rank 9) and South (rank 1), EW links West (a) and East (i).
_NORTH = tuple(range(72, 81))
_SOUTH = tuple(range(0, 9))
_WEST = tuple(range(0, 81, 9))
_EAST = tuple(range(8, 81, 9))
START = (_NORTH, _WEST)  # per player: the edge a flood starts from
GOAL = (_SOUTH, _EAST)

# preallocated scratch: two layer stacks for the 0-1 BFS
_cur = bytearray(81)
_nxt = bytearray(81)
_FULL = bytes([INF] * 81)
_ZERO = bytes(81)
_tmp = bytearray(81)
_GOAL_MASK = (bytearray(81), bytearray(81))
for _c in GOAL[0]:
    _GOAL_MASK[0][_c] = 1
for _c in GOAL[1]:
    _GOAL_MASK[1][_c] = 1

# weights of the static evaluation
W_DIST = const(100)  # one cube of distance
W_TEMPO = const(30)  # being the side to move
W_PATHS = const(4)  # per empty cell on a shortest path (more ways = harder to stop)
W_EXHAUST = const(600)  # nobody can finish: the reserve decides (E4)


def flood(h, player, from_start, dist):
    """0-1 BFS from one edge of ``player``; fills ``dist``; returns the distance to the other
    edge (INF if stacks wall it off)."""
    dist[:] = _FULL
    starts = START[player] if from_start else GOAL[player]
    goals = GOAL[player] if from_start else START[player]
    cur = _cur
    nxt = _nxt
    nc = 0
    nn = 0
    for c in starts:
        v = h[c]
        if v == 1:
            dist[c] = 0
            cur[nc] = c
            nc += 1
        elif v == 0:
            dist[c] = 1
            nxt[nn] = c
            nn += 1
    d = 0
    nb = NEIGHBOUR_CELLS
    nbn = NEIGHBOUR_COUNT
    while nc or nn:
        while nc:
            nc -= 1
            c = cur[nc]
            if dist[c] != d:
                continue
            for j in range(c * 8, c * 8 + nbn[c]):
                n = nb[j]
                v = h[n]
                if v == 1:
                    if dist[n] > d:
                        dist[n] = d
                        cur[nc] = n
                        nc += 1
                elif v == 0:
                    if dist[n] > d + 1:
                        dist[n] = d + 1
                        nxt[nn] = n
                        nn += 1
        cur, nxt = nxt, cur
        nc = nn
        nn = 0
        d += 1
    best = INF
    for c in goals:
        if dist[c] < best:
            best = dist[c]
    return best


def distance(h, player):
    """Cubes ``player`` still has to place to link their edges (0: linked; INF: walled)."""
    dist = _tmp
    dist[:] = _FULL
    goal = _GOAL_MASK[player]
    cur = _cur
    nxt = _nxt
    nc = 0
    nn = 0
    for c in START[player]:
        v = h[c]
        if v == 1:
            dist[c] = 0
            cur[nc] = c
            nc += 1
        elif v == 0:
            dist[c] = 1
            nxt[nn] = c
            nn += 1
    d = 0
    nb = NEIGHBOUR_CELLS
    nbn = NEIGHBOUR_COUNT
    while nc or nn:
        # a goal cell in this layer ends the search: layers only grow
        for i in range(nc):
            c = cur[i]
            if goal[c] and dist[c] == d:
                return d
        while nc:
            nc -= 1
            c = cur[nc]
            if dist[c] != d:
                continue
            for j in range(c * 8, c * 8 + nbn[c]):
                n = nb[j]
                v = h[n]
                if v == 1:
                    if dist[n] > d:
                        if goal[n]:
                            return d
                        dist[n] = d
                        cur[nc] = n
                        nc += 1
                elif v == 0:
                    if dist[n] > d + 1:
                        dist[n] = d + 1
                        nxt[nn] = n
                        nn += 1
        cur, nxt = nxt, cur
        nc = nn
        nn = 0
        d += 1
    return INF


_seen = bytearray(81)
_reach = bytearray(4)  # NS: [south reach, north reach], EW: [west reach, east reach] (+1)


def _extents(h):
    """One pass over the components of singles (E1): how far (in ranks) the components that
    touch South reach North, and so on. Fills ``_reach`` with, offset by +1:
    [max rank from S, min rank from N, max file from W, min file from E]; -1 / 9 if none."""
    seen = _seen
    seen[:] = _ZERO
    st = _cur
    nb = NEIGHBOUR_CELLS
    nbn = NEIGHBOUR_COUNT
    rs = -1
    rn = 9
    fw = -1
    fe = 9
    for c0 in range(81):
        if h[c0] != 1 or seen[c0]:
            continue
        seen[c0] = 1
        st[0] = c0
        sp = 1
        rmin = 9
        rmax = -1
        fmin = 9
        fmax = -1
        while sp:
            sp -= 1
            c = st[sp]
            r = c // 9
            f = c - r * 9
            if r < rmin:
                rmin = r
            if r > rmax:
                rmax = r
            if f < fmin:
                fmin = f
            if f > fmax:
                fmax = f
            for j in range(c * 8, c * 8 + nbn[c]):
                n = nb[j]
                if h[n] == 1 and not seen[n]:
                    seen[n] = 1
                    st[sp] = n
                    sp += 1
        if rmin == 0 and rmax > rs:
            rs = rmax
        if rmax == 8 and rmin < rn:
            rn = rmin
        if fmin == 0 and fmax > fw:
            fw = fmax
        if fmax == 8 and fmin < fe:
            fe = fmin
    _reach[0] = rs + 1
    _reach[1] = rn + 1
    _reach[2] = fw + 1
    _reach[3] = fe + 1


def threatens(pos, player, fresh=True):
    """V1, fast: the engine's ``threatens`` behind a cheap necessary test. A Voina cell sits
    between a component that touches one edge and one that touches the other, so they must
    come within two ranks (files) of each other. ``fresh=False`` reuses the last pass (same
    heights). Only variant kv with a stack on the board can also threaten by a spread."""
    h = pos.heights
    if pos.variant == "kv":
        for c in range(81):
            if h[c] >= 3:
                return pos.threatens(player)
    if fresh:
        _extents(h)
    k = player * 2
    if _reach[k + 1] - _reach[k] > 2:
        return False
    return pos.threatens(player)


def supply(pos, player):
    """Cubes ``player`` can still place if nobody captures: their share of the common reserve
    (the side to move gets the odd one) plus their own reserve (M1)."""
    c = pos.common
    share = (c + 1) // 2 if player == pos.side else c // 2
    return share + pos.own[player]


def exhaustion_score(pos, d_me, d_opp):
    """E4 outlook for the side to move when neither player has cubes enough to finish."""
    me = pos.side
    s_me = supply(pos, me)
    s_opp = supply(pos, me ^ 1)
    total = pos.common + pos.own[0] + pos.own[1]
    if total >= d_me or total >= d_opp:
        return 0
    # nobody can connect by placing: whoever runs out first loses (E4). Turns go me, opp, ...
    # I fail on my turn number s_me (0-based), the opponent on turn s_opp.
    return -W_EXHAUST if s_me <= s_opp else W_EXHAUST


def evaluate(pos):
    """Static score for the side to move (no tactics: the search checks wins and Voina)."""
    h = pos.heights
    me = pos.side
    d_me = distance(h, me)
    d_opp = distance(h, me ^ 1)
    return score_distances(pos, d_me, d_opp)


def score_distances(pos, d_me, d_opp):
    dm = d_me if d_me < 12 else 12
    do = d_opp if d_opp < 12 else 12
    s = W_DIST * (do - dm) + W_TEMPO
    # a short distance is worth more than a long one: the last cubes are the hard ones
    if dm <= 3:
        s += (4 - dm) * 25
    if do <= 3:
        s -= (4 - do) * 25
    return s + exhaustion_score(pos, d_me, d_opp)


def path_cells(h, player, a, b):
    """Fill ``a`` and ``b`` with the floods from both edges; return the distance. The empty
    cells on a shortest path are those with ``a[c] + b[c] - 1 == distance``."""
    flood(h, player, True, a)
    return flood(h, player, False, b)
