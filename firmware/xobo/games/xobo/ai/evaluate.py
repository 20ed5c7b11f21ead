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

    >>> from xobo.games.xobo.ai.evaluate import distance, evaluate
    >>> from xobo.games.xobo.rules.position import Position
    >>> pos = Position()
    >>> distance(pos.heights, 0)       # NS: cubes still to place to link North and South
    9
    >>> evaluate(pos)                  # score for the side to move, centipawn-like
    30
"""

from xobo.compat import const, micropython, ptr8, ptr16, ptr32
from xobo.games.xobo.rules.geometry import EDGES, MAXREACH, REACH, ray

INF = const(99)
WIN = const(30000)  # a won game (minus the plies to get there)
SURE = const(20000)  # above this: a forced result

# Edge flags (geometry B2): NS links North (rank 9) and South (rank 1), EW West (a) and East (i)
_N = const(1)
_S = const(2)
_E = const(4)
_W = const(8)
# per player, the bit number of the edge flag a flood starts from (North, West) and ends at
START = (0, 3)
GOAL = (1, 2)

# Tables and scratch for the native kernels, made once. The kernels read bytes only, so the
# neighbours (B3) are a flat table: _NB[c * 8 + k] for k < _NBN[c].
_NB = bytearray(81 * 8)
_NBN = bytearray(81)
for _c in range(81):
    for _d in range(8):  # the engine's order: by direction, clockwise from North (B4)
        _r = ray(_c, _d)
        if _r:
            _NB[_c * 8 + _NBN[_c]] = _r[0]
            _NBN[_c] += 1
_EDGES = bytes(EDGES)
# the 9 cells of each edge, by the edge flag's bit: _EDGE_CELLS[bit * 9 + i]
_EDGE_CELLS = bytearray(4 * 9)
for _b in range(4):
    _k = 0
    for _c in range(81):
        if EDGES[_c] & (1 << _b):
            _EDGE_CELLS[_b * 9 + _k] = _c
            _k += 1
_RANK = bytes([_c // 9 for _c in range(81)])
_FILE = bytes([_c % 9 for _c in range(81)])
_FULL = bytes([INF] * 81)
_ZERO = bytes(81)
# _STEP[c * 8 + d]: the next cell from c in direction d (B4); 255 off the board
_STEP = bytearray(81 * 8)
for _c in range(81 * 8):
    _r = ray(_c >> 3, _c & 7)
    _STEP[_c] = _r[0] if _r else 255
STEP = _STEP  # for the search's ray walks
_REACH = bytes(REACH)
_MAXREACH = bytes(MAXREACH)
_hk = bytearray(81)  # heights after a trial spread (kv threats)
_KVBUF = []  # a move buffer for kv spreads and the E4 test, made on first use (2 KB)


def kernel_memory():
    """Bytes of the kernels' tables and scratch buffers (payload; made at import, the kv
    move buffer on first use)."""
    n = 0
    for b in (_NB, _NBN, _EDGES, _STEP, _REACH, _MAXREACH, _hk, _cur, _nxt, _tmp, _label,
              _cflags, _stack, _conn):
        n += len(b)
    return n + 2 * len(_KVBUF[0]) if _KVBUF else n


def _kvbuf():
    if not _KVBUF:
        from xobo.games.xobo.rules.moves import new_move_buffer

        _KVBUF.append(new_move_buffer())
    return _KVBUF[0]
# two layer stacks for the 0-1 BFS; a cell is on a stack at most once per layer (81), the
# rest is margin: viper does not check bounds
_cur = bytearray(96)
_nxt = bytearray(96)
_tmp = bytearray(81)
_label = bytearray(81)  # component number of each single (0: none)
_cflags = bytearray(82)  # edge flags of component k
_stack = bytearray(96)
_conn = bytearray(1)  # bit p: player p's edges are linked (the last labelling pass)
# how far the components touching each edge reach (the last labelling pass), +1: the highest
# rank of one touching South, the lowest touching North, the highest file touching West, the
# lowest touching East (0 / 10 when none)
_reach = bytearray(4)

# weights of the static evaluation
W_DIST = const(100)  # one cube of distance
W_TEMPO = const(30)  # being the side to move
W_PATHS = const(4)  # per empty cell on a shortest path (more ways = harder to stop)
W_EXHAUST = const(600)  # nobody can finish: the reserve decides (E4)


@micropython.viper
def _bfs(h: ptr8, dist: ptr8, sbit: int, gbit: int, early: int) -> int:
    """0-1 BFS over the heights: a single costs 0, an empty cell 1, a stack or a pair is a
    wall. ``dist`` comes filled with INF; the 9 cells of edge ``sbit`` start (bit number of
    the edge flag); returns the least cost of a cell of edge ``gbit`` (INF if none).
    ``early``: stop at the first layer that reaches the goal edge (``dist`` then only partly
    filled). Every value stays below 100: no machine-word overflow."""
    ed = ptr8(_EDGES)
    ec = ptr8(_EDGE_CELLS)
    nb = ptr8(_NB)
    nbn = ptr8(_NBN)
    cur = ptr8(_cur)
    nxt = ptr8(_nxt)
    gflag = 1 << gbit
    nc = 0
    nn = 0
    for i in range(9):
        c = ec[sbit * 9 + i]
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
    while nc or nn:
        if early:
            # a goal cell in this layer ends the search: layers only grow
            for i in range(nc):
                c = cur[i]
                if (ed[c] & gflag) and dist[c] == d:
                    return d
        while nc:
            nc -= 1
            c = cur[nc]
            if dist[c] != d:
                continue
            base = c * 8
            for k in range(base, base + nbn[c]):
                n = nb[k]
                v = h[n]
                if v == 1:
                    if dist[n] > d:
                        if early and (ed[n] & gflag):
                            return d
                        dist[n] = d
                        cur[nc] = n
                        nc += 1
                elif v == 0:
                    if dist[n] > d + 1:
                        dist[n] = d + 1
                        nxt[nn] = n
                        nn += 1
        t = cur
        cur = nxt
        nxt = t
        nc = nn
        nn = 0
        d += 1
    if early:
        return 99
    best = 99
    for i in range(9):
        c = ec[gbit * 9 + i]
        if dist[c] < best:
            best = dist[c]
    return best


# The search's candidate lists (xobo.games.xobo.ai.search.Searcher.candidates): its loops over
# the 81 cells, natively. They were the larger part of a pico search on the unix port (half to
# four fifths of its time, the floods included); the same keys, cells and order as the plain
# Python they replace (tests/games/xobo/test_ai_golden.py: moves and node counts). A key is
# stored plus KEY_BIAS, never negative: a viper ptr32 load is unsigned (and zero-extended on a
# 64-bit unix port), so a negative key would compare as a large one.
KEY_BIAS = const(16)


@micropython.viper
def cell_keys(h: ptr8, a1: ptr8, b1: ptr8, a2: ptr8, b2: ptr8, key: ptr32, taken: ptr8,
              d_me: int, d_op: int, flags: int) -> int:
    """Every empty cell's key for the mover's placements, lowest first: on the mover's
    shortest path and off the opponent's (``s_me * 10 - s_op + KEY_BIAS``, the slacks from
    the floods ``a1``/``b1`` and ``a2``/``b2``); ``taken`` 1 for the cells not to place on
    (occupied; all when ``flags & 1`` is 0: nothing to place; with ``flags & 2``, the cells
    on the opponent's shortest path: gifts). Returns 1 when a stack is on the board."""
    stack = 0
    for c in range(81):
        v = h[c]
        taken[c] = 1
        if v:
            if v >= 3:
                stack = 1
            continue
        if (flags & 1) == 0:
            continue
        taken[c] = 0
        s_me = 40
        if d_me < INF:
            s_me = a1[c] + b1[c] - 1 - d_me
        s_op = 40
        if d_op < INF:
            s_op = a2[c] + b2[c] - 1 - d_op
        if s_op > 9:
            s_op = 9
        key[c] = s_me * 10 - s_op + KEY_BIAS
        if (flags & 2) and s_op == 0:
            taken[c] = 1
    return stack


@micropython.viper
def top_cells(key: ptr32, taken: ptr8, top: ptr8, topk: ptr32, k: int) -> int:
    """The ``k`` (>= 1) untaken cells of lowest ``key`` (below 9999) into ``top``/``topk``,
    lowest first (the first of equal keys first), each marked taken; returns how many."""
    n = 0
    for c in range(81):
        if taken[c]:
            continue
        v = key[c]
        if v >= 9999:
            continue
        if n == k and v >= topk[n - 1]:
            continue
        j = n
        if n >= k:
            j = k - 1
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
    return n


@micropython.viper
def align_keys(h: ptr8, a2: ptr8, b2: ptr8, key: ptr32, taken: ptr8, d_op: int):
    """Keys of the untaken cells within 2 of the opponent's shortest path (``d_op`` < INF)
    that align at least three singles with a single on that path (the only answer to a later
    Voina is a regroup of three aligned singles): ``s_op * 10 - run + KEY_BIAS``; 9999
    elsewhere."""
    st = ptr8(_STEP)
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
            hit = 0
            dd = d
            while dd < 8:
                t = st[c * 8 + dd]  # along the ray, nearest first (255: off)
                while t != 255 and h[t] == 1:
                    run += 1
                    if a2[t] + b2[t] == d_op:
                        hit = 1
                    t = st[t * 8 + dd]
                dd += 4
            if hit and run >= 3 and run > best_run:
                best_run = run
        if best_run:
            key[c] = s_op * 10 - best_run + KEY_BIAS


@micropython.viper
def quiet_cell(a1: ptr8, b1: ptr8, a2: ptr8, b2: ptr8, taken: ptr8, d_me: int,
               d_op: int) -> int:
    """The untaken cell farthest from both shortest paths (the first of equals), -1: none."""
    best = -1
    bk = -1
    for c in range(81):
        if taken[c]:
            continue
        s_me = 40
        if d_me < INF:
            s_me = a1[c] + b1[c] - 1 - d_me
        s_op = 40
        if d_op < INF:
            s_op = a2[c] + b2[c] - 1 - d_op
        v = s_op
        if s_me < s_op:
            v = s_me
        if v > bk:
            best = c
            bk = v
    return best


def flood(h, player, from_start, dist):
    """0-1 BFS from one edge of ``player``; fills ``dist`` (bytearray 81) with the cost of
    the cheapest path from that edge to each cell (its own cost included); returns the
    distance to the other edge (INF if stacks wall it off)."""
    dist[:] = _FULL
    if from_start:
        return _bfs(h, dist, START[player], GOAL[player], 0)
    return _bfs(h, dist, GOAL[player], START[player], 0)


def distance(h, player):
    """Cubes ``player`` still has to place to link their edges (0: linked; INF: walled)."""
    _tmp[:] = _FULL
    return _bfs(h, _tmp, START[player], GOAL[player], 1)


@micropython.viper
def _label_pass(h: ptr8) -> int:
    """Label the components of singles (E1, 8-adjacency B3) with their edge flags (``_label``
    must come zeroed); fills ``_reach``; returns the linked players as bits (1: NS, 2: EW),
    like the engine's labelling pass."""
    lab = ptr8(_label)
    cf = ptr8(_cflags)
    st = ptr8(_stack)
    ed = ptr8(_EDGES)
    nb = ptr8(_NB)
    nbn = ptr8(_NBN)
    rk = ptr8(_RANK)
    fl = ptr8(_FILE)
    n = 0
    conn = 0
    rs = 0
    rn = 10
    fw = 0
    fe = 10
    for c0 in range(81):
        if h[c0] != 1 or lab[c0]:
            continue
        n += 1
        lab[c0] = n
        st[0] = c0
        sp = 1
        f = 0
        rmin = 9
        rmax = 0
        fmin = 9
        fmax = 0
        while sp:
            sp -= 1
            x = st[sp]
            f |= ed[x]
            r = rk[x]
            if r < rmin:
                rmin = r
            if r > rmax:
                rmax = r
            r = fl[x]
            if r < fmin:
                fmin = r
            if r > fmax:
                fmax = r
            base = x * 8
            for k in range(base, base + nbn[x]):
                y = nb[k]
                if h[y] == 1 and lab[y] == 0:
                    lab[y] = n
                    st[sp] = y
                    sp += 1
        cf[n] = f
        if (f & 3) == 3:
            conn |= 1
        if (f & 12) == 12:
            conn |= 2
        if (f & 2) and rmax + 1 > rs:
            rs = rmax + 1
        if (f & 1) and rmin + 1 < rn:
            rn = rmin + 1
        if (f & 8) and fmax + 1 > fw:
            fw = fmax + 1
        if (f & 4) and fmin + 1 < fe:
            fe = fmin + 1
    re = ptr8(_reach)
    re[0] = rs
    re[1] = rn
    re[2] = fw
    re[3] = fe
    return conn


def _labels(h):
    _label[:] = _ZERO
    return _label_pass(h)


@micropython.viper
def _has_voina_cell(h: ptr8, pe: int, qe: int, linked: int) -> int:
    """V1 over the last labelling: 1 if a cube on some empty cell would link the edges
    ``pe`` (or they are ``linked`` already) without linking the opponent's ``qe`` (V3)."""
    lab = ptr8(_label)
    cf = ptr8(_cflags)
    ed = ptr8(_EDGES)
    nb = ptr8(_NB)
    nbn = ptr8(_NBN)
    for c in range(81):
        if h[c]:
            continue
        f = ed[c]
        base = c * 8
        for k in range(base, base + nbn[c]):
            y = nb[k]
            if h[y] == 1:
                f |= cf[lab[y]]
        if (linked or (f & pe) == pe) and (f & qe) != qe:
            return 1
    return 0


@micropython.viper
def defence_trials(h: ptr8, gen: ptr16, start: int, stop: int, a: ptr8, b: ptr8, d_me: int,
                   me: int, out: ptr16, okeys: ptr32, nout: int) -> int:
    """The defences of ``me`` under Voina (V2) among ``gen[start:stop]``, variant xobo, the
    attacker keeping a cube to place whatever ``me`` plays (no E4): each move is tried on a
    copy of the heights (a placement only where it can make a blocus, V3: ``d_me`` at most 2
    and the cell on a path of at most 2), labelled, and kept in ``out``/``okeys`` (regroup 0,
    spread 1, placement 2; at most 96) when the attacker has no Voina cell left and has not
    linked. Returns the new count, or -1 with the move in ``out[0]`` when it links ``me``
    (a win). Equal to Searcher.defences' trial loop over the engine (tested)."""
    hk = ptr8(_hk)
    lab = ptr8(_label)
    st = ptr8(_STEP)
    re = ptr8(_reach)
    opp = me ^ 1
    pe = 3 if opp == 0 else 12
    for c in range(81):
        hk[c] = h[c]
    i = start
    while i < stop:
        m = gen[i]
        i += 1
        kind = m & 3
        c = (m >> 2) & 127
        d = (m >> 9) & 7
        cnt = m >> 12
        key = 0
        if kind == 0:
            if d_me > 2 or a[c] + b[c] > 3:
                continue
            key = 2
            hk[c] = 1
        elif kind == 1:
            t = c
            for _k in range(cnt - 1):
                t = st[t * 8 + d]
                hk[t] = 0
            hk[c] = cnt
        else:
            key = 1
            _spread_into(_hk, _hk, m)  # in place: each target is read once, then written
        for k in range(81):
            lab[k] = 0
        conn = int(_label_pass(_hk))
        threat = 0
        if not conn & (1 << opp) and not conn & (2 >> opp):
            if int(re[2 * opp + 1]) - int(re[2 * opp]) <= 2:
                threat = int(_has_voina_cell(_hk, pe, 15 - pe, 0))
        for k in range(81):
            hk[k] = h[k]
        if conn & (1 << opp):
            continue  # the attacker linked (E2, E3)
        if conn & (2 >> opp):
            out[0] = m
            return -1  # linked: a win
        if threat or nout >= 96:
            continue
        out[nout] = m
        okeys[nout] = key
        nout += 1
    return nout


@micropython.viper
def _has_stack(h: ptr8) -> int:
    for c in range(81):
        if h[c] >= 3:
            return 1
    return 0


@micropython.viper
def _gen(h: ptr8, buf: ptr16, flags: int) -> int:
    """The engine's move generation, natively and in the same order: placements (flags 1:
    a cube to place, M1), regroups (2: under Voina, M2; 4: variant kv, at most 3 cubes),
    spreads (M3: reach, no target over its reach, at least one capture). The encoding is
    xobo.games.xobo.rules.moves' (kind | cell << 2 | dir << 9 | count << 12, below 2**16)."""
    st = ptr8(_STEP)
    reach = ptr8(_REACH)
    maxr = ptr8(_MAXREACH)
    n = 0
    if flags & 1:
        for c in range(81):
            if h[c] == 0:
                buf[n] = (c << 2) | 4096
                n += 1
    if flags & 2:
        for e in range(81):
            if h[e] != 1:
                continue
            limit = maxr[e]
            if (flags & 4) and limit > 3:
                limit = 3
            for d in range(8):
                r = reach[e * 8 + d]
                k = 0
                t = e
                while k < r:
                    t = st[t * 8 + d]
                    if h[t] != 1:
                        break
                    k += 1
                top = k + 1
                if top > limit:
                    top = limit
                cnt = 3
                while cnt <= top:
                    buf[n] = 1 | (e << 2) | (d << 9) | (cnt << 12)
                    n += 1
                    cnt += 1
    for s in range(81):
        hs = h[s]
        if hs < 2:
            continue
        for d in range(8):
            if reach[s * 8 + d] < hs:
                continue
            ok = 1
            capture = 0
            t = s
            for _i in range(hs):
                t = st[t * 8 + d]
                ht = h[t]
                if ht == 1:
                    capture = 1
                elif ht >= 2 and ht + 1 > maxr[t]:
                    ok = 0
                    break
            if ok and capture:
                buf[n] = 2 | (s << 2) | (d << 9) | (hs << 12)
                n += 1
    return n


@micropython.viper
def _spread_into(h: ptr8, out: ptr8, m: int):
    """``out`` = the heights after spread ``m`` (M3; a pair is captured, M4)."""
    st = ptr8(_STEP)
    for c in range(81):
        out[c] = h[c]
    s = (m >> 2) & 127
    d = (m >> 9) & 7
    cnt = m >> 12
    out[s] = 0
    t = s
    for _i in range(cnt):
        t = st[t * 8 + d]
        v = h[t] + 1
        out[t] = 0 if v == 2 else v


def _kv_spread_threat(pos, player, buf):
    """V1 in variant kv: a spread (any stack, either player, M3) after which ``player``'s
    edges are linked and the opponent's not. Leaves the labels of ``pos.heights``."""
    h = pos.heights
    n = _gen(h, buf, 0)
    found = False
    for i in range(n):
        _spread_into(h, _hk, buf[i])
        conn = _labels(_hk)
        if conn & (1 << player) and not conn & (2 >> player):
            found = True
            break
    _conn[0] = _labels(h)
    return found


def legal_moves(pos, buf):
    """``pos.legal_moves(buf)``: the same moves in the same order (0 once the game is over),
    from the native generator; ``buf`` is an array("H") of rules.moves.MAX_MOVES."""
    if winner(pos) >= 0:
        return 0
    flags = 0
    if pos.common or pos.own[pos.side]:
        flags = 1
    if threatens(pos, pos.side ^ 1, False):
        flags |= 2  # V2: the side to move is under Voina and may regroup
    if pos.variant == "kv":
        flags |= 4
    return _gen(pos.heights, buf, flags)


def spreads(pos, buf):
    """The legal spreads (M3) in the engine's order; the game must not be over."""
    return _gen(pos.heights, buf, 0)


def winner(pos):
    """``pos.winner()`` (E2-E4) from one native labelling pass, which ``threatens(...,
    fresh=False)`` then reuses."""
    conn = _labels(pos.heights)
    _conn[0] = conn
    q = pos.side
    if conn & (1 << q):
        return q  # E2 (a blocus: the mover linked both)
    if conn & (2 >> q):
        return q ^ 1  # E3
    if pos.common or pos.own[q]:
        return -1
    # E4: the side to move has no cube to place; in kv that loses, in xobo only when it has
    # no regroup (under Voina, V2) and no spread left either
    if pos.variant == "kv":
        return q ^ 1
    flags = 2 if threatens(pos, q ^ 1, False) else 0
    return -1 if _gen(pos.heights, _kvbuf(), flags) else q ^ 1


def threatens(pos, player, fresh=True):
    """V1: ``pos.threatens(player)``, natively for variant xobo: one labelling pass (skipped
    with ``fresh=False`` after ``winner`` or ``threatens`` on the same heights), then one
    pass over the empty cells. In variant kv a stack on the board may also threaten by a
    spread: each legal spread is tried on a copy of the heights."""
    h = pos.heights
    kv = pos.variant == "kv" and _has_stack(h)
    if fresh or kv:
        _conn[0] = _labels(h)
    conn = _conn[0]
    k = player * 2
    # a cube to place, the opponent not linked already (E2), and a Voina cell possible: it
    # sits between a component touching one edge and one touching the other (or the edge
    # itself), so they come within two ranks (files) of each other; or already linked
    if (
        (pos.common or pos.own[player])
        and not conn & (2 >> player)
        and (conn & (1 << player) or _reach[k + 1] - _reach[k] <= 2)
    ):
        pe = 3 if player == 0 else 12
        if _has_voina_cell(h, pe, 15 - pe, conn & (1 << player)):
            return True
    if kv:
        return _kv_spread_threat(pos, player, _kvbuf())
    return False


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


def has_stack(h):
    """A stack (h >= 3) on the board: a spread, and with it a capture (M3, M4), may come."""
    return _has_stack(h) != 0


def race_score(pos, d_me, d_opp, weight):
    """E4 reserve race for the side to move: ``weight`` when it places last, ``-weight`` when
    it runs out first, 0 while either side can still link its edges.

    Nobody can link when each distance is above the cubes that side still has to place (the
    opponent will not place on its path; a Voina, and with it a regroup, needs a distance
    of 1). Then every turn places one cube, from the common reserve first and then from
    one's own (M1), and the side that has none left at the start of its turn loses (E4): the
    mover, who places first, runs out first unless its supply is larger. Without own
    reserves that is the parity of the common reserve: the mover places last when it is odd.
    Only a capture changes the supplies (a spread of a stack over a single, M3, M4, which
    also skips a placement): while a spread is legal the race is only likely, a quarter of
    ``weight``; the search sees the capture itself."""
    me = pos.side
    s_me = supply(pos, me)
    s_opp = supply(pos, me ^ 1)
    if d_me <= s_me or d_opp <= s_opp:
        return 0
    if _gen(pos.heights, _kvbuf(), 0):
        weight = weight // 4  # a spread is legal: a capture can still change the supplies
    return weight if s_me > s_opp else -weight


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
