"""X's computer player: levels ``random`` and ``greedy``, deterministic for a seed.

``greedy`` tries every empty cell and keeps the one that leaves the mover the most corners
(XS2), then a cell near the short diagonal and the centre of the rhombus (the far chains of
every corner run through them) touching the mover's own pieces (XB3); a hash of the seed
breaks ties. It does not search: a searching level is still to come.

Usage::

    from xobo.games.x import ai
    m = ai.choose_move(pos, "greedy", seed=3)   # a cell; pos is left as it was
"""

from xobo.games.x.rules import new_move_buffer

LEVELS = ("random", "greedy")
HINT_LEVEL = "greedy"


class SearchCancelled(Exception):
    """poll() asked the computer to stop thinking."""


_buf = None
_nbuf = None


def release():
    """Drop the buffers (they are made again on the next move)."""
    global _buf, _nbuf
    _buf = None
    _nbuf = None


def _buffers():
    global _buf, _nbuf
    if _buf is None:
        _buf = new_move_buffer()
        _nbuf = bytearray(6)
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
    me = pos.side
    size = pos.size
    own = pos.owner
    best = -1
    best_v = -(1 << 29)
    for i in range(n):
        if poll is not None and poll():
            raise SearchCancelled()
        m = buf[i]
        pos.apply(m)
        v = _value(pos, me) * 64
        pos.undo()
        r = m // size
        q = m - r * size
        # distance from the short diagonal q + r = n - 1 and from the centre
        v -= 6 * abs(q + r - (size - 1)) + 3 * abs(q - r)
        k = pos.neighbours(m, nb)
        for j in range(k):
            c = own[nb[j]]
            if c == me + 1:
                v += 8
            elif c:
                v += 2
        v = v * 1024 + _mix(seed, pos.ply, m)
        if v > best_v:
            best_v = v
            best = m
    return best
