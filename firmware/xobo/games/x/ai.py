"""X's computer player: levels ``random``, ``greedy`` and ``search``, deterministic for a seed.

``greedy`` tries every empty cell and keeps the one that leaves the mover the most corners
(XS2), then a cell near the short diagonal and the centre of the rhombus (the far chains of
every corner run through them) touching the mover's own pieces (XB3); a hash of the seed
breaks ties.

``search`` is Monte-Carlo: FILLS random playouts to the end, each a random share-out of the
empty cells in turn order (XE1: the corners of a full board do not depend on the order the
cells were filled in); the cell with the best win rate over the fills in which the mover got
it (all moves as first), greedy's place score and the seed breaking ties. Each playout is
scored by the game's own goal (XE2: a win, not corners: with 2-2-0 the player with none wins),
for the mover alone: every player of the playout plays at random, the max-n view. The fills
are viper kernels that allocate nothing: about 9 ms for the first move (64 empty cells) on the
MicroPython unix port, 2 ms the median move (docs/ai.md: X).

Usage::

    >>> from xobo.games.x import ai
    >>> from xobo.games.x.rules import Position
    >>> pos = Position(8)
    >>> m = ai.choose_move(pos, "search", seed=3)   # a cell; pos is left as it was
    >>> pos.move_text(m)
    'h1'
"""

import array

from xobo.compat import IS_MICROPYTHON, const, micropython, ptr8, ptr16, ticks_diff, ticks_ms
from xobo.games.x.rules import geometry, new_move_buffer

LEVELS = ("random", "greedy", "search")
HINT_LEVEL = "search"
NATIVE = True  # viper kernels: kept where a port cannot unload native code (xobo.compat)


class SearchCancelled(Exception):
    """poll() asked the computer to stop thinking."""


_buf = None
_nbuf = None


def release():
    """Drop the move buffers (they are made again on the next move; the fills' own 0.8 KB of
    scratch stays)."""
    global _buf, _nbuf
    _buf = None
    _nbuf = None


def _buffers():
    global _buf, _nbuf
    if _buf is None:  # both made before either is kept (out of memory between: neither)
        buf = new_move_buffer()
        nbuf = bytearray(6)
        _nbuf = nbuf
        _buf = buf
    return _buf, _nbuf


def _mix(seed, ply, salt):
    """A small deterministic hash: the tie-break of move ``salt`` at ``ply`` for ``seed``."""
    x = (seed * 1000003 + ply * 7919 + salt * 104729 + 12345) & 0x3FFFFFFF
    x = (x * 1103515245 + 12345) & 0x3FFFFFFF
    return (x >> 10) & 1023


def _value(pos, me):
    """How good the position is for ``me``: the corners won (XS2)."""
    v = 0
    for k in range(4):
        o = pos.corner_owner(k)
        if o == me:
            v += 1000
    return v


