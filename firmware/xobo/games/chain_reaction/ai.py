"""The computer player of Chain Reaction: ``random``, ``greedy`` and ``search``.

A move is one segment (docs/rules/chain-reaction.md CM1-CM4): the computer plays a whole
turn segment by segment, the board asking it again after each segment it committed. Each
answer looks at the rest of the turn from where it stands:

- ``random``: any legal segment, drawn by the seed;
- ``greedy``: the segment whose position is best by the evaluation, one segment ahead;
- ``search``: the best end of the whole turn: every sequence of the turn's remaining
  segments (up to five), cut at a node budget, the evaluation at the turn's end (which
  counts the tower the opponent would start with, CM4, as theirs to score with).

The evaluation, for player ``me``: the score difference (64 a point), every piece's
advance towards the goal row its owner attacks (2 a rank, a bottom piece too), and the tower
left standing: the player who moves it next gets 12, plus 40 a point of the best goal square
it reaches in one segment. A won game is worth +-WIN. The pieces' part is kept up to date
move by move (only the cells a segment changes are counted again), so a segment costs an
apply, an undo and a handful of table reads.

Budgets: ``search`` stops expanding after NODES segments (and at ``time_ms``); the board
asks ``poll()`` every POLL_EVERY segments and after each move list (True: SearchCancelled,
the position unchanged).

Usage::

    >>> from xobo.games.chain_reaction import ai
    >>> from xobo.games.chain_reaction.rules import Position
    >>> pos = Position()
    >>> m = ai.choose_move(pos, "search", seed=3)     # pos is not changed
    >>> pos.move_text(m)
    'd2-e3'
"""

from xobo.compat import const, ticks_diff, ticks_ms
from xobo.games.chain_reaction.rules import MAX_SEGMENTS, WIDTH, new_move_buffer

LEVELS = ("random", "greedy", "search")
HINT_LEVEL = "search"
MODULES = ("xobo.games.chain_reaction.ai",)

WIN = const(1000000)
POINT = const(64)
RANK = const(2)
TOWER_MOVE = const(12)
TOWER_POINT = const(40)
NODES = const(160)  # search: segments applied per answer (the Pico's budget, see below)
# a segment with its evaluation costs 5-12 ms on the emulated Pico: polled every 16, then every
# 4, a switch closed during the search was reported 117, then 51-57 ms later (target 50), the
# gaps between two polls up to 49 ms; now every segment, and again after each node's move list
# (the board's poll, Computer.poll, scans at most every 10 ms: a poll between two scans costs one
# ticks_ms())
POLL_EVERY = const(1)
_NONE = const(255)

_bufs = None  # one move buffer per segment of a turn, made at the first search
_adv = {}  # field -> bytearray(2 * n_cells): each player's advance on each cell


class SearchCancelled(Exception):
    """The caller's ``poll()`` returned True: no move (the position is unchanged)."""


def release():
    """Drop the buffers (the board calls it after each search on the device)."""
    global _bufs
    _bufs = None
    _adv.clear()


def _buffers():
    global _bufs
    if _bufs is None:
        _bufs = [new_move_buffer() for _ in range(MAX_SEGMENTS + 1)]
    return _bufs


def _advance(pos):
    """adv[p * n + c]: ranks player p's piece on field cell c has come from its own end."""
    t = _adv.get(pos.field)
    if t is None:
        n = pos.n_cells
        t = bytearray(2 * n)
        g = pos.geo
        for i in range(7 * pos.field):
            c = g.fi_cell[i]
            r = c // WIDTH  # 1 .. field
            t[c] = r - 1
            t[n + c] = pos.field - r
        _adv[pos.field] = t
    return t


def _cell_value(pos, adv, c, me):
    """The pieces on cell c, for ``me``: + own advance, - the opponent's."""
    if c == _NONE:
        return 0
    v = 0
    n = pos.n_cells
    t = pos.top[c]
    if t:
        v = adv[(t - 1) * n + c] if t - 1 == me else -adv[(t - 1) * n + c]
        b = pos.bot[c]
        if b:
            v += adv[(b - 1) * n + c] if b - 1 == me else -adv[(b - 1) * n + c]
    return v


def _pieces_value(pos, adv, me):
    g = pos.geo
    v = 0
    for i in range(7 * pos.field):
        v += _cell_value(pos, adv, g.fi_cell[i], me)
    return v


def _cells_value(pos, adv, me):
    """The pieces' value of the cells the last apply / next apply changes (pos.changed_cells)."""
    mc = pos.changed_cells
    return (_cell_value(pos, adv, mc[0], me) + _cell_value(pos, adv, mc[1], me)
            + _cell_value(pos, adv, mc[2], me) + _cell_value(pos, adv, mc[3], me))


