"""X's computer player: levels ``random``, ``greedy`` and ``search``, deterministic for a seed.

``greedy`` tries every empty cell and keeps the one that leaves the mover the most corners
(XS2), then a cell near the short diagonal and the centre of the rhombus (the far chains of
every corner run through them) touching the mover's own pieces (XB3); a hash of the seed
breaks ties.

``search`` looks one reply ahead, paranoid: it keeps greedy's best ``TOP`` cells and, for
each, lets the next player answer with its ``REPLIES`` most promising cells (the same static
score, from that player's side: no corner count, so it costs little); a cell is worth the
corners the mover still holds after the worst of those answers, less what the answerer then
holds, and greedy's value breaks ties. About 64 + TOP * REPLIES corner counts a move: a median
of a few milliseconds on the MicroPython unix port (tests/games/x/test_x_ai.py measures it).

Usage::

    from xobo.games.x import ai
    m = ai.choose_move(pos, "search", seed=3)   # a cell; pos is left as it was
"""

from xobo.games.x.rules import new_move_buffer, unique_max_player

LEVELS = ("random", "greedy", "search")
HINT_LEVEL = "search"
TOP = 4  # search: greedy's best cells looked at further
REPLIES = 4  # search: the next player's answers tried to each


class SearchCancelled(Exception):
    """poll() asked the computer to stop thinking."""


_buf = None
_nbuf = None
_rbuf = None


def release():
    """Drop the buffers (they are made again on the next move)."""
    global _buf, _nbuf, _rbuf
    _buf = None
    _nbuf = None
    _rbuf = None


def _buffers():
    global _buf, _nbuf, _rbuf
    if _buf is None:
        _buf = new_move_buffer()
        _nbuf = bytearray(6)
        _rbuf = new_move_buffer()
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
        return _greedy(pos, buf, n, nb, seed, poll, None)
    return _search(pos, buf, n, nb, seed, poll)


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


def _greedy(pos, buf, n, nb, seed, poll, top):
    """Greedy's best cell; with ``top`` (a list of TOP [value, move] pairs, best first) it
    also keeps the TOP best."""
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
        if top is not None and v > top[-1][0]:
            j = len(top) - 1
            while j > 0 and top[j - 1][0] < v:
                top[j][0] = top[j - 1][0]
                top[j][1] = top[j - 1][1]
                j -= 1
            top[j][0] = v
            top[j][1] = m
    return best


_chance = None  # _chance[me * 256 + key]: see _win_chance (255: not computed yet)
_sc = bytearray(3)


def _win_chance(pos, me):
    """In how many of 81 equally likely ways of sharing out the open corners ``me`` wins
    (XE2: the highest score nobody else has), the won corners staying with their owners.
    Maximising corners is not the goal: with 2-2-0 the player with none wins. Memoised
    on the four corners' owners (256 keys a player); no allocation once computed."""
    global _chance
    if _chance is None:
        _chance = bytearray(b"\xff" * 768)
    key = 0
    for k in range(4):
        o = pos.corner_owner(k)
        key = key * 4 + (o if o >= 0 else 3)
    v = _chance[me * 256 + key]
    if v == 255:
        v = _count_wins(key, me)
        _chance[me * 256 + key] = v
    return v


def _count_wins(key, me):
    owners = [(key >> (2 * (3 - k))) & 3 for k in range(4)]
    free = [k for k in range(4) if owners[k] == 3]
    ways = 3 ** len(free)
    won = 0
    for a in range(ways):
        sc = _sc
        sc[0] = sc[1] = sc[2] = 0
        x = a
        for k in range(4):
            o = owners[k]
            if o == 3:
                o = x % 3
                x //= 3
            sc[o] += 1
        if unique_max_player(sc) == me:
            won += 1
    return won * (81 // ways)


def _search(pos, buf, n, nb, seed, poll):
    """The paranoid one-reply look-ahead (module docstring)."""
    me = pos.side
    low = -(1 << 29)
    top = [[low, -1] for _ in range(TOP)]
    _greedy(pos, buf, n, nb, seed, poll, top)
    rbuf = _rbuf
    rv = [[low, -1] for _ in range(REPLIES)]
    best = top[0][1]
    best_v = low
    for t in range(TOP):
        m = top[t][1]
        if m < 0:
            break
        pos.apply(m)
        if pos.is_terminal():
            v = _win_chance(pos, me)
        else:
            him = pos.side
            nr = pos.legal_moves(rbuf)
            for j in range(REPLIES):
                rv[j][0] = low
                rv[j][1] = -1
            for i in range(nr):  # the answerer's most promising cells, by place alone
                r = rbuf[i]
                w = _static(pos, r, him, nb) * 1024 + _mix(seed + 1, pos.ply, r)
                if w > rv[-1][0]:
                    j = REPLIES - 1
                    while j > 0 and rv[j - 1][0] < w:
                        rv[j][0] = rv[j - 1][0]
                        rv[j][1] = rv[j - 1][1]
                        j -= 1
                    rv[j][0] = w
                    rv[j][1] = r
            v = 1 << 29
            for j in range(REPLIES):
                r = rv[j][1]
                if r < 0:
                    break
                if poll is not None and poll():
                    pos.undo()
                    raise SearchCancelled()
                pos.apply(r)
                w = _win_chance(pos, me)
                pos.undo()
                if w < v:
                    v = w
        pos.undo()
        v = v * 8 + (TOP - t)  # greedy's order breaks ties
        if v > best_v:
            best_v = v
            best = m
    return best