def choose_move(pos, level="greedy", seed=0, time_ms=1800, poll=None):
    """A legal move for the side to move at ``level``; ``pos`` is restored exactly."""
    if level not in LEVELS:
        raise ValueError("unknown level '%s': use %s" % (level, ", ".join(LEVELS)))
    buf, nb = _buffers()
    n = pos.legal_moves(buf)
    if n == 0:
        raise ValueError("no legal move: the board is full")
    if poll is not None and poll():  # a button: the board answers it first (every level)
        raise SearchCancelled()
    if level == "random":
        return buf[_mix(seed, pos.ply, 0) * n // 1024]
    if level == "greedy":
        return _greedy(pos, buf, n, nb, seed, poll)
    return _search(pos, buf, n, seed, poll, time_ms)


def _static(pos, m, me, nb):
    """Where cell m is, for ``me``: near the short diagonal and the centre, touching own
    pieces (more) and others' (less). No corner count, no allocation."""
    size = pos.size
    own = pos.owner
    r = m // size
    q = m - r * size
    v = -6 * abs(q + r - (size - 1)) - 3 * abs(q - r)
    k = pos.neighbours(m, nb)
    for j in range(k):
        c = own[nb[j]]
        if c == me + 1:
            v += 8
        elif c:
            v += 2
    return v


def _greedy(pos, buf, n, nb, seed, poll):
    """Greedy's best cell: the most corners for the mover after it, then its place."""
    me = pos.side
    best = -1
    best_v = -(1 << 29)
    for i in range(n):
        if poll is not None and poll():
            raise SearchCancelled()
        m = buf[i]
        pos.apply(m)
        v = _value(pos, me) * 64
        pos.undo()
        v = (v + _static(pos, m, me, nb)) * 1024 + _mix(seed, pos.ply, m)
        if v > best_v:
            best_v = v
            best = m
    return best


# ------------------------------------------------------------ search: Monte-Carlo fills

# The game ends when the board is full (XE1) and the corners of a full board do not depend on
# the order the cells were filled in: a random playout to the end is a random share-out of
# the empty cells, the mover's third first. One playout therefore says something about every
# empty cell at once ("all moves as first"): for each cell the mover got, did the mover win?
# ``search`` plays the cell with the best such win rate. The kernels below allocate nothing
# and are viper code on MicroPython (plain Python on CPython: the same numbers).

FILLS = const(600)  # search: random fills a move (the node budget; time_ms bounds it too)
_CELLS = const(81)  # the largest board (XB1: n <= 9)

_board = bytearray(_CELLS)  # the filled board (0 empty, 1 + player)
_emp = bytearray(_CELLS)  # the empty cells, shuffled in place by every fill
_lab = bytearray(_CELLS)  # group label of each cell
_gfl = bytearray(_CELLS + 1)  # edge flags of group k: 1 South, 2 West, 4 North, 8 East
_stk = bytearray(_CELLS)  # flood stack
_sc = bytearray(4)  # corners per player, and the winner
_rs = bytearray(4)  # the 30-bit xorshift state, little-endian
_wins = array.array("H", bytes(2 * _CELLS))  # fills the mover won holding cell c
_held = array.array("H", bytes(2 * _CELLS))  # fills in which the mover held cell c


@micropython.viper
def _fill(own: ptr8, ne: int, side: int, n: int) -> int:
    """One random playout to the end: the ``ne`` empty cells of ``_emp`` shuffled and handed
    out in turn from ``side`` into ``_board`` (a copy of ``own``); returns the winner of the
    full board (XS2, XE2), -1 if none (never on a full board)."""
    b = ptr8(_board)
    e = ptr8(_emp)
    rs = ptr8(_rs)
    nc = n * n
    for c in range(nc):
        b[c] = own[c]
    # the 30-bit xorshift kept in _rs (every value below 2**30: the same numbers on both
    # runtimes, never a big int)
    x = rs[0] | (rs[1] << 8) | (rs[2] << 16) | (rs[3] << 24)
    p = side
    i = ne - 1
    while i >= 0:  # Fisher-Yates from the end; cell i goes to the (ne-1-i)-th mover
        x ^= (x & 0x7FFFFF) << 7
        x ^= x >> 9
        x ^= (x & 0x3FFFF) << 12
        x ^= x >> 17
        j = ((x & 0xFFFF) * (i + 1)) >> 16
        c = e[j]
        e[j] = e[i]
        e[i] = c
        b[c] = p + 1
        p += 1
        if p == 3:
            p = 0
        i -= 1
    rs[0] = x & 255
    rs[1] = (x >> 8) & 255
    rs[2] = (x >> 16) & 255
    rs[3] = (x >> 24) & 255
    return int(_full_winner(n))


@micropython.viper
def _full_winner(n: int) -> int:
    """The winner of the full board in ``_board``: groups (XS1) with their edge flags, each
    corner to the candidate farthest along its edge A (XS2), the unique highest score (XE2)."""
    b = ptr8(_board)
    lab = ptr8(_lab)
    gf = ptr8(_gfl)
    st = ptr8(_stk)
    nb = ptr8(_NB)
    nbc = ptr8(_NBC)
    ef = ptr8(_EF)
    sc = ptr8(_sc)
    nc = n * n
    last = n - 1
    for c in range(nc):
        lab[c] = 0
    k = 0
    for c0 in range(nc):
        if lab[c0]:
            continue
        col = b[c0]
        k += 1
        fl = 0
        lab[c0] = k
        st[0] = c0
        sp = 1
        while sp:
            sp -= 1
            x = st[sp]
            fl |= ef[x]
            base = 6 * x
            for j in range(base, base + nbc[x]):
                y = nb[j]
                if b[y] == col and not lab[y]:
                    lab[y] = k
                    st[sp] = y
                    sp += 1
        gf[k] = fl
    sc[0] = 0
    sc[1] = 0
    sc[2] = 0
    top = last * n
    # SW: along South from the far end, the first cell whose group touches West
    q = last
    while not (gf[lab[q]] & 2):
        q -= 1
    sc[b[q] - 1] += 1
    q = 0  # SE: along South from the West end, the first touching East
    while not (gf[lab[q]] & 8):
        q += 1
    sc[b[q] - 1] += 1
    q = last  # NW: along North from the far end, touching West
    while not (gf[lab[top + q]] & 2):
        q -= 1
    sc[b[top + q] - 1] += 1
    q = 0  # NE: along North from the West end, touching East
    while not (gf[lab[top + q]] & 8):
        q += 1
    sc[b[top + q] - 1] += 1
    a = int(sc[0])
    y = int(sc[1])
    g = int(sc[2])
    if a != y and a != g and (a > y or y == g) and (a > g or y == g):
        return 0
    if y != a and y != g and (y > a or a == g) and (y > g or a == g):
        return 1
    if g != a and g != y and (g > a or a == y) and (g > y or a == y):
        return 2
    return -1


@micropython.viper
def _count(ne: int, side: int, w: int):
    """Adds one fill to the statistics: each cell the mover got (every third from the end of
    ``_emp``) is held once more, and won once more when the mover won."""
    e = ptr8(_emp)
    held = ptr16(_held)
    wins = ptr16(_wins)
    won = 1 if w == side else 0
    i = ne - 1
    while i >= 0:
        c = e[i]
        held[c] += 1
        wins[c] += won
        i -= 3


_NB = b""
_NBC = b""
_EF = bytearray(_CELLS)  # the edges each cell lies on: 1 South, 2 West, 4 North, 8 East
_nb_size = 0


def _geometry(n):
    global _NB, _NBC, _nb_size
    if _nb_size != n:
        _NB, _NBC = geometry(n)
        last = n - 1
        for c in range(n * n):
            r = c // n
            q = c - r * n
            _EF[c] = (r == 0) | (q == 0) << 1 | (r == last) << 2 | (q == last) << 3
        _nb_size = n


def _search(pos, buf, n, seed, poll, time_ms):
    """Monte-Carlo: FILLS random fills of the empty cells; the cell with the best win rate
    when the mover holds it (ties: the static place score, then the seed's hash)."""
    size = pos.size
    _geometry(size)
    me = pos.side
    emp = _emp
    held = _held
    wins = _wins
    for i in range(n):
        emp[i] = buf[i]
        held[buf[i]] = 0
        wins[buf[i]] = 0
    x = (seed * 7919 + pos.ply * 104729 + 0x2545F49) & 0x3FFFFFFF
    x = x or 0x1234567
    rs = _rs
    rs[0] = x & 255
    rs[1] = (x >> 8) & 255
    rs[2] = (x >> 16) & 255
    rs[3] = (x >> 24) & 255
    own = pos.owner
    start = ticks_ms()
    # the time bound is the Pico's safety net; on CPython (the simulator, tests, matches) the
    # fills alone decide, so that a busy desktop never changes a move
    bounded = time_ms is not None and IS_MICROPYTHON
    for f in range(FILLS):
        if poll is not None and poll():
            raise SearchCancelled()
        if bounded and (f & 15) == 15 and ticks_diff(ticks_ms(), start) > time_ms:
            break
        w = _fill(own, n, me, size)
        _count(n, me, w)
    nb = _nbuf
    best = buf[0]
    best_v = -(1 << 29)
    for i in range(n):
        m = buf[i]
        h = held[m]
        # the win rate, in 1/1024ths, with one won and one lost fill as a prior
        v = ((wins[m] + 1) * 1024 // (h + 2)) * 4096 + (_static(pos, m, me, nb) + 512) * 4 \
            + (_mix(seed, pos.ply, m) & 3)
        if v > best_v:
            best_v = v
            best = m
    return best
