# dual-runtime
"""Plain-Python references for the AI's native kernels: the 0-1 BFS ``flood`` and
``distance`` exactly as they were before the viper kernels (commit 4bd0182), for the property
tests (tests/games/xobo/test_ai_kernels*.py). Winner, threats and move generation are checked
against the rules engine itself."""

from xobo.games.xobo.rules.geometry import ray

# the neighbours (B3) as tuples, as the old kernels read them (geometry no longer keeps them)
NEIGHBOURS = tuple(
    tuple(ray(c, d)[0] for d in range(8) if ray(c, d)) for c in range(81)
)

INF = 99
_NORTH = tuple(range(72, 81))
_SOUTH = tuple(range(0, 9))
_WEST = tuple(range(0, 81, 9))
_EAST = tuple(range(8, 81, 9))
START = (_NORTH, _WEST)
GOAL = (_SOUTH, _EAST)
_cur = bytearray(81)
_nxt = bytearray(81)
_FULL = bytes([INF] * 81)
_tmp = bytearray(81)
_GOAL_MASK = (bytearray(81), bytearray(81))
for _c in GOAL[0]:
    _GOAL_MASK[0][_c] = 1
for _c in GOAL[1]:
    _GOAL_MASK[1][_c] = 1

def flood_ref(h, player, from_start, dist):
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
    nb = NEIGHBOURS
    while nc or nn:
        while nc:
            nc -= 1
            c = cur[nc]
            if dist[c] != d:
                continue
            for n in nb[c]:
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


def distance_ref(h, player):
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
    nb = NEIGHBOURS
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
            for n in nb[c]:
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