def _tower_value(pos, me):
    """The standing tower, worth most to whoever moves it next (the side to move: at the
    end of a turn a tower is the opponent's, CE1): 12, plus 40 a point of the best goal
    square it scores on in one segment."""
    t = pos.tower
    if t < 0:
        return 0
    g = pos.geo
    nb = g.nb
    q = pos.side
    best = 0
    for d in range(8):
        s1 = nb[t * 8 + d]
        if s1 == _NONE or g.cell_fi[s1] == _NONE:
            continue
        s2 = nb[s1 * 8 + d]
        if s2 == _NONE:
            continue
        r = s2 // WIDTH
        if (r == 0 and q == 1) or (r == pos.field + 1 and q == 0):
            v = 2 if s2 % WIDTH == 4 else 1
            if 1 <= s2 % WIDTH <= 7 and v > best:
                best = v
    v = TOWER_MOVE + TOWER_POINT * best
    return v if q == me else -v


def _value(pos, pieces, me):
    w = pos.winner()
    if w >= 0:
        return WIN if w == me else -WIN
    return ((pos.score[me] - pos.score[me ^ 1]) * POINT + pieces * RANK
            + _tower_value(pos, me))


def _rng(seed, pos):
    """A seeded generator that also depends on the position (a parsed position draws like a
    played one)."""
    x = (seed * 7919 + pos.side * 31 + pos.seg * 7 + pos.score[0] * 3 + pos.score[1]) \
        & 0x7FFFFFFF
    g = pos.geo
    for i in range(7 * pos.field):
        c = g.fi_cell[i]
        x = (x * 3 + pos.top[c] + 4 * pos.bot[c]) & 0x7FFFFFFF
    return [x]


def _below(state, n):
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return (state[0] >> 8) % n


class _Search:
    def __init__(self, pos, me, adv, poll, time_ms, nodes):
        self.pos = pos
        self.me = me
        self.adv = adv
        self.poll = poll
        self.time_ms = time_ms
        self.start = ticks_ms()
        self.nodes = 0
        self.budget = nodes
        self.bufs = _buffers()

    def _tick(self):
        self.nodes += 1
        if self.nodes % POLL_EVERY == 0:
            if self.poll is not None and self.poll():
                raise SearchCancelled()
            if self.time_ms is not None and ticks_diff(ticks_ms(), self.start) > self.time_ms:
                self.budget = 0  # out of time: every node left is a leaf

    def child(self, m, pieces):
        """Apply m; returns the pieces' value after it (the caller undoes)."""
        pos = self.pos
        pos.move_cells(m)
        before = _cells_value(pos, self.adv, self.me)
        pos.apply(m)
        self._tick()
        return pieces - before + _cells_value(pos, self.adv, self.me)

    def turn(self, pieces, depth):
        """The best value ``me`` reaches by the end of its turn from here."""
        pos = self.pos
        if pos.side != self.me or depth >= MAX_SEGMENTS or self.nodes >= self.budget \
                or pos.winner() >= 0:
            return _value(pos, pieces, self.me)
        buf = self.bufs[depth]
        n = pos.legal_moves(buf)
        if self.poll is not None and self.poll():
            raise SearchCancelled()
        best = -WIN - 1
        for i in range(n):
            v = self.turn(self.child(buf[i], pieces), depth + 1)
            pos.undo()
            if v > best:
                best = v
        return best


def choose_move(position, level="search", seed=0, time_ms=1800, poll=None):
    """The segment the computer plays for the side to move; ``position`` is not changed.
    Raises ValueError for an unknown level or a finished game, SearchCancelled when
    ``poll()`` returns True."""
    if level not in LEVELS:
        raise ValueError("unknown level '%s': use one of %s" % (level, ", ".join(LEVELS)))
    if poll is not None and poll():
        raise SearchCancelled()
    pos = position.clone()
    bufs = _buffers()
    root = bufs[MAX_SEGMENTS]
    n = pos.legal_moves(root)
    if n == 0:
        raise ValueError("the game is over: there is no segment to choose")
    rng = _rng(seed, pos)
    if level == "random" or n == 1:
        return root[_below(rng, n)]
    # the clone, the buffers (made at the first search), the move list, the advance table
    # and the pieces' value: 33-44 ms on the emulated Pico together, polled in between
    if poll is not None and poll():
        raise SearchCancelled()
    me = pos.side
    adv = _advance(pos)
    if poll is not None and poll():
        raise SearchCancelled()
    pieces = _pieces_value(pos, adv, me)
    search = _Search(pos, me, adv, poll, time_ms, NODES if level == "search" else 0)
    best = -WIN - 1
    count = 0
    pick = root[0]
    for i in range(n):
        m = root[i]
        after = search.child(m, pieces)
        if level == "greedy":
            v = _value(pos, after, me)
        else:
            v = search.turn(after, pos.seg if pos.side == me else MAX_SEGMENTS)
        pos.undo()
        if v > best:
            best = v
            count = 1
            pick = m
        elif v == best:
            # ties drawn evenly by the seed (reservoir sampling: no list)
            count += 1
            if _below(rng, count) == 0:
                pick = m
    return pick


def hint(position, seed=0, level=HINT_LEVEL, poll=None):
    """The segment the computer suggests for the side to move."""
    return choose_move(position, level=level, seed=seed, poll=poll)
