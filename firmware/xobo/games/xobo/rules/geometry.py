"""Board geometry (rules B1-B4): cells, names, directions, rays, neighbours and edges.

All tables are built once at import as flat byte strings (``RAY_CELLS``, ``NEIGHBOUR_CELLS``,
``REACH``...), so the hot paths only index them and the Pico keeps them in 6 KB.

Usage::

    from xobo.games.xobo.rules.geometry import parse_cell, cell_name, ray, NE, maxreach
    c = parse_cell("e5")          # 40
    cell_name(ray(c, NE)[0])      # "f6"
    maxreach(c)                   # 4
"""

from xobo.compat import const
from xobo.errors import MoveError

SIZE = const(9)
N_CELLS = const(81)

NS = const(0)
EW = const(1)
PLAYER_NAMES = ("ns", "ew")

# B4 directions, clockwise from North
N = const(0)
NE = const(1)
E = const(2)
SE = const(3)
S = const(4)
SW = const(5)
W = const(6)
NW = const(7)
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# (file step, rank step)
DIR_DF = (0, 1, 1, 1, 0, -1, -1, -1)
DIR_DR = (1, 1, 0, -1, -1, -1, 0, 1)
OPPOSITE = (4, 5, 6, 7, 0, 1, 2, 3)

# B2 edge flags
EDGE_N = const(1)
EDGE_S = const(2)
EDGE_E = const(4)
EDGE_W = const(8)
PLAYER_EDGES = (EDGE_N | EDGE_S, EDGE_E | EDGE_W)

FILES = "abcdefghi"


def cell_file(c):
    return c % 9


def cell_rank(c):
    return c // 9


def cell_name(c):
    return FILES[c % 9] + str(c // 9 + 1)


def parse_cell(text):
    """'e5' -> 40. Raises MoveError saying what is wrong."""
    if len(text) != 2:
        raise MoveError("'%s' is not a cell: a cell is a file a-i and a rank 1-9, like e5" % text)
    f = FILES.find(text[0].lower())
    r = ord(text[1]) - 49
    if f < 0:
        raise MoveError("'%s' is not a cell: file '%s' is not one of a-i" % (text, text[0]))
    if r < 0 or r > 8:
        raise MoveError("'%s' is not a cell: rank '%s' is not one of 1-9" % (text, text[1]))
    return r * 9 + f


def _build():
    # flat byte tables: the Pico's heap has no room for 648 ray tuples (about 20 KB there)
    rays = bytearray(N_CELLS * 64)
    reach = bytearray(N_CELLS * 8)
    maxr = bytearray(N_CELLS)
    neigh = bytearray(N_CELLS * 8)
    nneigh = bytearray(N_CELLS)
    edges = bytearray(N_CELLS)
    for c in range(N_CELLS):
        f, r = c % 9, c // 9
        best = 0
        for d in range(8):
            n = 0
            ff, rr = f + DIR_DF[d], r + DIR_DR[d]
            while 0 <= ff < 9 and 0 <= rr < 9:
                rays[(c * 8 + d) * 8 + n] = rr * 9 + ff
                n += 1
                ff += DIR_DF[d]
                rr += DIR_DR[d]
            reach[c * 8 + d] = n
            if n > best:
                best = n
            ff, rr = f + DIR_DF[d], r + DIR_DR[d]
            if 0 <= ff < 9 and 0 <= rr < 9:
                neigh[c * 8 + nneigh[c]] = rr * 9 + ff
                nneigh[c] += 1
        maxr[c] = best
        flags = 0
        if r == 8:
            flags |= EDGE_N
        if r == 0:
            flags |= EDGE_S
        if f == 8:
            flags |= EDGE_E
        if f == 0:
            flags |= EDGE_W
        edges[c] = flags
    return bytes(rays), bytes(reach), bytes(maxr), bytes(neigh), bytes(nneigh), bytes(edges)


# RAY_CELLS[(c * 8 + d) * 8 + k]: the k-th cell from c in direction d, for k < REACH[c * 8 + d]
# NEIGHBOUR_CELLS[c * 8 + j]: the j-th neighbour of c (B3), for j < NEIGHBOUR_COUNT[c]
RAY_CELLS, REACH, MAXREACH, NEIGHBOUR_CELLS, NEIGHBOUR_COUNT, EDGES = _build()
del _build  # run once: its code need not stay in RAM


def ray(c, d):
    """The cells from c (excluded) to the border in direction d, nearest first (a new tuple:
    hot paths index RAY_CELLS instead)."""
    i = c * 8 + d
    return tuple(RAY_CELLS[i * 8 + k] for k in range(REACH[i]))


def neighbours(c):
    """The cells next to c (B3), as a new tuple (hot paths index NEIGHBOUR_CELLS)."""
    return tuple(NEIGHBOUR_CELLS[c * 8 + j] for j in range(NEIGHBOUR_COUNT[c]))


def reach(c, d):
    return REACH[c * 8 + d]


def maxreach(c):
    return MAXREACH[c]


def step(c, d):
    """The cell next to c in direction d, or -1 off the board."""
    i = c * 8 + d
    return RAY_CELLS[i * 8] if REACH[i] else -1


def direction_between(a, b):
    """The direction d with b on ray(a, d), or -1 when a and b are not on one line."""
    if a == b:
        return -1
    df = b % 9 - a % 9
    dr = b // 9 - a // 9
    if df != 0 and dr != 0 and df != dr and df != -dr:
        return -1
    sf = (df > 0) - (df < 0)
    sr = (dr > 0) - (dr < 0)
    for d in range(8):
        if DIR_DF[d] == sf and DIR_DR[d] == sr:
            return d
    return -1
