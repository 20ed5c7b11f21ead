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




def _top_ref(key, taken, k, offset, out):
    """The k untaken cells of lowest key (below 9999), lowest first, marked taken; appended
    to ``out`` as (cell, offset + key): Searcher._top before the viper kernels."""
    top = [0] * 32
    topk = [0] * 32
    n = 0
    for c in range(81):
        if taken[c]:
            continue
        v = key[c]
        if v >= 9999 or (n == k and v >= topk[n - 1]):
            continue
        j = n if n < k else k - 1
        while j > 0 and topk[j - 1] > v:
            top[j] = top[j - 1]
            topk[j] = topk[j - 1]
            j -= 1
        top[j] = c
        topk[j] = v
        if n < k:
            n += 1
    for i in range(n):
        taken[top[i]] = 1
        out.append((top[i], offset + topk[i]))


def candidate_cells_ref(h, floods, d_me, d_op, can_place, gifts, k_adv, k_def, k_quiet):
    """The placements Searcher.candidates listed before the viper kernels (commit 14fdc19),
    as [(cell, key)] in the order pushed, and whether a stack is on the board. ``floods``:
    the mover's two floods and the opponent's two (a1, b1, a2, b2)."""
    a1, b1, a2, b2 = floods
    key = [0] * 81
    taken = bytearray(81)
    out = []
    has_stack = False
    for c in range(81):
        v = h[c]
        taken[c] = 1
        if v:
            if v >= 3:
                has_stack = True
            continue
        if not can_place:
            continue
        taken[c] = 0
        s_me = a1[c] + b1[c] - 1 - d_me if d_me < INF else 40
        s_op = a2[c] + b2[c] - 1 - d_op if d_op < INF else 40
        if s_op > 9:
            s_op = 9
        key[c] = s_me * 10 - s_op
        if gifts and s_op == 0:
            taken[c] = 1
    if not can_place:
        return out, has_stack
    _top_ref(key, taken, k_adv, 0, out)
    if k_def and d_op < INF:
        for c in range(81):
            key[c] = 9999
            if taken[c]:
                continue
            s_op = a2[c] + b2[c] - 1 - d_op
            if s_op > 2:
                continue
            best_run = 0
            for d in range(4):
                run = 1
                hit = False
                for dd in (d, d + 4):
                    r = ray(c, dd)
                    i = 0
                    while i < len(r) and h[r[i]] == 1:
                        run += 1
                        if a2[r[i]] + b2[r[i]] == d_op:
                            hit = True
                        i += 1
                if hit and run >= 3 and run > best_run:
                    best_run = run
            if best_run:
                key[c] = s_op * 10 - best_run
        _top_ref(key, taken, k_def, 500, out)
    if k_quiet:
        best = -1
        bk = -1
        for c in range(81):
            if taken[c]:
                continue
            s_me = a1[c] + b1[c] - 1 - d_me if d_me < INF else 40
            s_op = a2[c] + b2[c] - 1 - d_op if d_op < INF else 40
            v = s_me if s_me < s_op else s_op
            if v > bk:
                best = c
                bk = v
        if best >= 0:
            out.append((best, 900))
    return out, has_stack
